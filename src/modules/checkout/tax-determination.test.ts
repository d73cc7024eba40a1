/**
 * docs/finance.md "Which tax applies" over HTTP: checkout sessions, orders and invoices priced by every
 * row of the table; VAT IDs checked by format always and against VIES (a local stub) when they
 * decide the tax; the shop settings oss_registered and vies_unavailable.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { call, expectProblem, PLATFORM_TOKEN, STORE_ORIGIN, type TestApp } from '../../../test/helpers/app.js';
import type { ViesStub } from '../../../test/helpers/vies-stub.js';
import { query } from '../../platform/db/tx.js';
import { taxFromGross } from '../../platform/money.js';
import { type FinanceShop, payOnPage, taxShop } from '../finance/finance.fixtures.js';
import { EXEMPTION_TEXT, netOfGross } from '../tax/index.js';

let t: TestApp;
let f: FinanceShop;
let vies: ViesStub;
let world: string;

const AT_BIZ = {
  name: 'Anna Huber',
  company: 'Wiener Handel GmbH',
  vat_id: 'ATU 1234 5678',
  line1: 'Kärntner Str. 1',
  postal_code: '1010',
  city: 'Wien',
  country: 'AT',
};
const AT_CONSUMER = { ...AT_BIZ, company: null, vat_id: null };
const CH = { name: 'Urs Meier', line1: 'Bahnhofstr. 10', postal_code: '8001', city: 'Zürich', country: 'CH' };
const US = { name: 'Jane Doe', line1: '1 Main St', postal_code: '10001', city: 'New York', country: 'US' };

beforeAll(async () => {
  ({ t, f, vies, world } = await taxShop({ name: 'Welt', price_cents: 1190 }));
});
afterAll(async () => {
  await t?.close();
  await vies?.close();
});
beforeEach(() => {
  vies.down = false;
  vies.drop = false;
  vies.requests.length = 0;
});

const settings = (body: Record<string, unknown>) =>
  call(t.app, 'PUT', '/api/admin/settings/company', { token: f.owner, body });

/** A checkout session for `billing`; physical items are shipped there. */
function checkout(billing: Record<string, unknown>, items: { product_id: string; quantity: number }[]) {
  const physical = items.some((i) => i.product_id === f.products.cheese);
  const shipping = ['CH', 'US'].includes(String(billing.country)) ? world : f.shipping;
  return call(t.app, 'POST', '/api/store/checkout-sessions', {
    token: f.shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: {
      items,
      customer: { email: `b-${Math.random().toString(36).slice(2, 8)}@firma.test`, billing_address: billing },
      ...(physical ? { shipping_address: { ...billing, vat_id: null }, shipping_method_id: shipping } : {}),
      return_url: `${STORE_ORIGIN}/danke`,
    },
  });
}

async function pay(session: { id: string }, billing: Record<string, unknown>) {
  const paid = await payOnPage(t, session.id, billing);
  expect(paid.statusCode, paid.body).toBe(303);
  const [row] = await query<{ order_id: string }>(
    t.db.database.db,
    sql`SELECT order_id FROM checkout_sessions WHERE id = ${session.id}`,
  );
  const order = await call(t.app, 'GET', `/api/admin/orders/${row?.order_id}`, { token: f.owner });
  expect(order.statusCode).toBe(200);
  return order.data.order;
}

const sessionCount = async () =>
  Number((await query<{ n: number }>(t.db.database.db, sql`SELECT count(*)::int AS n FROM checkout_sessions`))[0]?.n);

