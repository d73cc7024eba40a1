import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const SAFE = /^[A-Za-z0-9._:-]{1,64}$/;

/** Keeps a well-formed incoming x-request-id (for tracing across proxies), else makes one. */
export function genRequestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  if (typeof incoming === 'string' && SAFE.test(incoming)) return incoming;
  return randomUUID();
}
