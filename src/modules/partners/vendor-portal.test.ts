/**
 * The vendor portal (issue #9): a vendor sees its own data only — its lines of shared orders,
 * never another vendor's lines or the order's totals; another vendor's order is 404.
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
import { BILLING, type FinanceShop, financeShop, paidOrder } from '../finance/finance.fixtures.js';
import { expectLedgerMatches, newVendor, orderLines, type TestVendor, vendorProduct } from './vendors.fixtures.js';

let t: TestApp;
let f: FinanceShop;
let a: TestVendor;
let b: TestVendor;
/** A's products: physical (tracked stock), digital, with variants; B's product. */
let aPhysical: string;
let aDigital: string;
let aVariants: string;
let bProduct: string;
/** An order with lines of A, B and the shop; an order of B alone. */
let mixed: string;
let bOnly: string;

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
  a = await newVendor(t, f, 'Portal A');
  b = await newVendor(t, f, 'Portal B');
  aPhysical = await vendorProduct(t, f, a.id, {
    name: 'Honig 500 g',
    sku: 'A-HONIG',
    is_digital: false,
    tax_class: 'food',
    base_price_cents: 1070,
    track_stock: true,
    stock_quantity: 10,
  });
  aDigital = await vendorProduct(t, f, a.id, { name: 'Rezeptheft PDF', base_price_cents: 1190 });
  aVariants = await vendorProduct(t, f, a.id, {
    name: 'Schürze',
    is_digital: false,
    options: [{ name: 'Größe', values: ['S', 'M'] }],
    variants: [
      { option_values: { Größe: 'S' }, stock_quantity: 3 },
      { option_values: { Größe: 'M' }, stock_quantity: 4 },
    ],
  });
  bProduct = await vendorProduct(t, f, b.id, { name: 'B-Ware', base_price_cents: 2380 });
  mixed = await paidOrder(t, f, {
    shipping: true,
    items: [
      { product_id: aPhysical, quantity: 2 },
      { product_id: bProduct, quantity: 1 },
      { product_id: f.products.course, quantity: 1 },
      { product_id: aDigital, quantity: 1 },
    ],
  });
  bOnly = await paidOrder(t, f, { items: [{ product_id: bProduct, quantity: 2 }] });
});
afterAll(() => t.close());

const as = (v: TestVendor, url: string) => call(t.app, 'GET', url, { token: v.token });

