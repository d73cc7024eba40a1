/**
 * Checkout abuse limits (issue 16): a hosted session holds stock for CHECKOUT_RESERVATION_MINUTES
 * (simulated clock), and session creation is limited per publishable key and client address.
 */
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  createShop,
  employeeToken,
  expectProblem,
  PLATFORM_TOKEN,
  type Response,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { awayFromWindowEdge } from '../../../test/helpers/rate-window.js';
import { type App, buildApp } from '../../app.js';

let t: TestApp;
let shop: ShopFixture;
let shipping: string;
let lastUnit: string;

const billing = { name: 'Erika Muster', line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' };

/** A hosted checkout session from one client address. */
async function checkout(
  address: string,
  items: unknown[],
  app: App = t.app,
  headers: Record<string, string> = {},
): Promise<Response> {
  const req: InjectOptions = {
    method: 'POST',
    url: '/api/store/checkout-sessions',
    remoteAddress: address,
    headers: { authorization: `Bearer ${shop.publishableKey}`, origin: STORE_ORIGIN, ...headers },
    payload: {
      items,
      customer: { email: 'buyer@mail.test' },
      shipping_address: billing,
      shipping_method_id: shipping,
      return_url: `${STORE_ORIGIN}/danke`,
    },
  };
  const res = (await app.inject(req)) as Response;
  res.data = res.body ? JSON.parse(res.body) : null;
  return res;
}

const advance = (seconds: number) =>
  call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds } });

beforeAll(async () => {
  t = await startApp({ CHECKOUT_RESERVATION_MINUTES: '10', CHECKOUT_SESSION_RATE_LIMIT: '3' });
  shop = await createShop(t.app);
  const owner = shop.ownerToken;
  await call(t.app, 'PUT', '/api/admin/digital/status', { token: owner, body: { aktiv: true } });
  shipping = (
    await call(t.app, 'POST', '/api/admin/shipping-methods', {
      token: owner,
      body: { name: 'DHL', price_cents: 490, countries: ['DE'] },
    })
  ).data.id;
  const p = await call(t.app, 'POST', '/api/products', {
    token: owner,
    body: { name: 'Letztes Stück', status: 'published', base_price_cents: 5000, track_stock: true, stock_quantity: 1 },
  });
  lastUnit = p.data.id;
  await call(t.app, 'PATCH', `/api/products/${lastUnit}/channels/${shop.defaultChannelId}`, {
    token: owner,
    body: { is_published: true },
  });
});
afterAll(() => t.close());

describe('hosted reservations last CHECKOUT_RESERVATION_MINUTES', () => {
  it('holds the stock for the configured minutes, then the expiry job gives it back', async () => {
    const before = t.app.deps.clock.now().getTime();
    const held = await checkout('198.51.100.1', [{ product_id: lastUnit, quantity: 1 }]);
    expect(held.statusCode).toBe(201);
    const holds = new Date(held.data.expires_at).getTime() - before;
    expect(holds).toBeGreaterThanOrEqual(10 * 60_000);
    expect(holds).toBeLessThan(10 * 60_000 + 5_000);
    expectProblem(await checkout('198.51.100.1', [{ product_id: lastUnit, quantity: 1 }]), 409, 'out_of_stock');
    await advance(9 * 60);
    expectProblem(await checkout('198.51.100.2', [{ product_id: lastUnit, quantity: 1 }]), 409, 'out_of_stock');
    await advance(2 * 60);
    const again = await checkout('198.51.100.2', [{ product_id: lastUnit, quantity: 1 }]);
    expect(again.statusCode).toBe(201);
    expect((await call(t.app, 'GET', `/pay/${held.data.id}`)).statusCode).toBe(410);
  });
});

