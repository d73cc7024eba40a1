import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  employeeToken,
  expectProblem,
  PLATFORM_TOKEN,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
});
afterAll(() => t.close());

const create = (body: Record<string, unknown>, token = owner) =>
  call(t.app, 'POST', '/api/admin/channels', { token, body });

describe('channels', () => {
  let first: string;
  let second: string;

  it('a new shop has one active default channel (EUR, DE); channels created later never are the default', async () => {
    const initial = await call(t.app, 'GET', '/api/admin/channels', { token: owner });
    expect(initial.data.channels).toHaveLength(1);
    expect(initial.data.channels[0]).toMatchObject({
      id: shop.defaultChannelId,
      is_default: true,
      is_active: true,
      currency: 'EUR',
      default_country: 'DE',
    });
    first = shop.defaultChannelId;
    const a = await create({ name: 'Deutschland Shop', default_country: 'DE', currency: 'EUR' });
    expect(a.statusCode).toBe(201);
    expect(a.data).toMatchObject({
      name: 'Deutschland Shop',
      slug: 'deutschland-shop',
      is_default: false,
      is_active: true,
      currency: 'EUR',
      default_country: 'DE',
      allocation_strategy: 'priority',
      auto_confirm_orders: false,
      allow_unpaid_orders: false,
      pending_payment_ttl_hours: 24,
      path_prefix: null,
    });
    expect(a.data.id).toMatch(/^chan_/);
    const b = await create({ name: 'Schweiz', slug: 'ch', default_country: 'CH', currency: 'CHF', path_prefix: 'ch' });
    expect(b.statusCode).toBe(201);
    expect(b.data.is_default).toBe(false);
    second = b.data.id;
    const list = await call(t.app, 'GET', '/api/admin/channels', { token: owner });
    expect(list.data.channels.map((c: { id: string }) => c.id)).toEqual([first, a.data.id, second]);
    expect(list.data.channels.filter((c: { is_default: boolean }) => c.is_default)).toHaveLength(1);
  });

  it('validates the body: currency, country, slug, unknown fields', async () => {
    const res = await create({ name: '', default_country: 'de', currency: 'EURO', slug: 'Not A Slug', color: 'red' });
    expectProblem(res, 400, 'validation_failed');
    const paths = res.data.errors.map((e: { path: string }) => e.path);
    for (const p of ['/body/name', '/body/default_country', '/body/currency', '/body/slug', '/body/color'])
      expect(paths).toContain(p);
    expectProblem(await create({ name: 'x', default_country: 'DE', currency: 'JPY' }), 400, 'validation_failed');
    expectProblem(await create({ name: 'x', default_country: 'DE' }), 400, 'validation_failed');
  });

  it('takes only a country the shop knows as default_country (shared or its own), on create, change and shop creation', async () => {
    const own = (await createShop(t.app)).ownerToken; // its own shop: the custom country stays there
    const zz = await create({ name: 'Nirgendwo', default_country: 'ZZ', currency: 'EUR' }, own);
    expectProblem(zz, 400, 'validation_failed');
    expect(zz.data.errors).toEqual([{ path: '/body/default_country', message: 'unknown country ZZ' }]);
    const c = await create({ name: 'Kosovo Shop', default_country: 'AT', currency: 'EUR' }, own);
    expect(c.statusCode).toBe(201);
    const patched = await call(t.app, 'PATCH', `/api/admin/channels/${c.data.id}`, {
      token: own,
      body: { default_country: 'ZZ' },
    });
    expectProblem(patched, 400, 'validation_failed');
    // a shop-owned country is known to the shop
    const custom = await call(t.app, 'POST', `/api/admin/channels/${c.data.id}/countries/custom`, {
      token: own,
      body: { code: 'XK', name: 'Kosovo' },
    });
    expect(custom.statusCode).toBe(201);
    const xk = await call(t.app, 'PATCH', `/api/admin/channels/${c.data.id}`, {
      token: own,
      body: { default_country: 'XK' },
    });
    expect(xk.statusCode).toBe(200);
    expect(xk.data.default_country).toBe('XK');
    const shopZz = await call(t.app, 'POST', '/api/platform/shops', {
      token: PLATFORM_TOKEN,
      body: { name: 'Nirgendwo', owner_email: 'zz-owner@example.com', owner_password: 'passwort1234', country: 'ZZ' },
    });
    expectProblem(shopZz, 400, 'validation_failed');
    expect(shopZz.data.errors).toEqual([{ path: '/body/country', message: 'unknown country ZZ' }]);
    // nothing of the refused shop stays: its owner's e-mail is still free
    const shopCh = await call(t.app, 'POST', '/api/platform/shops', {
      token: PLATFORM_TOKEN,
      body: { name: 'Schweiz AG', owner_email: 'zz-owner@example.com', owner_password: 'passwort1234', country: 'CH' },
    });
    expect(shopCh.statusCode).toBe(201);
    expect(shopCh.data.default_channel.default_country).toBe('CH');
  });

  it('refuses a taken slug or path prefix with 409', async () => {
    expectProblem(
      await create({ name: 'Other', slug: 'ch', default_country: 'DE', currency: 'EUR' }),
      409,
      'slug_taken',
    );
    expectProblem(
      await create({ name: 'Other', default_country: 'DE', currency: 'EUR', path_prefix: 'ch' }),
      409,
      'path_prefix_taken',
    );
  });

  it('create, delete and set-default are owner-only', async () => {
    const admin = await employeeToken(t.app, shop, 'admin');
    expectProblem(await create({ name: 'By admin', default_country: 'DE', currency: 'EUR' }, admin), 403, 'owner_only');
    expectProblem(
      await call(t.app, 'POST', `/api/admin/channels/${second}/set-default`, { token: admin }),
      403,
      'owner_only',
    );
    expectProblem(await call(t.app, 'DELETE', `/api/admin/channels/${second}`, { token: admin }), 403, 'owner_only');
    // but an admin may configure
    const patched = await call(t.app, 'PATCH', `/api/admin/channels/${second}`, {
      token: admin,
      body: { name: 'Schweiz Shop' },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.data.name).toBe('Schweiz Shop');
  });

  it('tokens: catalog:read lists channels, nothing else; catalog:write cannot create or reconfigure', async () => {
    const read = await apiToken(t.app, shop, ['catalog:read']);
    const write = await apiToken(t.app, shop, ['catalog:write']);
    expect((await call(t.app, 'GET', '/api/admin/channels', { token: read })).statusCode).toBe(200);
    expectProblem(await call(t.app, 'GET', `/api/admin/channels/${first}`, { token: read }), 403, 'scope_denied');
    expectProblem(await create({ name: 'tok', default_country: 'DE', currency: 'EUR' }, write), 403, 'scope_denied');
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/channels/${first}`, { token: write, body: { name: 'hack' } }),
      403,
      'scope_denied',
    );
    expectProblem(
      await call(t.app, 'PUT', `/api/admin/channels/${first}/payment-methods`, {
        token: write,
        body: { method_codes: ['card'] },
      }),
      403,
      'scope_denied',
    );
  });

  it('switches the default atomically; exactly one default at all times', async () => {
    const res = await call(t.app, 'POST', `/api/admin/channels/${second}/set-default`, { token: owner });
    expect(res.statusCode).toBe(200);
    expect(res.data.is_default).toBe(true);
    const list = await call(t.app, 'GET', '/api/admin/channels', { token: owner });
    const defaults = list.data.channels.filter((c: { is_default: boolean }) => c.is_default);
    expect(defaults.map((c: { id: string }) => c.id)).toEqual([second]);
    // concurrent switches still leave one default
    await Promise.all([
      call(t.app, 'POST', `/api/admin/channels/${first}/set-default`, { token: owner }),
      call(t.app, 'POST', `/api/admin/channels/${second}/set-default`, { token: owner }),
      call(t.app, 'POST', `/api/admin/channels/${first}/set-default`, { token: owner }),
    ]);
    const after = await call(t.app, 'GET', '/api/admin/channels', { token: owner });
    expect(after.data.channels.filter((c: { is_default: boolean }) => c.is_default)).toHaveLength(1);
    await call(t.app, 'POST', `/api/admin/channels/${first}/set-default`, { token: owner });
  });

  it('refuses to delete or deactivate the default channel, and a default that is inactive', async () => {
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/channels/${first}`, { token: owner }),
      409,
      'default_channel',
    );
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/channels/${first}`, { token: owner, body: { is_active: false } }),
      409,
      'default_channel',
    );
    const off = await create({ name: 'Off', default_country: 'AT', currency: 'EUR', is_active: false });
    expectProblem(
      await call(t.app, 'POST', `/api/admin/channels/${off.data.id}/set-default`, { token: owner }),
      409,
      'channel_inactive',
    );
    expect((await call(t.app, 'DELETE', `/api/admin/channels/${off.data.id}`, { token: owner })).statusCode).toBe(204);
    expectProblem(await call(t.app, 'GET', `/api/admin/channels/${off.data.id}`, { token: owner }), 404, 'not_found');
  });

  it('deleting a channel takes its domains and country selection with it', async () => {
    const c = await create({ name: 'Temp', default_country: 'FR', currency: 'EUR' });
    await call(t.app, 'POST', `/api/admin/channels/${c.data.id}/domains`, {
      token: owner,
      body: { domain: 'temp.example' },
    });
    await call(t.app, 'PUT', `/api/admin/channels/${c.data.id}/countries`, {
      token: owner,
      body: { country_codes: ['FR'] },
    });
    expect((await call(t.app, 'DELETE', `/api/admin/channels/${c.data.id}`, { token: owner })).statusCode).toBe(204);
    // the domain is free again
    const again = await call(t.app, 'POST', `/api/admin/channels/${second}/domains`, {
      token: owner,
      body: { domain: 'temp.example' },
    });
    expect(again.statusCode).toBe(201);
  });

  it('another shop sees none of it (404)', async () => {
    const other = await createShop(t.app);
    expectProblem(
      await call(t.app, 'GET', `/api/admin/channels/${first}`, { token: other.ownerToken }),
      404,
      'not_found',
    );
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/channels/${first}`, { token: other.ownerToken, body: { name: 'x' } }),
      404,
      'not_found',
    );
    expectProblem(
      await call(t.app, 'GET', `/api/admin/channels/${first}/domains`, { token: other.ownerToken }),
      404,
      'not_found',
    );
    const list = await call(t.app, 'GET', '/api/admin/channels', { token: other.ownerToken });
    expect(list.data.channels.map((c: { id: string }) => c.id)).toEqual([other.defaultChannelId]);
  });
});

