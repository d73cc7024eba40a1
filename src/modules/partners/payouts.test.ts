/**
 * Partner settings and payouts over HTTP against the real app and database: money comes from
 * real paid orders (checkout + hosted page), the hold period passes on the simulated clock and
 * earnings are released; then vendor payouts (create → process → paid, cancel), every refused
 * transition, insufficient balance, concurrent payouts, affiliate payout requests (minimum, one
 * open request, cancel and request again), portal isolation and the token rules. After every
 * step the API balances equal the sums of the ledger postings to the cent, and the ledger sums
 * to zero.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  employeeToken,
  expectProblem,
  PLATFORM_TOKEN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { query } from '../../platform/db/tx.js';
import { type FinanceShop, financeShop, paidOrder } from '../finance/finance.fixtures.js';
import { acceptInvite, inviteVendor, ok, twoVendors } from './partners.fixtures.js';

let t: TestApp;
let f: FinanceShop;
let vendorA = '';
let vendorB = '';
let sessionA = '';
let sessionB = '';
let affiliateId = '';
let affiliateSession = '';
let financeToken = '';

const db = () => t.app.deps.database.db;
const get = (url: string, token = f.owner) => call(t.app, 'GET', url, { token });
const post = (url: string, body?: unknown, token = f.owner) => call(t.app, 'POST', url, { token, body });

async function advanceDays(days: number) {
  await ok(
    await call(t.app, 'POST', '/api/platform/clock/advance', {
      token: PLATFORM_TOKEN,
      body: { seconds: days * 86_400 },
    }),
  );
}

interface Bal {
  pending_cents: number;
  available_cents: number;
  in_payout_cents: number;
  paid_out_cents: number;
  earned_cents: number;
  owed_cents: number;
}

/** The partner's EUR balance as the admin API shows it. */
async function apiBalance(type: 'vendor' | 'affiliate', id: string): Promise<Bal> {
  const data = await ok(await get(`/api/admin/${type === 'vendor' ? 'vendors' : 'affiliates'}/${id}`));
  const b = (data.balances as (Bal & { currency: string })[]).find((x) => x.currency === 'EUR');
  return (
    b ?? { pending_cents: 0, available_cents: 0, in_payout_cents: 0, paid_out_cents: 0, earned_cents: 0, owed_cents: 0 }
  );
}

/** The sums of the partner's postings per account, straight from the table. */
async function postingSums(type: 'vendor' | 'affiliate', id: string) {
  const rows = await query<{ account: string; total: number | string }>(
    db(),
    sql`SELECT account, sum(amount_cents)::bigint AS total FROM ledger_postings
        WHERE shop_id = ${f.shop.shopId} AND partner_type = ${type} AND partner_id = ${id} AND currency = 'EUR'
        GROUP BY account`,
  );
  const s: Record<string, number> = { pending: 0, available: 0, in_payout: 0, paid_out: 0, expense: 0 };
  for (const r of rows) s[r.account] = Number(r.total);
  return s;
}

/** API balance = sums of postings, to the cent; the partner's postings and the whole ledger sum to 0. */
async function assertLedger(type: 'vendor' | 'affiliate', id: string): Promise<Bal> {
  const b = await apiBalance(type, id);
  const s = await postingSums(type, id);
  expect(b).toMatchObject({
    pending_cents: s.pending,
    available_cents: s.available,
    in_payout_cents: s.in_payout,
    paid_out_cents: s.paid_out,
    earned_cents: -(s.expense as number),
    owed_cents: (s.pending as number) + (s.available as number) + (s.in_payout as number),
  });
  expect(Object.values(s).reduce((a, v) => a + v, 0)).toBe(0);
  const [all] = await query<{ total: number | string | null }>(
    db(),
    sql`SELECT sum(amount_cents)::bigint AS total FROM ledger_postings WHERE shop_id = ${f.shop.shopId}`,
  );
  expect(Number(all?.total ?? 0)).toBe(0);
  return b;
}

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
  ({ vendorA, sessionA, vendorB, sessionB } = await twoVendors(t, f));
  const email = `blog-${Math.random().toString(36).slice(2, 6)}@aff.test`;
  const aff = await ok(
    await post('/api/admin/affiliates', { name: 'Blog', email, code: 'BLOG10', commission_percent: 10 }),
    201,
  );
  affiliateId = aff.id;
  await ok(await post('/api/admin/affiliates/invite', { email }));
  affiliateSession = await acceptInvite(t, 'affiliate', email);
  financeToken = await apiToken(t.app, f.shop, ['finance:read']);

  // two paid orders (both vendors, the affiliate on the first), then past both hold periods
  await paidOrder(t, f, { affiliate_code: 'blog10' });
  await paidOrder(t, f);
  await advanceDays(31);
  await ok(await post('/api/admin/vendor-earnings/release', {}));
  await ok(await post('/api/admin/affiliate-earnings/release', {}));
});
afterAll(() => t.close());