describe('per-line quantity maximum (shop setting, default 20)', () => {
  it('refuses a line above the maximum with 400 naming the line, and creates nothing', async () => {
    const p = await call(t.app, 'POST', '/api/products', {
      token: shop.ownerToken,
      body: { name: 'Viel', status: 'published', base_price_cents: 100, track_stock: true, stock_quantity: 500 },
    });
    await call(t.app, 'PATCH', `/api/products/${p.data.id}/channels/${shop.defaultChannelId}`, {
      token: shop.ownerToken,
      body: { is_published: true },
    });
    const settings = await call(t.app, 'GET', '/api/admin/settings/checkout', { token: shop.ownerToken });
    expect(settings.data).toEqual({ max_line_quantity: 20, hosted_reservation_minutes: 10 });
    const over = await checkout('192.0.2.10', [
      { product_id: p.data.id, quantity: 20 },
      { product_id: p.data.id, quantity: 21 },
    ]);
    expectProblem(over, 400, 'quantity_limit');
    expect(over.data.errors).toEqual([{ path: '/body/items/1/quantity', message: 'must be at most 20' }]);
    const stock = await call(t.app, 'GET', `/api/admin/products/${p.data.id}`, { token: shop.ownerToken });
    expect(stock.data.product.stock_quantity).toBe(500);
    expect((await checkout('192.0.2.10', [{ product_id: p.data.id, quantity: 20 }])).statusCode).toBe(201);

    // the shop sets its own maximum; the body is validated
    const bad = await call(t.app, 'PUT', '/api/admin/settings/checkout', {
      token: shop.ownerToken,
      body: { max_line_quantity: 0 },
    });
    expectProblem(bad, 400, 'validation_failed');
    const set = await call(t.app, 'PUT', '/api/admin/settings/checkout', {
      token: shop.ownerToken,
      body: { max_line_quantity: 2 },
    });
    expect(set.data).toEqual({ max_line_quantity: 2, hosted_reservation_minutes: 10 });
    const now = await checkout('192.0.2.11', [{ product_id: p.data.id, quantity: 3 }]);
    expectProblem(now, 400, 'quantity_limit');
    expect(now.data.errors[0].path).toBe('/body/items/0/quantity');
    // a viewer may not change it
    const viewer = await employeeToken(t.app, shop, 'viewer');
    expectProblem(
      await call(t.app, 'PUT', '/api/admin/settings/checkout', { token: viewer, body: { max_line_quantity: 50 } }),
      403,
      'role_denied',
    );
  });
});