describe('checkout prices every row of the table', () => {
  it('Germany: the German rate of the class, category S, totals sums of rounded lines', async () => {
    const s = await checkout({ ...CH, country: 'DE', postal_code: '10115', city: 'Berlin' }, [
      { product_id: f.products.course, quantity: 1 },
      { product_id: f.products.cheese, quantity: 2 },
    ]);
    expect(s.statusCode, s.body).toBe(201);
    expect(s.data.lines).toMatchObject([
      { tax_rate: 0.19, tax_category: 'S', tax_exemption_reason: null, unit_price_cents: 9900 },
      { tax_rate: 0.07, tax_category: 'S', tax_exemption_reason: null, unit_price_cents: 999 },
    ]);
    expect(s.data).toMatchObject({
      shipping_cents: 490,
      shipping_tax_rate: 0.19,
      shipping_tax_category: 'S',
      shipping_tax_cents: taxFromGross(490, 0.19),
      vat_id_status: null,
      total_cents: 9900 + 1998 + 490,
      tax_cents: taxFromGross(9900, 0.19) + taxFromGross(1998, 0.07) + taxFromGross(490, 0.19),
    });
  });

  it('an EU consumer pays their state rate (OSS), the German rate when the shop is not OSS-registered', async () => {
    const items = [{ product_id: f.products.cheese, quantity: 1 }];
    const oss = await checkout(AT_CONSUMER, items);
    expect(oss.data.lines[0]).toMatchObject({ tax_rate: 0.1, tax_category: 'S', line_total_cents: 999 });
    expect(oss.data).toMatchObject({ shipping_tax_rate: 0.2, shipping_tax_category: 'S' });
    expect((await settings({ oss_registered: false })).data.oss_registered).toBe(false);
    try {
      const home = await checkout(AT_CONSUMER, items);
      expect(home.data.lines[0]).toMatchObject({ tax_rate: 0.07, tax_category: 'S', line_total_cents: 999 });
      expect(home.data.shipping_tax_rate).toBe(0.19);
    } finally {
      await settings({ oss_registered: true });
    }
    expect(vies.requests).toEqual([]); // no VAT ID, no VIES
  });

  it('the memoized tax settings are exact: a change written by another process is seen by the next checkout', async () => {
    const items = [{ product_id: f.products.cheese, quantity: 1 }];
    expect((await checkout(AT_CONSUMER, items)).data.lines[0]).toMatchObject({ tax_rate: 0.1 });
    const db = t.app.deps.database.db;
    await db.execute(sql`UPDATE company_settings SET oss_registered = false WHERE shop_id = ${f.shop.shopId}`);
    try {
      expect((await checkout(AT_CONSUMER, items)).data.lines[0]).toMatchObject({ tax_rate: 0.07 });
    } finally {
      await db.execute(sql`UPDATE company_settings SET oss_registered = true WHERE shop_id = ${f.shop.shopId}`);
    }
    expect((await checkout(AT_CONSUMER, items)).data.lines[0]).toMatchObject({ tax_rate: 0.1 });
  });

  it('a channel override of the destination rate wins in the S rows', async () => {
    const put = await call(t.app, 'PATCH', `/api/admin/channels/${f.channel}/countries/AT`, {
      token: f.owner,
      body: { food_tax_rate: 0.13 },
    });
    expect(put.statusCode, put.body).toBe(200);
    try {
      const s = await checkout(AT_CONSUMER, [{ product_id: f.products.cheese, quantity: 1 }]);
      expect(s.data.lines[0]).toMatchObject({ tax_rate: 0.13, tax_category: 'S' });
    } finally {
      await call(t.app, 'PATCH', `/api/admin/channels/${f.channel}/countries/AT`, {
        token: f.owner,
        body: { food_tax_rate: null },
      });
    }
  });

  it('an EU business with a valid VAT ID: goods K, digital AE, 0 % and the net price; stored on the order and invoice', async () => {
    const s = await checkout(AT_BIZ, [
      { product_id: f.products.course, quantity: 1 },
      { product_id: f.products.cheese, quantity: 3 },
    ]);
    expect(s.statusCode, s.body).toBe(201);
    expect(vies.requests).toEqual([{ countryCode: 'AT', vatNumber: 'U12345678' }]);
    const course = netOfGross(9900, 0.19);
    const cheese = netOfGross(999, 0.07);
    const ship = netOfGross(490, 0.19);
    expect(s.data.lines).toMatchObject([
      {
        tax_rate: 0,
        tax_category: 'AE',
        tax_exemption_reason: EXEMPTION_TEXT.AE,
        unit_price_cents: course,
        line_total_cents: course,
        tax_cents: 0,
        net_cents: course,
      },
      {
        tax_rate: 0,
        tax_category: 'K',
        tax_exemption_reason: EXEMPTION_TEXT.K,
        unit_price_cents: cheese,
        line_total_cents: 3 * cheese,
      },
    ]);
    expect(s.data).toMatchObject({
      shipping_cents: ship,
      shipping_tax_rate: 0,
      shipping_tax_category: 'K',
      shipping_tax_exemption_reason: EXEMPTION_TEXT.K,
      tax_cents: 0,
      total_cents: course + 3 * cheese + ship,
      vat_id_status: 'valid',
    });
    expect(s.data.vat_id_checked_at).toBeTruthy();
    const order = await pay(s.data, AT_BIZ);
    expect(order).toMatchObject({
      total_cents: course + 3 * cheese + ship,
      tax_cents: 0,
      shipping_tax_category: 'K',
      vat_id_status: 'valid',
      vat_id_checked_at: s.data.vat_id_checked_at,
    });
    expect(order.lines.map((l: { tax_category: string }) => l.tax_category)).toEqual(['AE', 'K']);
    expect(order.lines[0].tax_exemption_reason).toBe(EXEMPTION_TEXT.AE);
    const inv = await call(t.app, 'POST', `/api/admin/orders/${order.id}/invoice`, { token: f.owner, body: {} });
    expect(inv.statusCode, inv.body).toBe(201);
    expect(inv.data.lines.map((l: { tax_category: string }) => l.tax_category)).toEqual(['AE', 'K', 'K']);
    expect(inv.data.lines[2]).toMatchObject({ kind: 'shipping', line_total_cents: ship, tax_rate: 0 });
    expect(inv.data.tax_breakdown).toMatchObject([
      { tax_rate: 0, tax_category: 'AE', tax_exemption_reason: EXEMPTION_TEXT.AE, tax_cents: 0, gross_cents: course },
      { tax_rate: 0, tax_category: 'K', tax_exemption_reason: EXEMPTION_TEXT.K, gross_cents: 3 * cheese + ship },
    ]);
    expect(inv.data.total_cents).toBe(order.total_cents);
  });

  it('outside the EU: goods G, digital O, at the net price', async () => {
    const g = await checkout(CH, [{ product_id: f.products.cheese, quantity: 2 }]);
    expect(g.statusCode, g.body).toBe(201);
    expect(g.data.lines[0]).toMatchObject({
      tax_rate: 0,
      tax_category: 'G',
      tax_exemption_reason: EXEMPTION_TEXT.G,
      line_total_cents: 2 * netOfGross(999, 0.07),
    });
    expect(g.data).toMatchObject({ shipping_cents: 1000, shipping_tax_category: 'G', tax_cents: 0 });
    const o = await checkout(US, [{ product_id: f.products.ebook, quantity: 1 }]);
    expect(o.data.lines[0]).toMatchObject({
      tax_rate: 0,
      tax_category: 'O',
      tax_exemption_reason: EXEMPTION_TEXT.O,
      line_total_cents: netOfGross(1999, 0.07),
    });
    expect(o.data.total_cents).toBe(1868);
    expect(vies.requests).toEqual([]);
  });
});

