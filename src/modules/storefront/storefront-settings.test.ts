/**
 * The built-in storefront's backend (docs/storefront.md, "The built-in storefront"): the setting
 * naming its publishable key, the public bootstrap read that finds the shop by host, the category
 * list for its filter, reading a checkout session for the thank-you page, and STOREFRONT=0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createShop,
  employeeToken,
  expectProblem,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';

let t: TestApp;
let first: ShopFixture;
let second: ShopFixture;
beforeAll(async () => {
  t = await startApp();
  first = await createShop(t.app, { name: 'Erster Laden' });
  second = await createShop(t.app, { name: 'Zweiter Laden', origins: ['https://zweiter.example'] });
}, 60_000);
afterAll(() => t.close());

const bootstrap = (host: string) => call(t.app, 'GET', '/api/storefront/bootstrap', { headers: { host } });

describe('storefront settings', () => {
  it('names a live key of the shop; GET shows it with its allowlist; null clears it', async () => {
    const empty = await call(t.app, 'GET', '/api/admin/storefront-settings', { token: first.ownerToken });
    expect(empty.statusCode).toBe(200);
    expect(empty.data).toEqual({
      publishable_key_id: null,
      offered_plan_ids: [],
      allowed_origins: [],
      updated_at: null,
    });
    const set = await call(t.app, 'PUT', '/api/admin/storefront-settings', {
      token: first.ownerToken,
      body: { publishable_key_id: first.publishableKeyId },
    });
    expect(set.statusCode).toBe(200);
    expect(set.data.publishable_key_id).toBe(first.publishableKeyId);
    expect(set.data.allowed_origins).toEqual([STORE_ORIGIN]);
    const read = await call(t.app, 'GET', '/api/admin/storefront-settings', { token: first.ownerToken });
    expect(read.data.publishable_key_id).toBe(first.publishableKeyId);
  });

  it("refuses another shop's key, an unknown or revoked key and a bad body, changing nothing", async () => {
    for (const body of [{ publishable_key_id: second.publishableKeyId }, { publishable_key_id: 'pk_unknown' }]) {
      const res = await call(t.app, 'PUT', '/api/admin/storefront-settings', { token: first.ownerToken, body });
      expectProblem(res, 400, 'validation_failed');
      expect(res.data.errors[0].path).toBe('/body/publishable_key_id');
    }
    for (const body of [{}, { publishable_key_id: '' }, { publishable_key_id: 5 }, { publishable_key_id: 'x', y: 1 }]) {
      const res = await call(t.app, 'PUT', '/api/admin/storefront-settings', { token: first.ownerToken, body });
      expectProblem(res, 400, 'validation_failed');
    }
    const read = await call(t.app, 'GET', '/api/admin/storefront-settings', { token: first.ownerToken });
    expect(read.data.publishable_key_id).toBe(first.publishableKeyId);
  });

  it('is for the owner and admins only', async () => {
    const viewer = await employeeToken(t.app, first, 'viewer');
    expectProblem(await call(t.app, 'GET', '/api/admin/storefront-settings', { token: viewer }), 403, 'role_denied');
    expectProblem(await call(t.app, 'GET', '/api/admin/storefront-settings'), 401, 'unauthenticated');
    expectProblem(
      await call(t.app, 'PUT', '/api/admin/storefront-settings', {
        token: first.publishableKey,
        headers: { origin: STORE_ORIGIN },
        body: { publishable_key_id: null },
      }),
      403,
      'credential_denied',
    );
  });
});

describe('GET /api/storefront/bootstrap', () => {
  it('on localhost (or PUBLIC_URL) gives the oldest shop with a storefront key, and whether the origin is allowed', async () => {
    const res = await bootstrap('localhost:3000');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.data).toEqual({
      shop_name: 'Erster Laden',
      publishable_key: first.publishableKey,
      origin_allowed: false,
      offered_plans: [],
    });
    expect((await bootstrap('service.test')).data.shop_name).toBe('Erster Laden');
  });

  it("a host mapped to a channel's domain finds that shop; an unknown host is 404", async () => {
    await call(t.app, 'PUT', '/api/admin/storefront-settings', {
      token: second.ownerToken,
      body: { publishable_key_id: second.publishableKeyId },
    });
    const mapped = await call(t.app, 'POST', `/api/admin/channels/${second.defaultChannelId}/domains`, {
      token: second.ownerToken,
      body: { domain: 'zweiter.example' },
    });
    expect(mapped.statusCode).toBe(201);
    const res = await call(t.app, 'GET', '/api/storefront/bootstrap', {
      headers: { host: 'zweiter.example', 'x-forwarded-proto': 'https' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.shop_name).toBe('Zweiter Laden');
    expect(res.data.publishable_key).toBe(second.publishableKey);
    expectProblem(await bootstrap('elsewhere.example'), 404, 'not_found');
  });

  it('a revoked key, or a shop without the setting, has no storefront (404)', async () => {
    const other = await createShop(t.app, { name: 'Dritter' });
    await call(t.app, 'POST', `/api/admin/channels/${other.defaultChannelId}/domains`, {
      token: other.ownerToken,
      body: { domain: 'dritter.example' },
    });
    expectProblem(await bootstrap('dritter.example'), 404, 'not_found');
    await call(t.app, 'PUT', '/api/admin/storefront-settings', {
      token: other.ownerToken,
      body: { publishable_key_id: other.publishableKeyId },
    });
    expect((await bootstrap('dritter.example')).statusCode).toBe(200);
    const revoked = await call(t.app, 'DELETE', `/api/admin/publishable-keys/${other.publishableKeyId}`, {
      token: other.ownerToken,
    });
    expect(revoked.statusCode).toBeLessThan(300);
    expectProblem(await bootstrap('dritter.example'), 404, 'not_found');
  });
});

describe('store reads for the built-in storefront', () => {
  it("GET /api/store/categories lists the key's shop's categories by name", async () => {
    for (const name of ['Käse', 'Bücher']) {
      await call(t.app, 'POST', '/api/admin/categories', { token: first.ownerToken, body: { name } });
    }
    await call(t.app, 'POST', '/api/admin/categories', { token: second.ownerToken, body: { name: 'Fremd' } });
    const res = await call(t.app, 'GET', '/api/store/categories', {
      token: first.publishableKey,
      headers: { origin: STORE_ORIGIN },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.categories.map((c: { name: string }) => c.name)).toEqual(['Bücher', 'Käse']);
    expectProblem(
      await call(t.app, 'GET', '/api/store/categories', {
        token: first.publishableKey,
        headers: { origin: 'https://evil.example' },
      }),
      403,
      'origin_denied',
    );
  });

  it("GET /api/store/checkout-sessions/:id reads a session of the key's shop, never another's", async () => {
    const product = await call(t.app, 'POST', '/api/products', {
      token: first.ownerToken,
      body: { name: 'E-Book', is_digital: true, base_price_cents: 1200, status: 'published' },
    });
    await call(t.app, 'PATCH', `/api/products/${product.data.id}/channels/${first.defaultChannelId}`, {
      token: first.ownerToken,
      body: { is_published: true },
    });
    const created = await call(t.app, 'POST', '/api/store/checkout-sessions', {
      token: first.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: {
        items: [{ product_id: product.data.id, quantity: 2 }],
        customer: {
          email: 'buyer@example.com',
          billing_address: {
            name: 'Kim Berg',
            line1: 'Hauptstr. 1',
            postal_code: '10115',
            city: 'Berlin',
            country: 'DE',
          },
        },
        widerruf_verzicht: true,
        return_url: `${STORE_ORIGIN}/danke`,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const read = await call(t.app, 'GET', `/api/store/checkout-sessions/${created.data.id}`, {
      token: first.publishableKey,
      headers: { origin: STORE_ORIGIN },
    });
    expect(read.statusCode).toBe(200);
    expect(read.data).toEqual({ ...created.data, url: null });
    expect(read.data).toMatchObject({ status: 'open', order_id: null, order_number: null });
    // paid on the hosted page: the session names its order by id and by the number the buyer quotes
    const paid = await call(t.app, 'POST', `/pay/${created.data.id}`, {
      body: new URLSearchParams({
        name: 'Kim Berg',
        line1: 'Hauptstr. 1',
        postal_code: '10115',
        city: 'Berlin',
        country: 'DE',
        card_number: '4242424242424242',
        widerruf_verzicht: 'on',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.statusCode, paid.body).toBe(303);
    const after = await call(t.app, 'GET', `/api/store/checkout-sessions/${created.data.id}`, {
      token: first.publishableKey,
      headers: { origin: STORE_ORIGIN },
    });
    expect(after.data.status).toBe('complete');
    const order = await call(t.app, 'GET', `/api/admin/orders/${after.data.order_id}`, { token: first.ownerToken });
    expect(order.statusCode).toBe(200);
    expect(after.data.order_number).toBe(order.data.order.number);
    expect(after.data.order_number).not.toBe(after.data.order_id);
    expectProblem(
      await call(t.app, 'GET', `/api/store/checkout-sessions/${created.data.id}`, {
        token: second.publishableKey,
        headers: { origin: 'https://zweiter.example' },
      }),
      404,
      'not_found',
    );
    expectProblem(
      await call(t.app, 'GET', '/api/store/checkout-sessions/cs_unknown', {
        token: first.publishableKey,
        headers: { origin: STORE_ORIGIN },
      }),
      404,
      'not_found',
    );
    expectProblem(
      await call(t.app, 'GET', `/api/store/checkout-sessions/${created.data.id}`, { token: first.ownerToken }),
      403,
      'credential_denied',
    );
  });
});

describe('STOREFRONT=0', () => {
  it('serves neither /shop/ nor the bootstrap', async () => {
    const off = await startApp({ STOREFRONT: '0' });
    try {
      const shop = await createShop(off.app);
      await call(off.app, 'PUT', '/api/admin/storefront-settings', {
        token: shop.ownerToken,
        body: { publishable_key_id: shop.publishableKeyId },
      });
      expectProblem(
        await call(off.app, 'GET', '/api/storefront/bootstrap', { headers: { host: 'localhost' } }),
        404,
        'not_found',
      );
      expect((await call(off.app, 'GET', '/shop/')).statusCode).toBe(404);
      expect((await call(off.app, 'GET', '/shop/produkt/x')).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  }, 60_000);
});

describe("the built-in storefront's same-origin reads", () => {
  it('a browser GET without Origin but with Sec-Fetch-Site: same-origin counts as from its own origin', async () => {
    const own = await createShop(t.app, { origins: ['http://shop.local:8080'] });
    const read = (headers: Record<string, string>) =>
      call(t.app, 'GET', '/api/store/products', { token: own.publishableKey, headers });
    const ok = await read({ host: 'shop.local:8080', 'sec-fetch-site': 'same-origin' });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-channel-id']).toBe(own.defaultChannelId);
    // another host, no fetch metadata, or a cross-site fetch: no origin, refused as before
    expectProblem(await read({ host: 'other.local:8080', 'sec-fetch-site': 'same-origin' }), 403, 'origin_denied');
    expectProblem(await read({ host: 'shop.local:8080' }), 403, 'origin_denied');
    expectProblem(await read({ host: 'shop.local:8080', 'sec-fetch-site': 'cross-site' }), 403, 'origin_denied');
  });

  it("served on a channel's domain, reads that channel's catalog (no Origin, no Referer: the proven origin picks it)", async () => {
    const own = await createShop(t.app, { origins: ['http://shop.local:8080', 'http://zweit.local:8080'] });
    const channel = await call(t.app, 'POST', '/api/admin/channels', {
      token: own.ownerToken,
      body: { name: 'Schweiz', slug: 'schweiz', default_country: 'CH', currency: 'CHF' },
    });
    expect(channel.statusCode, channel.body).toBe(201);
    const mapped = await call(t.app, 'POST', `/api/admin/channels/${channel.data.id}/domains`, {
      token: own.ownerToken,
      body: { domain: 'zweit.local' },
    });
    expect(mapped.statusCode, mapped.body).toBe(201);
    const read = (host: string) =>
      call(t.app, 'GET', '/api/store/products', {
        token: own.publishableKey,
        headers: { host, 'sec-fetch-site': 'same-origin' },
      });
    const second = await read('zweit.local:8080');
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-channel-id']).toBe(channel.data.id);
    // the response cache keys the proven origin too: the default host still reads the default channel
    const first = await read('shop.local:8080');
    expect(first.headers['x-channel-id']).toBe(own.defaultChannelId);
    expect((await read('zweit.local:8080')).headers['x-channel-id']).toBe(channel.data.id);
  });
});

describe('e-mailed account links', () => {
  it("point at the built-in storefront's account pages on the service's own origin, else at /account/ of the storefront", async () => {
    const own = await createShop(t.app, { origins: ['http://service.test', STORE_ORIGIN] });
    const register = (origin: string, email: string) =>
      call(t.app, 'POST', '/api/customer/register', {
        token: own.publishableKey,
        headers: { origin },
        body: { email, password: 'customer-password-1' },
      });
    const mailText = async (to: string) =>
      (await call(t.app, 'GET', '/api/admin/emails', { token: own.ownerToken, query: { to } })).data.emails[0]
        .text as string;
    expect((await register('http://service.test', 'eigen@example.com')).statusCode).toBe(202);
    expect(await mailText('eigen@example.com')).toMatch(/http:\/\/service\.test\/shop\/konto\/verify-email\?token=\S+/);
    expect((await register(STORE_ORIGIN, 'headless@example.com')).statusCode).toBe(202);
    expect(await mailText('headless@example.com')).toMatch(
      /https:\/\/store\.example\/account\/verify-email\?token=\S+/,
    );
  });
});

describe('offered plans', () => {
  it('are plans of the shop; the bootstrap lists the active ones with their display price, in the order chosen', async () => {
    const own = await createShop(t.app, { digitalAllowed: true, origins: ['http://plans.local'] });
    await call(t.app, 'PUT', '/api/admin/digital/status', { token: own.ownerToken, body: { aktiv: true } });
    const product = await call(t.app, 'POST', '/api/products', {
      token: own.ownerToken,
      body: { name: 'Kurs', is_digital: true, base_price_cents: 4900, status: 'published' },
    });
    const plan = async (name: string, price: number) =>
      (
        await call(t.app, 'POST', '/api/admin/digital/plaene', {
          token: own.ownerToken,
          body: { product_id: product.data.id, name, price_cents: price, interval_unit: 'month', interval_count: 1 },
        })
      ).data.id as string;
    const monthly = await plan('Monatlich', 990);
    const premium = await plan('Premium', 1990);
    const foreign = (
      await call(t.app, 'POST', '/api/products', {
        token: first.ownerToken,
        body: { name: 'X', is_digital: true, base_price_cents: 100, status: 'published' },
      })
    ).data.id;
    expect(foreign).toBeDefined();
    const bad = await call(t.app, 'PUT', '/api/admin/storefront-settings', {
      token: own.ownerToken,
      body: { publishable_key_id: own.publishableKeyId, offered_plan_ids: [premium, 'plan_unknown'] },
    });
    expectProblem(bad, 400, 'validation_failed');
    expect(bad.data.errors.map((e: { path: string }) => e.path)).toEqual(['/body/offered_plan_ids/1']);
    expectProblem(
      await call(t.app, 'PUT', '/api/admin/storefront-settings', {
        token: own.ownerToken,
        body: { publishable_key_id: own.publishableKeyId, offered_plan_ids: [premium, premium] },
      }),
      400,
      'validation_failed',
    );
    const ok = await call(t.app, 'PUT', '/api/admin/storefront-settings', {
      token: own.ownerToken,
      body: { publishable_key_id: own.publishableKeyId, offered_plan_ids: [premium, monthly] },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.data.offered_plan_ids).toEqual([premium, monthly]);
    await call(t.app, 'POST', `/api/admin/channels/${own.defaultChannelId}/domains`, {
      token: own.ownerToken,
      body: { domain: 'plans.local' },
    });
    const boot = await bootstrap('plans.local');
    expect(boot.data.offered_plans).toEqual([
      expect.objectContaining({
        id: premium,
        product_id: product.data.id,
        name: 'Premium',
        price_cents: 1990,
        currency: 'EUR',
        interval_unit: 'month',
        interval_count: 1,
      }),
      expect.objectContaining({ id: monthly, name: 'Monatlich', price_cents: 990 }),
    ]);
    // a plan switched off is no longer offered; leaving out offered_plan_ids keeps them
    await call(t.app, 'PATCH', `/api/admin/digital/plaene/${premium}`, {
      token: own.ownerToken,
      body: { is_active: false },
    });
    expect((await bootstrap('plans.local')).data.offered_plans.map((p: { id: string }) => p.id)).toEqual([monthly]);
    const kept = await call(t.app, 'PUT', '/api/admin/storefront-settings', {
      token: own.ownerToken,
      body: { publishable_key_id: own.publishableKeyId },
    });
    expect(kept.data.offered_plan_ids).toEqual([premium, monthly]);
  });
});
