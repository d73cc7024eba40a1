/**
 * Checkout abuse limits (issue 16): a hosted session holds stock for CHECKOUT_RESERVATION_MINUTES
 * (simulated clock), and session creation is limited per publishable key and client address.
 */
import { sql } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(settings.data).toEqual({ max_line_quantity: 20 });
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
    expect(set.data).toEqual({ max_line_quantity: 2 });
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
