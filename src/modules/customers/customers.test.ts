/**
 * Customers in the admin (issue 31, docs/customers.md): accounts and guest buyers in one list,
 * an account's detail, suspending and restoring sign-in, the verification e-mail again, the GDPR
 * export; roles, API tokens and the channel restriction.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  customerToken,
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
let channelB: string;
let anna = '';
let annaToken = '';
let bert = '';
let annaOrder = '';

const billing = (name: string) => ({ name, line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' });
const store = { token: '', headers: { origin: STORE_ORIGIN } };

async function buy(prefix: string, productId: string, email: string, name: string) {
  const s = await call(t.app, 'POST', `${prefix}/api/store/checkout-sessions`, {
    ...store,
    body: {
      items: [{ product_id: productId, quantity: 1 }],
      customer: { email, billing_address: billing(name) },
      return_url: `${STORE_ORIGIN}/danke`,
    },
  });
  expect(s.statusCode, s.body).toBe(201);
  const paid = await call(t.app, 'POST', `/pay/${s.data.id}`, {
    body: new URLSearchParams({
      ...billing(name),
      card_number: '4242424242424242',
      widerruf_verzicht: 'on',
    }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(paid.statusCode, paid.body).toBe(303);
  const list = await call(t.app, 'GET', '/api/admin/orders', { token: owner, query: { email } });
  return list.data.orders[0].id as string;
}

const list = (query: Record<string, string> = {}, token = owner) =>
  call(t.app, 'GET', '/api/admin/customers', { token, query });
const emails = (res: { data: { customers: { email: string }[] } }) => res.data.customers.map((c) => c.email);
const login = (email: string, password = 'customer-pass-1') =>
  call(t.app, 'POST', '/api/customer/login', { ...store, body: { email, password } });

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
  store.token = shop.publishableKey;
  const b = await call(t.app, 'POST', '/api/admin/channels', {
    token: owner,
    body: { name: 'B', default_country: 'DE', currency: 'EUR', path_prefix: 'b' },
  });
  channelB = b.data.id;
  const product = await call(t.app, 'POST', '/api/products', {
    token: owner,
    body: { name: 'Kurs', status: 'published', is_digital: true, base_price_cents: 1000 },
  });
  for (const c of [shop.defaultChannelId, channelB]) {
    await call(t.app, 'PATCH', `/api/products/${product.data.id}/channels/${c}`, {
      token: owner,
      body: { is_published: true },
    });
  }
  // a guest in channel A, a verified account that bought in channel B, an unverified account without orders
  await buy('', product.data.id, 'gast@kunde.test', 'Gustav Gast');
  annaToken = await customerToken(t.app, shop, { email: 'anna@kunde.test' });
  annaOrder = await buy('/b', product.data.id, 'Anna@Kunde.test', 'Anna Adler');
  const bertReg = await call(t.app, 'POST', '/api/customer/register', {
    token: shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: { email: 'bert@kunde.test', password: 'customer-pass-1' },
  });
  expect(bertReg.statusCode, bertReg.body).toBe(202);
  const all = await list({ kind: 'account' });
  anna = all.data.customers.find((c: { email: string }) => c.email === 'anna@kunde.test').id;
  bert = all.data.customers.find((c: { email: string }) => c.email === 'bert@kunde.test').id;
  const invoice = await call(t.app, 'POST', `/api/admin/orders/${annaOrder}/invoice`, { token: owner });
  expect(invoice.statusCode, invoice.body).toBe(201);
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/admin/customers', () => {
  it('lists accounts and guest buyers with their orders, newest order first, exact count', async () => {
    const res = await list();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ count: 3, limit: 50, offset: 0 });
    expect(emails(res)).toEqual(['anna@kunde.test', 'gast@kunde.test', 'bert@kunde.test']);
    const [a, g, b] = res.data.customers;
    expect(a).toMatchObject({ kind: 'account', id: anna, email_verified: true, suspended: false, order_count: 1 });
    expect(g).toMatchObject({ kind: 'guest', id: null, name: 'Gustav Gast', email_verified: false, order_count: 1 });
    expect(g.orders_href).toBe('/api/admin/orders?email=gast%40kunde.test');
    expect(b).toMatchObject({ kind: 'account', id: bert, email_verified: false, order_count: 0, last_order_at: null });
    // the guest's link lists exactly its orders
    const orders = await call(t.app, 'GET', g.orders_href, { token: owner });
    expect(orders.data.count).toBe(1);
  });

  it('searches e-mail and name, filters verified and kind, sorts, pages', async () => {
    expect(emails(await list({ q: 'gustav' }))).toEqual(['gast@kunde.test']);
    expect(emails(await list({ q: 'ANNA@' }))).toEqual(['anna@kunde.test']);
    expect(emails(await list({ verified: 'true' }))).toEqual(['anna@kunde.test']);
    expect(emails(await list({ verified: 'false', sort: 'email_asc' }))).toEqual([
      'bert@kunde.test',
      'gast@kunde.test',
    ]);
    expect(emails(await list({ kind: 'guest' }))).toEqual(['gast@kunde.test']);
    expect(emails(await list({ sort: 'email_desc' }))).toEqual([
      'gast@kunde.test',
      'bert@kunde.test',
      'anna@kunde.test',
    ]);
    const page = await list({ sort: 'email_asc', limit: '1', offset: '1' });
    expect(page.data).toMatchObject({ count: 3, limit: 1, offset: 1 });
    expect(emails(page)).toEqual(['bert@kunde.test']);
    expect((await list({ offset: '5' })).data).toMatchObject({ count: 3, customers: [] });
  });

  it('refuses invalid queries with 400 at the field', async () => {
    for (const [query, path] of [
      [{ limit: '0' }, '/query/limit'],
      [{ limit: '201' }, '/query/limit'],
      [{ sort: 'name' }, '/query/sort'],
      [{ verified: 'vielleicht' }, '/query/verified'],
      [{ kind: 'vendor' }, '/query/kind'],
      [{ q: '' }, '/query/q'],
      [{ foo: '1' }, '/query/foo'],
    ] as const) {
      const res = await list(query);
      expectProblem(res, 400, 'validation_failed');
      expect(res.data.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
  });

  it('the channel restriction: only customers with an order in the employee’s channels', async () => {
    const inA = await employeeToken(t.app, shop, 'viewer', [shop.defaultChannelId]);
    expect(emails(await list({}, inA))).toEqual(['gast@kunde.test']);
    const inB = await employeeToken(t.app, shop, 'admin', [channelB]);
    expect(emails(await list({}, inB))).toEqual(['anna@kunde.test']);
    const none = await employeeToken(t.app, shop, 'viewer', []);
    expect((await list({}, none)).data).toMatchObject({ count: 0, customers: [] });
    // an account out of reach is answered like a missing one
    expectProblem(await call(t.app, 'GET', `/api/admin/customers/${anna}`, { token: inA }), 404, 'not_found');
    expectProblem(await call(t.app, 'GET', `/api/admin/customers/${bert}`, { token: inB }), 404, 'not_found');
    expectProblem(
      await call(t.app, 'POST', `/api/admin/customers/${anna}/suspend`, {
        token: await employeeToken(t.app, shop, 'admin', [shop.defaultChannelId]),
      }),
      404,
      'not_found',
    );
    const detail = await call(t.app, 'GET', `/api/admin/customers/${anna}`, { token: inB });
    expect(detail.data.orders.count).toBe(1);
  });

  it('roles: owner, admin and viewer read; catalog editors, tokens and customers are refused', async () => {
    expect((await list({}, await employeeToken(t.app, shop, 'viewer'))).statusCode).toBe(200);
    expect((await list({}, await employeeToken(t.app, shop, 'admin'))).statusCode).toBe(200);
    expectProblem(await list({}, await employeeToken(t.app, shop, 'catalog_editor')), 403, 'role_denied');
    expectProblem(await list({}, await apiToken(t.app, shop, ['finance:read'])), 403, 'scope_denied');
    expectProblem(await list({}, annaToken), 403, 'credential_denied');
    expect((await call(t.app, 'GET', '/api/admin/customers')).statusCode).toBe(401);
  });
});

describe('GET /api/admin/customers/:id', () => {
  it('the account with the newest of its orders, subscriptions and invoices', async () => {
    const res = await call(t.app, 'GET', `/api/admin/customers/${anna}`, { token: owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.customer).toMatchObject({
      id: anna,
      email: 'anna@kunde.test',
      email_verified: true,
      has_password: true,
      suspended: false,
    });
    expect(res.data.customer.password_hash).toBeUndefined();
    expect(res.data.orders).toMatchObject({ count: 1, href: '/api/admin/orders?email=anna%40kunde.test' });
    expect(res.data.orders.items[0].id).toBe(annaOrder);
    expect(res.data.invoices).toMatchObject({ count: 1 });
    expect(res.data.invoices.items[0]).toMatchObject({ order_id: annaOrder, status: 'draft', total_cents: 1000 });
    expect(res.data.subscriptions).toMatchObject({ count: 0, items: [] });
  });

  it('404 for unknown and another shop’s accounts; 400 for an overlong id', async () => {
    expectProblem(await call(t.app, 'GET', '/api/admin/customers/cus_unknown', { token: owner }), 404, 'not_found');
    const other = await createShop(t.app);
    expectProblem(
      await call(t.app, 'GET', `/api/admin/customers/${anna}`, { token: other.ownerToken }),
      404,
      'not_found',
    );
    expectProblem(
      await call(t.app, 'GET', `/api/admin/customers/${'x'.repeat(65)}`, { token: owner }),
      400,
      'validation_failed',
    );
  });
});

describe('suspend, restore, resend-verification', () => {
  it('a suspended customer’s sessions end and sign-in is refused with account_suspended; restore lets them in', async () => {
    const before = await call(t.app, 'GET', '/api/customer/me', { token: annaToken });
    expect(before.statusCode).toBe(200);
    const res = await call(t.app, 'POST', `/api/admin/customers/${anna}/suspend`, { token: owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.customer).toMatchObject({ suspended: true });
    const since = res.data.customer.suspended_at;
    expect(since).toEqual(expect.any(String));
    expect((await call(t.app, 'GET', '/api/customer/me', { token: annaToken })).statusCode).toBe(401);
    expectProblem(await login('anna@kunde.test'), 403, 'account_suspended');
    // a wrong password learns nothing of the suspension
    expectProblem(await login('anna@kunde.test', 'wrong-password-1'), 401, 'invalid_credentials');
    // again: still suspended, since the first time
    const again = await call(t.app, 'POST', `/api/admin/customers/${anna}/suspend`, { token: owner });
    expect(again.data.customer.suspended_at).toBe(since);
    expect((await list({ q: 'anna' })).data.customers[0].suspended).toBe(true);
    const restored = await call(t.app, 'POST', `/api/admin/customers/${anna}/restore`, { token: owner });
    expect(restored.data.customer).toMatchObject({ suspended: false, suspended_at: null });
    expect((await login('anna@kunde.test')).statusCode).toBe(200);
  });

  it('sends the verification e-mail again; 409 already_verified for a verified account', async () => {
    const mails = async () =>
      (
        await call(t.app, 'GET', '/api/admin/emails', {
          token: owner,
          query: { to: 'bert@kunde.test', kind: 'customer_verify_email' },
        })
      ).data.emails.length as number;
    const n = await mails();
    const res = await call(t.app, 'POST', `/api/admin/customers/${bert}/resend-verification`, { token: owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.customer).toMatchObject({ id: bert, email_verified: false });
    expect(await mails()).toBe(n + 1);
    expectProblem(
      await call(t.app, 'POST', `/api/admin/customers/${anna}/resend-verification`, { token: owner }),
      409,
      'already_verified',
    );
  });

  it('changes are for owner and admin: viewers, catalog editors, tokens and customers are refused; unknown ids 404', async () => {
    const viewer = await employeeToken(t.app, shop, 'viewer');
    const editor = await employeeToken(t.app, shop, 'catalog_editor');
    const token = await apiToken(t.app, shop, ['finance:read']);
    const customer = await customerToken(t.app, shop);
    for (const action of ['suspend', 'restore', 'resend-verification']) {
      const url = `/api/admin/customers/${bert}/${action}`;
      expectProblem(await call(t.app, 'POST', url, { token: viewer }), 403, 'role_denied');
      expectProblem(await call(t.app, 'POST', url, { token: editor }), 403, 'role_denied');
      expectProblem(await call(t.app, 'POST', url, { token }), 403, 'scope_denied');
      expectProblem(await call(t.app, 'POST', url, { token: customer }), 403, 'credential_denied');
      expect((await call(t.app, 'POST', url)).statusCode).toBe(401);
      expectProblem(
        await call(t.app, 'POST', `/api/admin/customers/cus_unknown/${action}`, { token: owner }),
        404,
        'not_found',
      );
    }
    const unchanged = await call(t.app, 'GET', `/api/admin/customers/${bert}`, { token: owner });
    expect(unchanged.data.customer.suspended).toBe(false);
  });
});

describe('GET /api/admin/customers/:id/export', () => {
  it('the account, addresses, orders with lines, subscriptions, invoices and consents; no secrets', async () => {
    const res = await call(t.app, 'GET', `/api/admin/customers/${anna}/export`, { token: owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="customer-${anna}.json"`);
    const d = res.data;
    expect(d.scope).toEqual({ channel_restricted: false, channel_ids: null });
    expect(d.account).toMatchObject({ id: anna, email: 'anna@kunde.test' });
    expect(d.addresses).toEqual([expect.objectContaining({ name: 'Anna Adler', city: 'Berlin' })]);
    expect(d.orders).toHaveLength(1);
    expect(d.orders[0].lines).toHaveLength(1);
    expect(d.invoices).toHaveLength(1);
    expect(d.subscriptions).toEqual([]);
    expect(d.consents).toEqual([
      expect.objectContaining({
        order_id: annaOrder,
        widerruf_verzicht: true,
        widerruf_verzicht_at: expect.any(String),
      }),
    ]);
    expect(res.body).not.toMatch(/password_hash|argon2|token_hash|payment_ref|csess_/);
  });

  it('owner and admin only; a viewer is refused', async () => {
    expectProblem(
      await call(t.app, 'GET', `/api/admin/customers/${anna}/export`, {
        token: await employeeToken(t.app, shop, 'viewer'),
      }),
      403,
      'role_denied',
    );
    expect(
      (
        await call(t.app, 'GET', `/api/admin/customers/${anna}/export`, {
          token: await employeeToken(t.app, shop, 'admin'),
        })
      ).statusCode,
    ).toBe(200);
    expectProblem(
      await call(t.app, 'GET', `/api/admin/customers/${anna}/export`, {
        token: await apiToken(t.app, shop, ['finance:read']),
      }),
      403,
      'scope_denied',
    );
    expectProblem(
      await call(t.app, 'GET', '/api/admin/customers/cus_unknown/export', { token: owner }),
      404,
      'not_found',
    );
  });
});