describe('the maximum is per product and variant, summed over the lines (issue 26)', () => {
  /** A published product of the default channel; `variants` makes a product with two variants. */
  async function product(body: Record<string, unknown>) {
    const p = await call(t.app, 'POST', '/api/products', {
      token: shop.ownerToken,
      body: { status: 'published', base_price_cents: 100, track_stock: true, ...body },
    });
    expect(p.statusCode, p.body).toBe(201);
    await call(t.app, 'PATCH', `/api/products/${p.data.id}/channels/${shop.defaultChannelId}`, {
      token: shop.ownerToken,
      body: { is_published: true },
    });
    return p.data as { id: string; variants: { id: string; sku: string }[] };
  }
  const stockOf = async (id: string) =>
    (await call(t.app, 'GET', `/api/admin/products/${id}`, { token: shop.ownerToken })).data.product;

  it('five lines of 20 of one product are 400 quantity_limit naming the lines past 20; nothing is held', async () => {
    await call(t.app, 'PUT', '/api/admin/settings/checkout', {
      token: shop.ownerToken,
      body: { max_line_quantity: 20 },
    });
    const p = await product({ name: 'Hundert', stock_quantity: 100 });
    const five = Array.from({ length: 5 }, () => ({ product_id: p.id, quantity: 20 }));
    const over = await checkout('192.0.2.40', five);
    expectProblem(over, 400, 'quantity_limit');
    expect(over.data.errors.map((e: { path: string }) => e.path)).toEqual([
      '/body/items/1/quantity',
      '/body/items/2/quantity',
      '/body/items/3/quantity',
      '/body/items/4/quantity',
    ]);
    expect(over.data.errors[0].message).toContain('at most 20');
    expect((await stockOf(p.id)).stock_quantity).toBe(100);
    // 20 and 1 more on a second line is over too; the split that stays within 20 is a session
    expectProblem(
      await checkout('192.0.2.41', [
        { product_id: p.id, quantity: 20 },
        { product_id: p.id, quantity: 1 },
      ]),
      400,
      'quantity_limit',
    );
    const twoLines = await checkout('192.0.2.43', [
      { product_id: p.id, quantity: 12 },
      { product_id: p.id, quantity: 8 },
    ]);
    expect(twoLines.statusCode, twoLines.body).toBe(201);
    expect(twoLines.data.lines.map((l: { quantity: number }) => l.quantity)).toEqual([12, 8]);
    // another product has its own 20
    const q = await product({ name: 'Andere', stock_quantity: 100 });
    const both = await checkout('192.0.2.44', [
      { product_id: p.id, quantity: 20 },
      { product_id: q.id, quantity: 20 },
    ]);
    expect(both.statusCode, both.body).toBe(201);
  });

  it('counts per variant; a line without variant_id counts with the default variant it buys', async () => {
    const p = await product({
      name: 'Hemd',
      options: [{ name: 'Größe', values: ['S', 'M'] }],
      variants: [
        { sku: `HS-${Date.now()}`, option_values: { Größe: 'S' }, stock_quantity: 100 },
        { sku: `HM-${Date.now()}`, option_values: { Größe: 'M' }, stock_quantity: 100 },
      ],
    });
    const [s, m] = p.variants as unknown as [{ id: string }, { id: string }];
    const perVariant = await checkout('192.0.2.45', [
      { product_id: p.id, variant_id: s.id, quantity: 20 },
      { product_id: p.id, variant_id: m.id, quantity: 20 },
    ]);
    expect(perVariant.statusCode, perVariant.body).toBe(201);
    const sameVariant = await checkout('192.0.2.46', [
      { product_id: p.id, variant_id: m.id, quantity: 15 },
      { product_id: p.id, variant_id: m.id, quantity: 15 },
    ]);
    expectProblem(sameVariant, 400, 'quantity_limit');
    expect(sameVariant.data.errors).toEqual([
      {
        path: '/body/items/1/quantity',
        message: 'must be at most 20 units of this product and variant across all lines (30 with the lines before)',
      },
    ]);
    // the product without variant_id is its default variant (the first): the same stock
    const alias = await checkout('192.0.2.47', [
      { product_id: p.id, quantity: 20 },
      { product_id: p.id, variant_id: s.id, quantity: 20 },
    ]);
    expectProblem(alias, 400, 'quantity_limit');
    expect(alias.data.errors.map((e: { path: string }) => e.path)).toEqual(['/body/items/1/quantity']);
  });

  it('the direct flow (an unpaid order) is limited the same way', async () => {
    await call(t.app, 'PATCH', `/api/admin/channels/${shop.defaultChannelId}`, {
      token: shop.ownerToken,
      body: { allow_unpaid_orders: true },
    });
    try {
      const p = await product({ name: 'Direkt', stock_quantity: 100 });
      const direct = (items: unknown[], address: string) =>
        t.app
          .inject({
            method: 'POST',
            url: '/api/store/checkout-sessions',
            remoteAddress: address,
            headers: { authorization: `Bearer ${shop.publishableKey}`, origin: STORE_ORIGIN },
            payload: {
              items,
              flow: 'direct',
              customer: { email: 'buyer@mail.test', billing_address: billing },
              shipping_address: billing,
              shipping_method_id: shipping,
              return_url: `${STORE_ORIGIN}/danke`,
            },
          })
          .then((r) => Object.assign(r, { data: JSON.parse(r.body) }) as Response);
      const over = await direct(
        Array.from({ length: 5 }, () => ({ product_id: p.id, quantity: 20 })),
        '192.0.2.48',
      );
      expectProblem(over, 400, 'quantity_limit');
      expect((await stockOf(p.id)).stock_quantity).toBe(100);
      const ok = await direct(
        [
          { product_id: p.id, quantity: 10 },
          { product_id: p.id, quantity: 10 },
        ],
        '192.0.2.49',
      );
      expect(ok.statusCode, ok.body).toBe(201);
      expect((await stockOf(p.id)).stock_quantity).toBe(80);
    } finally {
      await call(t.app, 'PATCH', `/api/admin/channels/${shop.defaultChannelId}`, {
        token: shop.ownerToken,
        body: { allow_unpaid_orders: false },
      });
    }
  });
});

describe('the memoized maximum is exact', () => {
  it('a change written by another process (plain SQL, no cache of this one told) is seen by the next session', async () => {
    const p = await call(t.app, 'POST', '/api/products', {
      token: shop.ownerToken,
      body: { name: 'Memo', status: 'published', base_price_cents: 100, track_stock: true, stock_quantity: 500 },
    });
    await call(t.app, 'PATCH', `/api/products/${p.data.id}/channels/${shop.defaultChannelId}`, {
      token: shop.ownerToken,
      body: { is_published: true },
    });
    const items = [{ product_id: p.data.id, quantity: 4 }];
    await call(t.app, 'PUT', '/api/admin/settings/checkout', {
      token: shop.ownerToken,
      body: { max_line_quantity: 5 },
    });
    expect((await checkout('192.0.2.30', items)).statusCode).toBe(201);
    await t.db.database.db.execute(sql`UPDATE shops SET max_line_quantity = 3 WHERE id = ${shop.shopId}`);
    const now = await checkout('192.0.2.30', items);
    expectProblem(now, 400, 'quantity_limit');
    expect(now.data.errors).toEqual([{ path: '/body/items/0/quantity', message: 'must be at most 3' }]);
    await t.db.database.db.execute(sql`UPDATE shops SET max_line_quantity = 20 WHERE id = ${shop.shopId}`);
    expect((await checkout('192.0.2.30', items)).statusCode).toBe(201);
  });
});

