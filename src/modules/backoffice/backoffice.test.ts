/**
 * The back office API (issue 27): the order list's search, filters and sorts; saved views; the
 * order detail's tax decision; the order timeline; the refund preview and refunds by line; the
 * Heute overview. Over HTTP against the real app and database.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiToken, call, employeeToken, expectProblem, startApp, type TestApp } from '../../../test/helpers/app.js';
import { query } from '../../platform/db/tx.js';
import { type FinanceShop, finalInvoice, financeShop, paidOrder, unpaidOrder } from '../finance/finance.fixtures.js';
import { newVendor, vendorProduct } from '../partners/vendors.fixtures.js';

let t: TestApp;
let f: FinanceShop;

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
});
afterAll(() => t.close());

const get = (url: string, token = f.owner) => call(t.app, 'GET', url, { token });
const post = (url: string, body: unknown, token = f.owner, headers?: Record<string, string>) =>
  call(t.app, 'POST', url, { token, body, ...(headers ? { headers } : {}) });
const ids = (res: { data: { orders: { id: string }[] } }) => res.data.orders.map((o) => o.id);
const rand = () => Math.random().toString(36).slice(2, 8);

describe('GET /api/admin/orders: search, filters, sort', () => {
  let a: string;
  let b: string;
  let unpaid: string;
  const tag = rand();

  beforeAll(async () => {
    a = await paidOrder(t, f, {
      email: `anna-${tag}@mail.test`,
      billing: { name: `Anna Äpfelbaum${tag}` },
      items: [{ product_id: f.products.course, quantity: 1 }],
    });
    b = await paidOrder(t, f, {
      email: `bert-${tag}@mail.test`,
      billing: { name: `Bert Zuse${tag}` },
      items: [{ product_id: f.products.course, quantity: 3 }],
    });
    unpaid = await unpaidOrder(t, f, { email: `carl-${tag}@mail.test`, billing: { name: `Carl Unbezahlt${tag}` } });
  });

  it('q finds the billing name and the e-mail case-insensitively, and the number exactly (with or without #)', async () => {
    expect(ids(await get(`/api/admin/orders?q=${encodeURIComponent(`äpfelBAUM${tag}`)}`))).toEqual([a]);
    expect(ids(await get(`/api/admin/orders?q=BERT-${tag}`))).toEqual([b]);
    const number = (await get(`/api/admin/orders/${b}`)).data.order.number as string;
    expect(ids(await get(`/api/admin/orders?q=${number}`))).toEqual([b]);
    expect(ids(await get(`/api/admin/orders?q=%23${number}`))).toEqual([b]);
    // LIKE wildcards are taken literally
    expect((await get(`/api/admin/orders?q=${encodeURIComponent('%_')}`)).data.count).toBe(0);
  });

  it('paid=true / paid=false, status and channel_id; count is exact', async () => {
    const paid = await get(`/api/admin/orders?q=${tag}&paid=true`);
    expect(new Set(ids(paid))).toEqual(new Set([a, b]));
    expect(paid.data.count).toBe(2);
    const open = await get(`/api/admin/orders?q=${tag}&paid=false`);
    expect(ids(open)).toEqual([unpaid]);
    expect(open.data.count).toBe(1);
    expect(ids(await get(`/api/admin/orders?q=${tag}&status=pending_payment`))).toEqual([unpaid]);
    expect((await get(`/api/admin/orders?q=${tag}&channel_id=${f.channel}`)).data.count).toBe(3);
    expect((await get(`/api/admin/orders?q=${tag}&channel_id=chan_none`)).data.count).toBe(0);
  });

  it('sorts by total, number and creation, both ways; pages keep the order', async () => {
    const totals = async (sort: string) =>
      (await get(`/api/admin/orders?q=${tag}&paid=true&sort=${sort}`)).data.orders.map(
        (o: { total_cents: number }) => o.total_cents,
      );
    const asc = await totals('total_cents');
    expect(asc[0]).toBeLessThan(asc[1]);
    expect(await totals('-total_cents')).toEqual([...asc].reverse());
    const numbers = async (sort: string) =>
      (await get(`/api/admin/orders?q=${tag}&sort=${sort}`)).data.orders.map((o: { number: string }) =>
        Number(o.number),
      );
    const up = await numbers('number');
    expect(up).toEqual([...up].sort((x, y) => x - y));
    expect(await numbers('-number')).toEqual([...up].reverse());
    expect(ids(await get(`/api/admin/orders?q=${tag}&sort=created_at`))).toEqual([a, b, unpaid]);
    expect(ids(await get(`/api/admin/orders?q=${tag}&sort=-created_at`))).toEqual([unpaid, b, a]);
    const page2 = await get(`/api/admin/orders?q=${tag}&sort=created_at&limit=1&offset=1`);
    expect(ids(page2)).toEqual([b]);
    expect(page2.data.count).toBe(3);
  });

  it('created_from / created_to take dates or times', async () => {
    const created = (await get(`/api/admin/orders/${a}`)).data.order.created_at as string;
    const day = created.slice(0, 10);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    expect((await get(`/api/admin/orders?q=${tag}&created_from=${day}&created_to=${next}`)).data.count).toBe(3);
    expect((await get(`/api/admin/orders?q=${tag}&created_to=${day}`)).data.count).toBe(0);
    expect(
      (await get(`/api/admin/orders?q=${tag}&created_from=${encodeURIComponent(created)}&sort=created_at`)).data
        .orders[0].id,
    ).toBe(a);
  });

  it('answers invalid parameters with 400 at their path', async () => {
    const at = async (url: string, path: string) => {
      const res = await get(url);
      expectProblem(res, 400, 'validation_failed');
      expect(res.data.errors.map((e: { path: string }) => e.path)).toContain(path);
    };
    await at('/api/admin/orders?sort=price', '/query/sort');
    await at('/api/admin/orders?paid=maybe', '/query/paid');
    await at('/api/admin/orders?created_from=yesterday', '/query/created_from');
    await at('/api/admin/orders?created_from=0000-01-01', '/query/created_from');
    await at('/api/admin/orders?created_from=2025-02-01&created_to=2025-01-01', '/query/created_to');
    await at(`/api/admin/orders?q=${'x'.repeat(201)}`, '/query/q');
    await at('/api/admin/orders?q=', '/query/q');
    await at('/api/admin/orders?colour=red', '/query/colour');
  });

  it('a channel-restricted employee finds only orders of their channels', async () => {
    const other = await call(t.app, 'POST', '/api/admin/channels', {
      token: f.owner,
      body: { name: `Andere ${tag}`, default_country: 'DE', currency: 'EUR', path_prefix: `andere-${tag}` },
    });
    expect(other.statusCode).toBe(201);
    const restricted = await employeeToken(t.app, f.shop, 'admin', [other.data.id]);
    expect((await get(`/api/admin/orders?q=${tag}`, restricted)).data.count).toBe(0);
    expect((await get(`/api/admin/orders?q=${tag}&channel_id=${f.channel}`, restricted)).data.count).toBe(0);
  });
});

describe('saved views', () => {
  const base = '/api/admin/saved-views';

  it('are the signed-in employee’s own: create, list, rename, change, delete', async () => {
    const me = await employeeToken(t.app, f.shop, 'viewer');
    const other = await employeeToken(t.app, f.shop, 'admin');
    const created = await post(base, { resource: 'orders', name: 'Offen', query: 'status=paid&sort=-created_at' }, me);
    expect(created.statusCode).toBe(201);
    expect(created.data).toMatchObject({
      id: expect.stringMatching(/^view_/),
      resource: 'orders',
      name: 'Offen',
      query: 'status=paid&sort=-created_at',
    });
    await post(base, { resource: 'products', name: 'Entwürfe', query: 'status=draft' }, me);
    const mine = await get(`${base}?resource=orders`, me);
    expect(mine.data.views.map((v: { name: string }) => v.name)).toEqual(['Offen']);
    // another employee neither sees nor changes it
    expect((await get(`${base}?resource=orders`, other)).data.views).toEqual([]);
    expectProblem(
      await call(t.app, 'PATCH', `${base}/${created.data.id}`, { token: other, body: { name: 'Meins' } }),
      404,
      'not_found',
    );
    expectProblem(await call(t.app, 'DELETE', `${base}/${created.data.id}`, { token: other }), 404, 'not_found');
    const renamed = await call(t.app, 'PATCH', `${base}/${created.data.id}`, {
      token: me,
      body: { name: 'Zu versenden', query: 'status=paid' },
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.data).toMatchObject({ name: 'Zu versenden', query: 'status=paid' });
    expectProblem(await post(base, { resource: 'orders', name: 'Zu versenden', query: 'x=1' }, me), 409, 'name_taken');
    // the same name on another list, or by another employee, is fine
    expect((await post(base, { resource: 'invoices', name: 'Zu versenden', query: '' }, me)).statusCode).toBe(201);
    expect((await post(base, { resource: 'orders', name: 'Zu versenden', query: '' }, other)).statusCode).toBe(201);
    const del = await call(t.app, 'DELETE', `${base}/${created.data.id}`, { token: me });
    expect(del.statusCode).toBe(204);
    expect((await get(`${base}?resource=orders`, me)).data.views).toEqual([]);
    expectProblem(await call(t.app, 'DELETE', `${base}/${created.data.id}`, { token: me }), 404, 'not_found');
  });

  it('at most 50 per employee and list: the 51st is 409 saved_view_limit', async () => {
    const me = await employeeToken(t.app, f.shop, 'catalog_editor');
    for (let i = 0; i < 50; i++) {
      const res = await post(base, { resource: 'customers', name: `V${i}`, query: `page=${i}` }, me);
      expect(res.statusCode).toBe(201);
    }
    expectProblem(await post(base, { resource: 'customers', name: 'V50', query: '' }, me), 409, 'saved_view_limit');
    expect((await post(base, { resource: 'abos', name: 'V50', query: '' }, me)).statusCode).toBe(201);
    expect((await get(`${base}?resource=customers`, me)).data.views).toHaveLength(50);
  });

  it('validates: resource, name, query (no ?, bounded), an empty change; refuses API tokens', async () => {
    const bad = async (body: unknown, path: string) => {
      const res = await post(base, body);
      expectProblem(res, 400, 'validation_failed');
      expect(res.data.errors.map((e: { path: string }) => e.path)).toContain(path);
    };
    await bad({ resource: 'users', name: 'x', query: '' }, '/body/resource');
    await bad({ resource: 'orders', name: '', query: '' }, '/body/name');
    await bad({ resource: 'orders', name: 'x'.repeat(81), query: '' }, '/body/name');
    await bad({ resource: 'orders', name: 'x', query: '?status=paid' }, '/body/query');
    await bad({ resource: 'orders', name: 'x', query: 'a'.repeat(2001) }, '/body/query');
    await bad({ resource: 'orders', name: 'x' }, '/body/query');
    await bad({ resource: 'orders', name: 'x', query: '', extra: 1 }, '/body/extra');
    const v = await post(base, { resource: 'orders', name: `Leer ${rand()}`, query: '' });
    expectProblem(
      await call(t.app, 'PATCH', `${base}/${v.data.id}`, { token: f.owner, body: {} }),
      400,
      'validation_failed',
    );
    expectProblem(await get(`${base}?resource=nope`), 400, 'validation_failed');
    expectProblem(await get(base), 400, 'validation_failed');
    const token = await apiToken(t.app, f.shop, ['catalog:read', 'finance:read']);
    expect((await get(`${base}?resource=orders`, token)).statusCode).toBe(403);
    expect((await call(t.app, 'GET', `${base}?resource=orders`)).statusCode).toBe(401);
    // nothing was stored by the refused calls
    const [n] = await query<{ n: number }>(
      t.app.deps.database.db,
      sql`SELECT count(*)::int AS n FROM saved_views WHERE shop_id = ${f.shop.shopId} AND name = 'x'`,
    );
    expect(n?.n).toBe(0);
  });
});

describe('order detail and timeline', () => {
  it('the detail carries the tax decision per line and the VAT ID check', async () => {
    const id = await paidOrder(t, f);
    const o = (await get(`/api/admin/orders/${id}`)).data.order;
    expect(o).toHaveProperty('vat_id_status');
    expect(o).toHaveProperty('vat_id_checked_at');
    for (const l of o.lines) {
      expect(l).toMatchObject({
        tax_category: expect.stringMatching(/^(S|Z|K|AE|G|O)$/),
        tax_rate: expect.any(Number),
      });
      expect(l).toHaveProperty('tax_exemption_reason');
    }
  });

  it('lists what happened, oldest first: created, paid, fulfilled, invoiced, refunds and their credit note', async () => {
    const inv = await finalInvoice(t, f, { items: [{ product_id: f.products.course, quantity: 2 }] });
    const id = inv.order_id;
    expect((await post(`/api/admin/orders/${id}/fulfill`, undefined)).statusCode).toBe(200);
    const r = await post(`/api/admin/orders/${id}/refunds`, { amount_cents: 500, reason: 'Kulanz' });
    expect(r.statusCode).toBe(201);
    const res = await get(`/api/admin/orders/${id}/timeline`);
    expect(res.statusCode).toBe(200);
    const kinds = res.data.events.map((e: { kind: string }) => e.kind);
    for (const k of [
      'created',
      'paid',
      'fulfilled',
      'invoice_draft',
      'invoiced',
      'refund_pending',
      'refunded',
      'credit_note',
    ]) {
      expect(kinds).toContain(k);
    }
    expect(kinds.indexOf('created')).toBeLessThan(kinds.indexOf('paid'));
    expect(kinds.indexOf('refund_pending')).toBeLessThan(kinds.indexOf('refunded'));
    const ats = res.data.events.map((e: { at: string }) => e.at);
    expect(ats).toEqual([...ats].sort());
    expect(res.data.events.find((e: { kind: string }) => e.kind === 'refunded')).toMatchObject({
      ref: { type: 'refund', id: r.data.id },
      amount_cents: 500,
    });
    expect(res.data.events.find((e: { kind: string }) => e.kind === 'credit_note').ref).toEqual({
      type: 'credit_note',
      id: r.data.credit_note_id,
    });
    // the variable parts as facts, for a client that words each kind itself (the admin does, per language)
    const byKind = (k: string) => res.data.events.find((e: { kind: string }) => e.kind === k);
    const order = (await get(`/api/admin/orders/${id}`)).data.order;
    expect(byKind('created').facts).toEqual({ number: order.number });
    expect(byKind('refund_pending').facts).toEqual({ provider: expect.any(String), reason: 'Kulanz' });
    expect(byKind('invoiced').facts.number).toMatch(/\d/);
    expect(byKind('credit_note').facts.number).toMatch(/\d/);
    expect(byKind('fulfilled').facts).toEqual({});
    // every employee may read it; tokens and strangers may not; an unknown order is 404
    expect(
      (await get(`/api/admin/orders/${id}/timeline`, await employeeToken(t.app, f.shop, 'viewer'))).statusCode,
    ).toBe(200);
    expect((await call(t.app, 'GET', `/api/admin/orders/${id}/timeline`)).statusCode).toBe(401);
    expectProblem(await get('/api/admin/orders/ord_unknown/timeline'), 404, 'not_found');
  });

  it('shows a cancelled order and webhook deliveries of its events', async () => {
    await call(t.app, 'PUT', '/api/admin/checkout/webhook', {
      token: f.owner,
      body: { url: 'https://hooks.example/never' },
    });
    const id = await paidOrder(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    expect((await post(`/api/admin/orders/${id}/cancel`, undefined)).statusCode).toBe(200);
    const events = (await get(`/api/admin/orders/${id}/timeline`)).data.events as { kind: string; ref: unknown }[];
    expect(events.map((e) => e.kind)).toContain('cancelled');
  });
});

/** Counts of rows a preview must not change. */
async function footprint() {
  const [row] = await query<Record<string, number>>(
    t.app.deps.database.db,
    sql`SELECT (SELECT count(*)::int FROM refunds) AS refunds, (SELECT count(*)::int FROM credit_notes) AS credit_notes,
               (SELECT count(*)::int FROM ledger_transactions) AS ledger, (SELECT count(*)::int FROM jobs) AS jobs,
               (SELECT count(*)::int FROM webhook_events) AS events, (SELECT count(*)::int FROM idempotency_keys) AS keys,
               (SELECT string_agg(id || status, ',' ORDER BY id) FROM orders) AS orders`,
  );
  return row;
}

