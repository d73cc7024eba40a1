/**
 * A local stand-in for the EU VIES REST service (`POST /check-vat-number`), for tests: numbers in
 * `valid` are valid, `down` answers like VIES during an outage (503 MS_UNAVAILABLE), `drop`
 * closes the connection without an answer, anything else is invalid. Records every request.
 */
import { createServer, type Server } from 'node:http';

export interface ViesStub {
  url: string;
  /** The numbers (prefix included) VIES finds valid; a test may add some. */
  valid: string[];
  requests: { countryCode: string; vatNumber: string }[];
  /** When true every request is answered 503 (the service is down). */
  down: boolean;
  /** When true every connection is dropped without an answer (network failure). */
  drop: boolean;
  close(): Promise<void>;
}

export async function startViesStub(valid: string[]): Promise<ViesStub> {
  const stub: ViesStub = { url: '', valid, requests: [], down: false, drop: false, close: async () => {} };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      if (stub.drop) {
        req.socket.destroy();
        return;
      }
      if (req.method !== 'POST' || req.url !== '/check-vat-number') {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw || '{}') as { countryCode: string; vatNumber: string };
      stub.requests.push(body);
      if (stub.down) {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ actionSucceed: false, errorWrappers: [{ error: 'MS_UNAVAILABLE' }] }));
        return;
      }
      const ok = stub.valid.includes(`${body.countryCode}${body.vatNumber}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          countryCode: body.countryCode,
          vatNumber: body.vatNumber,
          requestDate: '2026-01-15T10:00:00.000Z',
          valid: ok,
          ...(ok ? { name: 'Stub Firma GmbH', address: 'Stubweg 1, Wien' } : { name: '---', address: '---' }),
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  stub.url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  stub.close = () => new Promise<void>((r) => server.close(() => r()));
  return stub;
}