describe('session creation limit per publishable key and client address', () => {
  // the limit counts in one-minute windows on the wall clock: no test may straddle two
  beforeEach(() => awayFromWindowEdge(60, 10));
  it('answers 429 with Retry-After past the limit; another address is not affected; abo sessions count too', async () => {
    const items = [{ product_id: lastUnit, quantity: 1 }];
    const a = '203.0.113.7';
    // three creations are counted whatever their outcome (here out of stock: the unit is held)
    for (let i = 0; i < 3; i++) expect((await checkout(a, items)).statusCode).not.toBe(429);
    const refused = await checkout(a, items);
    expectProblem(refused, 429, 'rate_limited');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // an abo session from the same key and address is refused too
    const abo = await t.app.inject({
      method: 'POST',
      url: '/api/store/abo-sessions',
      remoteAddress: a,
      headers: { authorization: `Bearer ${shop.publishableKey}`, origin: STORE_ORIGIN },
      payload: { plan_id: 'plan_unknown', customer_email: 'x@mail.test', return_url: `${STORE_ORIGIN}/danke` },
    });
    expect(abo.statusCode).toBe(429);
    expect(abo.headers['retry-after']).toBeDefined();
    // another client address has its own count
    expect((await checkout('203.0.113.8', items)).statusCode).not.toBe(429);
  });

  it('a refused request is not stored under its Idempotency-Key: the retry after the window runs', async () => {
    const items = [{ product_id: lastUnit, quantity: 1 }];
    const c = '203.0.113.10';
    for (let i = 0; i < 3; i++) expect((await checkout(c, items)).statusCode).not.toBe(429);
    const key = { 'idempotency-key': 'after-the-window' };
    const refused = await checkout(c, items, t.app, key);
    expectProblem(refused, 429, 'rate_limited');
    // the window passes (windows follow the wall clock: its count is dropped instead)
    await t.db.database.db.execute(sql`DELETE FROM rate_limits WHERE bucket LIKE ${`checkout-session:%:${c}`}`);
    const retried = await checkout(c, items, t.app, key);
    expect(retried.statusCode).not.toBe(429);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    // and what it answered is what the key replays from now on
    const again = await checkout(c, items, t.app, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.statusCode).toBe(retried.statusCode);
    expect(again.body).toBe(retried.body);
  });

  it('behind a trusted proxy, every address of one IPv6 /64 counts as one client (checkout and abo sessions)', async () => {
    const proxied = await buildApp({
      config: { ...t.config, trustProxy: ['127.0.0.1'] },
      database: t.db.database,
      skipMigrations: true,
      logger: false,
    });
    try {
      const items = [{ product_id: lastUnit, quantity: 1 }];
      const from = (ip: string) => ({ 'x-forwarded-for': ip });
      for (let i = 1; i <= 3; i++) {
        const res = await checkout('127.0.0.1', items, proxied, from(`2001:db8:5:6:${i}::${i}`));
        expect(res.statusCode).not.toBe(429);
      }
      expectProblem(await checkout('127.0.0.1', items, proxied, from('2001:db8:5:6:ffff::9')), 429, 'rate_limited');
      const abo = await proxied.inject({
        method: 'POST',
        url: '/api/store/abo-sessions',
        remoteAddress: '127.0.0.1',
        headers: {
          authorization: `Bearer ${shop.publishableKey}`,
          origin: STORE_ORIGIN,
          ...from('2001:db8:5:6::abcd'),
        },
        payload: { plan_id: 'plan_unknown', customer_email: 'x@mail.test', return_url: `${STORE_ORIGIN}/danke` },
      });
      expect(abo.statusCode).toBe(429);
      // the neighbouring /64 is another client
      expect((await checkout('127.0.0.1', items, proxied, from('2001:db8:5:7::1'))).statusCode).not.toBe(429);
    } finally {
      await proxied.close();
    }
  });

  it('counts exactly across concurrent requests and processes (the count commits asynchronously)', async () => {
    const other = await buildApp({ config: t.config, database: t.db.database, skipMigrations: true, logger: false });
    try {
      const items = [{ product_id: lastUnit, quantity: 1 }];
      const c = '203.0.113.9';
      const first = await Promise.all([checkout(c, items), checkout(c, items, other), checkout(c, items)]);
      expect(first.map((r) => r.statusCode)).not.toContain(429);
      // the fourth, through either process, is over the limit of three
      expectProblem(await checkout(c, items, other), 429, 'rate_limited');
      expectProblem(await checkout(c, items), 429, 'rate_limited');
      // a line above the maximum from a refused address is still refused by the limit first
      expectProblem(await checkout(c, [{ product_id: lastUnit, quantity: 1000 }]), 429, 'rate_limited');
    } finally {
      await other.close();
    }
  });
});
