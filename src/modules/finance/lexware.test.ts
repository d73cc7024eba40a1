/**
 * The `lexware` accounting integration: the real HTTP client against a local stub of the
 * Lexware Office API started here (LEXWARE_API_URL points at it), driven through the admin routes
 * and the job worker.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  employeeToken,
  expectProblem,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { startViesStub, type ViesStub } from '../../../test/helpers/vies-stub.js';
import { LexwareClient, POSTING_CATEGORIES, REVENUE_CATEGORY_ID } from '../../adapters/accounting/lexware.js';
import { AccountingError, type AccountingVoucher } from '../../adapters/accounting/port.js';
import { query } from '../../platform/db/tx.js';
import { AT_COMPANY, type FinanceShop, finalInvoice, financeShop } from './finance.fixtures.js';

const GOOD_KEY = 'lex-good-key-0123456789';

interface Seen {
  method: string;
  url: string;
  auth: string | undefined;
  body: any;
}

interface Booked {
  id: string;
  number: string;
  type: string;
  totalGrossAmount: number;
}

/**
 * Script of the stub: responses for POST /v1/vouchers, consumed in order, then `fallback`; an entry
 * with `perform` books the voucher before answering (as Lexware may do before a 5xx or timeout).
 * `booked` holds the vouchers "in Lexware", answered by GET /v1/vouchers?voucherNumber=….
 */
const stub = {
  seen: [] as Seen[],
  script: [] as { status: number; body: unknown; headers?: Record<string, string>; perform?: boolean }[],
  fallback: { status: 200, body: null as unknown, headers: {} as Record<string, string> },
  vouchers: 0,
  booked: [] as Booked[],
  /** The posting categories enabled in the account; a voucher item of another is refused (406). */
  categories: [] as { id: string; name: string; type: string }[],
};

/** Posting categories as Lexware lists them: the revenue ones the sync uses, and an expense one. */
const ACCOUNT_CATEGORIES = [
  { id: 'cf03a2b0-f838-474f-ac5e-67adb9b830c7', name: 'Reise MA', type: 'outgo' },
  { id: '8f8664a1-fd86-11e1-a21f-0800200c9a66', name: 'Einnahmen', type: 'income' },
  ...Object.values(POSTING_CATEGORIES).map((c) => ({ ...c, type: 'income' })),
].map((c) => ({
  ...c,
  contactRequired: false,
  splitAllowed: true,
  groupName: c.type === 'income' ? 'Einnahmen' : 'Reisen',
}));
stub.categories = [...ACCOUNT_CATEGORIES];

interface Item {
  amount: number;
  taxAmount: number;
  taxRatePercent: number;
  categoryId: string;
}

