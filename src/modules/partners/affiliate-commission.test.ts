/**
 * Affiliate attribution and commission over HTTP: real paid orders through the checkout and the
 * hosted page carry an affiliate_code; the commission is the affiliate's percent of the order's
 * item net (without tax and shipping, half-up to the cent). Subscriptions obey the shop's
 * abo_provision (erste / monate / immer) across renewals driven by the simulated clock.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createShop,
  PLATFORM_TOKEN,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { query } from '../../platform/db/tx.js';
import { taxFromGross } from '../../platform/money.js';
import { type FinanceShop, financeShop, paidOrder } from '../finance/finance.fixtures.js';
import { ok } from './partners.fixtures.js';

let t: TestApp;
let f: FinanceShop;
const DAY = 86_400;

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
});
afterAll(() => t.close());

async function affiliate(owner: string, body: Record<string, unknown>) {
  return ok(
    await call(t.app, 'POST', '/api/admin/affiliates', {
      token: owner,
      body: { name: 'Partner', email: `p-${Math.random().toString(36).slice(2, 8)}@aff.test`, ...body },
    }),
    201,
  ) as Promise<{ id: string; code: string }>;
}

async function earningsOf(owner: string, query: Record<string, string>) {
  const res = await call(t.app, 'GET', '/api/admin/affiliate-earnings', { token: owner, query });
  expect(res.statusCode, res.body).toBe(200);
  return res.data.earnings as Record<string, any>[];
}

/** Σ line net of an order, read from the order itself. */
async function itemNet(owner: string, orderId: string): Promise<{ net: number; shipping: number; tax: number }> {
  const res = await call(t.app, 'GET', `/api/admin/orders/${orderId}`, { token: owner });
  expect(res.statusCode).toBe(200);
  const o = res.data.order;
  return {
    net: o.lines.reduce((s: number, l: { net_cents: number }) => s + l.net_cents, 0),
    shipping: o.shipping_cents,
    tax: o.tax_cents,
  };
}

