/**
 * The fuzz findings of issue 16, one by one (DESIGN §3): U+0000, lone surrogates and 64-bit
 * overflowing offsets are refused with 400 `validation_failed` naming the field, and change nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptInvite, inviteVendor } from '../../src/modules/partners/partners.fixtures.js';
import {
  call,
  createShop,
  expectProblem,
  PLATFORM_TOKEN,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../helpers/app.js';

let t: TestApp;
let shop: ShopFixture;

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
});
afterAll(() => t.close());

const paths = (res: { data: any }) => (res.data.errors ?? []).map((e: { path: string }) => e.path);

describe('U+0000 and lone surrogates (DESIGN §3)', () => {
  it('refuses U+0000 in the admin login e-mail, naming the field', async () => {
    const res = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: `${shop.ownerEmail}\u0000`, password: 'owner-password-1' },
    });
    expectProblem(res, 400, 'validation_failed');
    expect(paths(res)).toEqual(['/body/email']);
    expect(res.data.errors[0].message).toMatch(/U\+0000/);
  });

  it('refuses U+0000 in shop_id of the vendor and affiliate logins', async () => {
    for (const portal of ['vendor', 'affiliate']) {
      const res = await call(t.app, 'POST', `/api/${portal}/auth/login`, {
        body: { shop_id: 'shop_\u0000', email: 'p@partner.test', password: 'partner-password-1' },
      });
      expectProblem(res, 400, 'validation_failed');
      expect(paths(res)).toEqual(['/body/shop_id']);
    }
  });

  it('refuses U+0000 and lone surrogates in name and owner_name of the platform shop routes; nothing is created', async () => {
    const before = await call(t.app, 'GET', '/api/platform/shops?limit=200', { token: PLATFORM_TOKEN });
    const create = await call(t.app, 'POST', '/api/platform/shops', {
      token: PLATFORM_TOKEN,
      body: {
        name: 'Bad\u0000Shop',
        owner_name: 'Half \uD800 surrogate',
        owner_email: 'nul@shop.test',
        owner_password: 'owner-password-1',
      },
    });
    expectProblem(create, 400, 'validation_failed');
    expect(paths(create).sort()).toEqual(['/body/name', '/body/owner_name']);
    const after = await call(t.app, 'GET', '/api/platform/shops?limit=200', { token: PLATFORM_TOKEN });
    expect(after.data.count).toBe(before.data.count);

    const patch = await call(t.app, 'PATCH', `/api/platform/shops/${shop.shopId}`, {
      token: PLATFORM_TOKEN,
      body: { name: 'x\uDC00' },
    });
    expectProblem(patch, 400, 'validation_failed');
    expect(paths(patch)).toEqual(['/body/name']);
  });

  it('refuses %00 and an encoded lone surrogate as a path id', async () => {
    const product = await call(t.app, 'GET', '/api/store/products/%00', {
      token: shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
    });
    expectProblem(product, 400, 'validation_failed');
    expect(paths(product)).toEqual(['/params/idOrSlug']);
    const pay = await call(t.app, 'GET', '/pay/%00');
    expectProblem(pay, 400, 'validation_failed');
    expect(paths(pay)).toEqual(['/params/id']);
  });

  it('refuses U+0000 in a query value and in nested body strings', async () => {
    const list = await call(t.app, 'GET', '/api/admin/products?q=a%00b', { token: shop.ownerToken });
    expectProblem(list, 400, 'validation_failed');
    expect(paths(list)).toEqual(['/query/q']);
    const nested = await call(t.app, 'POST', '/api/admin/publishable-keys', {
      token: shop.ownerToken,
      body: { name: 'k', allowed_origins: ['https://ok.example', 'https://bad\u0000.example'] },
    });
    expectProblem(nested, 400, 'validation_failed');
    expect(paths(nested)).toEqual(['/body/allowed_origins/1']);
  });

  it('accepts a correctly paired surrogate (an emoji)', async () => {
    const res = await call(t.app, 'POST', '/api/admin/categories', {
      token: shop.ownerToken,
      body: { name: 'Gifts \uD83C\uDF81' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.data.name).toBe('Gifts \uD83C\uDF81');
  });
});

describe('offset and integer ranges (DESIGN §3)', () => {
  it('refuses a 64-bit overflowing offset on the storefront and platform lists', async () => {
    const store = await call(t.app, 'GET', '/api/store/products?offset=99999999999999999999', {
      token: shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
    });
    expectProblem(store, 400, 'validation_failed');
    expect(paths(store)).toEqual(['/query/offset']);
    const shops = await call(t.app, 'GET', '/api/platform/shops?offset=99999999999999999999', {
      token: PLATFORM_TOKEN,
    });
    expectProblem(shops, 400, 'validation_failed');
    expect(paths(shops)).toEqual(['/query/offset']);
  });

  it('caps offset at 100,000', async () => {
    const max = await call(t.app, 'GET', '/api/admin/products?offset=100000', { token: shop.ownerToken });
    expect(max.statusCode).toBe(200);
    expect(max.data.offset).toBe(100_000);
    const over = await call(t.app, 'GET', '/api/admin/products?offset=100001', { token: shop.ownerToken });
    expectProblem(over, 400, 'validation_failed');
    expect(paths(over)).toEqual(['/query/offset']);
  });
});

describe('URLs the router itself refuses (DESIGN §3: every error is a problem document)', () => {
  it('answers a path with broken percent-encoding with a 400 problem carrying the request id', async () => {
    for (const url of ['/api/store/products/%', '/%ff/api/store/products', '/api/checkout/abo/%E0%A4%A']) {
      const res = await call(t.app, 'GET', url, { token: shop.publishableKey, headers: { origin: STORE_ORIGIN } });
      expectProblem(res, 400, 'validation_failed');
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('validates a path id longer than 100 characters like any other id (400 naming the parameter, not 414)', async () => {
    const long = 'a'.repeat(300);
    const token = await call(t.app, 'GET', `/api/checkout/abo/${long}`);
    expectProblem(token, 400, 'validation_failed');
    expect(paths(token)).toEqual(['/params/token']);
    const product = await call(t.app, 'GET', `/api/admin/products/prod_${long}`, { token: shop.ownerToken });
    expect(product.statusCode).toBeLessThan(500);
    expect(product.headers['content-type']).toMatch(/application\/problem\+json/);
    const huge = await call(t.app, 'GET', `/api/admin/products/${'x'.repeat(10_000)}`, { token: shop.ownerToken });
    expect(huge.statusCode).toBe(400);
    expect(huge.headers['content-type']).toMatch(/application\/problem\+json/);
  });
});

describe('time bounds the database cannot hold (DESIGN §3)', () => {
  // year 0, past 9999 once in UTC, and offsets beyond PostgreSQL's ±15:59
  const BAD = [
    '0000-01-01T00:00:00Z',
    '0001-01-01T00:00:00%2B01:00',
    '9999-12-31T23:59:59-14:00',
    '2026-06-30T10:00:00%2B23:59',
    '2026-06-30T10:00:00-1600',
  ];
  const ROUTES = [
    ['/api/admin/orders', 'created_from'],
    ['/api/admin/orders', 'created_to'],
    ['/api/admin/invoices', 'created_from'],
    ['/api/admin/affiliate-earnings', 'from'],
    ['/api/admin/vendor-earnings', 'from'],
    ['/api/admin/vendor-earnings', 'to'],
    ['/api/admin/vendor-analytics', 'from'],
    ['/api/admin/vendor-analytics', 'to'],
  ] as const;

  it('refuses them with 400 naming the parameter, on every list that filters by time', async () => {
    for (const [route, name] of ROUTES) {
      for (const value of BAD) {
        const res = await call(t.app, 'GET', `${route}?${name}=${value}`, { token: shop.ownerToken });
        expect(`${route} ${name}=${value} ${res.statusCode}`).toBe(`${route} ${name}=${value} 400`);
        expect(paths(res)).toEqual([`/query/${name}`]);
      }
    }
  });

  it('refuses them in the vendor and affiliate portals too', async () => {
    const vendor = await inviteVendor(t, shop.ownerToken, 'Bound Vendor');
    const email = `bound-${Date.now()}@partner.test`;
    const invited = await call(t.app, 'POST', '/api/admin/affiliates/invite', {
      token: shop.ownerToken,
      body: { email, name: 'Bound Affiliate', commission_percent: 5 },
    });
    expect(invited.statusCode).toBe(201);
    const affiliate = await acceptInvite(t, 'affiliate', email);
    for (const [route, token] of [
      ['/api/vendor/earnings', vendor.session],
      ['/api/vendor/ledger', vendor.session],
      ['/api/affiliate/earnings', affiliate],
    ] as const) {
      for (const value of ['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-14:00']) {
        const res = await call(t.app, 'GET', `${route}?from=${value}`, { token });
        expect(`${route} ${value} ${res.statusCode}`).toBe(`${route} ${value} 400`);
        expect(paths(res)).toEqual(['/query/from']);
      }
    }
  });

  it('still takes the widest real bounds, and a whole last day as `to`', async () => {
    for (const route of ['/api/admin/orders?created_from=0001-01-01T00:00:00Z&created_to=9999-12-31T23:59:59Z']) {
      expect((await call(t.app, 'GET', route, { token: shop.ownerToken })).statusCode).toBe(200);
    }
    for (const route of ['/api/admin/vendor-earnings', '/api/admin/vendor-analytics']) {
      const res = await call(t.app, 'GET', `${route}?from=0001-01-01&to=9999-12-31`, { token: shop.ownerToken });
      expect(`${route} ${res.statusCode}`).toBe(`${route} 200`);
    }
  });
});
