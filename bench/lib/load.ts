/** A typed wrapper around autocannon's programmatic API (the package ships no type declarations). */
import { createRequire } from 'node:module';
import type { RequestSpec } from './types.js';

interface Histogram {
  average: number;
  mean: number;
  stddev: number;
  min: number;
  max: number;
  total: number;
  p50: number;
  p90: number;
  p99: number;
  [key: string]: number;
}

/** The part of autocannon's result the harness uses. */
export interface AutocannonResult {
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  '2xx': number;
  '4xx': number;
  '5xx': number;
  statusCodeStats: Record<string, { count: number }>;
  latency: Histogram & { totalCount: number };
  requests: Histogram & { sent: number };
  throughput: Histogram;
}

interface AutocannonRequest {
  setupRequest?: (req: Record<string, unknown>) => Record<string, unknown>;
}

interface AutocannonOptions {
  url: string;
  requests?: AutocannonRequest[];
  method: string;
  headers: Record<string, string>;
  body?: string;
  connections: number;
  duration: number;
  pipelining: number;
  timeout: number;
}

interface Tracker {
  stop(): void;
}

type Autocannon = (opts: AutocannonOptions, cb: (err: Error | null, result: AutocannonResult) => void) => Tracker;

const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

/** The wire form of a case's request: the body serialised, content-type filled in for JSON. */
export interface WireRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export function toWire(spec: RequestSpec): WireRequest {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(spec.headers ?? {})) headers[k.toLowerCase()] = v;
  if (spec.body === undefined) return { method: spec.method, path: spec.path, headers };
  if (typeof spec.body === 'string') return { method: spec.method, path: spec.path, headers, body: spec.body };
  headers['content-type'] ??= 'application/json';
  return { method: spec.method, path: spec.path, headers, body: JSON.stringify(spec.body) };
}

let current: Tracker | null = null;

/** A request mix on the wire: the sequence, and where the next request is taken from. */
export interface WireMix {
  sequence: WireRequest[];
  /** Shared by every connection; kept between runs so a measurement continues after its warm-up. */
  cursor: { next: number };
}

/**
 * Fires `req` at `baseUrl` with `connections` keep-alive connections for `seconds`; for a mix,
 * every connection takes the next request of the sequence.
 */
export function runLoad(baseUrl: string, req: WireRequest | WireMix, connections: number, seconds: number) {
  const first = 'sequence' in req ? (req.sequence[0] as WireRequest) : req;
  const mixed =
    'sequence' in req
      ? {
          requests: [
            {
              setupRequest: (r: Record<string, unknown>) => {
                const next = req.sequence[req.cursor.next++ % req.sequence.length] as WireRequest;
                return { ...r, method: next.method, path: next.path, headers: next.headers, body: next.body ?? '' };
              },
            },
          ],
        }
      : {};
  return new Promise<AutocannonResult>((resolve, reject) => {
    current = autocannon(
      {
        url: baseUrl + first.path,
        method: first.method,
        headers: first.headers,
        ...(first.body !== undefined ? { body: first.body } : {}),
        ...mixed,
        connections,
        duration: seconds,
        pipelining: 1,
        timeout: 10,
      },
      (err, result) => {
        current = null;
        if (err) reject(err);
        else resolve(result);
      },
    );
  });
}

/** Ends the running load early (Ctrl-C); its promise still resolves with what was measured. */
export function stopLoad(): void {
  current?.stop();
}
