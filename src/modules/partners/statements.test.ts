/**
 * Vendor statements over HTTP against the real app and database, across two months of the
 * simulated clock: month 1 has a paid order (earnings); month 2 has the release, a credit note
 * clawing back a line, a payout paid (and one cancelled) and another paid order. Opening +
 * entries = closing, closing = the ledger's owed balance, month 2 opens where month 1 closed;
 * finalization numbering, immutability (API and database trigger), byte-stable PDFs, portal
 * isolation and the token rules.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiToken, call, expectProblem, PLATFORM_TOKEN, startApp, type TestApp } from '../../../test/helpers/app.js';
import { type FinanceShop, financeShop, paidOrder } from '../finance/finance.fixtures.js';
import { ok, twoVendors } from './partners.fixtures.js';
import { localDate, monthStart } from './statements.service.js';

const TZ = 'Europe/Berlin';

let t: TestApp;
let f: FinanceShop;
let vendorA = '';
let vendorB = '';
let sessionA = '';
let sessionB = '';
let financeToken = '';
let month1 = '';
let month2 = '';
let order1 = '';

const now = () => t.app.deps.clock.now();
const db = () => t.app.deps.database.db;
const get = (url: string, token = f.owner) => call(t.app, 'GET', url, { token });
const post = (url: string, body?: unknown, token = f.owner) => call(t.app, 'POST', url, { token, body });

const periodOf = (d: Date) => localDate(d, TZ).slice(0, 7);

/** Moves the simulated clock to `days` days after the start of the next month (shop time zone). */
async function toNextMonth(days = 2) {
  const [y, m] = periodOf(now()).split('-').map(Number) as [number, number];
  const target = monthStart(y, m + 1, TZ).getTime() + days * 86_400_000;
  const seconds = Math.ceil((target - now().getTime()) / 1000);
  await ok(await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds } }));
}

async function owed(vendorId: string): Promise<number> {
  const v = await ok(await get(`/api/admin/vendors/${vendorId}`));
  return (v.balances as { currency: string; owed_cents: number }[]).find((b) => b.currency === 'EUR')?.owed_cents ?? 0;
}

interface Entry {
  kind: string;
  amount_cents: number;
  balance_cents: number;
  date: string;
  occurred_at: string;
  order_number: string | null;
  credit_note_id: string | null;
  payout_id: string | null;
  description: string;
}

/** opening + Σ entries = closing, the running balance, and the totals add up. */
function assertMath(s: {
  opening_balance_cents: number;
  closing_balance_cents: number;
  entries: Entry[];
  totals: { earnings_cents: number; clawbacks_cents: number; payouts_cents: number };
}) {
  let running = s.opening_balance_cents;
  for (const e of s.entries) {
    running += e.amount_cents;
    expect(e.balance_cents).toBe(running);
  }
  expect(s.closing_balance_cents).toBe(running);
  const sum = (kind: string) => s.entries.filter((e) => e.kind === kind).reduce((a, e) => a + e.amount_cents, 0);
  expect(s.totals.earnings_cents).toBe(sum('earning'));
  expect(s.totals.clawbacks_cents).toBe(0 - sum('clawback') + 0);
  expect(s.totals.payouts_cents).toBe(0 - sum('payout_paid') + 0);
  expect(s.closing_balance_cents).toBe(
    s.opening_balance_cents + s.totals.earnings_cents - s.totals.clawbacks_cents - s.totals.payouts_cents,
  );
  const times = s.entries.map((e) => e.occurred_at);
  expect([...times].sort()).toEqual(times);
}

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
  ({ vendorA, sessionA, vendorB, sessionB } = await twoVendors(t, f));
  await ok(await post(`/api/admin/vendors/${vendorA}/commission-rule`, { percent: 10, fixed_cents: 25 }), 201);
  await ok(await call(t.app, 'PUT', '/api/admin/settings/partners', { token: f.owner, body: { vendor_hold_days: 0 } }));
  financeToken = await apiToken(t.app, f.shop, ['finance:read']);
  month1 = periodOf(now());
  order1 = await paidOrder(t, f);
});
afterAll(() => t.close());