/** Lexware's checks of a voucher's items: known revenue categories, one item per category and rate, totals. */
function itemIssues(body: { voucherItems: Item[]; totalGrossAmount: number; totalTaxAmount: number }) {
  const issues: { i18nKey: string; source: string; type: string }[] = [];
  const keys = new Set<string>();
  body.voucherItems.forEach((i, n) => {
    if (!stub.categories.some((c) => c.id === i.categoryId && c.type === 'income')) {
      issues.push({
        i18nKey: 'invalid_reference_value',
        source: `voucherItems[${n}].categoryId`,
        type: 'validation_failure',
      });
    }
    const key = `${i.categoryId}|${i.taxRatePercent}`;
    if (keys.has(key)) issues.push({ i18nKey: 'duplicate', source: `voucherItems[${n}]`, type: 'validation_failure' });
    keys.add(key);
  });
  const cents = (f: (i: Item) => number) => body.voucherItems.reduce((a, i) => a + Math.round(f(i) * 100), 0);
  if (cents((i) => i.amount) !== Math.round(body.totalGrossAmount * 100)) {
    issues.push({ i18nKey: 'invalid_value', source: 'totalGrossAmount', type: 'validation_failure' });
  }
  if (cents((i) => i.taxAmount) !== Math.round(body.totalTaxAmount * 100)) {
    issues.push({ i18nKey: 'invalid_value', source: 'totalTaxAmount', type: 'validation_failure' });
  }
  return issues;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

let server: Server;
let t: TestApp;
let f: FinanceShop;
let vies: ViesStub;
let world: string;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const raw = await readBody(req);
    stub.seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      auth: req.headers.authorization,
      body: raw ? JSON.parse(raw) : null,
    });
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${GOOD_KEY}`) {
      return send(401, { status: 401, error: 'Unauthorized', message: 'Unauthorized' });
    }
    if (req.method === 'GET' && req.url === '/v1/profile') {
      return send(200, { organizationId: 'org-1', companyName: 'Muster Handel GmbH', created: {} });
    }
    const url = new URL(req.url ?? '/', 'http://stub');
    if (req.method === 'GET' && url.pathname === '/v1/vouchers' && url.searchParams.has('voucherNumber')) {
      const number = url.searchParams.get('voucherNumber');
      const content = stub.booked
        .filter((b) => b.number === number)
        .map((b) => ({
          id: b.id,
          type: b.type,
          voucherNumber: b.number,
          voucherStatus: 'open',
          totalGrossAmount: b.totalGrossAmount,
        }));
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
    if (req.method === 'POST' && req.url === '/v1/vouchers') {
      const next = stub.script.shift();
      if (next && !next.perform) return send(next.status, next.body, next.headers);
      const body = JSON.parse(raw) as { voucherNumber: string; type: string; totalGrossAmount: number };
      const issues = itemIssues(JSON.parse(raw));
      if (issues.length > 0) return send(406, { IssueList: issues });
      stub.vouchers++;
      const id = `voucher-${stub.vouchers}`;
      stub.booked.push({ id, number: body.voucherNumber, type: body.type, totalGrossAmount: body.totalGrossAmount });
      if (next) return send(next.status, next.body, next.headers);
      return send(200, { id, resourceUri: `/v1/vouchers/${id}`, version: 0 });
    }
    return send(404, { message: 'Not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  vies = await startViesStub(['ATU12345678']);
  t = await startApp({ LEXWARE_API_URL: `http://127.0.0.1:${port}`, VIES_API_URL: vies.url });
  f = await financeShop(t);
  world = (
    await call(t.app, 'POST', '/api/admin/shipping-methods', {
      token: f.owner,
      body: { name: 'Welt', price_cents: 1190, countries: ['CH', 'US'] },
    })
  ).data.id;
});
afterAll(async () => {
  await t.close();
  await vies.close();
  await new Promise((r) => server.close(r));
});
beforeEach(() => {
  stub.seen = [];
  stub.script = [];
});

const post = (url: string, body?: unknown) => call(t.app, 'POST', url, { token: f.owner, body });
const syncOf = async (orderId: string) =>
  (await call(t.app, 'GET', `/api/admin/orders/${orderId}/lexware`, { token: f.owner })).data;
const drain = () => t.app.deps.worker.drain();
const isPost = (x: Seen) => x.method === 'POST' && x.url === '/v1/vouchers';
const postsFor = (number: string) => stub.seen.filter((x) => isPost(x) && x.body.voucherNumber === number);
const lookupsFor = (number: string) =>
  stub.seen.filter((x) => x.method === 'GET' && x.url === `/v1/vouchers?voucherNumber=${encodeURIComponent(number)}`);
const voucherIdOf = async (invoiceId: string) =>
  (
    await query<{ lexware_voucher_id: string | null }>(
      t.app.deps.database.db,
      sql`SELECT lexware_voucher_id FROM invoices WHERE id = ${invoiceId}`,
    )
  )[0]?.lexware_voucher_id;

describe('credentials', () => {
  it('test before connecting is 409; connect stores the key encrypted and never returns it', async () => {
    expectProblem(await post('/api/admin/credentials/test/lexware'), 409, 'lexware_not_connected');
    const bad = await post('/api/admin/credentials/lexware/connect', { api_key: 'lex-wrong-key-000000' });
    expect(bad.statusCode).toBe(200);
    expect(bad.data).toMatchObject({ provider: 'lexware', connected: true });
    expect(bad.body).not.toContain('lex-wrong-key');
    const rows = await query<{ api_key_encrypted: string }>(
      t.app.deps.database.db,
      sql`SELECT api_key_encrypted FROM accounting_connections WHERE shop_id = ${f.shop.shopId}`,
    );
    expect(rows[0]?.api_key_encrypted).toMatch(/^v1\./);
    expect(rows[0]?.api_key_encrypted).not.toContain('lex-wrong-key');
  });

  it("the connection check returns the provider's error, then ok with the right key", async () => {
    const bad = await post('/api/admin/credentials/test/lexware');
    expect(bad.statusCode).toBe(200);
    expect(bad.data).toMatchObject({ ok: false, provider_status: 401 });
    expect(bad.data.error).toContain('Unauthorized');
    await post('/api/admin/credentials/lexware/connect', { api_key: GOOD_KEY });
    const good = await post('/api/admin/credentials/test/lexware');
    expect(good.data).toMatchObject({
      ok: true,
      company_name: 'Muster Handel GmbH',
      organization_id: 'org-1',
      error: null,
    });
    expect(stub.seen.at(-1)).toMatchObject({ method: 'GET', url: '/v1/profile', auth: `Bearer ${GOOD_KEY}` });
  });

  it('validates the key', async () => {
    expectProblem(await post('/api/admin/credentials/lexware/connect', {}), 400, 'validation_failed');
    expectProblem(await post('/api/admin/credentials/lexware/connect', { api_key: 'short' }), 400, 'validation_failed');
    expectProblem(
      await post('/api/admin/credentials/lexware/connect', { api_key: GOOD_KEY, extra: 1 }),
      400,
      'validation_failed',
    );
  });
});