describe('partner settings', () => {
  it('starts with the defaults', async () => {
    const res = await get('/api/admin/settings/partners');
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({
      vendor_hold_days: 14,
      affiliate_hold_days: 30,
      affiliate_min_payout_cents: 5000,
      referral_base_url: null,
      updated_at: null,
    });
  });

  it('sets only the given fields and keeps the rest', async () => {
    const put = (body: unknown) => call(t.app, 'PUT', '/api/admin/settings/partners', { token: f.owner, body });
    const a = await put({ vendor_hold_days: 7, referral_base_url: 'https://partner.example/r' });
    expect(a.statusCode).toBe(200);
    expect(a.data).toMatchObject({
      vendor_hold_days: 7,
      affiliate_hold_days: 30,
      affiliate_min_payout_cents: 5000,
      referral_base_url: 'https://partner.example/r',
    });
    expect(a.data.updated_at).toEqual(expect.any(String));
    const b = await put({ affiliate_hold_days: 0, referral_base_url: null });
    expect(b.data).toMatchObject({ vendor_hold_days: 7, affiliate_hold_days: 0, referral_base_url: null });
    expect((await get('/api/admin/settings/partners')).data).toEqual(b.data);
    await put({ vendor_hold_days: 14, affiliate_hold_days: 30 });
  });

  it('refuses out-of-range values, a non-https URL and unknown fields', async () => {
    const put = (body: unknown) => call(t.app, 'PUT', '/api/admin/settings/partners', { token: f.owner, body });
    for (const [body, path] of [
      [{ vendor_hold_days: 366 }, '/body/vendor_hold_days'],
      [{ affiliate_hold_days: -1 }, '/body/affiliate_hold_days'],
      [{ affiliate_min_payout_cents: -5 }, '/body/affiliate_min_payout_cents'],
      [{ referral_base_url: 'http://partner.example' }, '/body/referral_base_url'],
      [{ vendor_hold_days: '7' }, '/body/vendor_hold_days'],
    ] as const) {
      const res = await put(body);
      expectProblem(res, 400, 'validation_failed');
      expect(res.data.errors[0].path).toBe(path);
    }
    expectProblem(await put({ hold_days: 3 }), 400, 'validation_failed');
    expect((await get('/api/admin/settings/partners')).data.vendor_hold_days).toBe(14);
  });

  it('needs an owner or admin session; tokens are refused', async () => {
    const viewer = await employeeToken(t.app, f.shop, 'viewer');
    expectProblem(await get('/api/admin/settings/partners', viewer), 403, 'role_denied');
    const put = await call(t.app, 'PUT', '/api/admin/settings/partners', {
      token: financeToken,
      body: { vendor_hold_days: 1 },
    });
    expectProblem(put, 403, 'token_blocked');
  });
});