describe('one-time orders', () => {
  it('credits a pending earning: percent of the item net (mixed tax rates, no shipping, no tax)', async () => {
    const a = await affiliate(f.owner, { code: 'PARTNER10', commission_percent: 10 });
    const orderId = await paidOrder(t, f, { affiliate_code: 'PARTNER10' });
    // course 99.00 @19 %, 2 × e-book 19.99 @7 %, 3 × cheese 9.99 @7 %, shipping 4.90
    const expectedNet =
      9900 - taxFromGross(9900, 0.19) + (3998 - taxFromGross(3998, 0.07)) + (2997 - taxFromGross(2997, 0.07));
    expect(expectedNet).toBe(14856);
    const order = await itemNet(f.owner, orderId);
    expect(order.net).toBe(expectedNet);
    expect(order.shipping).toBe(490);
    expect(order.tax).toBeGreaterThan(0);

    const [e, ...more] = await earningsOf(f.owner, { order_id: orderId });
    expect(more).toEqual([]);
    expect(e).toMatchObject({
      affiliate_id: a.id,
      order_id: orderId,
      order_line_id: null,
      subscription_id: null,
      currency: 'EUR',
      net_cents: 14856,
      commission_cents: 0,
      amount_cents: 1486, // 1485.6 → 1486
      reversed_cents: 0,
      rate_percent: 10,
      status: 'pending',
      released_at: null,
    });
    expect(e?.gross_cents).toBe(9900 + 3998 + 2997);
    const detail = await ok(await call(t.app, 'GET', `/api/admin/affiliates/${a.id}`, { token: f.owner }));
    expect(detail.balances).toEqual([
      {
        currency: 'EUR',
        pending_cents: 1486,
        available_cents: 0,
        in_payout_cents: 0,
        paid_out_cents: 0,
        earned_cents: 1486,
        owed_cents: 1486,
      },
    ]);
    expect(detail.stats).toEqual({
      referred_orders: 1,
      per_currency: [{ currency: 'EUR', referred_orders: 1, net_sales_cents: 14856, earned_cents: 1486 }],
    });
  });

  it('rounds half up and applies decimal percentages', async () => {
    await affiliate(f.owner, { code: 'HALFUP', commission_percent: 12.5 });
    // one e-book: net 19.99 − 1.31 = 18.68; 12.5 % = 2.335 → 2.34
    const orderId = await paidOrder(t, f, {
      items: [{ product_id: f.products.ebook, quantity: 1 }],
      affiliate_code: 'HALFUP',
    });
    expect((await itemNet(f.owner, orderId)).net).toBe(1868);
    const [e] = await earningsOf(f.owner, { order_id: orderId });
    expect(e).toMatchObject({ net_cents: 1868, amount_cents: 234, rate_percent: 12.5 });

    await affiliate(f.owner, { code: 'ODDRATE', commission_percent: 7.35 });
    const second = await paidOrder(t, f, { affiliate_code: 'ODDRATE' });
    const [e2] = await earningsOf(f.owner, { order_id: second });
    expect(e2).toMatchObject({ net_cents: 14856, amount_cents: 1092, rate_percent: 7.35 }); // 1091.916
  });

  it('matches the code case-insensitively', async () => {
    const a = await affiliate(f.owner, { code: 'MixedCase', commission_percent: 5 });
    const orderId = await paidOrder(t, f, {
      items: [{ product_id: f.products.course, quantity: 1 }],
      affiliate_code: 'mixedcase',
    });
    const [e] = await earningsOf(f.owner, { order_id: orderId });
    expect(e).toMatchObject({ affiliate_id: a.id, net_cents: 8319, amount_cents: 416 }); // 415.95
  });

  it('paused, blocked and unknown codes: the checkout accepts them, nothing is earned', async () => {
    const paused = await affiliate(f.owner, { code: 'PAUSED1', commission_percent: 10, status: 'paused' });
    const blocked = await affiliate(f.owner, { code: 'BLOCKED1', commission_percent: 10 });
    await ok(
      await call(t.app, 'PATCH', `/api/admin/affiliates/${blocked.id}`, {
        token: f.owner,
        body: { status: 'blocked' },
      }),
    );
    for (const code of ['PAUSED1', 'blocked1', 'NOSUCHCODE']) {
      const orderId = await paidOrder(t, f, {
        items: [{ product_id: f.products.course, quantity: 1 }],
        affiliate_code: code,
      });
      const order = await ok(await call(t.app, 'GET', `/api/admin/orders/${orderId}`, { token: f.owner }));
      expect(order.order.affiliate_code).toBe(code);
      expect(order.order.status).toBe('paid');
      expect(await earningsOf(f.owner, { order_id: orderId })).toEqual([]);
    }
    for (const a of [paused, blocked]) {
      expect(await earningsOf(f.owner, { affiliate_id: a.id })).toEqual([]);
    }
    // reactivated: the next order earns again, at the rate in force then
    await ok(
      await call(t.app, 'PATCH', `/api/admin/affiliates/${paused.id}`, {
        token: f.owner,
        body: { status: 'active', commission_percent: 20 },
      }),
    );
    const orderId = await paidOrder(t, f, {
      items: [{ product_id: f.products.course, quantity: 1 }],
      affiliate_code: 'PAUSED1',
    });
    const [e] = await earningsOf(f.owner, { order_id: orderId });
    expect(e).toMatchObject({ affiliate_id: paused.id, amount_cents: 1664, rate_percent: 20 }); // 8319 × 20 %
  });

  it("another shop's affiliate with the same code earns nothing here", async () => {
    const other = await financeShop(t);
    const foreign = await affiliate(other.owner, { code: 'CROSSSHOP', commission_percent: 10 });
    const orderId = await paidOrder(t, f, {
      items: [{ product_id: f.products.course, quantity: 1 }],
      affiliate_code: 'CROSSSHOP',
    });
    expect(await earningsOf(f.owner, { order_id: orderId })).toEqual([]);
    expect(await earningsOf(other.owner, { affiliate_id: foreign.id })).toEqual([]);
  });

  it('a rate change applies to orders paid afterwards only', async () => {
    const a = await affiliate(f.owner, { code: 'RATECHANGE', commission_percent: 10 });
    const items = [{ product_id: f.products.course, quantity: 1 }];
    const first = await paidOrder(t, f, { items, affiliate_code: 'RATECHANGE' });
    await ok(
      await call(t.app, 'PATCH', `/api/admin/affiliates/${a.id}`, { token: f.owner, body: { commission_percent: 15 } }),
    );
    const second = await paidOrder(t, f, { items, affiliate_code: 'RATECHANGE' });
    expect((await earningsOf(f.owner, { order_id: first }))[0]).toMatchObject({ rate_percent: 10, amount_cents: 832 });
    expect((await earningsOf(f.owner, { order_id: second }))[0]).toMatchObject({
      rate_percent: 15,
      amount_cents: 1248,
    });
  });
});