describe('default channel at shop creation (docs/decisions.md)', () => {
  it("a fresh shop's storefront answers at once, from its default channel", async () => {
    const fresh = await createShop(t.app);
    const res = await call(t.app, 'GET', '/api/store/products', {
      token: fresh.publishableKey,
      headers: { origin: STORE_ORIGIN },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-channel-id']).toBe(fresh.defaultChannelId);
    expect(res.data).toMatchObject({ products: [], count: 0 });
  });

  it('takes currency and country for the default channel; validates them; creates nothing on a bad one', async () => {
    const created = await call(t.app, 'POST', '/api/platform/shops', {
      token: PLATFORM_TOKEN,
      body: {
        name: 'Zürcher Laden',
        owner_email: `ch-${Date.now()}@shop.test`,
        owner_password: 'owner-password-1',
        currency: 'CHF',
        country: 'CH',
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.data.default_channel).toMatchObject({
      name: 'Zürcher Laden',
      is_default: true,
      is_active: true,
      currency: 'CHF',
      default_country: 'CH',
    });
    const bad = await call(t.app, 'POST', '/api/platform/shops', {
      token: PLATFORM_TOKEN,
      body: {
        name: 'Bad',
        owner_email: 'bad-currency@shop.test',
        owner_password: 'owner-password-1',
        currency: 'EURO',
        country: 'de',
      },
    });
    expectProblem(bad, 400, 'validation_failed');
    expect([...new Set(bad.data.errors.map((e: { path: string }) => e.path))].sort()).toEqual([
      '/body/country',
      '/body/currency',
    ]);
    const login = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'bad-currency@shop.test', password: 'owner-password-1' },
    });
    expect(login.statusCode).toBe(401);
  });
});

describe('domains', () => {
  let channel: string;
  beforeAll(async () => {
    channel = (await create({ name: 'Domains', default_country: 'DE', currency: 'EUR' })).data.id;
  });

  it('normalises hostnames: lowercase, IDN to punycode, trailing dot', async () => {
    const a = await call(t.app, 'POST', `/api/admin/channels/${channel}/domains`, {
      token: owner,
      body: { domain: 'Shop.Example.COM.' },
    });
    expect(a.statusCode).toBe(201);
    expect(a.data).toMatchObject({ domain: 'shop.example.com', channel_id: channel });
    expect(a.data.id).toMatch(/^dom_/);
    const idn = await call(t.app, 'POST', `/api/admin/channels/${channel}/domains`, {
      token: owner,
      body: { domain: 'bücher.example' },
    });
    expect(idn.data.domain).toBe('xn--bcher-kva.example');
    const list = await call(t.app, 'GET', `/api/admin/channels/${channel}/domains`, { token: owner });
    expect(list.data.domains.map((d: { domain: string }) => d.domain)).toEqual([
      'shop.example.com',
      'xn--bcher-kva.example',
    ]);
    // the channel list counts them (the admin's channel list shows it)
    const channels = await call(t.app, 'GET', '/api/admin/channels', { token: owner });
    const row = channels.data.channels.find((c: { id: string }) => c.id === channel);
    expect(row.domain_count).toBe(2);
    expect(channels.data.channels.every((c: { domain_count: unknown }) => Number.isInteger(c.domain_count))).toBe(true);
  });

  it.each([
    'https://shop.example',
    'shop.example:8080',
    'shop.example/path',
    'localhost',
    '10.0.0.1',
    '-bad-.example',
    'a b.example',
  ])('refuses %s', async (domain) => {
    const res = await call(t.app, 'POST', `/api/admin/channels/${channel}/domains`, { token: owner, body: { domain } });
    expectProblem(res, 400, 'validation_failed');
    expect(res.data.errors[0].path).toBe('/body/domain');
  });

  it('a host maps to one channel across all channels and shops (409 domain_taken)', async () => {
    const other = (await create({ name: 'Other', default_country: 'DE', currency: 'EUR' })).data.id;
    expectProblem(
      await call(t.app, 'POST', `/api/admin/channels/${other}/domains`, {
        token: owner,
        body: { domain: 'SHOP.example.com' },
      }),
      409,
      'domain_taken',
    );
    const s2 = await createShop(t.app);
    const c2 = (await create({ name: 'B', default_country: 'DE', currency: 'EUR' }, s2.ownerToken)).data.id;
    expectProblem(
      await call(t.app, 'POST', `/api/admin/channels/${c2}/domains`, {
        token: s2.ownerToken,
        body: { domain: 'shop.example.com' },
      }),
      409,
      'domain_taken',
    );
  });

  it('two concurrent requests for one host: exactly one wins', async () => {
    const other = (await create({ name: 'Race', default_country: 'DE', currency: 'EUR' })).data.id;
    const results = await Promise.all(
      [channel, other, channel, other].map((c) =>
        call(t.app, 'POST', `/api/admin/channels/${c}/domains`, { token: owner, body: { domain: 'race.example' } }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409]);
  });

  it('removes a mapping; another channel id or an unknown mapping is 404', async () => {
    const d = await call(t.app, 'POST', `/api/admin/channels/${channel}/domains`, {
      token: owner,
      body: { domain: 'gone.example' },
    });
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/channels/${shop.shopId}/domains/${d.data.id}`, { token: owner }),
      404,
      'not_found',
    );
    expect(
      (await call(t.app, 'DELETE', `/api/admin/channels/${channel}/domains/${d.data.id}`, { token: owner })).statusCode,
    ).toBe(204);
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/channels/${channel}/domains/${d.data.id}`, { token: owner }),
      404,
      'not_found',
    );
  });
});