describe('orders', () => {
  it("lists only orders with the vendor's lines, and only those lines, without the order's totals", async () => {
    const res = await as(a, '/api/vendor/orders');
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ count: 1, limit: 50, offset: 0 });
    const [order] = res.data.orders;
    const lines = await orderLines(t, f, mixed);
    const own = lines.filter((l) => [aPhysical, aDigital].includes(l.product_id));
    expect(Object.keys(order).sort()).toEqual(
      [
        'created_at',
        'currency',
        'id',
        'lines',
        'number',
        'paid_at',
        'requires_shipping',
        'shipping_address',
        'status',
        'vendor_total_cents',
      ].sort(),
    );
    expect(order).toMatchObject({
      id: mixed,
      status: 'paid',
      currency: 'EUR',
      requires_shipping: true,
      shipping_address: expect.objectContaining({ name: BILLING.name, city: BILLING.city, country: 'DE' }),
      vendor_total_cents: 2 * 1070 + 1190,
    });
    expect(order.paid_at).toEqual(expect.any(String));
    expect(order.lines.map((l: { id: string }) => l.id)).toEqual(own.map((l) => l.id));
    expect(order.lines[0]).toMatchObject({
      product_id: aPhysical,
      name: 'Honig 500 g',
      sku: 'A-HONIG',
      quantity: 2,
      unit_price_cents: 1070,
      line_total_cents: 2140,
      tax_rate: 0.07,
      tax_cents: 140,
      net_cents: 2000,
      is_digital: false,
    });
    expect(JSON.stringify(res.data)).not.toContain(bProduct);
    expect(JSON.stringify(res.data)).not.toContain(f.products.course);

    const one = await as(a, `/api/vendor/orders/${mixed}`);
    expect(one.statusCode).toBe(200);
    expect(one.data).toEqual(order);

    const bList = await as(b, '/api/vendor/orders');
    expect(bList.data.orders.map((o: { id: string }) => o.id)).toEqual([bOnly, mixed]);
    const bMixed = bList.data.orders[1];
    expect(bMixed.lines.map((l: { product_id: string }) => l.product_id)).toEqual([bProduct]);
    expect(bMixed.vendor_total_cents).toBe(2380);
    expect(bList.data.orders[0]).toMatchObject({ requires_shipping: false, shipping_address: null });
  });

  it("answers another vendor's order, an unknown one and another shop's with 404", async () => {
    expectProblem(await as(a, `/api/vendor/orders/${bOnly}`), 404, 'not_found');
    expectProblem(await as(a, '/api/vendor/orders/ord_unknown'), 404, 'not_found');
    const g = await financeShop(t);
    const c = await newVendor(t, g, 'Portal C');
    const foreign = await paidOrder(t, g, { items: [{ product_id: g.products.course, quantity: 1 }] });
    expectProblem(await as(a, `/api/vendor/orders/${foreign}`), 404, 'not_found');
    expectProblem(await as(c, `/api/vendor/orders/${mixed}`), 404, 'not_found');
    expect((await as(c, '/api/vendor/orders')).data).toMatchObject({ orders: [], count: 0 });
    expect((await as(c, '/api/vendor/earnings')).data).toMatchObject({ earnings: [], count: 0 });
    expect((await as(c, '/api/vendor/products')).data).toMatchObject({ products: [], count: 0 });
  });

  it('pages', async () => {
    const page = await as(b, '/api/vendor/orders?limit=1&offset=1');
    expect(page.data).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(page.data.orders.map((o: { id: string }) => o.id)).toEqual([mixed]);
    expectProblem(await as(b, '/api/vendor/orders?limit=0'), 400, 'validation_failed');
  });
});