describe('order sync', () => {
  it('finalizing an invoice enqueues the sync; the job books a voucher (429 retried) and records its id', async () => {
    const inv = await finalInvoice(t, f);
    expect((await syncOf(inv.order_id)).status).toBe('pending');
    stub.script.push({ status: 429, body: { message: 'Rate limit exceeded' }, headers: { 'retry-after': '0' } });
    await drain();
    const s = await syncOf(inv.order_id);
    expect(s).toMatchObject({ status: 'synced', last_error: null, attempts: 1 });
    expect(s.provider_id).toMatch(/^voucher-\d+$/);
    const posts = stub.seen.filter(isPost);
    expect(posts).toHaveLength(2);
    expect(posts[1]?.auth).toBe(`Bearer ${GOOD_KEY}`);
    expect(posts[1]?.body).toMatchObject({
      type: 'salesinvoice',
      voucherNumber: inv.number,
      taxType: 'gross',
      totalGrossAmount: inv.total_cents / 100,
      totalTaxAmount: inv.tax_cents / 100,
      useCollectiveContact: true,
    });
    expect(posts[1]?.body.voucherItems).toEqual(
      inv.tax_breakdown.map((g: { gross_cents: number; tax_cents: number; tax_rate: number }) =>
        expect.objectContaining({
          amount: g.gross_cents / 100,
          taxAmount: g.tax_cents / 100,
          taxRatePercent: Math.round(g.tax_rate * 100),
          categoryId: REVENUE_CATEGORY_ID,
        }),
      ),
    );
    // a finalized credit note books a credit voucher for the same order
    const cn = (await post(`/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: 500 })).data;
    await post(`/api/admin/credit-notes/${cn.id}/finalize`);
    expect((await syncOf(inv.order_id)).status).toBe('pending');
    await drain();
    expect((await syncOf(inv.order_id)).status).toBe('synced');
    const credit = stub.seen.filter(isPost).at(-1);
    expect(credit?.body).toMatchObject({ type: 'salescreditnote', totalGrossAmount: 5 });
    // and nothing is booked twice: one lookup, the 429 (not performed) retried without another
    expect(postsFor(inv.number)).toHaveLength(2);
    expect(lookupsFor(inv.number)).toHaveLength(1);
    expect(stub.booked.filter((b) => b.number === inv.number)).toHaveLength(1);
    expectProblem(await post(`/api/admin/orders/${inv.order_id}/lexware-retry`), 409, 'invalid_state');
    expectProblem(await post(`/api/admin/orders/${inv.order_id}/lexware-cancel`), 409, 'invalid_state');
  });

  it("a refund's credit note is booked by the sync like any other credit note", async () => {
    const inv = await finalInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 2 }] });
    await drain();
    expect((await syncOf(inv.order_id)).status).toBe('synced');
    const refunded = await post(`/api/admin/orders/${inv.order_id}/refunds`, { amount_cents: 1234, reason: 'Teil' });
    expect(refunded.statusCode).toBe(201);
    expect(refunded.data.credit_note_id).toMatch(/^cn_/);
    const cn = (await call(t.app, 'GET', `/api/admin/credit-notes/${refunded.data.credit_note_id}`, { token: f.owner }))
      .data;
    expect(cn).toMatchObject({ status: 'final', total_cents: 1234 });
    expect((await syncOf(inv.order_id)).status).toBe('pending');
    await drain();
    expect((await syncOf(inv.order_id)).status).toBe('synced');
    const credit = postsFor(cn.number);
    expect(credit).toHaveLength(1);
    expect(credit[0]?.auth).toBe(`Bearer ${GOOD_KEY}`);
    expect(credit[0]?.body).toMatchObject({
      type: 'salescreditnote',
      voucherNumber: cn.number,
      totalGrossAmount: 12.34,
      taxType: 'gross',
    });
    expect(stub.booked.filter((b) => b.number === cn.number)).toEqual([
      expect.objectContaining({ type: 'salescreditnote', totalGrossAmount: 12.34 }),
    ]);
    // the rest refunded: a second credit voucher for what was left, nothing booked twice
    const total = inv.total_cents as number;
    const rest = await post(`/api/admin/orders/${inv.order_id}/refunds`, { reason: 'Rest' });
    expect(rest.data.amount_cents).toBe(total - 1234);
    await drain();
    const restCn = (await call(t.app, 'GET', `/api/admin/credit-notes/${rest.data.credit_note_id}`, { token: f.owner }))
      .data;
    expect(postsFor(restCn.number).map((x) => x.body.totalGrossAmount)).toEqual([(total - 1234) / 100]);
    expect(postsFor(cn.number)).toHaveLength(1);
    expect(postsFor(inv.number)).toHaveLength(1);
    expect((await syncOf(inv.order_id)).status).toBe('synced');
  });

  it("a rejected voucher fails with the provider's error; retry books it", async () => {
    const inv = await finalInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    stub.script.push({
      status: 400,
      body: {
        IssueList: [{ i18nKey: 'invalid_value', source: 'voucherItems[0].taxRatePercent', type: 'validation_failure' }],
      },
    });
    await drain();
    const failed = await syncOf(inv.order_id);
    expect(failed).toMatchObject({ status: 'failed', provider_id: null });
    expect(failed.last_error).toContain('400');
    expect(failed.last_error).toContain('voucherItems[0].taxRatePercent');
    // the list of failed syncs (issue 31) shows it with the provider's message and the order number
    const failedList = async () =>
      (await call(t.app, 'GET', '/api/admin/accounting/syncs', { token: f.owner, query: { status: 'failed' } })).data;
    const listed = await failedList();
    expect(listed.syncs.find((x: { order_id: string }) => x.order_id === inv.order_id)).toMatchObject({
      status: 'failed',
      order_number: expect.any(String),
      last_error: failed.last_error,
      attempts: 1,
    });
    expect(listed.syncs.every((x: { status: string }) => x.status === 'failed')).toBe(true);
    const retried = await post(`/api/admin/orders/${inv.order_id}/lexware-retry`);
    expect(retried.statusCode).toBe(200);
    expect(retried.data).toMatchObject({ status: 'pending', last_error: null });
    await drain();
    expect(await syncOf(inv.order_id)).toMatchObject({ status: 'synced', attempts: 2 });
    expect((await failedList()).syncs.some((x: { order_id: string }) => x.order_id === inv.order_id)).toBe(false);
  });

  it('GET /api/admin/accounting/syncs: paged, filtered, channel-restricted; 400 for bad queries; owner and admin only', async () => {
    const all = await call(t.app, 'GET', '/api/admin/accounting/syncs', { token: f.owner, query: { limit: '1' } });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.data).toMatchObject({ limit: 1, offset: 0 });
    expect(all.data.count).toBeGreaterThan(1);
    expect(all.data.syncs).toHaveLength(1);
    const restricted = await employeeToken(t.app, f.shop, 'admin', [f.channel]);
    const inChannel = await call(t.app, 'GET', '/api/admin/accounting/syncs', { token: restricted });
    expect(inChannel.data.count).toBe(all.data.count);
    const none = await employeeToken(t.app, f.shop, 'admin', []);
    expect((await call(t.app, 'GET', '/api/admin/accounting/syncs', { token: none })).data).toMatchObject({
      count: 0,
      syncs: [],
    });
    const bad: Record<string, string>[] = [{ status: 'kaputt' }, { limit: '0' }, { offset: '-1' }, { extra: '1' }];
    for (const query of bad) {
      expectProblem(
        await call(t.app, 'GET', '/api/admin/accounting/syncs', { token: f.owner, query }),
        400,
        'validation_failed',
      );
    }
    const viewer = await employeeToken(t.app, f.shop, 'viewer');
    expect((await call(t.app, 'GET', '/api/admin/accounting/syncs', { token: viewer })).statusCode).toBe(200);
    const editor = await employeeToken(t.app, f.shop, 'catalog_editor');
    expectProblem(await call(t.app, 'GET', '/api/admin/accounting/syncs', { token: editor }), 403, 'role_denied');
    const token = await apiToken(t.app, f.shop, ['finance:read']);
    expectProblem(await call(t.app, 'GET', '/api/admin/accounting/syncs', { token }), 403, 'token_blocked');
    expect((await call(t.app, 'GET', '/api/admin/accounting/syncs')).statusCode).toBe(401);
  });

  it('a provider outage keeps the sync pending for a later attempt; cancel stops it; retry resumes', async () => {
    const inv = await finalInvoice(t, f, { items: [{ product_id: f.products.ebook, quantity: 1 }] });
    for (let i = 0; i < 3; i++) stub.script.push({ status: 503, body: { message: 'Service Unavailable' } });
    await drain();
    const pending = await syncOf(inv.order_id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
    expect(pending.last_error).toContain('503');
    expect(stub.seen.filter(isPost)).toHaveLength(3);
    // a 5xx may have been performed: every POST follows a lookup of the number
    expect(lookupsFor(inv.number)).toHaveLength(3);
    const cancelled = await post(`/api/admin/orders/${inv.order_id}/lexware-cancel`);
    expect(cancelled.data.status).toBe('cancelled');
    // the rescheduled job comes due but no longer carries the sync
    await call(t.app, 'POST', '/api/platform/clock/advance', {
      token: 'test-platform-token-0123456789abcdef',
      body: { seconds: 120 },
    });
    await drain();
    expect((await syncOf(inv.order_id)).status).toBe('cancelled');
    expect(stub.seen.filter(isPost)).toHaveLength(3);
    expectProblem(await post(`/api/admin/orders/${inv.order_id}/lexware-cancel`), 409, 'invalid_state');
    const resumed = await post(`/api/admin/orders/${inv.order_id}/lexware-retry`);
    expect(resumed.data.status).toBe('pending');
    await drain();
    expect((await syncOf(inv.order_id)).status).toBe('synced');
  });

  it('a voucher Lexware booked before a crash (id never stored) is found by number, not booked again', async () => {
    const inv = await finalInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 2 }] });
    stub.booked.push({
      id: 'voucher-before-crash',
      number: inv.number,
      type: 'salesinvoice',
      totalGrossAmount: inv.total_cents / 100,
    });
    await drain();
    expect(await syncOf(inv.order_id)).toMatchObject({
      status: 'synced',
      provider_id: 'voucher-before-crash',
      last_error: null,
    });
    expect(await voucherIdOf(inv.id)).toBe('voucher-before-crash');
    expect(lookupsFor(inv.number)).toHaveLength(1);
    expect(postsFor(inv.number)).toHaveLength(0);
    expect(stub.booked.filter((b) => b.number === inv.number)).toHaveLength(1);
  });

  it('a POST Lexware performed but answered with 503 is found by the retry, booked once', async () => {
    const inv = await finalInvoice(t, f, { items: [{ product_id: f.products.ebook, quantity: 2 }] });
    stub.script.push({ status: 503, body: { message: 'Service Unavailable' }, perform: true });
    await drain();
    const booked = stub.booked.filter((b) => b.number === inv.number);
    expect(booked).toHaveLength(1);
    expect(await syncOf(inv.order_id)).toMatchObject({ status: 'synced', provider_id: booked[0]?.id, attempts: 1 });
    expect(await voucherIdOf(inv.id)).toBe(booked[0]?.id);
    expect(postsFor(inv.number)).toHaveLength(1);
    expect(lookupsFor(inv.number)).toHaveLength(2);
  });

  it('the same number with another amount in Lexware fails the sync without booking', async () => {
    const inv = await finalInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 3 }] });
    stub.booked.push({
      id: 'voucher-other-amount',
      number: inv.number,
      type: 'salesinvoice',
      totalGrossAmount: inv.total_cents / 100 + 10,
    });
    // a voucher of another type with this number (e.g. a supplier's invoice) is not ours
    stub.booked.push({ id: 'voucher-purchase', number: inv.number, type: 'purchaseinvoice', totalGrossAmount: 1 });
    await drain();
    const failed = await syncOf(inv.order_id);
    expect(failed).toMatchObject({ status: 'failed', provider_id: null, attempts: 1 });
    expect(failed.last_error).toContain(
      `voucher with number ${inv.number} already exists in Lexware with another amount`,
    );
    expect(failed.last_error).toContain(`${((inv.total_cents + 1000) / 100).toFixed(2)} instead of`);
    expect(await voucherIdOf(inv.id)).toBeNull();
    expect(postsFor(inv.number)).toHaveLength(0);
  });

  it('an order without a sync is none: retry and cancel are 409; unknown orders 404', async () => {
    const g = await createShop(t.app);
    const res = await call(t.app, 'GET', '/api/admin/orders/ord_unknown/lexware', { token: g.ownerToken });
    expectProblem(res, 404, 'not_found');
    expectProblem(
      await call(t.app, 'POST', '/api/admin/orders/ord_unknown/lexware-retry', { token: g.ownerToken }),
      404,
      'not_found',
    );
    const draft = await finalInvoice(t, f, { items: [{ product_id: f.products.ebook, quantity: 1 }] });
    await call(t.app, 'POST', `/api/admin/orders/${draft.order_id}/lexware-cancel`, { token: f.owner });
    // a cancelled order stays cancelled when documents are added later
    expect((await syncOf(draft.order_id)).status).toBe('cancelled');
  });
});

const CH = { name: 'Urs Meier', line1: 'Bahnhofstr. 10', postal_code: '8001', city: 'Zürich', country: 'CH' };
const US = { name: 'Jane Doe', line1: '1 Main St', postal_code: '10001', city: 'New York', country: 'US' };

describe('posting categories', () => {
  type Group = { gross_cents: number; tax_cents: number; tax_rate: number; tax_category: 'S' | 'K' | 'AE' | 'G' | 'O' };
  /** The items a document's breakdown must be booked as: one per group, in its VAT category's posting category. */
  const itemsOf = (groups: Group[]) =>
    groups.map((g) => ({
      amount: g.gross_cents / 100,
      taxAmount: g.tax_cents / 100,
      taxRatePercent: Math.round(g.tax_rate * 100),
      categoryId: POSTING_CATEGORIES[g.tax_category].id,
    }));
  /** Books the invoice, then a full credit note of it; both vouchers' bodies. */
  async function bookWithCreditNote(inv: { id: string; number: string; order_id: string }) {
    await drain();
    expect(await syncOf(inv.order_id)).toMatchObject({ status: 'synced', last_error: null });
    const cn = (await post(`/api/admin/invoices/${inv.id}/credit-note`, { reason: 'Storno' })).data;
    const fin = await post(`/api/admin/credit-notes/${cn.id}/finalize`);
    expect(fin.statusCode, fin.body).toBe(200);
    await drain();
    expect(await syncOf(inv.order_id)).toMatchObject({ status: 'synced', last_error: null });
    const [invoice] = postsFor(inv.number);
    const [credit] = postsFor(fin.data.number);
    return { invoice: invoice?.body, credit: credit?.body, creditNote: fin.data };
  }

  it('an EU business invoice books AE and K apart (reverse charge, intra-community supply), its credit note too', async () => {
    const inv = await finalInvoice(t, f, {
      billing: AT_COMPANY,
      items: [
        { product_id: f.products.course, quantity: 1 },
        { product_id: f.products.cheese, quantity: 2 },
      ],
      shipping_address: { ...AT_COMPANY, vat_id: null },
    });
    expect(inv.tax_breakdown.map((g: Group) => g.tax_category)).toEqual(['AE', 'K']);
    const { invoice, credit, creditNote } = await bookWithCreditNote(inv);
    expect(invoice).toMatchObject({
      type: 'salesinvoice',
      totalTaxAmount: 0,
      voucherItems: itemsOf(inv.tax_breakdown),
    });
    expect(invoice.voucherItems.map((i: Item) => i.categoryId)).toEqual([
      '380a20cb-d04c-426e-b49c-84c22adfa362',
      '9075a4e3-66de-4795-a016-3889feca0d20',
    ]);
    expect(credit).toMatchObject({ type: 'salescreditnote', voucherItems: itemsOf(creditNote.tax_breakdown) });
    expect(credit.voucherItems.map((i: Item) => i.categoryId)).toEqual(
      invoice.voucherItems.map((i: Item) => i.categoryId),
    );
  });

  it('an export (G) and a service outside the EU (O) are booked in their own categories, their credit notes too', async () => {
    const g = await finalInvoice(t, f, {
      billing: CH,
      items: [{ product_id: f.products.cheese, quantity: 2 }],
      shipping_address: CH,
      shipping_method_id: world,
    });
    expect(g.tax_breakdown.map((x: Group) => x.tax_category)).toEqual(['G']);
    const booked = await bookWithCreditNote(g);
    expect(booked.invoice.voucherItems).toEqual([
      expect.objectContaining({ taxRatePercent: 0, categoryId: '93d24c20-ea84-424e-a731-5e1b78d1e6a9' }),
    ]);
    expect(booked.invoice.voucherItems).toEqual(itemsOf(g.tax_breakdown));
    expect(booked.credit.voucherItems).toEqual(itemsOf(booked.creditNote.tax_breakdown));
    const o = await finalInvoice(t, f, { billing: US, items: [{ product_id: f.products.course, quantity: 1 }] });
    expect(o.tax_breakdown.map((x: Group) => x.tax_category)).toEqual(['O']);
    const bookedO = await bookWithCreditNote(o);
    expect(bookedO.invoice.voucherItems).toEqual([
      expect.objectContaining({ taxRatePercent: 0, categoryId: 'ef5b1a6e-f690-4004-9a19-91276348894f' }),
    ]);
    expect(bookedO.credit.voucherItems).toEqual(itemsOf(bookedO.creditNote.tax_breakdown));
  });

  it('S and K in one voucher: one item per posting category and rate, invoice and credit note', async () => {
    const client = new LexwareClient({
      baseUrl: (t.app.deps.config as { lexwareApiUrl: string }).lexwareApiUrl,
      apiKey: GOOD_KEY,
    });
    for (const kind of ['invoice', 'credit_note'] as const) {
      const number = `SK-${kind}`;
      const { id } = await client.createVoucher({
        kind,
        number,
        date: '2025-03-01',
        dueDate: null,
        serviceDate: null,
        currency: 'EUR',
        totalGrossCents: 11900 + 1070 + 5000 + 2500,
        totalTaxCents: 1900 + 70,
        items: [
          { grossCents: 11900, taxCents: 1900, taxRate: 0.19, taxCategory: 'S' },
          { grossCents: 1070, taxCents: 70, taxRate: 0.07, taxCategory: 'S' },
          { grossCents: 5000, taxCents: 0, taxRate: 0, taxCategory: 'K' },
          { grossCents: 2500, taxCents: 0, taxRate: 0, taxCategory: 'K' },
        ],
        remark: 'test',
      });
      expect(id).toMatch(/^voucher-/);
      expect(postsFor(number)[0]?.body).toMatchObject({
        type: kind === 'invoice' ? 'salesinvoice' : 'salescreditnote',
        voucherItems: [
          { amount: 119, taxAmount: 19, taxRatePercent: 19, categoryId: REVENUE_CATEGORY_ID },
          { amount: 10.7, taxAmount: 0.7, taxRatePercent: 7, categoryId: REVENUE_CATEGORY_ID },
          { amount: 75, taxAmount: 0, taxRatePercent: 0, categoryId: '9075a4e3-66de-4795-a016-3889feca0d20' },
        ],
      });
    }
  });

  it('a category Lexware refuses fails the sync visibly with its error (the retry books it), never a 500', async () => {
    const K = POSTING_CATEGORIES.K.id;
    const listed = stub.categories;
    try {
      // not enabled in this account: Lexware refuses the item (406); failed with its error, nothing booked
      stub.categories = listed.filter((c) => c.id !== K);
      const inv = await finalInvoice(t, f, {
        billing: AT_COMPANY,
        items: [{ product_id: f.products.cheese, quantity: 1 }],
        shipping_address: { ...AT_COMPANY, vat_id: null },
      });
      await drain();
      const failed = await call(t.app, 'GET', `/api/admin/orders/${inv.order_id}/lexware`, { token: f.owner });
      expect(failed.statusCode).toBe(200);
      expect(failed.data).toMatchObject({ status: 'failed', provider_id: null });
      expect(failed.data.last_error).toMatch(/categoryId/);
      expect(stub.booked.filter((b) => b.number === inv.number)).toHaveLength(0);
      // enabled in Lexware: the retry books it in its category
      stub.categories = listed;
      expect((await post(`/api/admin/orders/${inv.order_id}/lexware-retry`)).statusCode).toBe(200);
      await drain();
      expect(await syncOf(inv.order_id)).toMatchObject({ status: 'synced', last_error: null });
      expect(postsFor(inv.number).at(-1)?.body.voucherItems).toEqual([expect.objectContaining({ categoryId: K })]);
      // the categories are fixed ids: the sync never reads the account's list
      expect(stub.seen.filter((x) => x.url === '/v1/posting-categories')).toEqual([]);
    } finally {
      stub.categories = listed;
    }
  });
});

describe('client', () => {
  it('a 200 whose body is not JSON is a retryable AccountingError, never a crash', async () => {
    let calls = 0;
    const broken = new LexwareClient({
      baseUrl: 'http://stub',
      apiKey: GOOD_KEY,
      attempts: 2,
      backoffMs: 1,
      fetch: (async () => {
        calls++;
        return new Response('<html>maintenance</html>', { status: 200 });
      }) as typeof fetch,
    });
    const err = await broken.testConnection().catch((e) => e);
    expect(err).toBeInstanceOf(AccountingError);
    expect(err.message).toContain('not JSON: <html>maintenance</html>');
    expect(err.retryable).toBe(true);
    expect(calls).toBe(2);
  });

  it('times out, retries 5xx with backoff, and does not retry 4xx', async () => {
    let calls = 0;
    const slow = new LexwareClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: GOOD_KEY,
      timeoutMs: 50,
      attempts: 2,
      backoffMs: 1,
      fetch: (async (_url: string, init: RequestInit) => {
        calls++;
        return new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        });
      }) as typeof fetch,
    });
    const err = await slow.testConnection().catch((e) => e);
    expect(err).toBeInstanceOf(AccountingError);
    expect(err.message).toContain('did not answer within 50 ms');
    expect(err.retryable).toBe(true);
    expect(calls).toBe(2);
    let n = 0;
    const flaky = new LexwareClient({
      baseUrl: 'http://stub',
      apiKey: GOOD_KEY,
      backoffMs: 1,
      fetch: (async () => {
        n++;
        return n < 3
          ? new Response('{"message":"boom"}', { status: 502 })
          : new Response('{"organizationId":"o","companyName":"c"}', { status: 200 });
      }) as typeof fetch,
    });
    expect(await flaky.testConnection()).toEqual({ organizationId: 'o', companyName: 'c' });
    expect(n).toBe(3);
    let m = 0;
    const rejecting = new LexwareClient({
      baseUrl: 'http://stub',
      apiKey: GOOD_KEY,
      fetch: (async () => {
        m++;
        return new Response(
          '{"message":"Validation failed","details":[{"field":"voucherNumber","message":"too long"}]}',
          {
            status: 406,
          },
        );
      }) as typeof fetch,
    });
    const e2 = await rejecting.testConnection().catch((e) => e);
    expect(e2).toMatchObject({ status: 406, retryable: false });
    expect(e2.message).toContain('voucherNumber: too long');
    expect(m).toBe(1);
  });

  const voucher = (number: string, totalGrossCents: number): AccountingVoucher => ({
    kind: 'credit_note',
    number,
    date: '2025-03-01',
    dueDate: null,
    serviceDate: null,
    currency: 'EUR',
    totalGrossCents,
    totalTaxCents: 0,
    items: [{ grossCents: totalGrossCents, taxCents: 0, taxRate: 0, taxCategory: 'G' }],
    remark: 'test',
  });

  it('createVoucher: a 429 is retried as is; after a 5xx or a timeout the number is looked up first', async () => {
    const calls: string[] = [];
    let performed = false;
    const answers = ['429', '503', 'timeout'];
    const client = new LexwareClient({
      baseUrl: 'http://stub-retries',
      apiKey: GOOD_KEY,
      timeoutMs: 50,
      backoffMs: 1,
      attempts: 4,
      fetch: (async (url: string, init: RequestInit) => {
        calls.push(`${init.method} ${url.replace('http://stub-retries', '')}`);
        if (init.method === 'GET') {
          // `vouchers` is accepted as the list key as well
          const vouchers = performed
            ? [{ id: 'v-1', type: 'salescreditnote', voucherNumber: 'GS 1/2', totalGrossAmount: 12.3 }]
            : [];
          return new Response(JSON.stringify({ vouchers }), { status: 200 });
        }
        const answer = answers.shift();
        if (answer === 'timeout') {
          performed = true; // Lexware books it, but the answer never arrives
          return new Promise((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
          });
        }
        return new Response('{"message":"busy"}', { status: Number(answer), headers: { 'retry-after': '0' } });
      }) as typeof fetch,
    });
    expect(await client.createVoucher(voucher('GS 1/2', 1230))).toEqual({ id: 'v-1' });
    const lookup = `GET /v1/vouchers?voucherNumber=${encodeURIComponent('GS 1/2')}`;
    expect(calls).toEqual([lookup, 'POST /v1/vouchers', 'POST /v1/vouchers', lookup, 'POST /v1/vouchers', lookup]);
  });

  it('createVoucher: a voucher of another amount is a non-retryable error; a failed lookup never POSTs', async () => {
    let posts = 0;
    const withList = (list: unknown, status = 200) =>
      new LexwareClient({
        baseUrl: 'http://stub',
        apiKey: GOOD_KEY,
        backoffMs: 1,
        fetch: (async (_url: string, init: RequestInit) => {
          if (init.method === 'POST') posts++;
          return new Response(JSON.stringify(list), { status });
        }) as typeof fetch,
      });
    const other = await withList({
      content: [{ id: 'v-9', type: 'salescreditnote', voucherNumber: 'GS-7', totalGrossAmount: 12.31 }],
    })
      .createVoucher(voucher('GS-7', 1230))
      .catch((e) => e);
    expect(other).toBeInstanceOf(AccountingError);
    expect(other).toMatchObject({ retryable: false, status: null });
    expect(other.message).toContain('already exists in Lexware with another amount (12.31 instead of 12.30 EUR)');
    const down = await withList({ message: 'down' }, 503)
      .createVoucher(voucher('GS-8', 100))
      .catch((e) => e);
    expect(down).toMatchObject({ retryable: true, status: 503 });
    expect(posts).toBe(0);
  });
});