describe('countries and tax overrides', () => {
  let channel: string;
  beforeAll(async () => {
    channel = (await create({ name: 'Countries', default_country: 'DE', currency: 'EUR' })).data.id;
  });
  const url = () => `/api/admin/channels/${channel}/countries`;

  it('an empty selection means every active shared country, with EU VAT rates as fractions', async () => {
    const res = await call(t.app, 'GET', url(), { token: owner });
    expect(res.data.inherited).toBe(true);
    expect(res.data.countries).toHaveLength(249);
    const de = res.data.countries.find((c: { code: string }) => c.code === 'DE');
    expect(de).toMatchObject({
      name: 'Germany',
      currency: 'EUR',
      tax_rate: 0.19,
      food_tax_rate: 0.07,
      books_tax_rate: 0.07,
      is_custom: false,
    });
    const at = res.data.countries.find((c: { code: string }) => c.code === 'AT');
    expect(at).toMatchObject({ tax_rate: 0.2, food_tax_rate: 0.1, books_tax_rate: 0.1 });
    const eu = res.data.countries.filter((c: { tax_rate: number | null }) => c.tax_rate !== null);
    expect(eu.length).toBeGreaterThanOrEqual(27);
  });

  it('concurrent PUTs of the selection all succeed, and one of them is what stays (no 500 on PostgreSQL)', async () => {
    const lists = [['DE', 'AT'], ['AT', 'CH', 'DE'], ['FR'], ['DE', 'AT'], ['CH', 'FR'], ['AT'], ['DE'], ['FR', 'DE']];
    const res = await Promise.all(
      lists.map((country_codes) => call(t.app, 'PUT', url(), { token: owner, body: { country_codes } })),
    );
    expect(res.map((r) => r.statusCode)).toEqual(lists.map(() => 200));
    const after = await call(t.app, 'GET', url(), { token: owner });
    const codes = after.data.countries.map((c: { code: string }) => c.code);
    expect(lists.map((l) => l.join())).toContain(codes.join());
  });

  it('PUT replaces the selection in the given order; unknown codes are 400', async () => {
    const res = await call(t.app, 'PUT', url(), { token: owner, body: { country_codes: ['DE', 'AT', 'CH'] } });
    expect(res.statusCode).toBe(200);
    expect(res.data.inherited).toBe(false);
    expect(res.data.countries.map((c: { code: string }) => c.code)).toEqual(['DE', 'AT', 'CH']);
    const again = await call(t.app, 'PUT', url(), { token: owner, body: { country_codes: ['AT'] } });
    expect(again.data.countries.map((c: { code: string }) => c.code)).toEqual(['AT']);
    const bad = await call(t.app, 'PUT', url(), { token: owner, body: { country_codes: ['AT', 'QQ'] } });
    expectProblem(bad, 400, 'validation_failed');
    expect(bad.data.errors[0].path).toBe('/body/country_codes/1');
    expectProblem(
      await call(t.app, 'PUT', url(), { token: owner, body: { country_codes: ['at'] } }),
      400,
      'validation_failed',
    );
    const unchanged = await call(t.app, 'GET', url(), { token: owner });
    expect(unchanged.data.countries.map((c: { code: string }) => c.code)).toEqual(['AT']);
  });

  it('PATCH sets overrides; null removes one and the shared value applies again', async () => {
    const res = await call(t.app, 'PATCH', `${url()}/AT`, {
      token: owner,
      body: { tax_rate: 0.13, name: 'Österreich' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ code: 'AT', name: 'Österreich', tax_rate: 0.13, food_tax_rate: 0.1 });
    expect(res.data.overrides).toEqual({
      name: 'Österreich',
      currency: null,
      tax_rate: 0.13,
      food_tax_rate: null,
      books_tax_rate: null,
    });
    const cleared = await call(t.app, 'PATCH', `${url()}/AT`, { token: owner, body: { tax_rate: null } });
    expect(cleared.data).toMatchObject({ name: 'Österreich', tax_rate: 0.2 });
    expect(cleared.data.overrides.tax_rate).toBeNull();
    // overrides are per channel
    const otherChannel = (await create({ name: 'C2', default_country: 'AT', currency: 'EUR' })).data.id;
    const other = await call(t.app, 'GET', `/api/admin/channels/${otherChannel}/countries`, { token: owner });
    expect(other.data.countries.find((c: { code: string }) => c.code === 'AT').name).toBe('Austria');
  });

  it('tax rates are fractions from 0 to 1: 19 is refused, not read as percent', async () => {
    const res = await call(t.app, 'PATCH', `${url()}/AT`, { token: owner, body: { tax_rate: 19 } });
    expectProblem(res, 400, 'validation_failed');
    expect(res.data.errors[0].path).toBe('/body/tax_rate');
    expectProblem(
      await call(t.app, 'PATCH', `${url()}/AT`, { token: owner, body: { food_tax_rate: -0.1 } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await call(t.app, 'PATCH', `${url()}/AT`, { token: owner, body: { tax_rate: '0.2' } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await call(t.app, 'PATCH', `${url()}/QQ`, { token: owner, body: { tax_rate: 0.1 } }),
      404,
      'not_found',
    );
  });

  it('custom countries: add, use, delete everywhere; shared ones cannot be deleted here', async () => {
    const add = await call(t.app, 'POST', `${url()}/custom`, {
      token: owner,
      body: { code: 'XK', name: 'Kosovo', currency: 'EUR', tax_rate: 0.18 },
    });
    expect(add.statusCode).toBe(201);
    expect(add.data).toMatchObject({ code: 'XK', name: 'Kosovo', tax_rate: 0.18, is_custom: true });
    const list = await call(t.app, 'GET', url(), { token: owner });
    expect(list.data.countries.map((c: { code: string }) => c.code)).toEqual(['AT', 'XK']);
    expectProblem(
      await call(t.app, 'POST', `${url()}/custom`, { token: owner, body: { code: 'XK', name: 'Again' } }),
      409,
      'country_exists',
    );
    expectProblem(
      await call(t.app, 'POST', `${url()}/custom`, { token: owner, body: { code: 'DE', name: 'Deutschland' } }),
      409,
      'country_exists',
    );
    // selected in another channel too
    const c2 = (await create({ name: 'C3', default_country: 'DE', currency: 'EUR' })).data.id;
    await call(t.app, 'PUT', `/api/admin/channels/${c2}/countries`, {
      token: owner,
      body: { country_codes: ['XK', 'DE'] },
    });
    expectProblem(await call(t.app, 'DELETE', `${url()}/custom/DE`, { token: owner }), 409, 'shared_country');
    expect((await call(t.app, 'DELETE', `${url()}/custom/XK`, { token: owner })).statusCode).toBe(204);
    const c2list = await call(t.app, 'GET', `/api/admin/channels/${c2}/countries`, { token: owner });
    expect(c2list.data.countries.map((c: { code: string }) => c.code)).toEqual(['DE']);
    expectProblem(await call(t.app, 'DELETE', `${url()}/custom/XK`, { token: owner }), 404, 'not_found');
  });

  it('a custom country a channel still needs is not deleted (409 in_use): default country, only selected one', async () => {
    const add = await call(t.app, 'POST', `${url()}/custom`, { token: owner, body: { code: 'XK', name: 'Kosovo' } });
    expect(add.statusCode).toBe(201);
    const del = () => call(t.app, 'DELETE', `${url()}/custom/XK`, { token: owner });
    // the default country of another channel
    const home = (await create({ name: 'Prishtina', default_country: 'XK', currency: 'EUR' })).data.id;
    const refused = await del();
    expectProblem(refused, 409, 'in_use');
    expect(refused.data.detail).toContain('Prishtina');
    const channel = await call(t.app, 'GET', `/api/admin/channels/${home}`, { token: owner });
    expect(channel.data.default_country).toBe('XK');
    expect(
      (await call(t.app, 'GET', url(), { token: owner })).data.countries.map((c: { code: string }) => c.code),
    ).toEqual(['AT', 'XK']);
    await call(t.app, 'PATCH', `/api/admin/channels/${home}`, { token: owner, body: { default_country: 'AL' } });
    // the only country a channel's selection holds (an empty selection would mean every country)
    await call(t.app, 'PUT', `/api/admin/channels/${home}/countries`, {
      token: owner,
      body: { country_codes: ['XK'] },
    });
    expectProblem(await del(), 409, 'in_use');
    const selection = await call(t.app, 'GET', `/api/admin/channels/${home}/countries`, { token: owner });
    expect(selection.data).toMatchObject({ inherited: false, countries: [{ code: 'XK' }] });
    await call(t.app, 'PUT', `/api/admin/channels/${home}/countries`, {
      token: owner,
      body: { country_codes: ['XK', 'AL'] },
    });
    // selected beside others: it goes from every selection
    expect((await del()).statusCode).toBe(204);
    const after = await call(t.app, 'GET', `/api/admin/channels/${home}/countries`, { token: owner });
    expect(after.data.countries.map((c: { code: string }) => c.code)).toEqual(['AL']);
  });
});

describe('payment methods', () => {
  let channel: string;
  beforeAll(async () => {
    channel = (await create({ name: 'Pay', default_country: 'DE', currency: 'EUR' })).data.id;
  });

  it('an empty selection inherits the shop-wide configuration', async () => {
    const res = await call(t.app, 'GET', `/api/admin/channels/${channel}/payment-methods`, { token: owner });
    expect(res.data).toEqual({ method_codes: [], inherited: true, effective_method_codes: ['card'] });
    await call(t.app, 'PUT', '/api/admin/settings/payment-methods', {
      token: owner,
      body: { method_codes: ['card', 'paypal'] },
    });
    const inherited = await call(t.app, 'GET', `/api/admin/channels/${channel}/payment-methods`, { token: owner });
    expect(inherited.data.effective_method_codes).toEqual(['card', 'paypal']);
  });

  it("the shop's selection takes known codes and at least one (400 at method_codes)", async () => {
    const put = (method_codes: unknown) =>
      call(t.app, 'PUT', '/api/admin/settings/payment-methods', { token: owner, body: { method_codes } });
    for (const bad of [[], ['card', 'bitcoin'], ['card', 'card']]) {
      const res = await put(bad);
      expectProblem(res, 400, 'validation_failed');
      expect(res.data.errors.map((e: { path: string }) => e.path).join()).toContain('/body/method_codes');
    }
    expect((await call(t.app, 'GET', '/api/admin/settings/payment-methods', { token: owner })).data).toEqual({
      method_codes: ['card', 'paypal'],
    });
    expect((await put(['sepa_debit', 'invoice'])).data).toEqual({ method_codes: ['sepa_debit', 'invoice'] });
  });

  it('sets the channel selection; unknown codes are 400', async () => {
    const res = await call(t.app, 'PUT', `/api/admin/channels/${channel}/payment-methods`, {
      token: owner,
      body: { method_codes: ['card', 'apple_pay', 'google_pay'] },
    });
    expect(res.data).toEqual({
      method_codes: ['card', 'apple_pay', 'google_pay'],
      inherited: false,
      effective_method_codes: ['card', 'apple_pay', 'google_pay'],
    });
    const bad = await call(t.app, 'PUT', `/api/admin/channels/${channel}/payment-methods`, {
      token: owner,
      body: { method_codes: ['card', 'bitcoin'] },
    });
    expectProblem(bad, 400, 'validation_failed');
    const cleared = await call(t.app, 'PUT', `/api/admin/channels/${channel}/payment-methods`, {
      token: owner,
      body: { method_codes: [] },
    });
    expect(cleared.data.inherited).toBe(true);
  });
});