describe('products, earnings, ledger', () => {
  it("lists the vendor's live products with their stock", async () => {
    const gone = await vendorProduct(t, f, a.id, { name: 'Gelöscht' });
    expect((await call(t.app, 'DELETE', `/api/products/${gone}`, { token: f.owner })).statusCode).toBe(204);
    const res = await as(a, '/api/vendor/products');
    expect(res.statusCode).toBe(200);
    expect(res.data.count).toBe(3);
    const byId = new Map(res.data.products.map((p: { id: string }) => [p.id, p]));
    expect(res.data.products.map((p: { id: string }) => p.id)).toEqual([aVariants, aDigital, aPhysical]);
    expect(byId.get(aPhysical)).toMatchObject({
      name: 'Honig 500 g',
      sku: 'A-HONIG',
      status: 'published',
      base_price_cents: 1070,
      is_digital: false,
      stock: 8,
    });
    expect(byId.get(aDigital)).toMatchObject({ stock: null, is_digital: true });
    expect(byId.get(aVariants)).toMatchObject({ stock: 7 });
    expect(Object.keys(byId.get(aPhysical) as object).sort()).toEqual(
      [
        'base_price_cents',
        'created_at',
        'id',
        'is_digital',
        'name',
        'sku',
        'slug',
        'status',
        'stock',
        'updated_at',
      ].sort(),
    );
    const bRes = await as(b, '/api/vendor/products');
    expect(bRes.data.products.map((p: { id: string }) => p.id)).toEqual([bProduct]);
  });

  it('shows only its own earnings and ledger', async () => {
    const res = await as(a, '/api/vendor/earnings');
    expect(res.statusCode).toBe(200);
    expect(res.data.count).toBe(2);
    const mixedNumber = (await call(t.app, 'GET', `/api/admin/orders/${mixed}`, { token: f.owner })).data.order.number;
    for (const e of res.data.earnings) {
      expect(e).toMatchObject({ vendor_id: a.id, order_id: mixed, order_number: mixedNumber, status: 'pending' });
    }
    expect(res.data.earnings.map((e: { amount_cents: number }) => e.amount_cents).sort()).toEqual([1000, 2000]);
    expect((await as(a, '/api/vendor/earnings?status=released')).data.count).toBe(0);
    expect((await as(a, `/api/vendor/earnings?order_id=${bOnly}`)).data.count).toBe(0);
    // another vendor's id is not a filter of the portal
    expectProblem(await as(a, `/api/vendor/earnings?vendor_id=${b.id}`), 400, 'validation_failed');
    const bEarnings = await as(b, '/api/vendor/earnings');
    expect(bEarnings.data.count).toBe(2);
    for (const e of bEarnings.data.earnings) expect(e.vendor_id).toBe(b.id);

    const ledger = await as(a, '/api/vendor/ledger');
    expect(ledger.statusCode).toBe(200);
    expect(ledger.data).toMatchObject({ count: 2, limit: 50, offset: 0 });
    for (const entry of ledger.data.entries) {
      expect(entry).toMatchObject({ kind: 'earning', currency: 'EUR', order_id: mixed });
      expect(entry.postings.reduce((s: number, p: { amount_cents: number }) => s + p.amount_cents, 0)).toBe(0);
    }
    const earningIds = res.data.earnings.map((e: { id: string }) => e.id).sort();
    expect(ledger.data.entries.map((e: { earning_id: string }) => e.earning_id).sort()).toEqual(earningIds);
    expect((await as(a, '/api/vendor/ledger?currency=CHF')).data.count).toBe(0);
    expect((await as(a, '/api/vendor/ledger?to=2020-01-01')).data.count).toBe(0);
    expect((await as(a, '/api/vendor/ledger?limit=1&offset=1')).data.entries).toHaveLength(1);
    expectProblem(await as(a, '/api/vendor/ledger?from=never'), 400, 'validation_failed');

    const me = await as(a, '/api/vendor/me');
    expect(me.data).toMatchObject({ id: a.id, name: 'Portal A', email: a.email, status: 'active' });
    expect(me.data.balances).toEqual([
      {
        currency: 'EUR',
        pending_cents: 3000,
        available_cents: 0,
        in_payout_cents: 0,
        paid_out_cents: 0,
        earned_cents: 3000,
        owed_cents: 3000,
      },
    ]);
    await expectLedgerMatches(t, f, a.id);
    await expectLedgerMatches(t, f, b.id);
  });

  it('dashboard: balances, sales, counts and the last orders', async () => {
    const res = await as(a, '/api/vendor/dashboard');
    expect(res.statusCode).toBe(200);
    const sales = [{ currency: 'EUR', gross_cents: 2 * 1070 + 1190, earnings_cents: 3000, orders: 1 }];
    expect(res.data).toMatchObject({
      sales_last_30_days: sales,
      sales_this_month: sales,
      products: 3,
      pending_earnings: 2,
    });
    expect(res.data.balances).toEqual((await as(a, '/api/vendor/me')).data.balances);
    expect(res.data.recent_orders).toEqual((await as(a, '/api/vendor/orders')).data.orders);
    const bDash = await as(b, '/api/vendor/dashboard');
    expect(bDash.data.sales_last_30_days).toEqual([
      { currency: 'EUR', gross_cents: 3 * 2380, earnings_cents: 6000, orders: 2 },
    ]);
    expect(bDash.data.recent_orders.map((o: { id: string }) => o.id)).toEqual([bOnly, mixed]);
  });
});

