/**
 * The port of a service on the embedded database (PGlite), from the first moment: a first start
 * creates the database cluster (initdb in WebAssembly, several seconds), so the process listens at
 * once with plain `node:http` and keeps that server for its whole life.
 *
 * While starting, `GET /health` (liveness: the process is up) answers 200 and `GET /ready` a 503
 * problem `starting` with `Retry-After`; every other request is held, not refused, and handed to
 * the app as soon as it is ready (database open, migrations applied, demo seeded). From then on
 * every request goes through the app's own handler (`fastify.routing`, the handler Fastify
 * gives its own server), so a client that saw /health answer never gets a wrong answer: at worst
 * a slower one.
 */

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface StartingServer {
  /** The port actually bound (PORT=0 picks a free one). */
  port: number;
  /** Hands the port to the app: the held requests first, then every later one. */
  serve(handler: Handler): void;
  close(): Promise<void>;
}

/** Fastify's default keep-alive timeout, so idle connections live as long as under `listen`. */
const KEEP_ALIVE_MS = 72_000;

export async function listenWhileStarting(port: number, host: string, role: string): Promise<StartingServer> {
  let handler: Handler | null = null;
  const held: Array<[IncomingMessage, ServerResponse]> = [];
  const server: Server = createServer((req, res) => {
    if (handler) {
      handler(req, res);
      return;
    }
    const path = (req.url ?? '/').split('?')[0]?.replace(/\/+$/, '') || '/';
    if (req.method === 'GET' && path === '/health') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ status: 'ok', role }));
      return;
    }
    if (req.method === 'GET' && path === '/ready') {
      res.writeHead(503, { 'content-type': 'application/problem+json; charset=utf-8', 'retry-after': '2' });
      res.end(
        JSON.stringify({
          type: '/problems/starting',
          title: 'Service Unavailable',
          status: 503,
          detail: 'The service is starting (opening the database); other requests wait for it',
          code: 'starting',
        }),
      );
      return;
    }
    held.push([req, res]);
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => done());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    serve(next) {
      handler = next;
      for (const [req, res] of held.splice(0)) {
        if (!res.destroyed) next(req, res);
      }
    },
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections();
      }),
  };
}
