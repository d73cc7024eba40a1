/**
 * Employee channel restriction (docs/ARCHITECTURE.md): an explicit restriction holds even when its list
 * becomes empty, and applies to the product list, product detail, product and listing writes,
 * and orders.
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
let shop: ShopFixture;
let owner: string;
const ch = { a: '', b: '' };
const prod = { a: '', b: '' };
const ord = { a: '', b: '' };

const billing = { name: 'Erika Muster', line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' };

async function channel(name: string, pathPrefix?: string) {
  const res = await call(t.app, 'POST', '/api/admin/channels', {
    token: owner,
    body: { name, default_country: 'DE', currency: 'EUR', ...(pathPrefix ? { path_prefix: pathPrefix } : {}) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as string;
}

async function product(name: string, channels: string[]) {
  const res = await call(t.app, 'POST', '/api/products', {
    token: owner,
    body: { name, status: 'published', is_digital: true, base_price_cents: 1000 },
  });
  expect(res.statusCode, res.body).toBe(201);
  for (const c of channels) {
    const l = await call(t.app, 'PATCH', `/api/products/${res.data.id}/channels/${c}`, {
      token: owner,
      body: { is_published: true },
    });
    expect(l.statusCode, l.body).toBe(200);
  }
  return res.data.id as string;
}

async function order(prefix: string, productId: string) {
  const s = await call(t.app, 'POST', `${prefix}/api/store/checkout-sessions`, {
    token: shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: {
      items: [{ product_id: productId, quantity: 1 }],
      customer: { email: `k-${Date.now()}@mail.test`, billing_address: billing },
      return_url: `${STORE_ORIGIN}/danke`,
    },
  });
  expect(s.statusCode, s.body).toBe(201);
  const paid = await call(t.app, 'POST', `/pay/${s.data.id}`, {
    body: new URLSearchParams({ ...billing, card_number: '4242424242424242', widerruf_verzicht: 'on' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(paid.statusCode, paid.body).toBe(303);
  const list = await call(t.app, 'GET', '/api/admin/orders', { token: owner, query: { limit: '1' } });
  return list.data.orders[0].id as string;
}

const ids = (res: { data: { products?: { id: string }[]; orders?: { id: string }[] } }) =>
  (res.data.products ?? res.data.orders ?? []).map((x) => x.id).sort();

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
  ch.a = shop.defaultChannelId; // the storefront's default channel (docs/ARCHITECTURE.md)
  ch.b = await channel('B', 'b');
  prod.a = await product('Nur A', [ch.a]);
  prod.b = await product('Nur B', [ch.b]);
  ord.a = await order('', prod.a);
  ord.b = await order('/b', prod.b);
});
afterAll(() => t.close());

describe('employee channel restriction', () => {
  it('employees show whether they are restricted; [] restricts to no channel, null lifts it', async () => {
    const email = `r-${Date.now()}@shop.test`;
    const created = await call(t.app, 'POST', '/api/admin/employees', {
      token: owner,
      body: { email, password: 'employee-pass-1', role: 'viewer', channel_ids: [] },
    });
    expect(created.data).toMatchObject({ channel_ids: [], channel_restricted: true });
    const lifted = await call(t.app, 'PATCH', `/api/admin/employees/${created.data.id}`, {
      token: owner,
      body: { channel_ids: null },
    });
    expect(lifted.data).toMatchObject({ channel_ids: [], channel_restricted: false });
    const again = await call(t.app, 'PATCH', `/api/admin/employees/${created.data.id}`, {
      token: owner,
      body: { channel_ids: [ch.a] },
    });
    expect(again.data).toMatchObject({ channel_ids: [ch.a], channel_restricted: true });
    const free = await call(t.app, 'POST', '/api/admin/employees', {
      token: owner,
      body: { email: `f-${email}`, password: 'employee-pass-1', role: 'viewer' },
    });
    expect(free.data).toMatchObject({ channel_ids: [], channel_restricted: false });
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/employees/${created.data.id}`, {
        token: owner,
        body: { channel_ids: ['not-a-channel'] },
      }),
      400,
      'validation_failed',
    );
  });

  it('applies to product list, detail, product writes, listing writes and orders', async () => {
    const editor = await employeeToken(t.app, shop, 'catalog_editor', [ch.a]);
    const free = await employeeToken(t.app, shop, 'catalog_editor');
    expect(ids(await call(t.app, 'GET', '/api/admin/products', { token: editor }))).toEqual([prod.a]);
    expect(ids(await call(t.app, 'GET', '/api/admin/products', { token: free }))).toEqual([prod.a, prod.b].sort());

    expect((await call(t.app, 'GET', `/api/admin/products/${prod.a}`, { token: editor })).statusCode).toBe(200);
    expectProblem(await call(t.app, 'GET', `/api/admin/products/${prod.b}`, { token: editor }), 404, 'not_found');
    expectProblem(
      await call(t.app, 'PATCH', `/api/products/${prod.b}`, { token: editor, body: { name: 'Übernommen' } }),
      404,
      'not_found',
    );
    expectProblem(await call(t.app, 'DELETE', `/api/products/${prod.b}`, { token: editor }), 404, 'not_found');
    expect(
      (await call(t.app, 'PATCH', `/api/products/${prod.a}`, { token: editor, body: { name: 'Nur A (neu)' } }))
        .statusCode,
    ).toBe(200);
    // listings: only in their own channels
    expectProblem(
      await call(t.app, 'PATCH', `/api/products/${prod.a}/channels/${ch.b}`, {
        token: editor,
        body: { is_published: true },
      }),
      404,
      'not_found',
    );
    expect(
      (
        await call(t.app, 'PATCH', `/api/products/${prod.a}/channels/${ch.a}`, {
          token: editor,
          body: { is_published: true },
        })
      ).statusCode,
    ).toBe(200);
    expect((await call(t.app, 'GET', `/api/admin/products/${prod.b}`, { token: owner })).data.product.name).toBe(
      'Nur B',
    );

    const viewer = await employeeToken(t.app, shop, 'viewer', [ch.a]);
    expect(ids(await call(t.app, 'GET', '/api/admin/orders', { token: viewer }))).toEqual([ord.a]);
    expect((await call(t.app, 'GET', '/api/admin/orders', { token: viewer })).data.count).toBe(1);
    expect((await call(t.app, 'GET', `/api/admin/orders/${ord.a}`, { token: viewer })).statusCode).toBe(200);
    expectProblem(await call(t.app, 'GET', `/api/admin/orders/${ord.b}`, { token: viewer }), 404, 'not_found');
    const manager = await employeeToken(t.app, shop, 'admin', [ch.a]);
    expectProblem(await call(t.app, 'POST', `/api/admin/orders/${ord.b}/cancel`, { token: manager }), 404, 'not_found');
    expect(ids(await call(t.app, 'GET', '/api/admin/orders', { token: owner }))).toEqual([ord.a, ord.b].sort());
  });

  it('an employee whose only channel was deleted sees no product and no order', async () => {
    const c = await channel('Weg');
    const p = await product('Nur Weg', [c]);
    const token = await employeeToken(t.app, shop, 'catalog_editor', [c]);
    expect(ids(await call(t.app, 'GET', '/api/admin/products', { token }))).toEqual([p]);
    expect((await call(t.app, 'DELETE', `/api/admin/channels/${c}`, { token: owner })).statusCode).toBe(204);
    const list = await call(t.app, 'GET', '/api/admin/products', { token });
    expect(list.statusCode).toBe(200);
    expect(list.data).toMatchObject({ products: [], count: 0 });
    expectProblem(await call(t.app, 'GET', `/api/admin/products/${p}`, { token }), 404, 'not_found');
    expectProblem(await call(t.app, 'GET', `/api/admin/products/${prod.a}`, { token }), 404, 'not_found');
    const orders = await call(t.app, 'GET', '/api/admin/orders', { token });
    expect(orders.data).toMatchObject({ orders: [], count: 0 });
    const employees = await call(t.app, 'GET', '/api/admin/employees', { token: owner });
    const me = employees.data.employees.find(
      (e: { channel_restricted: boolean; channel_ids: string[] }) =>
        e.channel_restricted && e.channel_ids.length === 0 && e,
    );
    expect(me).toBeTruthy();
  });
});
