/**
 * A local stand-in for the Stripe API (STRIPE_API_BASE) that behaves like Stripe on idempotency:
 * a POST with an `Idempotency-Key` stores (key → hash of method, path and body; the answer) and
 * - the same key with a different request answers 400 `idempotency_error`, as Stripe does;
 * - the same key with the same request replays the stored answer (`Idempotent-Replayed: true`)
 *   without running the handler again.
 * Like Stripe, a request refused before it ran (a 4xx) stores nothing; a 2xx or 5xx is stored.
 * `forgetKeys()` stands for Stripe's 24-hour window passing. Every request is recorded with the
 * `Stripe-Version` it carried.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  /** The path without the query. */
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
  stripeVersion: string | undefined;
  /** Answered from the idempotency store (or refused by it) without running the handler. */
  replayed: boolean;
}

export type StubHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  body: URLSearchParams,
  path: string,
) => void | Promise<void>;

interface Stored {
  hash: string;
  status: number;
  body: string;
}

export interface StripeStub {
  url: string;
  requests: StubRequest[];
  /** Forgets every stored idempotency key (Stripe keeps them for 24 hours). */
  forgetKeys(): void;
  /**
   * Loses the answers of the next `n` POSTs to `path` (created, or replayed, then the connection is
   * dropped before the answer): the caller cannot know whether Stripe made the object.
   */
  dropAnswers(path: string, n: number): void;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => {
      data += String(c);
    });
    req.on('end', () => resolve(data));
  });

export async function startStripeStub(handler: StubHandler): Promise<StripeStub> {
  const keys = new Map<string, Stored>();
  const drops = new Map<string, number>();
  const requests: StubRequest[] = [];

  /** Consumes one dropped answer of `path`, if any is due. */
  const dropDue = (path: string) => {
    const n = drops.get(path) ?? 0;
    if (n > 0) drops.set(path, n - 1);
    return n > 0;
  };

  const server: Server = createServer(async (req, res) => {
    const raw = await readBody(req);
    const path = (req.url ?? '').split('?')[0] as string;
    const key = req.method === 'POST' ? (req.headers['idempotency-key'] as string | undefined) : undefined;
    const record: StubRequest = {
      method: req.method ?? '',
      path,
      body: new URLSearchParams(raw),
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      stripeVersion: req.headers['stripe-version'] as string | undefined,
      replayed: false,
    };
    requests.push(record);
    const hash = createHash('sha256').update(`${req.method} ${path}\n${raw}`).digest('hex');
    const stored = key ? keys.get(key) : undefined;
    if (stored) {
      record.replayed = true;
      if (stored.hash !== hash) {
        res.writeHead(400, { 'content-type': 'application/json', 'request-id': 'req_stub' });
        res.end(
          JSON.stringify({
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          }),
        );
        return;
      }
      if (req.method === 'POST' && dropDue(path)) {
        res.socket?.destroy();
        return;
      }
      res.writeHead(stored.status, {
        'content-type': 'application/json',
        'request-id': 'req_stub',
        'idempotent-replayed': 'true',
      });
      res.end(stored.body);
      return;
    }
    if (key) {
      // capture the handler's answer to store it under the key
      let status = 200;
      const writeHead = res.writeHead.bind(res) as (...a: unknown[]) => ServerResponse;
      res.writeHead = ((code: number, ...rest: unknown[]) => {
        status = code;
        return writeHead(code, ...rest);
      }) as typeof res.writeHead;
      const end = res.end.bind(res) as (...a: unknown[]) => ServerResponse;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (status < 400 || status >= 500) keys.set(key, { hash, status, body: chunk == null ? '' : String(chunk) });
        if (dropDue(path)) {
          res.socket?.destroy();
          return res;
        }
        return end(chunk, ...rest);
      }) as typeof res.end;
    }
    await handler(req, res, record.body, path);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    forgetKeys: () => keys.clear(),
    dropAnswers: (path, n) => {
      drops.set(path, n);
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
