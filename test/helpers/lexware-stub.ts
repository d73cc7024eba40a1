/**
 * A local stand-in for the Lexware Office API (LEXWARE_API_URL points at it) for tests that drive
 * the accounting integration through the app: the connection check (`GET /v1/profile`), the
 * voucher lookup by number and `POST /v1/vouchers`, which books a voucher — or, while `rejectNext`
 * is above 0, refuses it with a 400 and Lexware's issue list (a failed sync with the provider's
 * message). Only `key` is accepted as API key. src/modules/finance/lexware.test.ts has a fuller
 * stub of its own (scripted outages, posting-category checks).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LexwareStub {
  url: string;
  key: string;
  companyName: string;
  /** How many of the next voucher posts are refused (400 with an issue list). */
  rejectNext: number;
  booked: { id: string; number: string; type: string; totalGrossAmount: number }[];
  close(): Promise<void>;
}

export const LEXWARE_REJECTION = 'voucherItems[0].taxRatePercent';

export async function startLexwareStub(key = 'lex-stub-key-0123456789'): Promise<LexwareStub> {
  const stub = { key, companyName: 'Muster Handel GmbH', rejectNext: 0, booked: [] as LexwareStub['booked'] };
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${stub.key}`) {
      return send(401, { status: 401, error: 'Unauthorized', message: 'Unauthorized' });
    }
    const url = new URL(req.url ?? '/', 'http://stub');
    if (req.method === 'GET' && url.pathname === '/v1/profile') {
      return send(200, { organizationId: 'org-stub', companyName: stub.companyName, created: {} });
    }
    if (req.method === 'GET' && url.pathname === '/v1/vouchers') {
      const number = url.searchParams.get('voucherNumber');
      const content = stub.booked
        .filter((b) => b.number === number)
        .map((b) => ({ ...b, voucherNumber: b.number, voucherStatus: 'open' }));
      return send(200, {
        content,
        first: true,
        last: true,
        totalPages: 1,
        totalElements: content.length,
        numberOfElements: content.length,
        size: 25,
        number: 0,
      });
    }
    if (req.method === 'POST' && url.pathname === '/v1/vouchers') {
      if (stub.rejectNext > 0) {
        stub.rejectNext--;
        return send(400, {
          IssueList: [{ i18nKey: 'invalid_value', source: LEXWARE_REJECTION, type: 'validation_failure' }],
        });
      }
      const body = JSON.parse(raw) as { voucherNumber: string; type: string; totalGrossAmount: number };
      const id = `voucher-${stub.booked.length + 1}`;
      stub.booked.push({ id, number: body.voucherNumber, type: body.type, totalGrossAmount: body.totalGrossAmount });
      return send(200, { id, resourceUri: `/v1/vouchers/${id}`, version: 0 });
    }
    return send(404, { message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(stub, {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