describe('one-time orders: every row is invoiced as it was priced', () => {
  /** Pays a checkout and finalizes its invoice; answers order and invoice. */
  async function invoiced(billing: Record<string, unknown>, items: { product_id: string; quantity: number }[]) {
    const s = await checkout(billing, items);
    expect(s.statusCode, s.body).toBe(201);
    const order = await pay(s.data, billing);
    const draft = await call(t.app, 'POST', `/api/admin/orders/${order.id}/invoice`, { token: f.owner, body: {} });
    expect(draft.statusCode, draft.body).toBe(201);
    const fin = await call(t.app, 'POST', `/api/admin/invoices/${draft.data.id}/finalize`, { token: f.owner });
    expect(fin.statusCode, fin.body).toBe(200);
    expect(fin.data.total_cents).toBe(order.total_cents);
    expect(fin.data.tax_cents).toBe(order.tax_cents);
    return { order, inv: fin.data };
  }
  const rows = (lines: { tax_rate: number; tax_category: string; tax_exemption_reason: string | null }[]) =>
    lines.map((l) => [l.tax_rate, l.tax_category, l.tax_exemption_reason]);

  it('Germany S, EU consumer S (OSS and not), outside the EU G and O', async () => {
    const de = await invoiced({ ...CH, country: 'DE', postal_code: '10115', city: 'Berlin' }, [
      { product_id: f.products.course, quantity: 1 },
      { product_id: f.products.cheese, quantity: 2 },
    ]);
    expect(rows(de.inv.lines)).toEqual([
      [0.19, 'S', null],
      [0.07, 'S', null],
      [0.19, 'S', null],
    ]);
    const at = await invoiced(AT_CONSUMER, [{ product_id: f.products.cheese, quantity: 1 }]);
    expect(rows(at.inv.lines)).toEqual([
      [0.1, 'S', null],
      [0.2, 'S', null],
    ]);
    expect(at.inv.tax_cents).toBe(taxFromGross(999, 0.1) + taxFromGross(490, 0.2));
    await settings({ oss_registered: false });
    try {
      const home = await invoiced(AT_CONSUMER, [{ product_id: f.products.cheese, quantity: 1 }]);
      expect(rows(home.inv.lines)).toEqual([
        [0.07, 'S', null],
        [0.19, 'S', null],
      ]);
    } finally {
      await settings({ oss_registered: true });
    }
    const g = await invoiced(CH, [{ product_id: f.products.cheese, quantity: 2 }]);
    expect(rows(g.inv.lines)).toEqual([
      [0, 'G', EXEMPTION_TEXT.G],
      [0, 'G', EXEMPTION_TEXT.G],
    ]);
    expect(g.inv.total_cents).toBe(2 * netOfGross(999, 0.07) + netOfGross(1190, 0.19));
    const o = await invoiced(US, [{ product_id: f.products.ebook, quantity: 1 }]);
    expect(rows(o.inv.lines)).toEqual([[0, 'O', EXEMPTION_TEXT.O]]);
    expect(o.inv.tax_breakdown).toMatchObject([
      { tax_category: 'O', tax_cents: 0, gross_cents: netOfGross(1999, 0.07) },
    ]);
  });
});