describe('vendor payouts', () => {
  it('reserve, process and pay: every step moves the ledger, balances = postings', async () => {
    const before = await assertLedger('vendor', vendorA);
    expect(before.available_cents).toBeGreaterThan(2000);
    expect(before.pending_cents).toBe(0);

    const created = await post('/api/admin/vendor-payouts', { vendor_id: vendorA, amount_cents: 1500, note: 'März' });
    expect(created.statusCode).toBe(201);
    expect(created.data).toMatchObject({
      vendor_id: vendorA,
      currency: 'EUR',
      amount_cents: 1500,
      status: 'pending',
      requested_by: 'admin',
      reference: null,
      note: 'März',
      processing_at: null,
      paid_at: null,
      cancelled_at: null,
    });
    const id = created.data.id as string;
    let b = await assertLedger('vendor', vendorA);
    expect(b).toMatchObject({
      available_cents: before.available_cents - 1500,
      in_payout_cents: 1500,
      paid_out_cents: 0,
      owed_cents: before.owed_cents,
    });

    const processing = await post(`/api/admin/vendor-payouts/${id}/process`);
    expect(processing.statusCode).toBe(200);
    expect(processing.data).toMatchObject({ status: 'processing', processing_at: expect.any(String) });
    b = await assertLedger('vendor', vendorA);
    expect(b.in_payout_cents).toBe(1500);

    expectProblem(await post(`/api/admin/vendor-payouts/${id}/mark-paid`, {}), 400, 'validation_failed');
    expectProblem(
      await post(`/api/admin/vendor-payouts/${id}/mark-paid`, { reference: 'x'.repeat(141) }),
      400,
      'validation_failed',
    );
    const paid = await post(`/api/admin/vendor-payouts/${id}/mark-paid`, { reference: 'SEPA-2026-0001' });
    expect(paid.statusCode).toBe(200);
    expect(paid.data).toMatchObject({ status: 'paid', reference: 'SEPA-2026-0001', paid_at: expect.any(String) });
    b = await assertLedger('vendor', vendorA);
    expect(b).toMatchObject({
      available_cents: before.available_cents - 1500,
      in_payout_cents: 0,
      paid_out_cents: 1500,
      owed_cents: before.owed_cents - 1500,
      earned_cents: before.earned_cents,
    });

    // one ledger entry per step, keyed by the payout
    const entries = await query<{ kind: string; idem_key: string }>(
      db(),
      sql`SELECT kind, idem_key FROM ledger_transactions WHERE payout_id = ${id} ORDER BY occurred_at, id`,
    );
    expect(entries).toEqual([
      { kind: 'payout_requested', idem_key: `payout:${id}:requested` },
      { kind: 'payout_paid', idem_key: `payout:${id}:paid` },
    ]);

    const read = await get(`/api/admin/vendor-payouts/${id}`);
    expect(read.data).toEqual(paid.data);
  });

  it('cancelling (from pending or processing) returns the amount to available', async () => {
    const before = await assertLedger('vendor', vendorA);
    const a = await ok(await post('/api/admin/vendor-payouts', { vendor_id: vendorA, amount_cents: 700 }), 201);
    const c1 = await post(`/api/admin/vendor-payouts/${a.id}/cancel`);
    expect(c1.statusCode).toBe(200);
    expect(c1.data).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(String) });
    expect(await assertLedger('vendor', vendorA)).toEqual(before);

    // without amount: the whole available balance
    const all = await ok(await post('/api/admin/vendor-payouts', { vendor_id: vendorA }), 201);
    expect(all.amount_cents).toBe(before.available_cents);
    expect((await assertLedger('vendor', vendorA)).available_cents).toBe(0);
    await ok(await post(`/api/admin/vendor-payouts/${all.id}/process`));
    await ok(await post(`/api/admin/vendor-payouts/${all.id}/cancel`));
    expect(await assertLedger('vendor', vendorA)).toEqual(before);
  });

  it('refuses every transition the table does not have (409 invalid_state), changing nothing', async () => {
    const mk = async () =>
      (await ok(await post('/api/admin/vendor-payouts', { vendor_id: vendorA, amount_cents: 100 }), 201)).id;
    const pending = await mk();
    const processing = await mk();
    await ok(await post(`/api/admin/vendor-payouts/${processing}/process`));
    const paid = await mk();
    await ok(await post(`/api/admin/vendor-payouts/${paid}/process`));
    await ok(await post(`/api/admin/vendor-payouts/${paid}/mark-paid`, { reference: 'R1' }));
    const cancelled = await mk();
    await ok(await post(`/api/admin/vendor-payouts/${cancelled}/cancel`));
    const before = await assertLedger('vendor', vendorA);

    const ref = { reference: 'R2' };
    const refused: [string, string, unknown, string, string][] = [
      [pending, 'mark-paid', ref, 'pending', 'paid'],
      [processing, 'process', undefined, 'processing', 'processing'],
      [paid, 'process', undefined, 'paid', 'processing'],
      [paid, 'mark-paid', ref, 'paid', 'paid'],
      [paid, 'cancel', undefined, 'paid', 'cancelled'],
      [cancelled, 'process', undefined, 'cancelled', 'processing'],
      [cancelled, 'mark-paid', ref, 'cancelled', 'paid'],
      [cancelled, 'cancel', undefined, 'cancelled', 'cancelled'],
    ];
    for (const [id, step, body, from, to] of refused) {
      const res = await post(`/api/admin/vendor-payouts/${id}/${step}`, body);
      expectProblem(res, 409, 'invalid_state');
      expect(res.data.detail).toBe(`A vendor payout in state ${from} cannot become ${to}`);
    }
    expect(await assertLedger('vendor', vendorA)).toEqual(before);
    expect((await get(`/api/admin/vendor-payouts/${paid}`)).data).toMatchObject({ status: 'paid', reference: 'R1' });
    // clean up the open ones
    await ok(await post(`/api/admin/vendor-payouts/${pending}/cancel`));
    await ok(await post(`/api/admin/vendor-payouts/${processing}/cancel`));
  });

  it('refuses more than the available balance (409 insufficient_balance) and bad input', async () => {
    const { available_cents: available } = await assertLedger('vendor', vendorA);
    const over = await post('/api/admin/vendor-payouts', { vendor_id: vendorA, amount_cents: available + 1 });
    expectProblem(over, 409, 'insufficient_balance');
    expectProblem(
      await post('/api/admin/vendor-payouts', { vendor_id: vendorA, amount_cents: 0 }),
      400,
      'validation_failed',
    );
    expectProblem(
      await post('/api/admin/vendor-payouts', { vendor_id: vendorA, amount_cents: 10, extra: 1 }),
      400,
      'validation_failed',
    );
    expectProblem(await post('/api/admin/vendor-payouts', { vendor_id: 'ven_unknown' }), 404, 'not_found');
    expectProblem(await post('/api/admin/vendor-payouts/po_unknown/process'), 404, 'not_found');
    // an affiliate payout id is not a vendor payout
    // a vendor with nothing available
    const empty = await inviteVendor(t, f.owner, 'Leer');
    expectProblem(await post('/api/admin/vendor-payouts', { vendor_id: empty.id }), 409, 'insufficient_balance');
    expect(await assertLedger('vendor', vendorA)).toMatchObject({ available_cents: available });
  });

  it('concurrent payouts never reserve more than is available', async () => {
    const { available_cents: available } = await assertLedger('vendor', vendorB);
    expect(available).toBeGreaterThan(0);
    const share = Math.floor(available / 3) + 1; // three fit only twice
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => post('/api/admin/vendor-payouts', { vendor_id: vendorB, amount_cents: share })),
    );
    const created = results.filter((r) => r.statusCode === 201);
    const refused = results.filter((r) => r.statusCode === 409);
    expect(created).toHaveLength(2);
    expect(refused).toHaveLength(2);
    for (const r of refused) expect(r.data.code).toBe('insufficient_balance');
    const b = await assertLedger('vendor', vendorB);
    expect(b).toMatchObject({ available_cents: available - 2 * share, in_payout_cents: 2 * share });
    expect(b.available_cents).toBeGreaterThanOrEqual(0);
    for (const r of created) await ok(await post(`/api/admin/vendor-payouts/${r.data.id}/cancel`));
    expect((await assertLedger('vendor', vendorB)).available_cents).toBe(available);
  });

  it('lists with filters and pagination, newest first', async () => {
    const all = await ok(await get(`/api/admin/vendor-payouts?vendor_id=${vendorA}&limit=200`));
    expect(all.count).toBeGreaterThanOrEqual(7);
    expect(all.payouts.every((p: { vendor_id: string }) => p.vendor_id === vendorA)).toBe(true);
    const times = all.payouts.map((p: { created_at: string }) => p.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    const paid = await ok(await get(`/api/admin/vendor-payouts?vendor_id=${vendorA}&status=paid`));
    expect(paid.payouts.map((p: { status: string }) => p.status)).toEqual(['paid', 'paid']);
    expect(paid.count).toBe(2);
    const pageTwo = await ok(await get(`/api/admin/vendor-payouts?vendor_id=${vendorA}&limit=2&offset=2`));
    expect(pageTwo).toMatchObject({ count: all.count, limit: 2, offset: 2 });
    expect(pageTwo.payouts.map((p: { id: string }) => p.id)).toEqual(
      all.payouts.slice(2, 4).map((p: { id: string }) => p.id),
    );
    expectProblem(await get('/api/admin/vendor-payouts?status=done'), 400, 'validation_failed');
    expectProblem(await get('/api/admin/vendor-payouts?limit=201'), 400, 'validation_failed');
  });

  it('refuses every API token on the vendor payout routes, finance:read included', async () => {
    expectProblem(await get('/api/admin/vendor-payouts', financeToken), 403, 'token_blocked');
    const list = await ok(await get(`/api/admin/vendor-payouts?vendor_id=${vendorA}&limit=1`));
    const id = list.payouts[0].id;
    expectProblem(await get(`/api/admin/vendor-payouts/${id}`, financeToken), 403, 'token_blocked');
    expectProblem(
      await post('/api/admin/vendor-payouts', { vendor_id: vendorA, amount_cents: 1 }, financeToken),
      403,
      'token_blocked',
    );
    const viewer = await employeeToken(t.app, f.shop, 'viewer');
    expectProblem(await get('/api/admin/vendor-payouts', viewer), 403, 'role_denied');
    const admin = await employeeToken(t.app, f.shop, 'admin');
    expect((await get('/api/admin/vendor-payouts', admin)).statusCode).toBe(200);
  });
});