describe('vendor statements', () => {
  let s1 = '';
  let s2 = '';
  let m1Closing = 0;

  it('a draft for the running month: the earnings, closing = what the shop owes', async () => {
    const res = await post('/api/admin/vendor-statements', { vendor_id: vendorA, period: month1 });
    expect(res.statusCode).toBe(201);
    const s = res.data;
    s1 = s.id;
    expect(s).toMatchObject({
      vendor_id: vendorA,
      period: month1,
      currency: 'EUR',
      status: 'draft',
      number: null,
      vendor: { name: 'Käserei Alm' },
      opening_balance_cents: 0,
      content_hash: null,
      finalized_at: null,
    });
    expect(s.period_start).toBe(monthStart(Number(month1.slice(0, 4)), Number(month1.slice(5)), TZ).toISOString());
    expect(s.entries.map((e: Entry) => e.kind)).toEqual(['earning', 'earning']);
    assertMath(s);
    expect(s.closing_balance_cents).toBe(await owed(vendorA));
    expect(s.totals.commission_cents).toBeGreaterThan(50);
    expect(s.totals.gross_sales_cents - s.totals.commission_cents).toBeGreaterThan(s.totals.earnings_cents);
    const earnings = await ok(await get(`/api/admin/vendor-earnings?vendor_id=${vendorA}`));
    const sum = (k: string) =>
      earnings.earnings.reduce((a: number, e: Record<string, number>) => a + (e[k] as number), 0);
    expect(s.totals).toMatchObject({
      earnings_cents: sum('amount_cents'),
      gross_sales_cents: sum('gross_cents'),
      commission_cents: sum('commission_cents'),
      clawbacks_cents: 0,
      payouts_cents: 0,
    });
    const order = await ok(await get(`/api/admin/orders/${order1}`));
    expect(s.entries[0]).toMatchObject({ order_number: order.order.number, date: localDate(now(), TZ) });
    expect(s.entries[0].description).toContain(order.order.number);
    m1Closing = s.closing_balance_cents;
  });

  it('cannot be finalized while the period runs; a second POST recomputes the draft (200)', async () => {
    expectProblem(await post(`/api/admin/vendor-statements/${s1}/finalize`), 409, 'period_open');
    const again = await post('/api/admin/vendor-statements', { vendor_id: vendorA, period: month1 });
    expect(again.statusCode).toBe(200);
    expect(again.data).toMatchObject({ id: s1, status: 'draft', closing_balance_cents: m1Closing });
  });

  it('the next month: release, clawback by credit note, payouts and a new order', async () => {
    await toNextMonth();
    month2 = periodOf(now());
    expect(month2).not.toBe(month1);
    await ok(await post('/api/admin/vendor-earnings/release', { vendor_id: vendorA }));
    // credit the first invoice line (the course, vendor A) in full
    const inv = await ok(await post(`/api/admin/orders/${order1}/invoice`, {}), 201);
    await ok(await post(`/api/admin/invoices/${inv.id}/finalize`));
    const cn = await ok(
      await post(`/api/admin/invoices/${inv.id}/credit-note`, { lines: [{ position: 1, quantity: 1 }] }),
      201,
    );
    const cnFinal = await ok(await post(`/api/admin/credit-notes/${cn.id}/finalize`));
    const paid = await ok(await post('/api/admin/vendor-payouts', { vendor_id: vendorA, amount_cents: 1000 }), 201);
    await ok(await post(`/api/admin/vendor-payouts/${paid.id}/process`));
    await ok(await post(`/api/admin/vendor-payouts/${paid.id}/mark-paid`, { reference: 'SEPA-1' }));
    const cancelled = await ok(await post('/api/admin/vendor-payouts', { vendor_id: vendorA, amount_cents: 300 }), 201);
    await ok(await post(`/api/admin/vendor-payouts/${cancelled.id}/cancel`));
    await paidOrder(t, f, { items: [{ product_id: f.products.cheese, quantity: 2 }] });

    // month 1 is unchanged by all of it, and may now be finalized
    const m1 = await ok(await post('/api/admin/vendor-statements', { vendor_id: vendorA, period: month1 }));
    expect(m1).toMatchObject({ id: s1, closing_balance_cents: m1Closing });

    const res = await post('/api/admin/vendor-statements', { vendor_id: vendorA, period: month2 });
    expect(res.statusCode).toBe(201);
    const s = res.data;
    s2 = s.id;
    expect(s.opening_balance_cents).toBe(m1Closing);
    // releases, the payout request and the cancellation change nothing owed: not listed
    expect(s.entries.map((e: Entry) => e.kind)).toEqual(['clawback', 'payout_paid', 'earning']);
    assertMath(s);
    const [claw, payout, earning] = s.entries as Entry[];
    expect(claw).toMatchObject({ credit_note_id: cn.id });
    expect(claw?.description).toBe(`Clawback, credit note ${cnFinal.number}`);
    expect(payout).toMatchObject({ amount_cents: -1000, payout_id: paid.id });
    expect(payout?.description).toContain('SEPA-1');
    expect(earning?.amount_cents).toBeGreaterThan(0);
    expect(s.totals.payouts_cents).toBe(1000);
    expect(s.totals.clawbacks_cents).toBeGreaterThan(0);
    expect(s.closing_balance_cents).toBe(await owed(vendorA));
    expect(s.closing_balance_cents).toBe(m1Closing + (earning?.amount_cents ?? 0) + (claw?.amount_cents ?? 0) - 1000);
  });

  it('finalizes month 1: numbered, hashed, immutable', async () => {
    const year = localDate(now(), TZ).slice(0, 4);
    const res = await post(`/api/admin/vendor-statements/${s1}/finalize`);
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({
      id: s1,
      status: 'final',
      number: `VS-${year}-0001`,
      closing_balance_cents: m1Closing,
      content_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      finalized_at: expect.any(String),
    });
    assertMath(res.data);
    expectProblem(await post(`/api/admin/vendor-statements/${s1}/finalize`), 409, 'invalid_state');
    expectProblem(
      await post('/api/admin/vendor-statements', { vendor_id: vendorA, period: month1 }),
      409,
      'statement_final',
    );
    expect((await get(`/api/admin/vendor-statements/${s1}`)).data).toEqual(res.data);
  });

  it('the database refuses any change to a final statement', async () => {
    await expect(
      db().execute(sql`UPDATE vendor_statements SET closing_balance_cents = 0 WHERE id = ${s1}`),
    ).rejects.toThrow();
    await expect(db().execute(sql`DELETE FROM vendor_statements WHERE id = ${s1}`)).rejects.toThrow();
    const read = await ok(await get(`/api/admin/vendor-statements/${s1}`));
    expect(read).toMatchObject({ status: 'final', closing_balance_cents: m1Closing });
  });

  it('month 2 is finalized after it ends, with the next number', async () => {
    expectProblem(await post(`/api/admin/vendor-statements/${s2}/finalize`), 409, 'period_open');
    const draft = await ok(await get(`/api/admin/vendor-statements/${s2}`));
    const firstYear = (await ok(await get(`/api/admin/vendor-statements/${s1}`))).number.slice(3, 7);
    await toNextMonth(1);
    const year = localDate(now(), TZ).slice(0, 4);
    const res = await ok(await post(`/api/admin/vendor-statements/${s2}/finalize`));
    expect(res.number).toBe(`VS-${year}-${year === firstYear ? '0002' : '0001'}`);
    expect(res).toMatchObject({
      opening_balance_cents: draft.opening_balance_cents,
      closing_balance_cents: draft.closing_balance_cents,
      entries: draft.entries,
    });
  });

  it('a month without activity: opening = closing, no entries', async () => {
    const quiet = periodOf(now());
    const res = await ok(await post('/api/admin/vendor-statements', { vendor_id: vendorA, period: quiet }), 201);
    expect(res.entries).toEqual([]);
    expect(res.opening_balance_cents).toBe(res.closing_balance_cents);
    expect(res.closing_balance_cents).toBe(await owed(vendorA));
  });

  it('renders the PDF from the stored statement, byte-identical every time', async () => {
    const a = await get(`/api/admin/vendor-statements/${s1}/pdf`);
    expect(a.statusCode).toBe(200);
    expect(a.headers['content-type']).toBe('application/pdf');
    expect(a.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const b = await get(`/api/admin/vendor-statements/${s1}/pdf`);
    expect(Buffer.compare(a.rawPayload, b.rawPayload)).toBe(0);
    const number = (await ok(await get(`/api/admin/vendor-statements/${s1}`))).number;
    expect(a.rawPayload.toString('latin1')).toContain(`Vendor statement ${number}`);
    // the vendor gets the same file
    const portal = await get(`/api/vendor/statements/${s1}/pdf`, sessionA);
    expect(Buffer.compare(a.rawPayload, portal.rawPayload)).toBe(0);

    const draft = await ok(await post('/api/admin/vendor-statements', { vendor_id: vendorB, period: month1 }), 201);
    const d = await get(`/api/admin/vendor-statements/${draft.id}/pdf`);
    expect(d.statusCode).toBe(200);
    expect(d.rawPayload.toString('latin1')).toContain('(draft)');
  });

  it('lists with filters; the vendor portal shows only the vendor’s final statements', async () => {
    const all = await ok(await get('/api/admin/vendor-statements'));
    expect(all.count).toBe(4);
    expect(all.statements[0]).not.toHaveProperty('entries');
    const finals = await ok(await get(`/api/admin/vendor-statements?vendor_id=${vendorA}&status=final`));
    expect(finals.statements.map((s: { id: string }) => s.id).sort()).toEqual([s1, s2].sort());
    const byPeriod = await ok(await get(`/api/admin/vendor-statements?period=${month1}`));
    expect(byPeriod.count).toBe(2);
    expectProblem(await get('/api/admin/vendor-statements?period=2026-13'), 400, 'validation_failed');

    const mine = await ok(await get('/api/vendor/statements', sessionA));
    expect(mine.statements.map((s: { id: string }) => s.id).sort()).toEqual([s1, s2].sort());
    expect((await ok(await get(`/api/vendor/statements/${s1}`, sessionA))).id).toBe(s1);
    // vendor B: its draft is not shown, and A's statements are 404
    const theirs = await ok(await get('/api/vendor/statements', sessionB));
    expect(theirs).toMatchObject({ statements: [], count: 0 });
    const draftB = (await ok(await get(`/api/admin/vendor-statements?vendor_id=${vendorB}`))).statements[0].id;
    expectProblem(await get(`/api/vendor/statements/${draftB}`, sessionB), 404, 'not_found');
    expectProblem(await get(`/api/vendor/statements/${s1}`, sessionB), 404, 'not_found');
    expectProblem(await get(`/api/vendor/statements/${s1}/pdf`, sessionB), 404, 'not_found');
    // a draft of A is not in A's portal either
    const quiet = (await ok(await get(`/api/admin/vendor-statements?vendor_id=${vendorA}&status=draft`))).statements[0];
    expectProblem(await get(`/api/vendor/statements/${quiet.id}`, sessionA), 404, 'not_found');
  });

  it('refuses a period not started, bad input, unknown vendors and every API token', async () => {
    const [y, m] = periodOf(now()).split('-').map(Number) as [number, number];
    const next = m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
    const future = await post('/api/admin/vendor-statements', { vendor_id: vendorA, period: next });
    expectProblem(future, 400, 'period_not_started');
    expect(future.data.errors[0].path).toBe('/body/period');
    expectProblem(
      await post('/api/admin/vendor-statements', { vendor_id: vendorA, period: '2026-3' }),
      400,
      'validation_failed',
    );
    expectProblem(
      await post('/api/admin/vendor-statements', { vendor_id: vendorA, period: month1, currency: 'euro' }),
      400,
      'validation_failed',
    );
    expectProblem(
      await post('/api/admin/vendor-statements', { vendor_id: 'ven_unknown', period: month1 }),
      404,
      'not_found',
    );
    expectProblem(await get('/api/admin/vendor-statements/stmt_unknown'), 404, 'not_found');
    expectProblem(await post('/api/admin/vendor-statements/stmt_unknown/finalize'), 404, 'not_found');

    for (const [method, url] of [
      ['GET', '/api/admin/vendor-statements'],
      ['GET', `/api/admin/vendor-statements/${s1}`],
      ['GET', `/api/admin/vendor-statements/${s1}/pdf`],
      ['POST', `/api/admin/vendor-statements/${s2}/finalize`],
      ['POST', '/api/admin/vendor-statements'],
    ] as const) {
      const res = await call(t.app, method, url, {
        token: financeToken,
        ...(method === 'POST' ? { body: { vendor_id: vendorA, period: month1 } } : {}),
      });
      expectProblem(res, 403, 'token_blocked');
    }
  });

  it('another shop sees none of it (404)', async () => {
    const other = await financeShop(t);
    expectProblem(await get(`/api/admin/vendor-statements/${s1}`, other.owner), 404, 'not_found');
    expectProblem(await get(`/api/admin/vendor-statements/${s1}/pdf`, other.owner), 404, 'not_found');
    expectProblem(
      await post('/api/admin/vendor-statements', { vendor_id: vendorA, period: month1 }, other.owner),
      404,
      'not_found',
    );
    expect((await ok(await get('/api/admin/vendor-statements', other.owner))).count).toBe(0);
  });
});
