/**
 * What the port answers while the service starts on the embedded database (PGlite): a first
 * start creates the database cluster (initdb in WebAssembly, several seconds), so the process
 * listens at once with plain `node:http`. `GET /health` (liveness: the process is up) answers
 * 200 as it will afterwards; `/ready` and every other request get a 503 problem `starting` with
 * `Retry-After` until the app — database open, migrations applied, demo seeded — takes the port
 * over (`close`, then the app listens on the same port).
 */

import { createServer } from 'node:http';

export interface StartingServer {
  /** The port actually bound (PORT=0 picks a free one, which the app then takes over). */
  port: number;
  close(): Promise<void>;
}

export async function listenWhileStarting(port: number, host: string, role: string): Promise<StartingServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]?.replace(/\/+$/, '') || '/';
    res.setHeader('connection', 'close');
    if (req.method === 'GET' && path === '/health') {
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ status: 'ok', role }));
      return;
    }
    res.writeHead(503, { 'content-type': 'application/problem+json; charset=utf-8', 'retry-after': '2' });
    res.end(
      JSON.stringify({
        type: '/problems/starting',
        title: 'Service Unavailable',
        status: 503,
        detail: 'The service is starting (opening the database); retry shortly',
        code: 'starting',
      }),
    );
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => done());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}