describe('VAT IDs', () => {
  it('a malformed EU VAT ID is 400 vat_id_invalid naming the field, and nothing is created', async () => {
    const before = await sessionCount();
    for (const vat_id of ['ATU1234', 'DE12345678', 'XX123', 'FR1234']) {
      const res = await checkout({ ...AT_BIZ, vat_id }, [{ product_id: f.products.course, quantity: 1 }]);
      expectProblem(res, 400, 'vat_id_invalid');
      expect(res.data.errors).toEqual([{ path: '/body/customer/billing_address/vat_id', message: expect.any(String) }]);
    }
    // checked by format even where it does not decide the tax (Germany)
    const de = await checkout({ ...AT_BIZ, country: 'DE', vat_id: 'DE12' }, [
      { product_id: f.products.course, quantity: 1 },
    ]);
    expectProblem(de, 400, 'vat_id_invalid');
    expect(await sessionCount()).toBe(before);
    expect(vies.requests).toEqual([]);
  });

  it('outside the EU another tax number is kept and changes nothing', async () => {
    const res = await checkout({ ...US, vat_id: '12-3456789' }, [{ product_id: f.products.course, quantity: 1 }]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data.lines[0].tax_category).toBe('O');
    expect(res.data.vat_id_status).toBeNull();
  });

  it('a German VAT ID never makes a supply to another EU state tax-free: consumer row, VIES not asked', async () => {
    vies.valid.push('DE987654321');
    const items = [
      { product_id: f.products.course, quantity: 1 },
      { product_id: f.products.cheese, quantity: 1 },
    ];
    const res = await checkout({ ...AT_BIZ, vat_id: 'DE 987 654 321' }, items);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data.lines.map((l: { tax_category: string; tax_rate: number }) => [l.tax_category, l.tax_rate])).toEqual(
      [
        ['S', 0.2],
        ['S', 0.1],
      ],
    );
    expect(res.data.vat_id_status).toBeNull();
    expect(vies.requests).toEqual([]);
    // the same buyer with the Austrian ID is a business (AE, K)
    const at = await checkout(AT_BIZ, items);
    expect(at.data.lines.map((l: { tax_category: string }) => l.tax_category)).toEqual(['AE', 'K']);
  });

  it('VIES says invalid: priced as a consumer (OSS rate) and the result is stored', async () => {
    const res = await checkout({ ...AT_BIZ, vat_id: 'ATU99999999' }, [{ product_id: f.products.course, quantity: 1 }]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data.lines[0]).toMatchObject({ tax_rate: 0.2, tax_category: 'S', line_total_cents: 9900 });
    expect(res.data.vat_id_status).toBe('invalid');
  });

  it('VIES unreachable: VAT as for a consumer by default, or accepted and marked unverified by the shop setting', async () => {
    vies.down = true;
    const items = [{ product_id: f.products.course, quantity: 1 }];
    const charged = await checkout(AT_BIZ, items);
    expect(charged.data.lines[0]).toMatchObject({ tax_rate: 0.2, tax_category: 'S' });
    expect(charged.data.vat_id_status).toBe('unchecked');
    expect((await settings({ vies_unavailable: 'accept_unverified' })).data.vies_unavailable).toBe('accept_unverified');
    try {
      const accepted = await checkout(AT_BIZ, items);
      expect(accepted.data.lines[0]).toMatchObject({ tax_rate: 0, tax_category: 'AE' });
      expect(accepted.data.vat_id_status).toBe('unverified');
      const order = await pay(accepted.data, AT_BIZ);
      expect(order.vat_id_status).toBe('unverified');
    } finally {
      await settings({ vies_unavailable: 'charge_vat' });
    }
    expect(vies.requests).toHaveLength(2);
  });

  it('a VIES that drops the connection counts as unreachable', async () => {
    vies.drop = true;
    const res = await checkout(AT_BIZ, [{ product_id: f.products.course, quantity: 1 }]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data).toMatchObject({ vat_id_status: 'unchecked', lines: [{ tax_rate: 0.2, tax_category: 'S' }] });
  });
});