describe('vendor portal', () => {
  it('a vendor sees only their own payouts; another vendor’s is 404', async () => {
    const mine = await ok(await post('/api/admin/vendor-payouts', { vendor_id: vendorB, amount_cents: 100 }), 201);
    const listB = await ok(await get('/api/vendor/payouts', sessionB));
    // the newest first: this one, then the two of the concurrency test
    expect(listB.payouts[0]).toEqual(mine);
    expect(listB.count).toBe(3);
    expect(listB.payouts.every((p: { vendor_id: string }) => p.vendor_id === vendorB)).toBe(true);
    expect((await get(`/api/vendor/payouts/${mine.id}`, sessionB)).data).toEqual(mine);

    const listA = await ok(await get('/api/vendor/payouts?limit=200', sessionA));
    expect(listA.payouts.length).toBeGreaterThan(0);
    expect(listA.payouts.every((p: { vendor_id: string }) => p.vendor_id === vendorA)).toBe(true);
    expectProblem(await get(`/api/vendor/payouts/${mine.id}`, sessionA), 404, 'not_found');
    const paidA = await ok(await get('/api/vendor/payouts?status=paid', sessionA));
    expect(paidA.count).toBe(2);
    await ok(await post(`/api/admin/vendor-payouts/${mine.id}/cancel`));

    // portal credentials do not reach the admin routes, and vice versa
    expectProblem(await get('/api/admin/vendor-payouts', sessionA), 403, 'credential_denied');
    expectProblem(await get('/api/vendor/payouts'), 403, 'credential_denied');
  });
});

