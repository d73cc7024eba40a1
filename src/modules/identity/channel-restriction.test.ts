/**
 * Employee channel restriction (docs/ARCHITECTURE.md): an explicit restriction holds even when its list
 * becomes empty, and applies to the product list, product detail, product and listing writes,
 * orders, and every order-derived record (invoices, credit notes, their PDFs and e-invoices,
 * subscriptions, refunds, payment events, Lexware sync states; docs/decisions.md).
 */
import { sql } from 'drizzle-orm';
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
import { query } from '../../platform/db/tx.js';
import { SELLER } from '../finance/finance.fixtures.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;
const ch = { a: '', b: '' };
const prod = { a: '', b: '' };
const ord = { a: '', b: '' };
const sess = { a: '', b: '' };

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

async function order(prefix: string, productId: string, sessions?: { a: string; b: string }, key?: 'a' | 'b') {
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
  if (sessions && key) sessions[key] = s.data.id;
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
  ord.a = await order('', prod.a, sess, 'a');
  ord.b = await order('/b', prod.b, sess, 'b');
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

describe("order-derived records (issue 26 point 5: a restricted employee saw and changed every channel's money)", () => {
  const inv = { a: '', b: '' };
  const cn = { a: '', b: '' };
  const abo = { a: '', b: '' };
  let admin: string; // an admin restricted to channel A
  let emptied: string; // an admin restricted to no channel

  async function invoice(orderId: string) {
    const res = await call(t.app, 'POST', `/api/admin/orders/${orderId}/invoice`, { token: owner, body: {} });
    expect(res.statusCode, res.body).toBe(201);
    return res.data.id as string;
  }

  async function subscribe(prefix: string, planId: string, email: string) {
    const s = await call(t.app, 'POST', `${prefix}/api/store/abo-sessions`, {
      token: shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: { plan_id: planId, return_url: `${STORE_ORIGIN}/abo`, customer_email: email },
    });
    expect(s.statusCode, s.body).toBe(201);
    const paid = await call(t.app, 'POST', `/pay/${s.data.id}`, {
      body: new URLSearchParams({ ...billing, card_number: '4242424242424242' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.statusCode, paid.body).toBe(303);
    await t.app.deps.worker.drain();
    const list = await call(t.app, 'GET', '/api/admin/digital/abos', { token: owner, query: { q: email } });
    expect(list.data.abos, list.body).toHaveLength(1);
    return list.data.abos[0].id as string;
  }

  beforeAll(async () => {
    expect((await call(t.app, 'PUT', '/api/admin/settings/company', { token: owner, body: SELLER })).statusCode).toBe(
      200,
    );
    inv.a = await invoice(ord.a);
    inv.b = await invoice(ord.b);
    // final invoices with a draft credit note each
    for (const k of ['a', 'b'] as const) {
      const fin = await call(t.app, 'POST', `/api/admin/invoices/${inv[k]}/finalize`, { token: owner });
      expect(fin.statusCode, fin.body).toBe(200);
      const note = await call(t.app, 'POST', `/api/admin/invoices/${inv[k]}/credit-note`, {
        token: owner,
        body: { amount_cents: 100 },
      });
      expect(note.statusCode, note.body).toBe(201);
      cn[k] = note.data.id;
    }
    // a subscription sold in each channel
    expect(
      (await call(t.app, 'PUT', '/api/admin/digital/status', { token: owner, body: { aktiv: true } })).statusCode,
    ).toBe(200);
    for (const k of ['a', 'b'] as const) {
      const plan = await call(t.app, 'POST', '/api/admin/digital/plaene', {
        token: owner,
        body: { product_id: prod[k], name: `Plan ${k}`, price_cents: 990, interval_unit: 'month' },
      });
      expect(plan.statusCode, plan.body).toBe(201);
      abo[k] = await subscribe(k === 'a' ? '' : '/b', plan.data.id, `abo-${k}@kunde.test`);
    }
    // provider events: of an order, of a session only, and of neither (an unknown session)
    await query(
      t.app.deps.database.db,
      sql`INSERT INTO payment_events (provider, event_id, type, status, shop_id, checkout_session_id, order_id, amount_cents, currency)
          VALUES ('stripe', 'evt_ord_a', 'checkout.session.completed', 'processed', ${shop.shopId}, ${sess.a}, ${ord.a}, 1000, 'EUR'),
                 ('stripe', 'evt_ord_b', 'checkout.session.completed', 'processed', ${shop.shopId}, ${sess.b}, ${ord.b}, 1000, 'EUR'),
                 ('stripe', 'evt_sess_a', 'checkout.session.expired', 'ignored', ${shop.shopId}, ${sess.a}, NULL, NULL, NULL),
                 ('stripe', 'evt_sess_b', 'checkout.session.expired', 'ignored', ${shop.shopId}, ${sess.b}, NULL, NULL, NULL),
                 ('stripe', 'evt_none', 'checkout.session.completed', 'rejected', ${shop.shopId}, NULL, NULL, 500, 'EUR')`,
    );
    admin = await employeeToken(t.app, shop, 'admin', [ch.a]);
    emptied = await employeeToken(t.app, shop, 'admin', []);
  });

  const idsOf = (list: { id: string }[]) => list.map((x) => x.id).sort();

  it('GET /api/admin/invoices and /credit-notes list only documents of their channels, with an exact count', async () => {
    const invoices = await call(t.app, 'GET', '/api/admin/invoices', { token: admin });
    expect(invoices.statusCode).toBe(200);
    expect(idsOf(invoices.data.invoices)).toEqual([inv.a]);
    expect(invoices.data.count).toBe(1);
    // a search for the other channel's buyer finds nothing either
    const q = await call(t.app, 'GET', '/api/admin/invoices', { token: admin, query: { q: 'Erika' } });
    expect(idsOf(q.data.invoices)).toEqual([inv.a]);
    const notes = await call(t.app, 'GET', '/api/admin/credit-notes', { token: admin });
    expect(idsOf(notes.data.credit_notes)).toEqual([cn.a]);
    expect(notes.data.count).toBe(1);
    expect((await call(t.app, 'GET', '/api/admin/invoices', { token: emptied })).data).toMatchObject({
      invoices: [],
      count: 0,
    });
    expect((await call(t.app, 'GET', '/api/admin/credit-notes', { token: emptied })).data.count).toBe(0);
    const all = await call(t.app, 'GET', '/api/admin/invoices', { token: owner });
    expect(idsOf(all.data.invoices)).toEqual([inv.a, inv.b].sort());
  });

  it("another channel's invoice is missing (404) on every route: read, PATCH, DELETE, finalize, send, PDF, e-invoices, credit note", async () => {
    const b = `/api/admin/invoices/${inv.b}`;
    for (const [method, url, body] of [
      ['GET', b, undefined],
      ['PATCH', b, { note: 'übernommen' }],
      ['DELETE', b, undefined],
      ['POST', `${b}/finalize`, undefined],
      ['POST', `${b}/send-email`, {}],
      ['GET', `${b}/pdf`, undefined],
      ['GET', `${b}/pdf?format=zugferd`, undefined],
      ['GET', `${b}/xrechnung`, undefined],
      ['GET', `${b}/xrechnung?syntax=cii`, undefined],
      ['POST', `${b}/credit-note`, { amount_cents: 100 }],
    ] as const) {
      for (const token of [admin, emptied]) {
        const res = await call(t.app, method, url, { token, ...(body ? { body } : {}) });
        expectProblem(res, 404, 'not_found');
      }
    }
    // nothing changed: still one credit note on B, the note unchanged, not sent
    const seen = await call(t.app, 'GET', b, { token: owner });
    expect(seen.data).toMatchObject({ note: null, send_count: 0 });
    const notes = await call(t.app, 'GET', '/api/admin/credit-notes', { token: owner, query: { invoice_id: inv.b } });
    expect(notes.data.count).toBe(1);
    // their own channel's invoice works as for any admin
    expect((await call(t.app, 'GET', `/api/admin/invoices/${inv.a}`, { token: admin })).statusCode).toBe(200);
    const pdf = await call(t.app, 'GET', `/api/admin/invoices/${inv.a}/pdf`, { token: admin });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toContain('application/pdf');
  });

  it("another channel's credit note is missing (404): read, DELETE, finalize, PDF, XRechnung", async () => {
    const b = `/api/admin/credit-notes/${cn.b}`;
    for (const [method, url] of [
      ['GET', b],
      ['DELETE', b],
      ['POST', `${b}/finalize`],
      ['GET', `${b}/pdf`],
      ['GET', `${b}/xrechnung`],
    ] as const) {
      expectProblem(await call(t.app, method, url, { token: admin }), 404, 'not_found');
    }
    expect((await call(t.app, 'GET', b, { token: owner })).data.status).toBe('draft');
    expect((await call(t.app, 'GET', `/api/admin/credit-notes/${cn.a}`, { token: admin })).statusCode).toBe(200);
  });

  it("refunds and Lexware sync states of another channel's order are missing (404)", async () => {
    expectProblem(await call(t.app, 'GET', `/api/admin/orders/${ord.b}/refunds`, { token: admin }), 404, 'not_found');
    expectProblem(
      await call(t.app, 'POST', `/api/admin/orders/${ord.b}/refunds`, {
        token: admin,
        body: { amount_cents: 1, reason: 'fremd' },
      }),
      404,
      'not_found',
    );
    expect((await call(t.app, 'GET', `/api/admin/orders/${ord.b}/refunds`, { token: owner })).data.refunds).toEqual([]);
    expect((await call(t.app, 'GET', `/api/admin/orders/${ord.a}/refunds`, { token: admin })).statusCode).toBe(200);
    for (const path of ['lexware', 'lexware-retry', 'lexware-cancel']) {
      const method = path === 'lexware' ? 'GET' : 'POST';
      expectProblem(
        await call(t.app, method, `/api/admin/orders/${ord.b}/${path}`, { token: admin }),
        404,
        'not_found',
      );
    }
    expect((await call(t.app, 'GET', `/api/admin/orders/${ord.a}/lexware`, { token: admin })).statusCode).toBe(200);
  });

  it("subscriptions: the list and the statistics count only their channels; another channel's is missing (404)", async () => {
    const list = await call(t.app, 'GET', '/api/admin/digital/abos', { token: admin });
    expect(idsOf(list.data.abos)).toEqual([abo.a]);
    expect(list.data.count).toBe(1);
    const stats = await call(t.app, 'GET', '/api/admin/digital/abos/statistik', { token: admin });
    const ownerStats = await call(t.app, 'GET', '/api/admin/digital/abos/statistik', { token: owner });
    expect(stats.data.laufend).toBe(ownerStats.data.laufend - 1);
    expect(stats.data.mrr_cents).toBe(ownerStats.data.mrr_cents - 990);
    expect((await call(t.app, 'GET', '/api/admin/digital/abos', { token: emptied })).data.count).toBe(0);

    const b = `/api/admin/digital/abos/${abo.b}`;
    expectProblem(await call(t.app, 'GET', b, { token: admin }), 404, 'not_found');
    expectProblem(await call(t.app, 'POST', `${b}/kuendigen`, { token: admin, body: {} }), 404, 'not_found');
    expectProblem(await call(t.app, 'POST', `${b}/fortsetzen`, { token: admin }), 404, 'not_found');
    expect((await call(t.app, 'GET', b, { token: owner })).data.abo.cancel_at_period_end).toBe(false);
    const mine = await call(t.app, 'GET', `/api/admin/digital/abos/${abo.a}`, { token: admin });
    expect(mine.statusCode).toBe(200);
    expect(mine.data.bestellungen.length).toBeGreaterThan(0);
  });

  it('payment events: only those of orders or sessions of their channels, with an exact count', async () => {
    const events = (d: { payment_events: { event_id: string }[] }) => d.payment_events.map((e) => e.event_id).sort();
    const mine = await call(t.app, 'GET', '/api/admin/payment-events', { token: admin });
    expect(mine.statusCode).toBe(200);
    expect(events(mine.data)).toEqual(['evt_ord_a', 'evt_sess_a']);
    expect(mine.data.count).toBe(2);
    const page = await call(t.app, 'GET', '/api/admin/payment-events', { token: admin, query: { limit: '1' } });
    expect(page.data).toMatchObject({ count: 2 });
    expect(page.data.payment_events).toHaveLength(1);
    expect((await call(t.app, 'GET', '/api/admin/payment-events', { token: emptied })).data).toMatchObject({
      payment_events: [],
      count: 0,
    });
    const all = await call(t.app, 'GET', '/api/admin/payment-events', { token: owner });
    expect(events(all.data)).toEqual(['evt_none', 'evt_ord_a', 'evt_ord_b', 'evt_sess_a', 'evt_sess_b']);
  });

  it('routes over every channel at once (partners, the webhook log) refuse a restricted employee (403 channel_restricted)', async () => {
    for (const url of [
      '/api/admin/vendors',
      '/api/admin/vendor-earnings',
      '/api/admin/affiliates',
      '/api/admin/affiliate-earnings',
      '/api/admin/vendor-payouts',
      '/api/admin/vendor-statements',
      '/api/admin/checkout/webhook/deliveries',
    ]) {
      expectProblem(await call(t.app, 'GET', url, { token: admin }), 403, 'channel_restricted');
      expect((await call(t.app, 'GET', url, { token: owner })).statusCode, url).toBe(200);
    }
  });
});