describe('tax settings', () => {
  it('default oss_registered true and vies_unavailable charge_vat; bad values are 400 and change nothing', async () => {
    const got = await call(t.app, 'GET', '/api/admin/settings/company', { token: f.owner });
    expect(got.data).toMatchObject({ oss_registered: true, vies_unavailable: 'charge_vat' });
    for (const body of [{ oss_registered: 'yes' }, { vies_unavailable: 'ignore' }, { oss_registered: null }]) {
      const res = await settings(body);
      expect(res.statusCode, res.body).toBe(400);
    }
    const after = await call(t.app, 'GET', '/api/admin/settings/company', { token: f.owner });
    expect(after.data).toMatchObject({ oss_registered: true, vies_unavailable: 'charge_vat' });
  });
});

describe('subscriptions', () => {
  it('abo payments and renewals follow the table: the OSS rate in AT, O at the net price outside the EU', async () => {
    await call(t.app, 'PUT', '/api/admin/digital/status', { token: f.owner, body: { aktiv: true } });
    const plan = await call(t.app, 'POST', '/api/admin/digital/plaene', {
      token: f.owner,
      body: { product_id: f.products.course, name: 'Monat', price_cents: 1190, interval_unit: 'month' },
    });
    expect(plan.statusCode, plan.body).toBe(201);
    const subscribe = async (billing: Record<string, string>) => {
      const email = `abo-${Math.random().toString(36).slice(2, 8)}@kunde.test`;
      const s = await call(t.app, 'POST', '/api/store/abo-sessions', {
        token: f.shop.publishableKey,
        headers: { origin: STORE_ORIGIN },
        body: { plan_id: plan.data.id, return_url: `${STORE_ORIGIN}/abo`, customer_email: email },
      });
      expect(s.statusCode, s.body).toBe(201);
      const paid = await call(t.app, 'POST', `/pay/${s.data.id}`, {
        body: new URLSearchParams({ ...billing, card_number: '4242424242424242' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(paid.statusCode, paid.body).toBe(303);
      const orders = await call(t.app, 'GET', `/api/admin/orders?q=${encodeURIComponent(email)}`, { token: f.owner });
      return orders.data.orders as { id: string }[];
    };
    const lineOf = async (orderId: string) =>
      (await call(t.app, 'GET', `/api/admin/orders/${orderId}`, { token: f.owner })).data.order;

    const [at] = await subscribe({ name: 'A', line1: 'Ring 1', postal_code: '1010', city: 'Wien', country: 'AT' });
    const atOrder = await lineOf(at?.id as string);
    expect(atOrder.total_cents).toBe(1190);
    expect(atOrder.lines[0]).toMatchObject({ tax_rate: 0.2, tax_category: 'S', tax_cents: taxFromGross(1190, 0.2) });

    const [us] = await subscribe({
      name: 'J',
      line1: '1 Main St',
      postal_code: '10001',
      city: 'New York',
      country: 'US',
    });
    const usOrder = await lineOf(us?.id as string);
    expect(usOrder.total_cents).toBe(netOfGross(1190, 0.19));
    expect(usOrder.lines[0]).toMatchObject({
      tax_rate: 0,
      tax_category: 'O',
      tax_exemption_reason: EXEMPTION_TEXT.O,
      line_total_cents: 1000,
    });

    // the renewal a month later is priced the same way
    const adv = await call(t.app, 'POST', '/api/platform/clock/advance', {
      token: PLATFORM_TOKEN,
      body: { seconds: 32 * 86_400, run_jobs: true },
    });
    expect(adv.statusCode, adv.body).toBe(200);
    await t.app.deps.worker.drain();
    const renewals = await query<{ id: string; total_cents: number; subscription_payment_number: number }>(
      t.db.database.db,
      sql`SELECT o.id, o.total_cents, o.subscription_payment_number FROM orders o
          WHERE o.subscription_id = (SELECT subscription_id FROM orders WHERE id = ${us?.id as string})
          ORDER BY o.subscription_payment_number`,
    );
    expect(renewals.map((r) => Number(r.total_cents))).toEqual([1000, 1000]);
    const renewal = await lineOf(renewals[1]?.id as string);
    expect(renewal.lines[0]).toMatchObject({ tax_rate: 0, tax_category: 'O' });
  });
});

describe('subscriptions: every row of the table, priced and invoiced', () => {
  let planId: string;
  const AT_FORM = { name: 'Anna Huber', line1: 'Kärntner Str. 1', postal_code: '1010', city: 'Wien', country: 'AT' };
  const net = netOfGross(1190, 0.19);

  beforeAll(async () => {
    await call(t.app, 'PUT', '/api/admin/digital/status', { token: f.owner, body: { aktiv: true } });
    const plan = await call(t.app, 'POST', '/api/admin/digital/plaene', {
      token: f.owner,
      body: { product_id: f.products.course, name: 'Firmenabo', price_cents: 1190, interval_unit: 'month' },
    });
    expect(plan.statusCode, plan.body).toBe(201);
    planId = plan.data.id;
  });

  const start = (body: Record<string, unknown> = {}) =>
    call(t.app, 'POST', '/api/store/abo-sessions', {
      token: f.shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: {
        plan_id: planId,
        return_url: `${STORE_ORIGIN}/abo`,
        customer_email: `firma-${Math.random().toString(36).slice(2, 8)}@kunde.test`,
        ...body,
      },
    });
  const submit = (id: string, form: Record<string, string>) =>
    call(t.app, 'POST', `/pay/${id}`, {
      body: new URLSearchParams({ ...form, card_number: '4242424242424242' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  /** Subscribes through the hosted page; answers the abo and its first order. */
  async function subscribe(form: Record<string, string>, body: Record<string, unknown> = {}) {
    const s = await start(body);
    expect(s.statusCode, s.body).toBe(201);
    const paid = await submit(s.data.id, form);
    expect(paid.statusCode, paid.body).toBe(303);
    const [row] = await query<{ subscription_id: string; order_id: string }>(
      t.db.database.db,
      sql`SELECT subscription_id, order_id FROM checkout_sessions WHERE id = ${s.data.id}`,
    );
    const detail = await call(t.app, 'GET', `/api/admin/digital/abos/${row?.subscription_id}`, { token: f.owner });
    const order = await call(t.app, 'GET', `/api/admin/orders/${row?.order_id}`, { token: f.owner });
    return { abo: detail.data.abo, order: order.data.order };
  }
  const renewAll = async () => {
    const adv = await call(t.app, 'POST', '/api/platform/clock/advance', {
      token: PLATFORM_TOKEN,
      body: { seconds: 32 * 86_400, run_jobs: true },
    });
    expect(adv.statusCode, adv.body).toBe(200);
    await t.app.deps.worker.drain();
  };
  const ordersOf = async (aboId: string) => {
    const rows = await query<{ id: string }>(
      t.db.database.db,
      sql`SELECT id FROM orders WHERE subscription_id = ${aboId} ORDER BY subscription_payment_number`,
    );
    return Promise.all(
      rows.map(async (r) => (await call(t.app, 'GET', `/api/admin/orders/${r.id}`, { token: f.owner })).data.order),
    );
  };

  it('an EU business with a valid VAT ID on the hosted page: AE at the net price, for every renewal, invoiced with the text', async () => {
    const page = await start();
    const html = await call(t.app, 'GET', `/pay/${page.data.id}`);
    expect(html.body).toContain('name="vat_id"');
    expect(html.body).toContain('name="company"');
    const { abo, order } = await subscribe({ ...AT_FORM, company: 'Wiener Handel GmbH', vat_id: 'ATU 1234 5678' });
    expect(vies.requests).toEqual([{ countryCode: 'AT', vatNumber: 'U12345678' }]);
    expect(abo).toMatchObject({
      price_cents: net,
      tax_rate: 0,
      tax_category: 'AE',
      tax_exemption_reason: EXEMPTION_TEXT.AE,
      vat_id_status: 'valid',
    });
    expect(abo.vat_id_checked_at).toBeTruthy();
    expect(order).toMatchObject({
      total_cents: net,
      tax_cents: 0,
      vat_id_status: 'valid',
      vat_id_checked_at: abo.vat_id_checked_at,
      billing_address: { company: 'Wiener Handel GmbH', vat_id: 'ATU12345678', country: 'AT' },
    });
    expect(order.lines[0]).toMatchObject({
      tax_rate: 0,
      tax_category: 'AE',
      tax_exemption_reason: EXEMPTION_TEXT.AE,
      line_total_cents: net,
    });

    // renewals keep the determination (no VIES check per payment: VIES being down changes nothing)
    vies.down = true;
    await renewAll();
    const orders = await ordersOf(abo.id);
    expect(orders.map((o) => o.total_cents)).toEqual([net, net]);
    const renewal = orders[1];
    expect(renewal.lines[0]).toMatchObject({
      tax_rate: 0,
      tax_category: 'AE',
      tax_exemption_reason: EXEMPTION_TEXT.AE,
    });
    expect(renewal.vat_id_status).toBe('valid');
    expect(vies.requests).toHaveLength(1);

    const inv = await call(t.app, 'POST', `/api/admin/orders/${renewal.id}/invoice`, { token: f.owner, body: {} });
    expect(inv.statusCode, inv.body).toBe(201);
    expect(inv.data.total_cents).toBe(net);
    expect(inv.data.lines[0]).toMatchObject({ tax_rate: 0, tax_category: 'AE', line_total_cents: net });
    expect(inv.data.tax_breakdown).toMatchObject([
      { tax_rate: 0, tax_category: 'AE', tax_exemption_reason: EXEMPTION_TEXT.AE, tax_cents: 0, gross_cents: net },
    ]);
    expect(inv.data.buyer).toMatchObject({ vat_id: 'ATU12345678', company: 'Wiener Handel GmbH' });
  });

  it('the buyer fields on the API decide the row before the page and prefill it', async () => {
    const s = await start({ company: 'Wiener Handel GmbH', vat_id: 'ATU12345678', billing_country: 'AT' });
    expect(s.statusCode, s.body).toBe(201);
    const [row] = await query<{ total_cents: number; vat_id_status: string; lines: { tax_category: string }[] }>(
      t.db.database.db,
      sql`SELECT total_cents, vat_id_status, lines FROM checkout_sessions WHERE id = ${s.data.id}`,
    );
    expect(Number(row?.total_cents)).toBe(net);
    expect(row?.vat_id_status).toBe('valid');
    expect(row?.lines[0]?.tax_category).toBe('AE');
    const html = await call(t.app, 'GET', `/pay/${s.data.id}`);
    expect(html.body).toContain('value="ATU12345678"');
    expect(html.body).toContain('value="Wiener Handel GmbH"');
    expect(html.body).toContain(`Heute fällig: ${(net / 100).toFixed(2).replace('.', ',')}`);
  });

  it('API validation: a malformed VAT ID, buyer fields without a country, a country not served — 400, nothing created', async () => {
    const before = await sessionCount();
    const bad = await start({ vat_id: 'ATU1234', billing_country: 'AT' });
    expectProblem(bad, 400, 'vat_id_invalid');
    expect(bad.data.errors).toEqual([{ path: '/body/vat_id', message: expect.any(String) }]);
    const noCountry = await start({ vat_id: 'ATU12345678' });
    expectProblem(noCountry, 400, 'billing_country_required');
    expect(noCountry.data.errors).toEqual([{ path: '/body/billing_country', message: expect.any(String) }]);
    const companyOnly = await start({ company: 'X GmbH' });
    expectProblem(companyOnly, 400, 'billing_country_required');
    const unserved = await start({ billing_country: 'XX' });
    expectProblem(unserved, 400, 'country_not_served');
    expect(unserved.data.errors).toEqual([{ path: '/body/billing_country', message: expect.any(String) }]);
    const pattern = await start({ billing_country: 'at' });
    expect(pattern.statusCode).toBe(400);
    expect(await sessionCount()).toBe(before);
    expect(vies.requests).toEqual([]);
  });

  it('the hosted page refuses a malformed VAT ID and creates nothing', async () => {
    const s = await start();
    const res = await submit(s.data.id, { ...AT_FORM, vat_id: 'ATU12' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('USt-IdNr.');
    const [row] = await query<{ status: string }>(
      t.db.database.db,
      sql`SELECT status FROM checkout_sessions WHERE id = ${s.data.id}`,
    );
    expect(row?.status).toBe('open');
  });

  it('a German business pays German VAT (S), without VIES', async () => {
    const { abo, order } = await subscribe({
      name: 'Max',
      company: 'Berlin GmbH',
      vat_id: 'DE123456789',
      line1: 'Str. 1',
      postal_code: '10115',
      city: 'Berlin',
      country: 'DE',
    });
    expect(abo).toMatchObject({ tax_category: 'S', tax_rate: 0.19, vat_id_status: null, price_cents: 1190 });
    expect(order.lines[0]).toMatchObject({ tax_rate: 0.19, tax_category: 'S', tax_cents: taxFromGross(1190, 0.19) });
    expect(vies.requests).toEqual([]);
    const inv = await call(t.app, 'POST', `/api/admin/orders/${order.id}/invoice`, { token: f.owner, body: {} });
    expect(inv.statusCode, inv.body).toBe(201);
    expect(inv.data.tax_breakdown).toMatchObject([
      { tax_rate: 0.19, tax_category: 'S', tax_exemption_reason: null, tax_cents: taxFromGross(1190, 0.19) },
    ]);
    expect(inv.data.buyer).toMatchObject({ vat_id: 'DE123456789', company: 'Berlin GmbH' });
  });

  it('VIES says invalid: the consumer row (OSS rate), stored as invalid', async () => {
    const { abo, order } = await subscribe({ ...AT_FORM, vat_id: 'ATU99999999' });
    expect(abo).toMatchObject({ tax_category: 'S', tax_rate: 0.2, vat_id_status: 'invalid', price_cents: 1190 });
    expect(order.lines[0]).toMatchObject({ tax_rate: 0.2, tax_category: 'S', line_total_cents: 1190 });
    const inv = await call(t.app, 'POST', `/api/admin/orders/${order.id}/invoice`, { token: f.owner, body: {} });
    expect(inv.data.tax_breakdown).toMatchObject([
      { tax_rate: 0.2, tax_category: 'S', tax_cents: taxFromGross(1190, 0.2), gross_cents: 1190 },
    ]);
  });

  it('VIES unreachable: consumer VAT by default (unchecked), AE and vat_id_unverified by the shop setting', async () => {
    vies.down = true;
    const charged = await subscribe({ ...AT_FORM, vat_id: 'ATU12345678' });
    expect(charged.abo).toMatchObject({ tax_category: 'S', tax_rate: 0.2, vat_id_status: 'unchecked' });
    expect(charged.order.total_cents).toBe(1190);
    await settings({ vies_unavailable: 'accept_unverified' });
    try {
      const accepted = await subscribe({ ...AT_FORM, vat_id: 'ATU12345678' });
      expect(accepted.abo).toMatchObject({ tax_category: 'AE', tax_rate: 0, vat_id_status: 'unverified' });
      expect(accepted.order).toMatchObject({ total_cents: net, vat_id_status: 'unverified' });
      expect(accepted.order.lines[0]).toMatchObject({ tax_category: 'AE', tax_exemption_reason: EXEMPTION_TEXT.AE });
    } finally {
      await settings({ vies_unavailable: 'charge_vat' });
    }
  });

  it('an EU consumer when the shop is not OSS-registered: the German rate (S)', async () => {
    await settings({ oss_registered: false });
    try {
      const { abo, order } = await subscribe(AT_FORM);
      expect(abo).toMatchObject({ tax_category: 'S', tax_rate: 0.19 });
      expect(order.lines[0]).toMatchObject({ tax_rate: 0.19, tax_category: 'S', line_total_cents: 1190 });
    } finally {
      await settings({ oss_registered: true });
    }
  });

  it('a business outside the EU: O at the net price (a foreign tax number changes nothing)', async () => {
    const { abo, order } = await subscribe({ ...US, company: 'Acme Inc.', vat_id: '12-3456789' });
    expect(abo).toMatchObject({ tax_category: 'O', tax_rate: 0, price_cents: net, vat_id_status: null });
    expect(order.lines[0]).toMatchObject({ tax_category: 'O', tax_exemption_reason: EXEMPTION_TEXT.O });
    const inv = await call(t.app, 'POST', `/api/admin/orders/${order.id}/invoice`, { token: f.owner, body: {} });
    expect(inv.statusCode, inv.body).toBe(201);
    expect(inv.data.tax_breakdown).toMatchObject([{ tax_category: 'O', tax_rate: 0, gross_cents: net }]);
  });
});