describe("the admin's view of one vendor (products, orders, ledger)", () => {
  const admin = (url: string, token = f.owner) => call(t.app, 'GET', url, { token });

  it('shows what the portal shows, for any vendor of the shop', async () => {
    for (const [v, what] of [
      [a, 'products'],
      [a, 'orders'],
      [a, 'ledger'],
      [b, 'orders'],
      [b, 'ledger'],
    ] as const) {
      const mine = await as(v, `/api/vendor/${what}`);
      const res = await admin(`/api/admin/vendors/${v.id}/${what}`);
      expect(res.statusCode).toBe(200);
      expect(res.data).toEqual(mine.data);
    }
    const orders = await admin(`/api/admin/vendors/${b.id}/orders?limit=1&offset=1`);
    expect(orders.data).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(orders.data.orders.map((o: { id: string }) => o.id)).toEqual([mixed]);
    // only B's line of the mixed order
    expect(orders.data.orders[0].lines.map((l: { product_id: string }) => l.product_id)).toEqual([bProduct]);
    expect((await admin(`/api/admin/vendors/${a.id}/ledger?currency=CHF`)).data.count).toBe(0);
    expect((await admin(`/api/admin/vendors/${a.id}/ledger?limit=1`)).data.entries).toHaveLength(1);
  });

  it('400 for bad paging or dates, 404 for an unknown vendor or one of another shop', async () => {
    expectProblem(await admin(`/api/admin/vendors/${a.id}/products?limit=0`), 400, 'validation_failed');
    expectProblem(await admin(`/api/admin/vendors/${a.id}/orders?offset=-1`), 400, 'validation_failed');
    expectProblem(await admin(`/api/admin/vendors/${a.id}/ledger?from=never`), 400, 'validation_failed');
    expectProblem(await admin(`/api/admin/vendors/${a.id}/ledger?vendor_id=x`), 400, 'validation_failed');
    for (const what of ['products', 'orders', 'ledger']) {
      expectProblem(await admin(`/api/admin/vendors/ven_unknown/${what}`), 404, 'not_found');
    }
    const other = await createShop(t.app);
    for (const what of ['products', 'orders', 'ledger']) {
      expectProblem(await admin(`/api/admin/vendors/${a.id}/${what}`, other.ownerToken), 404, 'not_found');
    }
  });

  it('refuses a viewer, a catalog token and the vendor itself; a finance:read token may read', async () => {
    const viewer = await employeeToken(t.app, f.shop, 'viewer');
    const catalog = await apiToken(t.app, f.shop, ['catalog:read']);
    const finance = await apiToken(t.app, f.shop, ['finance:read']);
    for (const what of ['products', 'orders', 'ledger']) {
      const url = `/api/admin/vendors/${a.id}/${what}`;
      expectProblem(await admin(url, viewer), 403, 'role_denied');
      expectProblem(await admin(url, catalog), 403, 'scope_denied');
      expectProblem(await admin(url, a.token), 403, 'credential_denied');
      expect((await admin(url, finance)).statusCode).toBe(200);
      expect((await call(t.app, 'GET', url)).statusCode).toBe(401);
    }
  });
});

describe('access', () => {
  it('refuses a vendor whose account is no longer active, and every other credential', async () => {
    const db = t.app.deps.database.db;
    // suspended by other means than PATCH (which also ends the sessions): the portal still refuses
    await db.execute(sql`UPDATE vendors SET status = 'suspended' WHERE id = ${a.id}`);
    for (const url of [
      '/api/vendor/me',
      '/api/vendor/dashboard',
      '/api/vendor/orders',
      `/api/vendor/orders/${mixed}`,
    ]) {
      expectProblem(await as(a, url), 403, 'vendor_inactive');
    }
    await db.execute(sql`UPDATE vendors SET status = 'active' WHERE id = ${a.id}`);
    expect((await as(a, '/api/vendor/me')).statusCode).toBe(200);

    expectProblem(await call(t.app, 'GET', '/api/vendor/me', { token: f.owner }), 403, 'credential_denied');
    expect((await call(t.app, 'GET', '/api/vendor/me')).statusCode).toBe(401);
    // the cookie works too
    const cookie = await call(t.app, 'GET', '/api/vendor/me', { cookies: { vsid: a.token } });
    expect(cookie.statusCode).toBe(200);
  });
});
