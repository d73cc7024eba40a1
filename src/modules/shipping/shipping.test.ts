import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  employeeToken,
  expectProblem,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { findShippingMethod } from './index.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
});
afterAll(() => t.close());

const create = (body: unknown, token = owner) => call(t.app, 'POST', '/api/admin/shipping-methods', { token, body });
const store = (query: string, s: ShopFixture = shop, origin = STORE_ORIGIN) =>
  call(t.app, 'GET', `/api/store/shipping-methods${query}`, { token: s.publishableKey, headers: { origin } });

describe('shipping methods', () => {
  let dhl: string;
  let express: string;
  let pickup: string;

  it('creates methods (countries empty = every country) and lists them', async () => {
    const a = await create({ name: 'DHL Paket', price_cents: 490, countries: ['DE', 'AT'] });
    expect(a.statusCode).toBe(201);
    expect(a.data).toEqual({
      id: expect.stringMatching(/^ship_/),
      name: 'DHL Paket',
      price_cents: 490,
      countries: ['DE', 'AT'],
      is_active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    dhl = a.data.id;
    const b = await create({ name: 'Express weltweit', price_cents: 1990 });
    expect(b.data.countries).toEqual([]);
    express = b.data.id;
    const c = await create({ name: 'Abholung', price_cents: 0, countries: ['DE'], is_active: false });
    expect(c.data.is_active).toBe(false);
    pickup = c.data.id;
    const viewer = await employeeToken(t.app, shop, 'viewer');
    const list = await call(t.app, 'GET', '/api/admin/shipping-methods', { token: viewer });
    expect(list.statusCode).toBe(200);
    expect(list.data.shipping_methods.map((m: { id: string }) => m.id)).toEqual([dhl, express, pickup]);
  });

  it('validates the body', async () => {
    for (const body of [
      {},
      { name: '', price_cents: 100 },
      { name: 'x', price_cents: -1 },
      { name: 'x', price_cents: 1.5 },
      { name: 'x', price_cents: '100' },
      { name: 'x', price_cents: 100, countries: ['de'] },
      { name: 'x', price_cents: 100, countries: ['DEU'] },
      { name: 'x', price_cents: 100, countries: ['DE', 'DE'] },
      { name: 'x', price_cents: 100, countries: 'DE' },
      { name: 'x', price_cents: 100, is_active: 'yes' },
      { name: 'x', price_cents: 100, carrier: 'dhl' },
    ]) {
      expectProblem(await create(body), 400, 'validation_failed');
    }
    const res = await create({ name: '', price_cents: -5, countries: ['x'], color: 'red' });
    const paths = res.data.errors.map((e: { path: string }) => e.path);
    for (const p of ['/body/name', '/body/price_cents', '/body/countries/0', '/body/color']) expect(paths).toContain(p);
    const list = await call(t.app, 'GET', '/api/admin/shipping-methods', { token: owner });
    expect(list.data.shipping_methods).toHaveLength(3);
  });

  it('PATCH changes fields; DELETE removes; unknown or foreign ids are 404', async () => {
    const res = await call(t.app, 'PATCH', `/api/admin/shipping-methods/${dhl}`, {
      token: owner,
      body: { price_cents: 590, countries: ['DE', 'AT', 'CH'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ id: dhl, name: 'DHL Paket', price_cents: 590, countries: ['DE', 'AT', 'CH'] });
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/shipping-methods/${dhl}`, { token: owner, body: { price_cents: -1 } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/shipping-methods/${dhl}`, { token: owner, body: { price: 1 } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await call(t.app, 'PATCH', '/api/admin/shipping-methods/ship_unknown', { token: owner, body: { name: 'x' } }),
      404,
      'not_found',
    );
    const other = await createShop(t.app);
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/shipping-methods/${dhl}`, {
        token: other.ownerToken,
        body: { name: 'x' },
      }),
      404,
      'not_found',
    );
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/shipping-methods/${dhl}`, { token: other.ownerToken }),
      404,
      'not_found',
    );
    expect(
      (await call(t.app, 'GET', '/api/admin/shipping-methods', { token: other.ownerToken })).data.shipping_methods,
    ).toEqual([]);
    const temp = await create({ name: 'Temp', price_cents: 1 });
    const del = await call(t.app, 'DELETE', `/api/admin/shipping-methods/${temp.data.id}`, { token: owner });
    expect(del.statusCode).toBe(204);
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/shipping-methods/${temp.data.id}`, { token: owner }),
      404,
      'not_found',
    );
  });

  it('writes need owner or admin; tokens are refused', async () => {
    const editor = await employeeToken(t.app, shop, 'catalog_editor');
    expectProblem(await create({ name: 'x', price_cents: 1 }, editor), 403, 'role_denied');
    const admin = await employeeToken(t.app, shop, 'admin');
    const res = await create({ name: 'Admin-Versand', price_cents: 300, countries: ['FR'] }, admin);
    expect(res.statusCode).toBe(201);
    const tok = await apiToken(t.app, shop, ['catalog:write']);
    expect((await call(t.app, 'GET', '/api/admin/shipping-methods', { token: tok })).statusCode).toBe(403);
  });

  it('the storefront lists active methods for a country, cheapest first', async () => {
    const de = await store('?country=DE');
    expect(de.statusCode).toBe(200);
    expect(de.headers['access-control-allow-origin']).toBe(STORE_ORIGIN);
    expect(de.data).toEqual({
      shipping_methods: [
        { id: dhl, name: 'DHL Paket', price_cents: 590 },
        { id: express, name: 'Express weltweit', price_cents: 1990 },
      ],
    });
    const fr = await store('?country=FR');
    expect(fr.data.shipping_methods.map((m: { name: string }) => m.name)).toEqual([
      'Admin-Versand',
      'Express weltweit',
    ]);
    const us = await store('?country=US');
    expect(us.data.shipping_methods.map((m: { id: string }) => m.id)).toEqual([express]);
    for (const q of ['', '?country=de', '?country=DEU', '?country='])
      expectProblem(await store(q), 400, 'validation_failed');
    expectProblem(await store('?country=DE', shop, 'https://evil.example'), 403, 'origin_denied');
    // another shop's storefront sees its own methods only
    const other = await createShop(t.app);
    expect((await store('?country=DE', other)).data.shipping_methods).toEqual([]);
  });

  it('findShippingMethod returns the method only when active and shipping to the country', async () => {
    const db = t.app.deps.database.db;
    const found = await findShippingMethod({ db, shopId: shop.shopId }, dhl, 'AT');
    expect(found).toMatchObject({ id: dhl, price_cents: 590, is_active: true });
    expect(await findShippingMethod({ db, shopId: shop.shopId }, dhl, 'US')).toBeNull();
    expect(await findShippingMethod({ db, shopId: shop.shopId }, express, 'US')).toMatchObject({ id: express });
    expect(await findShippingMethod({ db, shopId: shop.shopId }, pickup, 'DE')).toBeNull();
    expect(await findShippingMethod({ db, shopId: 'shop_other' }, dhl, 'DE')).toBeNull();
    expect(await findShippingMethod({ db, shopId: shop.shopId }, 'ship_unknown', 'DE')).toBeNull();
  });
});