describe('refund preview and refunds by line', () => {
  it('previews a refund by lines exactly as the refund then does it (amount, credit note lines and tax), writing nothing', async () => {
    const inv = await finalInvoice(t, f, {
      items: [
        { product_id: f.products.course, quantity: 1 },
        { product_id: f.products.ebook, quantity: 3 },
        { product_id: f.products.cheese, quantity: 2 },
      ],
    });
    const id = inv.order_id;
    const order = (await get(`/api/admin/orders/${id}`)).data.order;
    const ebook = order.lines.find((l: { product_id: string }) => l.product_id === f.products.ebook);
    const cheese = order.lines.find((l: { product_id: string }) => l.product_id === f.products.cheese);
    const body = {
      lines: [
        { line_id: ebook.id, quantity: 2 },
        { line_id: cheese.id, quantity: 1 },
      ],
      reason: 'Zwei Bücher und ein Käse zurück',
    };
    const before = await footprint();
    const preview = await post(`/api/admin/orders/${id}/refunds/preview`, body);
    expect(preview.statusCode).toBe(200);
    expect(await footprint()).toEqual(before);
    const expected =
      Math.floor((2 * ebook.line_total_cents * 2 + 3) / 6) + Math.floor((2 * cheese.line_total_cents + 2) / 4);
    expect(preview.data).toMatchObject({
      amount_cents: expected,
      currency: 'EUR',
      provider: 'test',
      refundable_before: order.total_cents,
      refundable_after: order.total_cents - expected,
      resulting_status: 'partially_refunded',
      partner_clawback: [],
    });
    expect(preview.data.lines.find((l: { line_id: string }) => l.line_id === ebook.id)).toMatchObject({
      quantity: 3,
      refunded_quantity: 0,
      refund_quantity: 2,
      refundable_quantity: 1,
    });
    const cn = preview.data.credit_note;
    expect(cn.lines).toHaveLength(2);
    // the books at the reduced rate, the cheese at the food rate, each with its own tax
    expect(cn.lines.map((l: { tax_rate: number; tax_category: string }) => [l.tax_rate, l.tax_category])).toEqual([
      [ebook.tax_rate, ebook.tax_category],
      [cheese.tax_rate, cheese.tax_category],
    ]);
    expect(cn.total_cents).toBe(expected);
    expect(cn.net_cents + cn.tax_cents).toBe(cn.total_cents);

    // the refund itself: same amount, a credit note of those lines
    const done = await post(`/api/admin/orders/${id}/refunds`, body, f.owner, { 'idempotency-key': `lines-${rand()}` });
    expect(done.statusCode).toBe(201);
    expect(done.data.amount_cents).toBe(expected);
    const note = (await get(`/api/admin/credit-notes/${done.data.credit_note_id}`)).data;
    expect(note.status).toBe('final');
    expect(
      note.lines.map((l: Record<string, unknown>) => ({
        name: l.name,
        quantity: l.quantity,
        net_cents: l.net_cents,
        tax_rate: l.tax_rate,
        tax_cents: l.tax_cents,
        gross_cents: l.line_total_cents,
      })),
    ).toEqual(
      cn.lines.map((l: Record<string, unknown>) => ({
        name: l.name,
        quantity: l.quantity,
        net_cents: l.net_cents,
        tax_rate: l.tax_rate,
        tax_cents: l.tax_cents,
        gross_cents: l.gross_cents,
      })),
    );
    expect(note.total_cents).toBe(expected);

    // what is left of the lines: one book; the last book takes the line's exact remainder
    const again = await post(`/api/admin/orders/${id}/refunds/preview`, {
      lines: [{ line_id: ebook.id, quantity: 2 }],
    });
    expectProblem(again, 409, 'refund_exceeds_paid');
    expect(again.data.errors).toEqual([{ path: '/body/lines/0/quantity', message: 'at most 1' }]);
    const last = await post(`/api/admin/orders/${id}/refunds/preview`, { lines: [{ line_id: ebook.id, quantity: 1 }] });
    expect(last.data.amount_cents).toBe(ebook.line_total_cents - Math.floor((2 * ebook.line_total_cents * 2 + 3) / 6));
    expect(last.data.lines.find((l: { line_id: string }) => l.line_id === ebook.id).refunded_quantity).toBe(2);
  });

  it('previews an amount refund of everything: refunded, the credit note for the rest, the vendor clawback', async () => {
    const v = await newVendor(t, f, 'Vorschau');
    const product = await vendorProduct(t, f, v.id, { base_price_cents: 10_000 });
    const inv = await finalInvoice(t, f, { items: [{ product_id: product, quantity: 1 }] });
    const id = inv.order_id;
    const earned = async () => (await get(`/api/admin/vendors/${v.id}`)).data.balances[0]?.earned_cents ?? 0;
    const before = await earned();
    const half = await post(`/api/admin/orders/${id}/refunds/preview`, { amount_cents: 5000 });
    expect(half.data.resulting_status).toBe('partially_refunded');
    expect(half.data.credit_note.total_cents).toBe(5000);
    expect(half.data.partner_clawback).toEqual([
      { partner_type: 'vendor', partner_id: v.id, name: 'Vorschau', amount_cents: expect.any(Number) },
    ]);
    const claw = half.data.partner_clawback[0].amount_cents;
    const r = await post(`/api/admin/orders/${id}/refunds`, { amount_cents: 5000, reason: 'halb' });
    expect(r.statusCode).toBe(201);
    expect(before - (await earned())).toBe(claw);
    const rest = await post(`/api/admin/orders/${id}/refunds/preview`, {});
    expect(rest.data).toMatchObject({ resulting_status: 'refunded', refundable_after: 0 });
    expect(rest.data.partner_clawback[0].amount_cents).toBe(await earned());
    expect(rest.data.credit_note.total_cents).toBe(rest.data.amount_cents);
  });

  it('an order without an invoice: no credit note; the refunded share is clawed back directly', async () => {
    const v = await newVendor(t, f, 'Ohne');
    const product = await vendorProduct(t, f, v.id, { base_price_cents: 4000 });
    const id = await paidOrder(t, f, { items: [{ product_id: product, quantity: 2 }] });
    const p = await post(`/api/admin/orders/${id}/refunds/preview`, { amount_cents: 1000 });
    expect(p.statusCode).toBe(200);
    expect(p.data.credit_note).toBeNull();
    const earnedBefore = (await get(`/api/admin/vendors/${v.id}`)).data.balances[0].earned_cents;
    await post(`/api/admin/orders/${id}/refunds`, { amount_cents: 1000, reason: 'teil' });
    const earnedAfter = (await get(`/api/admin/vendors/${v.id}`)).data.balances[0].earned_cents;
    expect(earnedBefore - earnedAfter).toBe(p.data.partner_clawback[0].amount_cents);
  });

  it('validates the body; refuses lines of another order, both amount and lines, unpaid orders, other roles and tokens', async () => {
    const id = await paidOrder(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    const url = `/api/admin/orders/${id}/refunds/preview`;
    const at = async (body: unknown, status: number, code: string, path: string) => {
      const res = await post(url, body);
      expectProblem(res, status, code);
      expect(res.data.errors.map((e: { path: string }) => e.path)).toContain(path);
    };
    const line = (await get(`/api/admin/orders/${id}`)).data.order.lines[0].id;
    await at({ amount_cents: 0 }, 400, 'validation_failed', '/body/amount_cents');
    await at({ lines: [] }, 400, 'validation_failed', '/body/lines');
    await at({ lines: [{ line_id: line, quantity: 0 }] }, 400, 'validation_failed', '/body/lines/0/quantity');
    await at({ lines: [{ line_id: 'ord_x_l1', quantity: 1 }] }, 400, 'validation_failed', '/body/lines/0/line_id');
    await at(
      {
        lines: [
          { line_id: line, quantity: 1 },
          { line_id: line, quantity: 1 },
        ],
      },
      400,
      'validation_failed',
      '/body/lines/1/line_id',
    );
    await at({ amount_cents: 1, lines: [{ line_id: line, quantity: 1 }] }, 400, 'validation_failed', '/body/lines');
    await at({ amount_cents: 10_000_000 }, 409, 'refund_exceeds_paid', '/body/amount_cents');
    await at({ lines: [{ line_id: line, quantity: 2 }] }, 409, 'refund_exceeds_paid', '/body/lines/0/quantity');
    await at({ surprise: true }, 400, 'validation_failed', '/body/surprise');
    // the refund itself refuses both too, and changes nothing
    const before = await footprint();
    expectProblem(
      await post(`/api/admin/orders/${id}/refunds`, {
        amount_cents: 1,
        lines: [{ line_id: line, quantity: 1 }],
        reason: 'x',
      }),
      400,
      'validation_failed',
    );
    expect(await footprint()).toEqual(before);
    const unpaid = await unpaidOrder(t, f);
    expectProblem(await post(`/api/admin/orders/${unpaid}/refunds/preview`, {}), 409, 'invalid_state');
    expectProblem(await post('/api/admin/orders/ord_unknown/refunds/preview', {}), 404, 'not_found');
    expectProblem(await post(url, {}, await employeeToken(t.app, f.shop, 'viewer')), 403, 'role_denied');
    expectProblem(await post(url, {}, await apiToken(t.app, f.shop, ['finance:read'])), 403, 'token_blocked');
    expect((await call(t.app, 'POST', url, { body: {} })).statusCode).toBe(401);
  });
});

describe('GET /api/admin/overview', () => {
  it('counts what needs doing and the revenue per currency, each with its list', async () => {
    const before = (await get('/api/admin/overview')).data;
    const id = await paidOrder(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    const total = (await get(`/api/admin/orders/${id}`)).data.order.total_cents;
    await unpaidOrder(t, f, { ttlHours: 12 });
    await post(`/api/admin/orders/${id}/invoice`, {});
    const res = await get('/api/admin/overview');
    expect(res.statusCode).toBe(200);
    const o = res.data;
    expect(o.time_zone).toBe('Europe/Berlin');
    expect(o.tiles.orders_paid_unfulfilled).toEqual({
      count: before.tiles.orders_paid_unfulfilled.count + 1,
      link: { path: '/api/admin/orders', query: { status: 'paid' } },
    });
    expect(o.tiles.orders_unpaid_due_soon.count).toBe(before.tiles.orders_unpaid_due_soon.count + 1);
    expect(o.tiles.invoices_draft).toEqual({
      count: before.tiles.invoices_draft.count + 1,
      link: { path: '/api/admin/invoices', query: { status: 'draft' } },
    });
    expect(o.tiles.accounting_failed.link).toEqual({
      path: '/api/admin/accounting/syncs',
      query: { status: 'failed' },
    });
    for (const k of ['refunds_pending', 'refunds_failed', 'accounting_failed', 'webhooks_dead', 'emails_failed']) {
      expect(o.tiles[k]).toMatchObject({ count: expect.any(Number) });
    }
    expect(o.tiles.emails_failed.link).toEqual({ path: '/api/admin/emails', query: { status: 'failed' } });
    // the test provider's orders are test-mode orders: their revenue is apart from live revenue
    const eur = (list: { currency: string; is_test: boolean; net_cents: number; paid_cents: number }[]) =>
      list.find((r) => r.currency === 'EUR' && r.is_test) ?? { net_cents: 0, paid_cents: 0 };
    expect(o.revenue.today.filter((r: { is_test: boolean }) => !r.is_test)).toEqual([]);
    expect(eur(o.revenue.today).paid_cents).toBe(eur(before.revenue.today).paid_cents + total);
    expect(eur(o.revenue.month).paid_cents).toBe(eur(before.revenue.month).paid_cents + total);
    // a refund lowers the net
    await post(`/api/admin/orders/${id}/refunds`, { amount_cents: 100, reason: 'Kulanz' });
    const after = (await get('/api/admin/overview')).data;
    expect(eur(after.revenue.today).net_cents).toBe(eur(o.revenue.today).net_cents - 100);
    expect(Date.parse(after.revenue.month_from)).toBeLessThanOrEqual(Date.parse(after.revenue.today_from));
  });

  it('shows a viewer the order tiles only; a channel-restricted admin only their channels and no shop-wide tiles', async () => {
    await paidOrder(t, f, { items: [{ product_id: f.products.course, quantity: 1 }] });
    const viewer = (await get('/api/admin/overview', await employeeToken(t.app, f.shop, 'viewer'))).data;
    expect(viewer.tiles.orders_paid_unfulfilled.count).toBeGreaterThan(0);
    for (const k of ['refunds_pending', 'invoices_draft', 'accounting_failed', 'webhooks_dead', 'emails_failed']) {
      expect(viewer.tiles[k]).toBeNull();
    }
    expect(viewer.revenue).toBeNull();
    const other = await call(t.app, 'POST', '/api/admin/channels', {
      token: f.owner,
      body: { name: `Leer ${rand()}`, default_country: 'DE', currency: 'EUR', path_prefix: `leer-${rand()}` },
    });
    const restricted = (await get('/api/admin/overview', await employeeToken(t.app, f.shop, 'admin', [other.data.id])))
      .data;
    expect(restricted.tiles.orders_paid_unfulfilled.count).toBe(0);
    expect(restricted.tiles.invoices_draft.count).toBe(0);
    expect(restricted.tiles.webhooks_dead).toBeNull();
    expect(restricted.revenue.today).toEqual([]);
    const token = await apiToken(t.app, f.shop, ['finance:read']);
    expect((await get('/api/admin/overview', token)).statusCode).toBe(403);
    expect((await call(t.app, 'GET', '/api/admin/overview')).statusCode).toBe(401);
  });
});