describe('affiliate payouts', () => {
  const setMin = async (cents: number) =>
    ok(
      await call(t.app, 'PUT', '/api/admin/settings/partners', {
        token: f.owner,
        body: { affiliate_min_payout_cents: cents },
      }),
    );
  const request = (body: unknown = {}) => post('/api/affiliate/payouts/request', body, affiliateSession);

  it('needs the minimum payout', async () => {
    const b = await assertLedger('affiliate', affiliateId);
    expect(b.available_cents).toBeGreaterThan(0);
    await setMin(b.available_cents + 1);
    const res = await request();
    expectProblem(res, 409, 'below_minimum');
    expect(res.data.detail).toContain(((b.available_cents + 1) / 100).toFixed(2));
    await setMin(100);
    const small = await request({ amount_cents: 99 });
    expectProblem(small, 409, 'below_minimum');
    expect(small.data.detail).toContain('1.00 EUR');
    expectProblem(await request({ amount_cents: b.available_cents + 1 }), 409, 'insufficient_balance');
    expect(await assertLedger('affiliate', affiliateId)).toEqual(b);
  });

  it('one open request at a time; cancel returns the money; then a new request works', async () => {
    const before = await assertLedger('affiliate', affiliateId);
    const first = await request();
    expect(first.statusCode).toBe(201);
    expect(first.data).toMatchObject({
      affiliate_id: affiliateId,
      currency: 'EUR',
      amount_cents: before.available_cents,
      status: 'pending',
      requested_by: 'partner',
    });
    expect(await assertLedger('affiliate', affiliateId)).toMatchObject({
      available_cents: 0,
      in_payout_cents: before.available_cents,
    });
    expectProblem(await request(), 409, 'payout_open');

    const cancelled = await post(`/api/admin/affiliate-payouts/${first.data.id}/cancel`);
    expect(cancelled.data).toMatchObject({ status: 'cancelled', cancelled_at: expect.any(String) });
    expect(await assertLedger('affiliate', affiliateId)).toEqual(before);
    expectProblem(await post(`/api/admin/affiliate-payouts/${first.data.id}/cancel`), 409, 'invalid_state');
    expectProblem(
      await post(`/api/admin/affiliate-payouts/${first.data.id}/mark-paid`, { reference: 'X' }),
      409,
      'invalid_state',
    );

    const second = await request({ amount_cents: 150 });
    expect(second.statusCode).toBe(201);
    const paid = await post(`/api/admin/affiliate-payouts/${second.data.id}/mark-paid`, { reference: 'PP-77' });
    expect(paid.statusCode).toBe(200);
    expect(paid.data).toMatchObject({ status: 'paid', reference: 'PP-77', paid_at: expect.any(String) });
    expect(await assertLedger('affiliate', affiliateId)).toMatchObject({
      available_cents: before.available_cents - 150,
      in_payout_cents: 0,
      paid_out_cents: 150,
    });
    expectProblem(await post(`/api/admin/affiliate-payouts/${second.data.id}/cancel`), 409, 'invalid_state');
    // paid: the next request may be made
    const third = await ok(await request({ amount_cents: 100 }), 201);
    await ok(await post(`/api/admin/affiliate-payouts/${third.id}/cancel`));
  });

  it('concurrent requests: exactly one wins', async () => {
    const before = await assertLedger('affiliate', affiliateId);
    const results = await Promise.all([1, 2, 3].map(() => request({ amount_cents: 100 })));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 201)) expectProblem(r, 409, 'payout_open');
    const won = results.find((r) => r.statusCode === 201);
    await ok(await post(`/api/admin/affiliate-payouts/${won?.data.id}/cancel`));
    expect(await assertLedger('affiliate', affiliateId)).toEqual(before);
  });

  it('lists for the admin (session or finance:read token) and the affiliate’s own list', async () => {
    const admin = await ok(await get(`/api/admin/affiliate-payouts?affiliate_id=${affiliateId}`));
    expect(admin.count).toBe(4);
    const byToken = await ok(await get(`/api/admin/affiliate-payouts?affiliate_id=${affiliateId}`, financeToken));
    expect(byToken).toEqual(admin);
    const paid = await ok(await get('/api/admin/affiliate-payouts?status=paid', financeToken));
    expect(paid.payouts.map((p: { reference: string }) => p.reference)).toEqual(['PP-77']);
    const one = await ok(await get(`/api/admin/affiliate-payouts/${paid.payouts[0].id}`, financeToken));
    expect(one).toEqual(paid.payouts[0]);
    // the token reads, but never changes
    expectProblem(
      await post(`/api/admin/affiliate-payouts/${paid.payouts[0].id}/cancel`, undefined, financeToken),
      403,
      'token_blocked',
    );
    const catalogToken = await apiToken(t.app, f.shop, ['catalog:read']);
    expectProblem(await get('/api/admin/affiliate-payouts', catalogToken), 403, 'scope_denied');

    const own = await ok(await get('/api/affiliate/payouts', affiliateSession));
    expect(own.payouts.map((p: { id: string }) => p.id)).toEqual(admin.payouts.map((p: { id: string }) => p.id));
    expect((await get(`/api/affiliate/payouts/${paid.payouts[0].id}`, affiliateSession)).statusCode).toBe(200);
    // a vendor payout is not an affiliate payout, for the admin nor the affiliate
    const vendorPayout = (await ok(await get(`/api/admin/vendor-payouts?vendor_id=${vendorA}&limit=1`))).payouts[0];
    expectProblem(await get(`/api/affiliate/payouts/${vendorPayout.id}`, affiliateSession), 404, 'not_found');
    expectProblem(await post(`/api/admin/affiliate-payouts/${vendorPayout.id}/cancel`), 404, 'not_found');
  });

  it('a blocked affiliate cannot request (403 affiliate_blocked)', async () => {
    // blocking through the API ends the sessions; this proves the service refuses on its own too
    await db().execute(sql`UPDATE affiliates SET status = 'blocked' WHERE id = ${affiliateId}`);
    try {
      expectProblem(await request({ amount_cents: 100 }), 403, 'affiliate_blocked');
    } finally {
      await db().execute(sql`UPDATE affiliates SET status = 'active' WHERE id = ${affiliateId}`);
    }
  });
});
