/** PAYMENT_PROVIDER=stripe: subscription checkout and the webhook-driven lifecycle against a local Stripe stub. */
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createShop,
  expectProblem,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { type StripeStub, type StubRequest, startStripeStub } from '../../../test/helpers/stripe-stub.js';
import { startViesStub, type ViesStub } from '../../../test/helpers/vies-stub.js';
import { EVENT_SHAPES_SINCE, STRIPE_API_VERSION } from '../../adapters/payment/stripe-provider.js';
import { query } from '../../platform/db/tx.js';
import { taxFromGross } from '../../platform/money.js';
import { EXEMPTION_TEXT, netOfGross } from '../tax/index.js';

const WEBHOOK_SECRET = 'whsec_test_abo_stub';
/** Every request the stub received (stub.requests). */
let requests: StubRequest[] = [];
const subs = new Map<string, Record<string, unknown>>();
/** Invoices as Stripe has them in our API version (GET /v1/invoices/:id). */
const invoices = new Map<string, Record<string, unknown>>();
let stub: StripeStub;
let vies: ViesStub;
let t: TestApp;
let shop: ShopFixture;
let productId: string;
let sessionCounter = 0;
/** While true, the stub answers every lookup 500 (Stripe unavailable while an event is read). */
let stripeDown = false;
const NOW = Math.floor(Date.now() / 1000);
const MONTH = 30 * 86400;

function subscription(id: string, status: string, extra: Record<string, unknown> = {}) {
  const sub = {
    id,
    object: 'subscription',
    status,
    cancel_at_period_end: false,
    trial_end: status === 'trialing' ? NOW + 7 * 86400 : null,
    ended_at: null,
    items: {
      object: 'list',
      data: [
        {
          id: `si_${id}`,
          current_period_start: NOW,
          current_period_end: NOW + (status === 'trialing' ? 7 * 86400 : MONTH),
        },
      ],
    },
    latest_invoice:
      status === 'trialing'
        ? { id: `in_${id}_0`, object: 'invoice', status: 'paid', amount_paid: 0 }
        : { id: `in_${id}_1`, object: 'invoice', status: 'paid', amount_paid: 995 },
    ...extra,
  };
  subs.set(id, sub);
  return sub;
}

