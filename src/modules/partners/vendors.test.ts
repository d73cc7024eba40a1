/**
 * Vendors, admin side (issue #9): invitations, records, commission rule versions, earnings from
 * real paid orders, releases after the hold period, analytics to the cent, credentials, and
 * the ledger invariant.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  employeeToken,
  expectProblem,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { query } from '../../platform/db/tx.js';
import { type FinanceShop, financeShop, paidOrder } from '../finance/finance.fixtures.js';
import { inviteTokenFor } from './partners.fixtures.js';
import {
  advance,
  DAY,
  expectLedgerMatches,
  newVendor,
  orderLines,
  pct,
  type TestVendor,
  vendorProduct,
} from './vendors.fixtures.js';

let t: TestApp;
let f: FinanceShop;
const vendorIds: string[] = [];

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
});
afterAll(() => t.close());

const api = (method: string, url: string, body?: unknown, token?: string) =>
  call(t.app, method, url, { token: token ?? f.owner, ...(body !== undefined ? { body } : {}) });

async function vendor(name: string): Promise<TestVendor> {
  const v = await newVendor(t, f, name);
  vendorIds.push(v.id);
  return v;
}

async function earningsOf(orderId: string) {
  const res = await api('GET', `/api/admin/vendor-earnings?order_id=${orderId}&limit=200`);
  expect(res.statusCode).toBe(200);
  return res.data.earnings as Record<string, any>[];
}

describe('invitations and vendor records', () => {
  it('invites (201), re-invites with a fresh link (200), accepts, then refuses the e-mail (409)', async () => {
    const email = 'Haendler.Eins@vendor.test';
    const invited = await api('POST', '/api/admin/vendors/invite', { email, name: 'Händler Eins' });
    expect(invited.statusCode).toBe(201);
    expect(invited.data).toMatchObject({ email, name: 'Händler Eins', status: 'invited', accepted_at: null });
    expect(invited.data.id).toMatch(/^ven_/);
    expect(Object.keys(invited.data).sort()).toEqual(
      ['accepted_at', 'created_at', 'email', 'id', 'invited_at', 'name', 'status', 'updated_at'].sort(),
    );
    const first = await inviteTokenFor(t, 'vendor', email);

    const again = await api('POST', '/api/admin/vendors/invite', { email: email.toUpperCase(), name: 'Händler 1' });
    expect(again.statusCode).toBe(200);
    expect(again.data).toMatchObject({ id: invited.data.id, name: 'Händler 1', status: 'invited', email });
    const second = await inviteTokenFor(t, 'vendor', email);
    expect(second).not.toBe(first);
    // the earlier link stopped working
    expectProblem(
      await call(t.app, 'POST', '/api/vendor/auth/accept', { body: { token: first, password: 'vendor-pass-1' } }),
      400,
      'invite_invalid',
    );
    const accepted = await call(t.app, 'POST', '/api/vendor/auth/accept', {
      body: { token: second, password: 'vendor-pass-1' },
    });
    expect(accepted.statusCode).toBe(200);
    const me = await call(t.app, 'GET', '/api/vendor/me', { token: accepted.data.token });
    expect(me.data).toMatchObject({ id: invited.data.id, status: 'active', balances: [] });
    expect(me.data.accepted_at).toEqual(expect.any(String));

    expectProblem(await api('POST', '/api/admin/vendors/invite', { email, name: 'X' }), 409, 'vendor_exists');
    // another shop may invite the same e-mail
    const other = await createShop(t.app);
    const foreign = await api('POST', '/api/admin/vendors/invite', { email, name: 'Fremd' }, other.ownerToken);
    expect(foreign.statusCode).toBe(201);
    expectProblem(await api('GET', `/api/admin/vendors/${foreign.data.id}`), 404, 'not_found');
    expectProblem(
      await api('GET', `/api/admin/vendors/${invited.data.id}`, undefined, other.ownerToken),
      404,
      'not_found',
    );
    vendorIds.push(invited.data.id);
  });

  it('validates the invitation', async () => {
    for (const body of [
      { email: 'not-an-email', name: 'X' },
      { email: 'a@vendor.test' },
      { email: 'a@vendor.test', name: '' },
      { email: 'a@vendor.test', name: 'X', status: 'active' },
    ]) {
      expectProblem(await api('POST', '/api/admin/vendors/invite', body), 400, 'validation_failed');
    }
    const list = await api('GET', '/api/admin/vendors?q=a%40vendor.test');
    expect(list.data.count).toBe(0);
  });

  it('lists with status and q filters, pages, and balances', async () => {
    const a = await vendor('Liste Alpha');
    const invited = await api('POST', '/api/admin/vendors/invite', {
      email: 'pending_x@vendor.test',
      name: 'Liste Beta',
    });
    expect(invited.statusCode).toBe(201);
    const all = await api('GET', '/api/admin/vendors?q=liste');
    expect(all.statusCode).toBe(200);
    expect(all.data).toMatchObject({ count: 2, limit: 50, offset: 0 });
    expect(all.data.vendors.map((v: { id: string }) => v.id)).toEqual([invited.data.id, a.id]);
    expect(all.data.vendors[1]).toMatchObject({ id: a.id, status: 'active', balances: [] });
    const onlyInvited = await api('GET', '/api/admin/vendors?status=invited&q=liste');
    expect(onlyInvited.data.vendors.map((v: { id: string }) => v.id)).toEqual([invited.data.id]);
    const byEmail = await api('GET', `/api/admin/vendors?q=${encodeURIComponent(a.email.slice(0, 8))}`);
    expect(byEmail.data.vendors.map((v: { id: string }) => v.id)).toContain(a.id);
    // LIKE wildcards are literal
    expect((await api('GET', '/api/admin/vendors?q=%25')).data.count).toBe(0);
    expect((await api('GET', '/api/admin/vendors?q=pending_')).data.count).toBe(1);
    const page = await api('GET', '/api/admin/vendors?q=liste&limit=1&offset=1');
    expect(page.data).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(page.data.vendors.map((v: { id: string }) => v.id)).toEqual([a.id]);
    expectProblem(await api('GET', '/api/admin/vendors?status=gone'), 400, 'validation_failed');
    expectProblem(await api('GET', '/api/admin/vendors?limit=201'), 400, 'validation_failed');
  });

  it('PATCH renames, suspends (ending portal sessions) and reactivates; an invited vendor keeps its status', async () => {
    const v = await vendor('Patch Vendor');
    const renamed = await api('PATCH', `/api/admin/vendors/${v.id}`, { name: 'Patch Vendor GmbH' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.data).toMatchObject({ name: 'Patch Vendor GmbH', status: 'active' });

    const suspended = await api('PATCH', `/api/admin/vendors/${v.id}`, { status: 'suspended' });
    expect(suspended.data.status).toBe('suspended');
    expect((await call(t.app, 'GET', '/api/vendor/me', { token: v.token })).statusCode).toBe(401);
    const login = () =>
      call(t.app, 'POST', '/api/vendor/auth/login', { body: { email: v.email, password: 'partner-pass-1' } });
    expectProblem(await login(), 403, 'account_locked');

    const active = await api('PATCH', `/api/admin/vendors/${v.id}`, { status: 'active' });
    expect(active.data.status).toBe('active');
    const back = await login();
    expect(back.statusCode).toBe(200);
    expect((await call(t.app, 'GET', '/api/vendor/me', { token: back.data.token })).statusCode).toBe(200);

    const invited = await api('POST', '/api/admin/vendors/invite', {
      email: 'patch-invited@vendor.test',
      name: 'Offen',
    });
    for (const status of ['active', 'suspended']) {
      expectProblem(await api('PATCH', `/api/admin/vendors/${invited.data.id}`, { status }), 409, 'invalid_state');
    }
    expect((await api('PATCH', `/api/admin/vendors/${invited.data.id}`, { name: 'Offen 2' })).data).toMatchObject({
      name: 'Offen 2',
      status: 'invited',
    });
    expectProblem(await api('PATCH', `/api/admin/vendors/${v.id}`, { status: 'invited' }), 400, 'validation_failed');
    expectProblem(await api('PATCH', `/api/admin/vendors/${v.id}`, { email: 'x@y.test' }), 400, 'validation_failed');
    expectProblem(await api('PATCH', '/api/admin/vendors/ven_unknown', { name: 'X' }), 404, 'not_found');
  });
});

describe('commission rules', () => {
  it('validates the rule', async () => {
    const v = await vendor('Regel Check');
    const other = await createShop(t.app);
    const foreignCat = await api('POST', '/api/admin/categories', { name: 'Fremd' }, other.ownerToken);
    const rule = (body: unknown) => api('POST', `/api/admin/vendors/${v.id}/commission-rule`, body);
    const past = new Date(Date.now() - 86_400_000).toISOString();
    for (const [body, path] of [
      [{}, '/body/percent'],
      [{ category_id: 'cat_x' }, '/body/percent'],
      [{ percent: 100.5 }, '/body/percent'],
      [{ percent: -1 }, '/body/percent'],
      [{ percent: 12.345 }, '/body/percent'],
      [{ percent: '10' }, '/body/percent'],
      [{ fixed_cents: -1 }, '/body/fixed_cents'],
      [{ fixed_cents: 1.5 }, '/body/fixed_cents'],
      [{ percent: 10, effective_from: 'tomorrow' }, '/body/effective_from'],
      [{ percent: 10, effective_from: past }, '/body/effective_from'],
      [{ percent: 10, vendor_id: v.id }, '/body/vendor_id'],
    ] as const) {
      const res = await rule(body);
      expectProblem(res, 400, 'validation_failed');
      expect(res.data.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    const unknownCat = await rule({ percent: 10, category_id: foreignCat.data.id });
    expectProblem(unknownCat, 400, 'unknown_category');
    expect(unknownCat.data.errors).toEqual([{ path: '/body/category_id', message: 'is not a category of this shop' }]);
    expectProblem(
      await api('POST', '/api/admin/vendors/ven_unknown/commission-rule', { percent: 10 }),
      404,
      'not_found',
    );
    // nothing was stored
    expect((await api('GET', `/api/admin/vendors/${v.id}`)).data.commission_rules).toEqual({
      current: [],
      history: [],
    });
    // the edges are fine
    expect((await rule({ percent: 100 })).statusCode).toBe(201);
    expect((await rule({ percent: 0, fixed_cents: 0 })).statusCode).toBe(201);
    expect((await rule({ percent: 12.34 })).data.percent).toBe(12.34);
  });

  it('versions: a later rule leaves paid earnings alone, the next order uses it, a category rule beats the general one', async () => {
    const v = await vendor('Regel Versionen');
    const cat = (await api('POST', '/api/admin/categories', { name: 'Käse' })).data.id as string;
    const general = await vendorProduct(t, f, v.id, { base_price_cents: 9900 });
    const cheese = await vendorProduct(t, f, v.id, { base_price_cents: 999, tax_class: 'food', category_id: cat });
    const items = [
      { product_id: general, quantity: 1 },
      { product_id: cheese, quantity: 3 },
    ];

    const r1 = await api('POST', `/api/admin/vendors/${v.id}/commission-rule`, { percent: 10 });
    expect(r1.statusCode).toBe(201);
    expect(r1.data).toMatchObject({ vendor_id: v.id, category_id: null, percent: 10, fixed_cents: 0 });
    expect(r1.data.id).toMatch(/^vrule_/);
    expect(r1.data.created_by).toBe(f.shop.ownerId);

    const order1 = await paidOrder(t, f, { items });
    const lines1 = await orderLines(t, f, order1);
    const before = await earningsOf(order1);
    expect(before).toHaveLength(2);
    for (const l of lines1) {
      const e = before.find((x) => x.order_line_id === l.id);
      const commission = pct(l.net_cents, 10);
      expect(e).toMatchObject({
        vendor_id: v.id,
        order_id: order1,
        currency: 'EUR',
        gross_cents: l.line_total_cents,
        net_cents: l.net_cents,
        commission_cents: commission,
        amount_cents: l.net_cents - commission,
        reversed_cents: 0,
        rate_percent: 10,
        status: 'pending',
        released_at: null,
      });
    }

    const r2 = await api('POST', `/api/admin/vendors/${v.id}/commission-rule`, { percent: 20, fixed_cents: 50 });
    const r3 = await api('POST', `/api/admin/vendors/${v.id}/commission-rule`, { percent: 5, category_id: cat });
    const future = new Date(Date.now() + 400 * DAY * 1000).toISOString();
    const r4 = await api('POST', `/api/admin/vendors/${v.id}/commission-rule`, {
      percent: 50,
      effective_from: future,
    });
    expect([r2.statusCode, r3.statusCode, r4.statusCode]).toEqual([201, 201, 201]);
    expect(r3.data).toMatchObject({ category_id: cat, category_name: 'Käse', percent: 5, fixed_cents: 0 });
    expect(new Date(r4.data.effective_from).toISOString()).toBe(future);

    // the paid order keeps the rule it was paid under
    expect(await earningsOf(order1)).toEqual(before);

    const order2 = await paidOrder(t, f, { items });
    const lines2 = await orderLines(t, f, order2);
    const after = await earningsOf(order2);
    const lineOf = (productId: string) => lines2.find((l) => l.product_id === productId) as (typeof lines2)[number];
    const g = lineOf(general);
    const c = lineOf(cheese);
    expect(after.find((e) => e.order_line_id === g.id)).toMatchObject({
      commission_cents: pct(g.net_cents, 20) + 50,
      amount_cents: g.net_cents - pct(g.net_cents, 20) - 50,
      rate_percent: 20,
    });
    expect(after.find((e) => e.order_line_id === c.id)).toMatchObject({
      commission_cents: pct(c.net_cents, 5),
      amount_cents: c.net_cents - pct(c.net_cents, 5),
      rate_percent: 5,
    });

    const detail = await api('GET', `/api/admin/vendors/${v.id}`);
    expect(detail.statusCode).toBe(200);
    expect(detail.data.commission_rules.current.map((r: { id: string }) => r.id)).toEqual([r2.data.id, r3.data.id]);
    expect(detail.data.commission_rules.history.map((r: { id: string }) => r.id)).toEqual([
      r4.data.id,
      r3.data.id,
      r2.data.id,
      r1.data.id,
    ]);
    const owed = [...before, ...after].reduce((s, e) => s + e.amount_cents, 0);
    expect(detail.data.balances).toEqual([
      {
        currency: 'EUR',
        pending_cents: owed,
        available_cents: 0,
        in_payout_cents: 0,
        paid_out_cents: 0,
        earned_cents: owed,
        owed_cents: owed,
      },
    ]);
    await expectLedgerMatches(t, f, v.id);
  });

  it('no rule means no commission; a line without a vendor earns nothing', async () => {
    const v = await vendor('Ohne Regel');
    const own = await vendorProduct(t, f, v.id);
    const shopOwn = await vendorProduct(t, f, null);
    const order = await paidOrder(t, f, {
      items: [
        { product_id: own, quantity: 2 },
        { product_id: shopOwn, quantity: 1 },
      ],
    });
    const lines = await orderLines(t, f, order);
    const line = lines.find((l) => l.product_id === own) as (typeof lines)[number];
    const earnings = await earningsOf(order);
    expect(earnings).toHaveLength(1);
    expect(earnings[0]).toMatchObject({
      order_line_id: line.id,
      commission_cents: 0,
      rate_percent: 0,
      amount_cents: line.net_cents,
      gross_cents: 5000,
    });
  });
});

describe('earnings and their release', () => {
  let a: TestVendor;
  let b: TestVendor;
  let aOld: string[];
  let bOld: string[];

  it('lists with filters', async () => {
    a = await vendor('Release A');
    b = await vendor('Release B');
    const pa = await vendorProduct(t, f, a.id, { base_price_cents: 1190 });
    const pb = await vendorProduct(t, f, b.id, { base_price_cents: 2380 });
    const o1 = await paidOrder(t, f, {
      items: [
        { product_id: pa, quantity: 1 },
        { product_id: pb, quantity: 1 },
      ],
    });
    const o2 = await paidOrder(t, f, { items: [{ product_id: pa, quantity: 2 }] });
    const list = await api('GET', `/api/admin/vendor-earnings?vendor_id=${a.id}`);
    expect(list.data).toMatchObject({ count: 2, limit: 50, offset: 0 });
    // newest first
    expect(list.data.earnings.map((e: { order_id: string }) => e.order_id)).toEqual([o2, o1]);
    expect(list.data.earnings[1]).toMatchObject({ gross_cents: 1190, net_cents: 1000, amount_cents: 1000 });
    aOld = list.data.earnings.map((e: { id: string }) => e.id);
    bOld = (await api('GET', `/api/admin/vendor-earnings?vendor_id=${b.id}`)).data.earnings.map(
      (e: { id: string }) => e.id,
    );
    expect(bOld).toHaveLength(1);

    const ids = async (qs: string) =>
      (await api('GET', `/api/admin/vendor-earnings?${qs}`)).data.earnings.map((e: { id: string }) => e.id);
    expect(await ids(`vendor_id=${a.id}&order_id=${o1}`)).toEqual([aOld[1]]);
    expect(await ids(`vendor_id=${a.id}&status=released`)).toEqual([]);
    expect(await ids(`vendor_id=${a.id}&status=pending&currency=EUR`)).toEqual(aOld);
    expect(await ids(`vendor_id=${a.id}&currency=CHF`)).toEqual([]);
    const today = new Date().toISOString().slice(0, 10);
    expect(await ids(`vendor_id=${a.id}&from=${today}&to=${today}`)).toEqual(aOld);
    expect(await ids(`vendor_id=${a.id}&to=2020-01-01`)).toEqual([]);
    expect(await ids(`vendor_id=${a.id}&from=2020-01-01T00:00:00Z`)).toEqual(aOld);
    expect((await api('GET', `/api/admin/vendor-earnings?vendor_id=${a.id}&limit=1&offset=1`)).data).toMatchObject({
      count: 2,
      earnings: [{ id: aOld[1] }],
    });
    for (const qs of [
      'from=yesterday',
      'to=2026-13-45',
      'status=paid',
      'from=2026-02-01&to=2026-01-01',
      'currency=eur',
    ]) {
      expectProblem(await api('GET', `/api/admin/vendor-earnings?${qs}`), 400, 'validation_failed');
    }
  });

  it('releases after the hold period: all due, per vendor, or exactly the given ids', async () => {
    // within the hold period (14 days) nothing is due
    const none = await api('POST', '/api/admin/vendor-earnings/release', { vendor_id: a.id });
    expect(none.data).toEqual({ released: 0, amounts: [], earnings: [] });

    await advance(t, 15 * DAY);
    const pa = await vendorProduct(t, f, a.id, { base_price_cents: 595 });
    const fresh = await paidOrder(t, f, { items: [{ product_id: pa, quantity: 1 }] });
    const [freshEarning] = await earningsOf(fresh);

    const releasedA = await api('POST', '/api/admin/vendor-earnings/release', { vendor_id: a.id });
    expect(releasedA.statusCode).toBe(200);
    expect(releasedA.data.released).toBe(2);
    expect(releasedA.data.earnings.map((e: { id: string }) => e.id).sort()).toEqual([...aOld].sort());
    expect(releasedA.data.amounts).toEqual([{ currency: 'EUR', amount_cents: 3000 }]);
    for (const e of releasedA.data.earnings) expect(e).toMatchObject({ status: 'released', vendor_id: a.id });
    // B and A's fresh earning are still pending
    expect((await api('GET', `/api/admin/vendor-earnings?vendor_id=${b.id}`)).data.earnings[0].status).toBe('pending');
    expect(freshEarning?.status).toBe('pending');

    // one bad id refuses the whole release, naming it
    const bad = await api('POST', '/api/admin/vendor-earnings/release', {
      earning_ids: [freshEarning?.id, aOld[0], 'earn_unknown'],
    });
    expectProblem(bad, 409, 'not_releasable');
    expect(bad.data.detail).toContain(aOld[0]);
    expect(bad.data.detail).toContain('earn_unknown');
    expect(bad.data.detail).not.toContain(freshEarning?.id);
    expect((await earningsOf(fresh))[0]?.status).toBe('pending');
    // another vendor's earning with vendor_id, or another shop's earning id
    expectProblem(
      await api('POST', '/api/admin/vendor-earnings/release', { earning_ids: [bOld[0]], vendor_id: a.id }),
      409,
      'not_releasable',
    );
    const other = await createShop(t.app);
    expectProblem(
      await api('POST', '/api/admin/vendor-earnings/release', { earning_ids: [freshEarning?.id] }, other.ownerToken),
      409,
      'not_releasable',
    );
    expectProblem(
      await api('POST', '/api/admin/vendor-earnings/release', { vendor_id: 'ven_unknown' }),
      404,
      'not_found',
    );
    for (const body of [{ earning_ids: [] }, { earning_ids: ['a', 'a'] }, { vendor: a.id }]) {
      expectProblem(await api('POST', '/api/admin/vendor-earnings/release', body), 400, 'validation_failed');
    }

    // exact ids ignore the hold period
    const byId = await api('POST', '/api/admin/vendor-earnings/release', { earning_ids: [freshEarning?.id] });
    expect(byId.data).toMatchObject({ released: 1, amounts: [{ currency: 'EUR', amount_cents: 500 }] });
    // everything due of every vendor
    const rest = await api('POST', '/api/admin/vendor-earnings/release', {});
    expect(rest.data.earnings.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(bOld));
    expect((await api('GET', `/api/admin/vendor-earnings?vendor_id=${b.id}&status=pending`)).data.count).toBe(0);
    // released twice: nothing more
    expect((await api('POST', '/api/admin/vendor-earnings/release', { vendor_id: a.id })).data.released).toBe(0);

    const detail = await api('GET', `/api/admin/vendors/${a.id}`);
    expect(detail.data.balances).toEqual([
      {
        currency: 'EUR',
        pending_cents: 0,
        available_cents: 3500,
        in_payout_cents: 0,
        paid_out_cents: 0,
        earned_cents: 3500,
        owed_cents: 3500,
      },
    ]);
    await expectLedgerMatches(t, f, a.id);
    await expectLedgerMatches(t, f, b.id);
  });
});

describe('credit notes and analytics', () => {
  it('a credit note claws back the earnings; analytics add up to the cent', async () => {
    const v = await vendor('Analyse');
    const idle = await vendor('Analyse Ohne Umsatz');
    await api('POST', `/api/admin/vendors/${v.id}/commission-rule`, { percent: 12.5, fixed_cents: 10 });
    const p1 = await vendorProduct(t, f, v.id, { base_price_cents: 4999 });
    const p2 = await vendorProduct(t, f, v.id, { base_price_cents: 1234, tax_class: 'books' });
    const kept = await paidOrder(t, f, {
      items: [
        { product_id: p1, quantity: 2 },
        { product_id: p2, quantity: 1 },
      ],
    });
    const credited = await paidOrder(t, f, { items: [{ product_id: p1, quantity: 1 }] });

    // full credit note on the second order
    const inv = await api('POST', `/api/admin/orders/${credited}/invoice`, {});
    expect(inv.statusCode).toBe(201);
    expect((await api('POST', `/api/admin/invoices/${inv.data.id}/finalize`)).statusCode).toBe(200);
    const cn = await api('POST', `/api/admin/invoices/${inv.data.id}/credit-note`, {});
    expect(cn.statusCode).toBe(201);
    expect((await api('POST', `/api/admin/credit-notes/${cn.data.id}/finalize`)).statusCode).toBe(200);

    const all = [...(await earningsOf(kept)), ...(await earningsOf(credited))];
    const creditedEarning = all.find((e) => e.order_id === credited) as Record<string, any>;
    expect(creditedEarning.reversed_cents).toBe(creditedEarning.amount_cents);
    const sum = (k: string) => all.reduce((s, e) => s + e[k], 0);
    const keptEarnings = all.filter((e) => e.order_id === kept);
    const pending = keptEarnings.reduce((s, e) => s + e.amount_cents, 0);

    const now = await advance(t, 1);
    const from = new Date(now.getTime() - 3_600_000).toISOString();
    const to = new Date(now.getTime() + 3_600_000).toISOString();
    const res = await api('GET', `/api/admin/vendor-analytics?from=${from}&to=${to}&vendor_id=${v.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({
      from: new Date(from).toISOString(),
      to: new Date(to).toISOString(),
      vendors: [
        {
          vendor_id: v.id,
          name: 'Analyse',
          currency: 'EUR',
          gross_sales_cents: 2 * 4999 + 1234 + 4999,
          net_sales_cents: sum('net_cents'),
          commission_cents: sum('commission_cents'),
          earnings_cents: sum('amount_cents'),
          clawbacks_cents: creditedEarning.amount_cents,
          orders: 2,
          lines: 3,
          pending_cents: pending,
          available_cents: 0,
          in_payout_cents: 0,
          paid_out_cents: 0,
        },
      ],
    });
    // the commission: 12.5 % of each line's net plus 10 cents
    for (const e of all) expect(e.commission_cents).toBe(pct(e.net_cents, 12.5) + 10);

    // a period before the orders: no sales, but the current balances
    const early = await api('GET', `/api/admin/vendor-analytics?from=2020-01-01&to=2020-01-31&vendor_id=${v.id}`);
    expect(early.data).toMatchObject({ from: '2020-01-01T00:00:00.000Z', to: '2020-02-01T00:00:00.000Z' });
    expect(early.data.vendors).toEqual([
      expect.objectContaining({ gross_sales_cents: 0, orders: 0, clawbacks_cents: 0, pending_cents: pending }),
    ]);

    // default: this month; every vendor appears, one without business with zeros
    const month = await api('GET', '/api/admin/vendor-analytics');
    const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    expect(month.data.from).toBe(start.toISOString());
    expect(month.data.to).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    expect(month.data.vendors.find((r: { vendor_id: string }) => r.vendor_id === idle.id)).toEqual({
      vendor_id: idle.id,
      name: 'Analyse Ohne Umsatz',
      currency: 'EUR',
      gross_sales_cents: 0,
      net_sales_cents: 0,
      commission_cents: 0,
      earnings_cents: 0,
      clawbacks_cents: 0,
      orders: 0,
      lines: 0,
      pending_cents: 0,
      available_cents: 0,
      in_payout_cents: 0,
      paid_out_cents: 0,
    });
    // only `from`: its month
    expect((await api('GET', '/api/admin/vendor-analytics?from=2025-03-10')).data).toMatchObject({
      from: '2025-03-10T00:00:00.000Z',
      to: '2025-04-01T00:00:00.000Z',
    });
    expectProblem(await api('GET', '/api/admin/vendor-analytics?vendor_id=ven_unknown'), 404, 'not_found');
    expectProblem(
      await api('GET', '/api/admin/vendor-analytics?from=2026-02-01&to=2026-01-01'),
      400,
      'validation_failed',
    );
    await expectLedgerMatches(t, f, v.id);
  });
});

describe('credentials (docs/partners.md, Routes)', () => {
  it('finance:read reads vendors, earnings and analytics; every token is refused on mutations', async () => {
    const v = vendorIds[0] as string;
    const finance = await apiToken(t.app, f.shop, ['finance:read']);
    const catalog = await apiToken(t.app, f.shop, ['catalog:read', 'catalog:write']);
    const viewer = await employeeToken(t.app, f.shop, 'viewer');
    const editor = await employeeToken(t.app, f.shop, 'catalog_editor');
    const admin = await employeeToken(t.app, f.shop, 'admin');
    const reads = [
      '/api/admin/vendors',
      `/api/admin/vendors/${v}`,
      '/api/admin/vendor-earnings',
      '/api/admin/vendor-analytics',
    ];
    for (const url of reads) {
      expect((await api('GET', url, undefined, finance)).statusCode).toBe(200);
      expect((await api('GET', url, undefined, admin)).statusCode).toBe(200);
      expectProblem(await api('GET', url, undefined, catalog), 403, 'scope_denied');
      expectProblem(await api('GET', url, undefined, viewer), 403, 'role_denied');
      expectProblem(await api('GET', url, undefined, editor), 403, 'role_denied');
    }
    const mutations: [string, string, unknown][] = [
      ['POST', '/api/admin/vendors/invite', { email: 'tok@vendor.test', name: 'Tok' }],
      ['PATCH', `/api/admin/vendors/${v}`, { name: 'Tok' }],
      ['POST', `/api/admin/vendors/${v}/commission-rule`, { percent: 1 }],
      ['POST', '/api/admin/vendor-earnings/release', {}],
    ];
    for (const [method, url, body] of mutations) {
      for (const token of [finance, catalog]) expectProblem(await api(method, url, body, token), 403, 'token_blocked');
      expectProblem(await api(method, url, body, viewer), 403, 'role_denied');
    }
    // the refused calls changed nothing
    expect((await api('GET', '/api/admin/vendors?q=tok%40vendor')).data.count).toBe(0);
    expect((await api('GET', `/api/admin/vendors/${v}`)).data.name).not.toBe('Tok');
    // an admin (not only the owner) may manage vendors
    expect((await api('PATCH', `/api/admin/vendors/${v}`, { name: 'Händler Eins' }, admin)).statusCode).toBe(200);
  });
});

describe('ledger invariant', () => {
  it('for every vendor, postings per account equal the balances shown and sum to zero; every transaction balances', async () => {
    expect(vendorIds.length).toBeGreaterThan(5);
    for (const id of vendorIds) await expectLedgerMatches(t, f, id);
    const unbalanced = await query(
      t.app.deps.database.db,
      sql`SELECT transaction_id FROM ledger_postings GROUP BY transaction_id HAVING sum(amount_cents) <> 0`,
    );
    expect(unbalanced).toEqual([]);
  });
});