// ---- subscriptions ----

interface AboShop {
  shop: ShopFixture;
  owner: string;
  planId: string;
  code: string;
  affiliateId: string;
}

const good = { name: 'Erika Muster', line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' };
const RETURN = `${STORE_ORIGIN}/abo/danke`;

async function aboShop(mode: Record<string, unknown>, code: string): Promise<AboShop> {
  const shop = await createShop(t.app);
  const owner = shop.ownerToken;
  await ok(await call(t.app, 'PUT', '/api/admin/digital/status', { token: owner, body: { aktiv: true, ...mode } }));
  const product = await ok(
    await call(t.app, 'POST', '/api/products', {
      token: owner,
      body: { name: 'Videokurs', is_digital: true, status: 'published', base_price_cents: 1990 },
    }),
    201,
  );
  const plan = await ok(
    await call(t.app, 'POST', '/api/admin/digital/plaene', {
      token: owner,
      body: { product_id: product.id, name: 'Monatlich', price_cents: 1990, interval_unit: 'month' },
    }),
    201,
  );
  const a = await affiliate(owner, { code, commission_percent: 10 });
  return { shop, owner, planId: plan.id, code, affiliateId: a.id };
}

function aboSession(s: AboShop, body: Record<string, unknown>) {
  return call(t.app, 'POST', '/api/store/abo-sessions', {
    token: s.shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: { plan_id: s.planId, return_url: RETURN, ...body },
  });
}

/** Buys the plan through the hosted page; returns the subscription id. */
async function subscribe(s: AboShop, affiliateCode?: string): Promise<string> {
  const email = `abo-${Math.random().toString(36).slice(2, 8)}@kunde.test`;
  const session = await aboSession(s, {
    customer_email: email,
    ...(affiliateCode ? { affiliate_code: affiliateCode } : {}),
  });
  expect(session.statusCode, session.body).toBe(201);
  const paid = await call(t.app, 'POST', `/pay/${session.data.id}`, {
    body: new URLSearchParams({ ...good, card_number: '4242424242424242' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(paid.statusCode, paid.body).toBe(303);
  await t.app.deps.worker.drain();
  const list = await ok(await call(t.app, 'GET', '/api/admin/digital/abos', { token: s.owner, query: { q: email } }));
  expect(list.abos).toHaveLength(1);
  return list.abos[0].id;
}

async function advance(seconds: number) {
  const res = await call(t.app, 'POST', '/api/platform/clock/advance', {
    token: PLATFORM_TOKEN,
    body: { seconds, run_jobs: true },
  });
  expect(res.statusCode).toBe(200);
  await t.app.deps.worker.drain();
}

async function aboOrders(s: AboShop, aboId: string) {
  return query<{ id: string; subscription_payment_number: number; affiliate_code: string | null }>(
    t.app.deps.database.db,
    sql`SELECT id, subscription_payment_number, affiliate_code FROM orders
        WHERE shop_id = ${s.shop.shopId} AND subscription_id = ${aboId} AND status IN ('paid', 'fulfilled')
        ORDER BY subscription_payment_number`,
  );
}

describe('subscriptions: abo_provision across renewals (simulated clock)', () => {
  // 19.90 gross at 19 %: net 16.72; 10 % = 1.672 → 1.67
  const NET = 1990 - taxFromGross(1990, 0.19);
  const COMMISSION = 167;

  it('erste: only the first paid order; monate 2: the first two; immer: every paid order', async () => {
    expect(NET).toBe(1672);
    const erste = await aboShop({ abo_provision: 'erste' }, 'ABO-ERSTE');
    const monate = await aboShop({ abo_provision: 'monate', abo_provision_monate: 2 }, 'ABO-MONATE');
    const immer = await aboShop({ abo_provision: 'immer' }, 'ABO-IMMER');
    const subs = [
      { s: erste, earning: [1], abo: await subscribe(erste, 'abo-erste') },
      { s: monate, earning: [1, 2], abo: await subscribe(monate, 'ABO-MONATE') },
      { s: immer, earning: [1, 2, 3, 4], abo: await subscribe(immer, 'Abo-Immer') },
    ];
    // an unknown code and no code at all: the subscription works, nothing is earned
    const unknownAbo = await subscribe(immer, 'NOT-A-PARTNER');
    const noCodeAbo = await subscribe(immer);

    for (let renewal = 0; renewal < 3; renewal++) await advance(31 * DAY + 60);

    for (const { s, earning, abo } of subs) {
      const orders = await aboOrders(s, abo);
      expect(orders.map((o) => o.subscription_payment_number)).toEqual([1, 2, 3, 4]);
      const earnings = (await earningsOf(s.owner, { affiliate_id: s.affiliateId })).sort(
        (a, b) => a.subscription_payment_number - b.subscription_payment_number,
      );
      expect(
        earnings.map((e) => e.subscription_payment_number),
        s.code,
      ).toEqual(earning);
      for (const e of earnings) {
        expect(e).toMatchObject({
          subscription_id: abo,
          order_id: orders[e.subscription_payment_number - 1]?.id,
          net_cents: NET,
          amount_cents: COMMISSION,
          status: 'pending',
        });
      }
      const detail = await ok(await call(t.app, 'GET', `/api/admin/affiliates/${s.affiliateId}`, { token: s.owner }));
      expect(detail.balances[0]).toMatchObject({ pending_cents: COMMISSION * earning.length });
      expect(detail.stats.referred_orders).toBe(earning.length);
    }
    for (const abo of [unknownAbo, noCodeAbo]) {
      const orders = await aboOrders(immer, abo);
      expect(orders).toHaveLength(4);
      for (const o of orders) expect(await earningsOf(immer.owner, { order_id: o.id })).toEqual([]);
    }
  });

  it('abo sessions accept a paused or blocked code without error; no commission', async () => {
    const s = await aboShop({ abo_provision: 'immer' }, 'ABO-PAUSED');
    await ok(
      await call(t.app, 'PATCH', `/api/admin/affiliates/${s.affiliateId}`, {
        token: s.owner,
        body: { status: 'paused' },
      }),
    );
    const abo = await subscribe(s, 'ABO-PAUSED');
    const blocked = await affiliate(s.owner, { code: 'ABO-BLOCKED', commission_percent: 10, status: 'blocked' });
    const abo2 = await subscribe(s, 'abo-blocked');
    await advance(31 * DAY + 60);
    for (const id of [abo, abo2]) {
      const orders = await aboOrders(s, id);
      expect(orders.length).toBeGreaterThanOrEqual(2);
      expect(orders[0]?.affiliate_code).toMatch(/abo-(paused|blocked)/i);
    }
    expect(await earningsOf(s.owner, { affiliate_id: s.affiliateId })).toEqual([]);
    expect(await earningsOf(s.owner, { affiliate_id: blocked.id })).toEqual([]);
  });
});