beforeAll(async () => {
  stub = await startStripeStub(async (req, res, body, path) => {
    const json = (o: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_stub' });
      res.end(JSON.stringify(o));
    };
    if (stripeDown) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'api_error', message: 'stub down' } }));
      return;
    }
    if (req.method === 'POST' && path === '/v1/prices')
      return json({ id: `price_${requests.length}`, object: 'price' });
    if (req.method === 'POST' && path === '/v1/coupons')
      return json({ id: `coupon_${requests.length}`, object: 'coupon' });
    const inv = /^\/v1\/invoices\/(\w+)$/.exec(path);
    if (req.method === 'GET' && inv && invoices.has(inv[1] as string)) return json(invoices.get(inv[1] as string));
    if (req.method === 'POST' && path === '/v1/checkout/sessions') {
      const id = `cs_test_abo_${++sessionCounter}`;
      providerIds.set(body.get('metadata[checkout_session_id]') ?? '', id);
      return json({ id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}` });
    }
    if (req.method === 'GET' && path === '/v1/checkout/sessions') {
      // the list by subscription (the completion of a subscription that left `incomplete`)
      const found = checkoutBySubscription.get(
        new URL(req.url ?? '', 'http://x').searchParams.get('subscription') ?? '',
      );
      return json({ object: 'list', has_more: false, url: '/v1/checkout/sessions', data: found ? [found] : [] });
    }
    if (req.method === 'GET' && path === '/v1/invoice_payments') {
      return json({
        object: 'list',
        has_more: false,
        url: '/v1/invoice_payments',
        data: [
          {
            id: 'inpay_1',
            object: 'invoice_payment',
            status: 'paid',
            payment: {
              type: 'payment_intent',
              payment_intent: `pi_of_${new URL(req.url ?? '', 'http://x').searchParams.get('invoice')}`,
            },
          },
        ],
      });
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      return json({
        id: `re_${requests.length}`,
        object: 'refund',
        status: 'succeeded',
        amount: Number(body.get('amount')),
        payment_intent: body.get('payment_intent'),
      });
    }
    const m = /^\/v1\/subscriptions\/([\w]+)$/.exec(path);
    const sub = m ? subs.get(m[1] as string) : undefined;
    if (m && sub) {
      if (req.method === 'POST' && body.has('cancel_at_period_end')) {
        sub.cancel_at_period_end = body.get('cancel_at_period_end') === 'true';
      }
      if (req.method === 'DELETE') sub.status = 'canceled';
      return json(sub);
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: `unknown ${path}` } }));
  });
  requests = stub.requests;
  vies = await startViesStub(['ATU12345678']);
  t = await startApp({
    VIES_API_URL: vies.url,
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_abo',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stub.url,
  });
  shop = await createShop(t.app);
  await call(t.app, 'PUT', '/api/admin/digital/status', { token: shop.ownerToken, body: { aktiv: true } });
  await call(t.app, 'POST', '/api/admin/channels', {
    token: shop.ownerToken,
    body: { name: 'DE', default_country: 'DE', currency: 'EUR' },
  });
  productId = (
    await call(t.app, 'POST', '/api/products', {
      token: shop.ownerToken,
      body: { name: 'Kurs', is_digital: true, status: 'published' },
    })
  ).data.id;
});
afterAll(async () => {
  await t.close();
  await stub.close();
  await vies.close();
});

/** Our checkout session id → the stub's Checkout Session id. */
const providerIds = new Map<string, string>();
/** Stripe's subscription id → its (completed) Checkout Session, for GET /v1/checkout/sessions?subscription=… */
const checkoutBySubscription = new Map<string, Record<string, unknown>>();
let eventCounter = 0;
/**
 * Stripe sends a subscription event when the subscription changes, so the object of one delivered
 * on time is the subscription's current state: the stub keeps it (GET /v1/subscriptions/:id).
 */
function post(
  type: string,
  object: Record<string, unknown>,
  path = '/api/webhooks/stripe',
  previous?: Record<string, unknown>,
) {
  if (type.startsWith('customer.subscription.')) subs.set(object.id as string, { ...object });
  return send(type, object, path, previous);
}
/** An event Stripe delivers late (or out of order): the stub keeps the subscription's newer state. */
const late = (type: string, object: Record<string, unknown>) => send(type, object, '/api/webhooks/stripe');
function send(type: string, object: Record<string, unknown>, path: string, previous?: Record<string, unknown>) {
  const data = previous ? { object, previous_attributes: previous } : { object };
  const payload = JSON.stringify({ id: `evt_abo_${++eventCounter}`, object: 'event', type, data });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return call(t.app, 'POST', path, {
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });
}

async function plan(body: Record<string, unknown>) {
  return (
    await call(t.app, 'POST', '/api/admin/digital/plaene', {
      token: shop.ownerToken,
      body: { product_id: productId, name: 'Stripe', price_cents: 1990, interval_unit: 'month', ...body },
    })
  ).data as { id: string };
}

const startSession = (planId: string, email: string) =>
  call(t.app, 'POST', '/api/store/abo-sessions', {
    token: shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: { plan_id: planId, return_url: `${STORE_ORIGIN}/ok`, customer_email: email },
  });

const completed = (ours: string, sub: string) => ({
  id: providerIds.get(ours),
  object: 'checkout.session',
  mode: 'subscription',
  payment_status: 'paid',
  subscription: sub,
  metadata: { checkout_session_id: ours },
  customer_details: {
    name: 'Erika',
    address: { line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
  },
});

const invoice = (id: string, sub: string, extra: Record<string, unknown>) => ({
  id,
  object: 'invoice',
  parent: { type: 'subscription_details', subscription_details: { subscription: sub } },
  lines: { object: 'list', data: [{ period: { start: NOW + MONTH, end: NOW + 2 * MONTH } }] },
  attempt_count: 1,
  amount_due: 1990,
  amount_paid: 0,
  next_payment_attempt: null,
  ...extra,
});

const aboOf = async (email: string) =>
  (await call(t.app, 'GET', '/api/admin/digital/abos', { token: shop.ownerToken, query: { q: email } })).data.abos[0];
const ordersOf = async (id: string) =>
  (await call(t.app, 'GET', `/api/admin/digital/abos/${id}`, { token: shop.ownerToken })).data.bestellungen as {
    id: string;
    total_cents: number;
    service_period_start: string | null;
    service_period_end: string | null;
  }[];
/** The billed period of an order, as Stripe's unix seconds. */
const periodOf = (o: { service_period_start: string | null; service_period_end: string | null } | undefined) => [
  Date.parse(String(o?.service_period_start)) / 1000,
  Date.parse(String(o?.service_period_end)) / 1000,
];
const events = async (id: string) =>
  (
    await query<{ type: string }>(
      t.app.deps.database.db,
      sql`SELECT type FROM webhook_events WHERE data->>'subscription_id' = ${id} ORDER BY created_at, id`,
    )
  ).map((r) => r.type);

describe('stripe subscriptions', () => {
  it('creates a Checkout Session in subscription mode with the plan’s Price and intro coupon', async () => {
    const p = await plan({ intro_discount_percent: 50, intro_discount_months: 1 });
    const res = await startSession(p.id, 'stripe1@kunde.test');
    expect(res.statusCode).toBe(201);
    expect(res.data.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_abo_/);
    const price = requests.find((r) => r.path === '/v1/prices');
    expect(price?.body.get('unit_amount')).toBe('1990');
    expect(price?.body.get('recurring[interval]')).toBe('month');
    expect(price?.body.get('currency')).toBe('eur');
    const cs = requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1);
    expect(cs?.body.get('mode')).toBe('subscription');
    expect(cs?.body.get('line_items[0][price]')).toMatch(/^price_/);
    expect(cs?.body.get('discounts[0][coupon]')).toMatch(/^coupon_/);
    expect(cs?.body.get('metadata[checkout_session_id]')).toBe(res.data.id);
    // the Price is reused until price or interval change
    await startSession(p.id, 'stripe1b@kunde.test');
    expect(requests.filter((r) => r.path === '/v1/prices')).toHaveLength(1);
    await call(t.app, 'PATCH', `/api/admin/digital/plaene/${p.id}`, {
      token: shop.ownerToken,
      body: { price_cents: 2490 },
    });
    await startSession(p.id, 'stripe1c@kunde.test');
    expect(requests.filter((r) => r.path === '/v1/prices')).toHaveLength(2);
  });

  it('drives the lifecycle from webhooks: paid checkout, invoices, failure, cancellation, deletion', async () => {
    const p = await plan({ intro_discount_percent: 50, intro_discount_months: 1 });
    const s = await startSession(p.id, 'stripe2@kunde.test');
    subscription('sub_paid', 'active');
    // a foreign provider session id creates nothing
    expect(
      (await post('checkout.session.completed', { ...completed(s.data.id, 'sub_paid'), id: 'cs_test_foreign' }))
        .statusCode,
    ).toBe(200);
    expect(await aboOf('stripe2@kunde.test')).toBeUndefined();

    // one event to the route and its deprecated alias: one subscription, never a one-time order
    const payload = JSON.stringify({
      id: 'evt_abo_both_routes',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: completed(s.data.id, 'sub_paid') },
    });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const answers = await Promise.all(
      ['/api/webhooks/stripe/abos', '/api/webhooks/stripe'].map((path) =>
        call(t.app, 'POST', path, {
          body: payload,
          headers: { 'content-type': 'application/json', 'stripe-signature': header },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(answers.filter((a) => a.data.duplicate).length).toBe(1);
    const abo = await aboOf('stripe2@kunde.test');
    expect(abo).toMatchObject({ status: 'active', provider: 'stripe', is_test: true, payments_count: 1 });
    expect((await ordersOf(abo.id)).map((o) => o.total_cents)).toEqual([995]);

    // the first invoice again: recorded already
    await post('invoice.paid', invoice('in_sub_paid_1', 'sub_paid', { amount_paid: 995 }));
    expect(await ordersOf(abo.id)).toHaveLength(1);
    await post('invoice.paid', invoice('in_sub_paid_2', 'sub_paid', { amount_paid: 1990 }));
    expect((await ordersOf(abo.id)).map((o) => o.total_cents)).toEqual([995, 1990]);
    // the first order pays the subscription's first period, a renewal the period of its invoice line
    const [first, second] = await ordersOf(abo.id);
    expect(periodOf(first)).toEqual([NOW, NOW + MONTH]);
    expect(periodOf(second)).toEqual([NOW + MONTH, NOW + 2 * MONTH]);

    await post(
      'invoice.payment_failed',
      invoice('in_sub_paid_3', 'sub_paid', { next_payment_attempt: NOW + 3 * 86400 }),
    );
    await post(
      'invoice.payment_failed',
      invoice('in_sub_paid_3', 'sub_paid', { next_payment_attempt: NOW + 3 * 86400 }),
    );
    expect(await aboOf('stripe2@kunde.test')).toMatchObject({ status: 'past_due', failed_attempts: 1 });
    await post('invoice.paid', invoice('in_sub_paid_3', 'sub_paid', { amount_paid: 1990 }));
    expect(await aboOf('stripe2@kunde.test')).toMatchObject({
      status: 'active',
      failed_attempts: 0,
      payments_count: 3,
    });

    const cancel = await call(t.app, 'POST', `/api/admin/digital/abos/${abo.id}/kuendigen`, {
      token: shop.ownerToken,
      body: { grund: 'test' },
    });
    expect(cancel.statusCode).toBe(200);
    expect(cancel.data.cancel_at_period_end).toBe(true);
    const update = requests.filter((r) => r.path === '/v1/subscriptions/sub_paid' && r.method === 'POST').at(-1);
    expect(update?.body.get('cancel_at_period_end')).toBe('true');
    // Stripe's echo of the change adds nothing
    await post('customer.subscription.updated', { ...subs.get('sub_paid') });
    await post('customer.subscription.deleted', { ...subs.get('sub_paid'), status: 'canceled', ended_at: NOW + MONTH });
    expect(await aboOf('stripe2@kunde.test')).toMatchObject({ status: 'canceled' });
    expect(await events(abo.id)).toEqual([
      'checkout.completed',
      'abo.aktiv',
      'abo.bezahlt',
      'abo.bezahlt',
      'abo.zahlung_fehlgeschlagen',
      'abo.aktiv',
      'abo.bezahlt',
      'abo.gekuendigt',
      'abo.beendet',
    ]);
  });

  it('a trial starts trialing without an order; a cancellation made at Stripe is mirrored', async () => {
    const p = await plan({ trial_days: 7 });
    const s = await startSession(p.id, 'stripe3@kunde.test');
    expect(
      requests
        .filter((r) => r.path === '/v1/checkout/sessions')
        .at(-1)
        ?.body.get('subscription_data[trial_period_days]'),
    ).toBe('7');
    subscription('sub_trial', 'trialing');
    await post('checkout.session.completed', {
      ...completed(s.data.id, 'sub_trial'),
      payment_status: 'no_payment_required',
    });
    const abo = await aboOf('stripe3@kunde.test');
    expect(abo).toMatchObject({ status: 'trialing', payments_count: 0 });
    expect(await ordersOf(abo.id)).toEqual([]);
    const checkout = await query<{ data: Record<string, unknown> }>(
      t.app.deps.database.db,
      sql`SELECT data FROM webhook_events WHERE type = 'checkout.completed' AND data->>'subscription_id' = ${abo.id}`,
    );
    expect(checkout[0]?.data).not.toHaveProperty('order_id');
    await post('customer.subscription.updated', { ...subs.get('sub_trial'), cancel_at_period_end: true });
    expect(await aboOf('stripe3@kunde.test')).toMatchObject({ cancel_at_period_end: true, status: 'trialing' });
    await post('customer.subscription.updated', { ...subs.get('sub_trial'), cancel_at_period_end: false });
    expect(await events(abo.id)).toEqual(['checkout.completed', 'abo.aktiv', 'abo.gekuendigt', 'abo.fortgesetzt']);
  });

  it('a subscription order is refundable like any order: the payment of its invoice is refunded at Stripe', async () => {
    const abo = await aboOf('stripe2@kunde.test');
    const detail = await call(t.app, 'GET', `/api/admin/digital/abos/${abo.id}`, { token: shop.ownerToken });
    const first = detail.data.bestellungen[0] as { id: string; total_cents: number };
    const res = await call(t.app, 'POST', `/api/admin/orders/${first.id}/refunds`, {
      token: shop.ownerToken,
      body: { reason: 'Kulanz' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ status: 'succeeded', amount_cents: first.total_cents });
    const sent = requests.filter((r) => r.path === '/v1/refunds').at(-1);
    expect(sent?.body.get('payment_intent')).toBe('pi_of_in_sub_paid_1');
    const order = await call(t.app, 'GET', `/api/admin/orders/${first.id}`, { token: shop.ownerToken });
    expect(order.data.order.status).toBe('refunded');
  });

  it('0 % rows: Stripe gets the net recurring price; the first and every renewal order are AE at what Stripe charged', async () => {
    const p = await plan({ price_cents: 1190 });
    const net = netOfGross(1190, 0.19);
    const before = requests.filter((r) => r.path === '/v1/prices').length;
    const s = await call(t.app, 'POST', '/api/store/abo-sessions', {
      token: shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: {
        plan_id: p.id,
        return_url: `${STORE_ORIGIN}/ok`,
        customer_email: 'firma@kunde.test',
        company: 'Wiener Handel GmbH',
        vat_id: 'ATU12345678',
        billing_country: 'AT',
      },
    });
    expect(s.statusCode, s.body).toBe(201);
    expect(vies.requests).toEqual([{ countryCode: 'AT', vatNumber: 'U12345678' }]);
    const prices = requests.filter((r) => r.path === '/v1/prices');
    expect(prices).toHaveLength(before + 1);
    expect(prices.at(-1)?.body.get('unit_amount')).toBe(String(net));
    const cs = requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1);
    expect(cs?.body.get('line_items[0][price]')).toBe(`price_${requests.indexOf(prices.at(-1) as never) + 1}`);
    // the plan keeps its gross Price: a consumer's session makes (and stores) its own
    await startSession(p.id, 'verbraucher@kunde.test');
    const after = requests.filter((r) => r.path === '/v1/prices');
    expect(after).toHaveLength(before + 2);
    expect(after.at(-1)?.body.get('unit_amount')).toBe('1190');

    subscription('sub_biz', 'active', {
      latest_invoice: { id: 'in_sub_biz_1', object: 'invoice', status: 'paid', amount_paid: net },
    });
    const done = completed(s.data.id, 'sub_biz');
    await post('checkout.session.completed', {
      ...done,
      customer_details: {
        name: 'Anna Huber',
        address: { line1: 'Kärntner Str. 1', postal_code: '1010', city: 'Wien', country: 'AT' },
      },
    });
    const abo = await aboOf('firma@kunde.test');
    expect(abo).toMatchObject({
      status: 'active',
      price_cents: net,
      tax_category: 'AE',
      tax_rate: 0,
      tax_exemption_reason: EXEMPTION_TEXT.AE,
      vat_id_status: 'valid',
    });
    await post('invoice.paid', invoice('in_sub_biz_2', 'sub_biz', { amount_paid: net, amount_due: net }));
    const detail = await call(t.app, 'GET', `/api/admin/digital/abos/${abo.id}`, { token: shop.ownerToken });
    const orders = detail.data.bestellungen as { id: string; total_cents: number; tax_cents: number }[];
    expect(orders.map((o) => [o.total_cents, o.tax_cents])).toEqual([
      [net, 0],
      [net, 0],
    ]);
    for (const o of orders) {
      const order = (await call(t.app, 'GET', `/api/admin/orders/${o.id}`, { token: shop.ownerToken })).data.order;
      expect(order.billing_address).toMatchObject({ vat_id: 'ATU12345678', company: 'Wiener Handel GmbH' });
      expect(order.vat_id_status).toBe('valid');
      expect(order.lines[0]).toMatchObject({
        tax_rate: 0,
        tax_category: 'AE',
        tax_exemption_reason: EXEMPTION_TEXT.AE,
        line_total_cents: net,
      });
    }
  });

  it('a consumer outside the EU named on the API: O at the net price sent to Stripe', async () => {
    const p = await plan({ price_cents: 1190 });
    const net = netOfGross(1190, 0.19);
    const s = await call(t.app, 'POST', '/api/store/abo-sessions', {
      token: shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: { plan_id: p.id, return_url: `${STORE_ORIGIN}/ok`, customer_email: 'us@kunde.test', billing_country: 'US' },
    });
    expect(s.statusCode, s.body).toBe(201);
    expect(
      requests
        .filter((r) => r.path === '/v1/prices')
        .at(-1)
        ?.body.get('unit_amount'),
    ).toBe(String(net));
    subscription('sub_us', 'active', {
      latest_invoice: { id: 'in_sub_us_1', object: 'invoice', status: 'paid', amount_paid: net },
    });
    await post('checkout.session.completed', {
      ...completed(s.data.id, 'sub_us'),
      customer_details: {
        name: 'Jane',
        address: { line1: '1 Main St', postal_code: '10001', city: 'New York', country: 'US' },
      },
    });
    const abo = await aboOf('us@kunde.test');
    expect(abo).toMatchObject({ price_cents: net, tax_category: 'O', tax_rate: 0 });
    expect((await ordersOf(abo.id)).map((o) => o.total_cents)).toEqual([net]);
  });

  it('Stripe billing country other than the one named: that country’s consumer row, the amount Stripe charged', async () => {
    const p = await plan({ price_cents: 1190 });
    const net = netOfGross(1190, 0.19);
    const s = await call(t.app, 'POST', '/api/store/abo-sessions', {
      token: shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: {
        plan_id: p.id,
        return_url: `${STORE_ORIGIN}/ok`,
        customer_email: 'umgezogen@kunde.test',
        vat_id: 'ATU12345678',
        billing_country: 'AT',
      },
    });
    expect(s.statusCode, s.body).toBe(201);
    subscription('sub_moved', 'active', {
      latest_invoice: { id: 'in_sub_moved_1', object: 'invoice', status: 'paid', amount_paid: net },
    });
    // completed() bills to Berlin
    await post('checkout.session.completed', completed(s.data.id, 'sub_moved'));
    const abo = await aboOf('umgezogen@kunde.test');
    expect(abo).toMatchObject({ price_cents: net, tax_category: 'S', tax_rate: 0.19, vat_id_status: null });
    const [first] = await ordersOf(abo.id);
    const order = (
      await call(t.app, 'GET', `/api/admin/orders/${first?.id}`, {
        token: shop.ownerToken,
      })
    ).data.order;
    expect(order).toMatchObject({ total_cents: net, tax_cents: taxFromGross(net, 0.19) });
    expect(order.billing_address.vat_id ?? null).toBeNull();
    expect(order.lines[0]).toMatchObject({ tax_rate: 0.19, tax_category: 'S', tax_exemption_reason: null });
  });

  it('a subscription left incomplete at checkout (3-D Secure) is created when Stripe activates it, once', async () => {
    const p = await plan({});
    const s = await startSession(p.id, 'stripe3ds@kunde.test');
    const incomplete = subscription('sub_3ds', 'incomplete', { metadata: { checkout_session_id: s.data.id } });
    const session = { ...completed(s.data.id, 'sub_3ds'), status: 'complete', payment_status: 'unpaid' };
    checkoutBySubscription.set('sub_3ds', session);
    // the Checkout Session completes while the first payment still waits for the buyer
    expect((await post('checkout.session.completed', session)).statusCode).toBe(200);
    expect(await aboOf('stripe3ds@kunde.test')).toBeUndefined();
    // the first invoice may be reported before the subscription's update: nothing to record yet
    await post('invoice.paid', invoice('in_sub_3ds_1', 'sub_3ds', { amount_paid: 1990 }));
    expect(await aboOf('stripe3ds@kunde.test')).toBeUndefined();
    // an update that does not leave `incomplete` creates nothing
    await post('customer.subscription.updated', incomplete, undefined, { cancel_at_period_end: true });
    expect(await aboOf('stripe3ds@kunde.test')).toBeUndefined();

    // the buyer authenticates: Stripe activates the subscription (its first invoice paid)
    const active = subscription('sub_3ds', 'active', {
      metadata: { checkout_session_id: s.data.id },
      latest_invoice: { id: 'in_sub_3ds_1', object: 'invoice', status: 'paid', amount_paid: 1990 },
    });
    const res = await post('customer.subscription.updated', active, undefined, { status: 'incomplete' });
    expect(res.statusCode).toBe(200);
    const abo = await aboOf('stripe3ds@kunde.test');
    expect(abo).toMatchObject({ status: 'active', provider: 'stripe', payments_count: 1 });
    expect((await ordersOf(abo.id)).map((o) => o.total_cents)).toEqual([1990]);

    // the same transition delivered again (another event id), and the first invoice again: nothing more
    await post('customer.subscription.updated', active, undefined, { status: 'incomplete' });
    await post('invoice.paid', invoice('in_sub_3ds_1', 'sub_3ds', { amount_paid: 1990 }));
    expect(await aboOf('stripe3ds@kunde.test')).toMatchObject({ payments_count: 1 });
    expect(await ordersOf(abo.id)).toHaveLength(1);
    expect(await events(abo.id)).toEqual(['checkout.completed', 'abo.aktiv', 'abo.bezahlt']);
  });

  it('a subscription leaving incomplete delivered after it was cancelled at Stripe: its paid first invoice becomes the order of an ended subscription', async () => {
    const p = await plan({});
    const s = await startSession(p.id, 'stripe3ds-ended@kunde.test');
    const session = { ...completed(s.data.id, 'sub_3ds_ended'), status: 'complete', payment_status: 'unpaid' };
    checkoutBySubscription.set('sub_3ds_ended', session);
    expect((await post('checkout.session.completed', session)).statusCode).toBe(200);
    const paidFirst = { id: 'in_sub_3ds_ended_1', object: 'invoice', status: 'paid', amount_paid: 1990 };
    // the buyer authenticated, then the subscription was cancelled at Stripe; its deletion and the
    // first invoice arrive first (no subscription of ours yet), the update leaving incomplete last
    const canceled = subscription('sub_3ds_ended', 'canceled', {
      metadata: { checkout_session_id: s.data.id },
      latest_invoice: paidFirst,
      ended_at: NOW + 3600,
    });
    await post('customer.subscription.deleted', canceled);
    await post('invoice.paid', invoice('in_sub_3ds_ended_1', 'sub_3ds_ended', { amount_paid: 1990 }));
    expect(await aboOf('stripe3ds-ended@kunde.test')).toBeUndefined();
    const active = {
      ...canceled,
      status: 'active',
      ended_at: null,
    };
    const res = await send('customer.subscription.updated', active, '/api/webhooks/stripe', { status: 'incomplete' });
    expect(res.statusCode).toBe(200);
    const abo = await aboOf('stripe3ds-ended@kunde.test');
    expect(abo).toMatchObject({ status: 'canceled', provider: 'stripe', payments_count: 1 });
    expect(abo.endet_am).toBe(new Date((NOW + 3600) * 1000).toISOString());
    expect((await ordersOf(abo.id)).map((o) => o.total_cents)).toEqual([1990]);
    expect(await events(abo.id)).toEqual(['checkout.completed', 'abo.aktiv', 'abo.bezahlt', 'abo.beendet']);
    // a redelivery of the transition, and the first invoice again: nothing more
    await send('customer.subscription.updated', active, '/api/webhooks/stripe', { status: 'incomplete' });
    await post('invoice.paid', invoice('in_sub_3ds_ended_1', 'sub_3ds_ended', { amount_paid: 1990 }));
    expect(await ordersOf(abo.id)).toHaveLength(1);
    expect(await aboOf('stripe3ds-ended@kunde.test')).toMatchObject({ status: 'canceled', payments_count: 1 });
  });

  it('a subscription leaving incomplete whose Checkout Session is not the one stored for ours creates nothing', async () => {
    const p = await plan({});
    const s = await startSession(p.id, 'stripe3ds2@kunde.test');
    const active = subscription('sub_3ds_foreign', 'active', { metadata: { checkout_session_id: s.data.id } });
    checkoutBySubscription.set('sub_3ds_foreign', {
      ...completed(s.data.id, 'sub_3ds_foreign'),
      id: 'cs_test_someone_else',
      status: 'complete',
    });
    expect((await post('customer.subscription.updated', active, undefined, { status: 'incomplete' })).statusCode).toBe(
      200,
    );
    expect(await aboOf('stripe3ds2@kunde.test')).toBeUndefined();
    const [recorded] = await query<{ status: string; reason: string }>(
      t.app.deps.database.db,
      sql`SELECT status, reason FROM payment_events WHERE checkout_session_id = ${s.data.id}`,
    );
    expect(recorded).toMatchObject({ status: 'rejected', reason: 'provider_session_mismatch' });
  });

  it('an event that cannot be read while Stripe is down answers 503, records nothing, and applies on redelivery', async () => {
    const p = await plan({});
    const s = await startSession(p.id, 'stripedown@kunde.test');
    subscription('sub_down', 'active');
    const payload = JSON.stringify({
      id: 'evt_abo_while_down',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: completed(s.data.id, 'sub_down') },
    });
    const deliver = () =>
      call(t.app, 'POST', '/api/webhooks/stripe', {
        body: payload,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
        },
      });
    stripeDown = true;
    try {
      expectProblem(await deliver(), 503, 'event_not_applied');
    } finally {
      stripeDown = false;
    }
    expect(await aboOf('stripedown@kunde.test')).toBeUndefined();
    const recorded = await query(
      t.app.deps.database.db,
      sql`SELECT 1 FROM payment_events WHERE event_id = 'evt_abo_while_down'`,
    );
    expect(recorded).toEqual([]);
    const again = await deliver();
    expect(again.statusCode).toBe(200);
    expect(again.data.duplicate).toBe(false);
    expect(await aboOf('stripedown@kunde.test')).toMatchObject({ status: 'active', payments_count: 1 });
  });

  it('a subscription checkout while Stripe is down answers 502 provider_error, and works again after', async () => {
    const p = await plan({});
    stripeDown = true;
    try {
      expectProblem(await startSession(p.id, 'stripedown2@kunde.test'), 502, 'provider_error');
    } finally {
      stripeDown = false;
    }
    const again = await startSession(p.id, 'stripedown2@kunde.test');
    expect(again.statusCode).toBe(201);
    expect(again.data.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
  });

  it('the $0 invoice Stripe pays at a trial start is no payment: no order, still trialing, no abo.bezahlt', async () => {
    const p = await plan({ trial_days: 7 });
    const s = await startSession(p.id, 'trialinvoice@kunde.test');
    subscription('sub_trial0', 'trialing');
    await post('checkout.session.completed', {
      ...completed(s.data.id, 'sub_trial0'),
      payment_status: 'no_payment_required',
    });
    // Stripe reports the trial's own invoice (amount 0, the trial period) as paid, after the checkout
    const res = await post(
      'invoice.paid',
      invoice('in_sub_trial0_0', 'sub_trial0', {
        amount_due: 0,
        amount_paid: 0,
        lines: { object: 'list', data: [{ period: { start: NOW, end: NOW + 7 * 86400 } }] },
      }),
    );
    expect(res.statusCode).toBe(200);
    const abo = await aboOf('trialinvoice@kunde.test');
    expect(abo).toMatchObject({ status: 'trialing', payments_count: 0 });
    expect(await ordersOf(abo.id)).toEqual([]);
    expect(await events(abo.id)).toEqual(['checkout.completed', 'abo.aktiv']);
    // the first charge at the trial end makes it active with order 1
    await post(
      'invoice.paid',
      invoice('in_sub_trial0_1', 'sub_trial0', {
        amount_paid: 1990,
        lines: { object: 'list', data: [{ period: { start: NOW + 7 * 86400, end: NOW + 7 * 86400 + MONTH } }] },
      }),
    );
    expect(await aboOf('trialinvoice@kunde.test')).toMatchObject({ status: 'active', payments_count: 1 });
    expect((await ordersOf(abo.id)).map((o) => o.total_cents)).toEqual([1990]);
    expect(periodOf((await ordersOf(abo.id))[0])).toEqual([NOW + 7 * 86400, NOW + 7 * 86400 + MONTH]);
  });

  it('an invoice paid late for an unpaid or ended subscription answers 200 and records the money as an order', async () => {
    const p = await plan({});
    const s = await startSession(p.id, 'late-unpaid@kunde.test');
    subscription('sub_unpaid', 'active');
    await post('checkout.session.completed', completed(s.data.id, 'sub_unpaid'));
    await post('invoice.payment_failed', invoice('in_sub_unpaid_2', 'sub_unpaid', { next_payment_attempt: null }));
    await post('customer.subscription.updated', { ...subs.get('sub_unpaid'), status: 'unpaid' });
    const abo = await aboOf('late-unpaid@kunde.test');
    expect(abo).toMatchObject({ status: 'unpaid' });
    // a cancellation scheduled at Stripe while unpaid
    expect(
      (
        await post('customer.subscription.updated', {
          ...subs.get('sub_unpaid'),
          status: 'unpaid',
          cancel_at_period_end: true,
        })
      ).statusCode,
    ).toBe(200);
    // the customer pays the open invoice on Stripe's invoice page: Stripe makes it active again
    const paid = await post('invoice.paid', invoice('in_sub_unpaid_2', 'sub_unpaid', { amount_paid: 1990 }));
    expect(paid.statusCode).toBe(200);
    expect(await aboOf('late-unpaid@kunde.test')).toMatchObject({
      status: 'active',
      endet_am: null,
      payments_count: 2,
    });
    expect((await ordersOf(abo.id)).map((o) => o.total_cents)).toEqual([995, 1990]);

    // ended at Stripe, then an invoice of it paid: the money has its order, the subscription stays ended
    await post('customer.subscription.deleted', { ...subs.get('sub_unpaid'), status: 'canceled', ended_at: NOW });
    expect(await aboOf('late-unpaid@kunde.test')).toMatchObject({ status: 'canceled' });
    const late = await post(
      'invoice.paid',
      invoice('in_sub_unpaid_3', 'sub_unpaid', {
        amount_paid: 1990,
        lines: { object: 'list', data: [{ period: { start: NOW + 2 * MONTH, end: NOW + 3 * MONTH } }] },
      }),
    );
    expect(late.statusCode).toBe(200);
    expect(await aboOf('late-unpaid@kunde.test')).toMatchObject({ status: 'canceled' });
    expect((await ordersOf(abo.id)).map((o) => o.total_cents)).toEqual([995, 1990, 1990]);
    // the ended subscription keeps its period; the late order records the one its invoice line bills
    expect(periodOf((await ordersOf(abo.id))[2])).toEqual([NOW + 2 * MONTH, NOW + 3 * MONTH]);
    // an invoice without a line period: the subscription's period it pays
    await post(
      'invoice.paid',
      invoice('in_sub_unpaid_4', 'sub_unpaid', { amount_paid: 1990, lines: { object: 'list', data: [] } }),
    );
    const aboNow = await aboOf('late-unpaid@kunde.test');
    expect((await ordersOf(abo.id))[3]).toMatchObject({
      service_period_start: aboNow.current_period_start,
      service_period_end: aboNow.current_period_end,
    });
    expect(await events(abo.id)).toEqual([
      'checkout.completed',
      'abo.aktiv',
      'abo.bezahlt',
      'abo.zahlung_fehlgeschlagen',
      'abo.aktiv',
      'abo.bezahlt',
      'abo.beendet',
      'abo.bezahlt',
      'abo.bezahlt',
    ]);
  });

  it('a cancellation withdrawn before Stripe’s events arrive stays withdrawn, whatever their order', async () => {
    const p = await plan({});
    const s = await startSession(p.id, 'ooo-cancel@kunde.test');
    subscription('sub_ooo_cancel', 'active');
    await post('checkout.session.completed', completed(s.data.id, 'sub_ooo_cancel'));
    const abo = await aboOf('ooo-cancel@kunde.test');
    const admin = (action: string) =>
      call(t.app, 'POST', `/api/admin/digital/abos/${abo.id}/${action}`, { token: shop.ownerToken });
    expect((await admin('kuendigen')).statusCode).toBe(200);
    const scheduled = { ...subs.get('sub_ooo_cancel') };
    expect(scheduled.cancel_at_period_end).toBe(true);
    expect((await admin('fortsetzen')).statusCode).toBe(200);
    const withdrawn = { ...subs.get('sub_ooo_cancel') };
    expect(withdrawn.cancel_at_period_end).toBe(false);
    // Stripe delivers the withdrawal's update first, then the (older) scheduling one
    expect((await late('customer.subscription.updated', withdrawn)).statusCode).toBe(200);
    expect((await late('customer.subscription.updated', scheduled)).statusCode).toBe(200);
    expect(await aboOf('ooo-cancel@kunde.test')).toMatchObject({
      status: 'active',
      cancel_at_period_end: false,
      endet_am: null,
    });
    expect(await events(abo.id)).toEqual([
      'checkout.completed',
      'abo.aktiv',
      'abo.bezahlt',
      'abo.gekuendigt',
      'abo.fortgesetzt',
    ]);

    // a cancellation scheduled at Stripe (customer portal) and withdrawn there: the late update
    // that scheduled it, delivered after the withdrawal's, changes nothing either
    subs.set('sub_ooo_cancel', { ...withdrawn });
    await late('customer.subscription.updated', withdrawn);
    await late('customer.subscription.updated', { ...withdrawn, cancel_at_period_end: true });
    expect(await aboOf('ooo-cancel@kunde.test')).toMatchObject({ cancel_at_period_end: false });
    // ... and the newest state wins when it is the scheduled one, delivered before the older one
    subs.set('sub_ooo_cancel', { ...withdrawn, cancel_at_period_end: true });
    await late('customer.subscription.updated', { ...withdrawn, cancel_at_period_end: true });
    await late('customer.subscription.updated', withdrawn);
    expect(await aboOf('ooo-cancel@kunde.test')).toMatchObject({ cancel_at_period_end: true });
    expect((await events(abo.id)).slice(5)).toEqual(['abo.gekuendigt']);
  });

  it('a subscription update that cannot be checked at Stripe answers 503, records nothing, applies once on redelivery', async () => {
    const p = await plan({});
    const s = await startSession(p.id, 'ooo-down@kunde.test');
    subscription('sub_ooo_down', 'active');
    await post('checkout.session.completed', completed(s.data.id, 'sub_ooo_down'));
    const abo = await aboOf('ooo-down@kunde.test');
    const current = subs.get('sub_ooo_down') as Record<string, unknown>;
    current.cancel_at_period_end = true;
    const payload = JSON.stringify({
      id: 'evt_abo_update_while_down',
      object: 'event',
      type: 'customer.subscription.updated',
      data: { object: current },
    });
    const deliver = () =>
      call(t.app, 'POST', '/api/webhooks/stripe', {
        body: payload,
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
        },
      });
    stripeDown = true;
    try {
      expectProblem(await deliver(), 503, 'event_not_applied');
    } finally {
      stripeDown = false;
    }
    const recorded = await query(
      t.app.deps.database.db,
      sql`SELECT 1 FROM payment_events WHERE event_id = 'evt_abo_update_while_down'`,
    );
    expect(recorded).toEqual([]);
    expect(await aboOf('ooo-down@kunde.test')).toMatchObject({ cancel_at_period_end: false });
    const again = await deliver();
    expect(again.statusCode).toBe(200);
    expect(again.data.duplicate).toBe(false);
    expect((await deliver()).data.duplicate).toBe(true);
    expect(await aboOf('ooo-down@kunde.test')).toMatchObject({ cancel_at_period_end: true });
    expect(await events(abo.id)).toEqual(['checkout.completed', 'abo.aktiv', 'abo.bezahlt', 'abo.gekuendigt']);
  });

  it('an update of a subscription Stripe no longer knows (404) is applied as sent instead of 503 for ever', async () => {
    const p = await plan({});
    const s = await startSession(p.id, 'ooo-gone@kunde.test');
    const sub = subscription('sub_ooo_gone', 'active');
    await post('checkout.session.completed', completed(s.data.id, 'sub_ooo_gone'));
    const abo = await aboOf('ooo-gone@kunde.test');
    subs.delete('sub_ooo_gone');
    const res = await late('customer.subscription.updated', { ...sub, cancel_at_period_end: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(await aboOf('ooo-gone@kunde.test')).toMatchObject({ cancel_at_period_end: true });
    expect((await events(abo.id)).at(-1)).toBe('abo.gekuendigt');
  });

  it('a failed attempt and a past_due update delivered after the invoice was paid leave the subscription active', async () => {
    const p = await plan({});
    const s = await startSession(p.id, 'ooo-pastdue@kunde.test');
    subscription('sub_ooo_pd', 'active');
    await post('checkout.session.completed', completed(s.data.id, 'sub_ooo_pd'));
    const abo = await aboOf('ooo-pastdue@kunde.test');
    // at Stripe: the renewal fails (past_due), then its retry succeeds (active, next period)
    const failed = invoice('in_sub_ooo_pd_2', 'sub_ooo_pd', { next_payment_attempt: NOW + 3 * 86400 });
    const pastDue = { ...subs.get('sub_ooo_pd'), status: 'past_due' };
    const renewed = {
      ...subs.get('sub_ooo_pd'),
      items: {
        object: 'list',
        data: [{ id: 'si_sub_ooo_pd', current_period_start: NOW + MONTH, current_period_end: NOW + 2 * MONTH }],
      },
    };
    subs.set('sub_ooo_pd', renewed);
    // delivered: the payment and the newest update first, the failure and its update late
    expect(
      (await post('invoice.paid', invoice('in_sub_ooo_pd_2', 'sub_ooo_pd', { amount_paid: 1990 }))).statusCode,
    ).toBe(200);
    expect((await late('customer.subscription.updated', renewed)).statusCode).toBe(200);
    expect((await late('customer.subscription.updated', pastDue)).statusCode).toBe(200);
    expect((await late('invoice.payment_failed', failed)).statusCode).toBe(200);
    expect(await aboOf('ooo-pastdue@kunde.test')).toMatchObject({
      status: 'active',
      failed_attempts: 0,
      payments_count: 2,
      current_period_end: new Date((NOW + 2 * MONTH) * 1000).toISOString(),
    });
    expect((await ordersOf(abo.id)).map((o) => o.total_cents)).toEqual([995, 1990]);
    expect(await events(abo.id)).toEqual(['checkout.completed', 'abo.aktiv', 'abo.bezahlt', 'abo.bezahlt']);
  });

  it('updates delivered after the subscription ended at Stripe do not revive it', async () => {
    const p = await plan({});
    const s = await startSession(p.id, 'ooo-ended@kunde.test');
    subscription('sub_ooo_end', 'active');
    await post('checkout.session.completed', completed(s.data.id, 'sub_ooo_end'));
    const abo = await aboOf('ooo-ended@kunde.test');
    const before = { ...subs.get('sub_ooo_end') };
    const ended = { ...before, status: 'canceled', ended_at: NOW + 60 };
    subs.set('sub_ooo_end', ended);
    // an update made before the end, delivered before the deletion: Stripe's current state ends it
    expect((await late('customer.subscription.updated', { ...before, cancel_at_period_end: true })).statusCode).toBe(
      200,
    );
    expect(await aboOf('ooo-ended@kunde.test')).toMatchObject({ status: 'canceled', cancel_at_period_end: false });
    await late('customer.subscription.deleted', ended);
    // and after it: the created and an update of the running subscription change nothing
    await late('customer.subscription.created', before);
    await late('customer.subscription.updated', before);
    expect(await aboOf('ooo-ended@kunde.test')).toMatchObject({ status: 'canceled', cancel_at_period_end: false });
    expect(await events(abo.id)).toEqual(['checkout.completed', 'abo.aktiv', 'abo.bezahlt', 'abo.beendet']);
  });

  it('Price and coupon are made once per terms and reused after Stripe’s 24-hour key window; a renamed product gets its own Price, not idempotency_error', async () => {
    const product = (
      await call(t.app, 'POST', '/api/products', {
        token: shop.ownerToken,
        body: { name: 'Sprachkurs', is_digital: true, status: 'published' },
      })
    ).data.id;
    const p = await plan({
      product_id: product,
      price_cents: 1190,
      intro_discount_percent: 20,
      intro_discount_months: 2,
    });
    const net = netOfGross(1190, 0.19);
    // a consumer outside the EU: the 0 % row, Stripe charges the net price
    const abroad = (email: string) =>
      call(t.app, 'POST', '/api/store/abo-sessions', {
        token: shop.publishableKey,
        headers: { origin: STORE_ORIGIN },
        body: { plan_id: p.id, return_url: `${STORE_ORIGIN}/ok`, customer_email: email, billing_country: 'US' },
      });
    /** What the stub made for this plan (replays of a stored answer make nothing). */
    const made = (path: string) =>
      requests.filter((r) => r.path === path && !r.replayed && r.body.get('metadata[plan_id]') === p.id);
    const checkouts = () =>
      requests.filter((r) => r.path === '/v1/checkout/sessions' && r.body.get('metadata[plan_id]') === p.id);

    expect((await abroad('netto1@kunde.test')).statusCode).toBe(201);
    expect(made('/v1/prices').map((r) => r.body.get('unit_amount'))).toEqual([String(net)]);
    expect(made('/v1/coupons')).toHaveLength(1);
    // a day later Stripe has forgotten every idempotency key: the stored Price and coupon are reused
    stub.forgetKeys();
    expect((await abroad('netto2@kunde.test')).statusCode).toBe(201);
    expect(made('/v1/prices')).toHaveLength(1);
    expect(made('/v1/coupons')).toHaveLength(1);
    const [first, second] = checkouts();
    expect(second?.body.get('line_items[0][price]')).toBe(first?.body.get('line_items[0][price]'));
    expect(second?.body.get('discounts[0][coupon]')).toBe(first?.body.get('discounts[0][coupon]'));
    expect(second?.body.get('discounts[0][coupon]')).toMatch(/^coupon_/);

    // the product renamed within Stripe's window: a Price of the new name, the coupon stays
    await call(t.app, 'PATCH', `/api/products/${product}`, {
      token: shop.ownerToken,
      body: { name: 'Sprachkurs Plus' },
    });
    const renamed = await abroad('netto3@kunde.test');
    expect(renamed.statusCode, renamed.body).toBe(201);
    expect(made('/v1/prices').map((r) => r.body.get('product_data[name]'))).toEqual([
      'Sprachkurs (Stripe)',
      'Sprachkurs Plus (Stripe)',
    ]);
    expect(made('/v1/coupons')).toHaveLength(1);
    expect(checkouts().at(-1)?.body.get('line_items[0][price]')).toBe(
      `price_${requests.indexOf(made('/v1/prices').at(-1) as StubRequest) + 1}`,
    );
    // and the one after it reuses that one
    expect((await abroad('netto4@kunde.test')).statusCode).toBe(201);
    expect(made('/v1/prices')).toHaveLength(2);
  });

  it('a subscription Checkout Session whose answer is lost is replayed by Stripe: the retry sends the same request, expiry from the stored session', async () => {
    const p = await plan({ intro_discount_percent: 50, intro_discount_months: 1 });
    stub.dropAnswers('/v1/checkout/sessions', 1);
    const s = await startSession(p.id, 'lostanswer@kunde.test');
    expect(s.statusCode, s.body).toBe(201);
    const sent = requests.filter(
      (r) => r.path === '/v1/checkout/sessions' && r.body.get('metadata[checkout_session_id]') === s.data.id,
    );
    expect(sent.map((r) => r.replayed)).toEqual([false, true]);
    expect(sent[1]?.body.toString()).toBe(sent[0]?.body.toString());
    expect(s.data.url).toBe(`https://checkout.stripe.test/c/pay/${providerIds.get(s.data.id)}`);
    const [row] = await query<{ created_at: string | Date }>(
      t.app.deps.database.db,
      sql`SELECT created_at FROM checkout_sessions WHERE id = ${s.data.id}`,
    );
    // the session's 24 hours, within Stripe's limit: 23.5 hours after its stored creation
    expect(Number(sent[0]?.body.get('expires_at'))).toBe(
      Math.floor((new Date(row?.created_at as string).getTime() + 23.5 * 3600_000) / 1000),
    );
    expect(sent.map((r) => r.stripeVersion)).toEqual([STRIPE_API_VERSION, STRIPE_API_VERSION]);
  });

  it('an invoice event rendered in an API version before basil is read from the API in ours: the renewal is recorded', async () => {
    const p = await plan({});
    const s = await startSession(p.id, 'oldversion@kunde.test');
    subscription('sub_oldver', 'active');
    await post('checkout.session.completed', completed(s.data.id, 'sub_oldver'));
    const abo = await aboOf('oldversion@kunde.test');
    expect(abo).toMatchObject({ status: 'active', payments_count: 1 });
    // Stripe's invoice in our version
    invoices.set('in_oldver_2', invoice('in_oldver_2', 'sub_oldver', { amount_paid: 1990 }));
    // the event as an endpoint made with 2024-06-20 gets it: no `parent`, the subscription at the top
    const old = {
      id: 'in_oldver_2',
      object: 'invoice',
      subscription: 'sub_oldver',
      lines: { object: 'list', data: [{ period: { start: NOW + MONTH, end: NOW + 2 * MONTH } }] },
      attempt_count: 1,
      amount_due: 1990,
      amount_paid: 1990,
      next_payment_attempt: null,
    };
    expect('2024-06-20' < EVENT_SHAPES_SINCE).toBe(true);
    const payload = JSON.stringify({
      id: 'evt_abo_old_version',
      object: 'event',
      api_version: '2024-06-20',
      type: 'invoice.paid',
      data: { object: old },
    });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    const res = await call(t.app, 'POST', '/api/webhooks/stripe', {
      body: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
    expect(res.statusCode, res.body).toBe(200);
    const orders = await ordersOf(abo.id);
    expect(orders.map((o) => o.total_cents)).toHaveLength(2);
    expect(orders.at(-1)?.total_cents).toBe(1990);
    expect(periodOf(orders.at(-1))).toEqual([NOW + MONTH, NOW + 2 * MONTH]);
    expect(requests.some((r) => r.method === 'GET' && r.path === '/v1/invoices/in_oldver_2')).toBe(true);
  });

  it('refuses a bad signature', async () => {
    const payload = JSON.stringify({ id: 'evt_x', type: 'invoice.paid', data: { object: {} } });
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' });
    const res = await call(t.app, 'POST', '/api/webhooks/stripe/abos', {
      body: payload,
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
    expectProblem(res, 400, 'signature_invalid');
  });
});
