/** The Stripe adapter, run for real against a local stub of the Stripe endpoints it calls. */
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createShop,
  expectProblem,
  PLATFORM_TOKEN,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { type StripeStub, type StubRequest, startStripeStub } from '../../../test/helpers/stripe-stub.js';
import { EVENT_SHAPES_SINCE, STRIPE_API_VERSION } from '../../adapters/payment/stripe-provider.js';
import { query } from '../../platform/db/tx.js';

const WEBHOOK_SECRET = 'whsec_test_stub_secret';
let stub: StripeStub;
/** Every request the stub received (stub.requests). */
let requests: StubRequest[] = [];
/** Our checkout session id → the stub's Checkout Session id. */
const providerIds = new Map<string, string>();
let refundsFail = false;
let refundStatus = 'succeeded';
/** Runs while Stripe is answering a refund request (an event that overtakes the answer). */
let whileRefunding: ((refund: { id: string; refundId: string }) => Promise<void>) | null = null;
let sessionsFail = 0;

let t: TestApp;
let shop: ShopFixture;
let productId: string;
let lastOne: string;

beforeAll(async () => {
  stub = await startStripeStub(async (req, res, body) => {
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions' && sessionsFail > 0) {
      sessionsFail--;
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'stub outage' } }));
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
      const id = `cs_test_${requests.length}`;
      providerIds.set(body.get('metadata[checkout_session_id]') ?? '', id);
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_stub' });
      res.end(
        JSON.stringify({
          id,
          object: 'checkout.session',
          url: `https://checkout.stripe.test/c/pay/${id}`,
          payment_status: 'unpaid',
        }),
      );
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/refunds') {
      if (refundsFail) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'refunds are down' } }));
        return;
      }
      const refundRef = `re_${requests.length}`;
      await whileRefunding?.({ id: refundRef, refundId: body.get('metadata[refund_id]') ?? '' });
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_stub' });
      res.end(
        JSON.stringify({
          id: refundRef,
          object: 'refund',
          status: refundStatus,
          amount: Number(body.get('amount')),
          payment_intent: body.get('payment_intent'),
          metadata: { refund_id: body.get('metadata[refund_id]') },
        }),
      );
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'unknown' } }));
  });
  requests = stub.requests;
  t = await startApp({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_123',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stub.url,
  });
  shop = await createShop(t.app);
  // the shop's default channel (DE, EUR), made with the shop
  const channel = shop.defaultChannelId;
  productId = (
    await call(t.app, 'POST', '/api/products', {
      token: shop.ownerToken,
      body: { name: 'Kurs', is_digital: true, status: 'published', base_price_cents: 4900 },
    })
  ).data.id;
  await call(t.app, 'PATCH', `/api/products/${productId}/channels/${channel}`, {
    token: shop.ownerToken,
    body: { is_published: true },
  });
  lastOne = (
    await call(t.app, 'POST', '/api/products', {
      token: shop.ownerToken,
      body: {
        name: 'Lizenz',
        is_digital: true,
        status: 'published',
        base_price_cents: 1000,
        track_stock: true,
        stock_quantity: 1,
      },
    })
  ).data.id;
  await call(t.app, 'PATCH', `/api/products/${lastOne}/channels/${channel}`, {
    token: shop.ownerToken,
    body: { is_published: true },
  });
});
afterAll(async () => {
  await t.close();
  await stub.close();
});

async function checkout(product = productId, quantity = 2) {
  return call(t.app, 'POST', '/api/store/checkout-sessions', {
    token: shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: {
      items: [{ product_id: product, quantity }],
      customer: {
        email: 'stripe@mail.test',
        billing_address: { name: 'A', line1: 'B 1', postal_code: '1', city: 'C', country: 'DE' },
      },
      return_url: `${STORE_ORIGIN}/done`,
    },
  });
}

function signed(event: object, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return { payload, header };
}

/** Stripe's checkout.session.completed for our session, as the stub created it (override to forge). */
function completedEvent(id: string, ours: string, override: Record<string, unknown> = {}) {
  return {
    id,
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: {
        id: providerIds.get(ours),
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        payment_intent: `pi_${ours}`,
        amount_total: 9800,
        currency: 'eur',
        metadata: { checkout_session_id: ours },
        ...override,
      },
    },
  };
}

const postWebhook = (payload: string, header: string, path = '/api/webhooks/stripe') =>
  call(t.app, 'POST', path, {
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });

const ordersOf = async (sessionId: string) =>
  (
    await call(t.app, 'GET', '/api/admin/orders?q=stripe@mail.test&limit=200', { token: shop.ownerToken })
  ).data.orders.filter((o: { checkout_session_id: string }) => o.checkout_session_id === sessionId);

const paymentEvent = async (eventId: string, status?: string) => {
  const res = await call(t.app, 'GET', '/api/admin/payment-events', {
    token: shop.ownerToken,
    query: { limit: '200', ...(status ? { status } : {}) },
  });
  expect(res.statusCode).toBe(200);
  return res.data.payment_events.find((e: { event_id: string }) => e.event_id === eventId);
};

const stockOf = async (id: string) =>
  (await call(t.app, 'GET', `/api/admin/products/${id}`, { token: shop.ownerToken })).data.product.stock_quantity;

describe('stripe provider', () => {
  it('creates a hosted Checkout Session through the SDK and returns its url', async () => {
    const res = await checkout();
    expect(res.statusCode).toBe(201);
    expect(res.data.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    const sent = requests.at(-1);
    expect(sent?.path).toBe('/v1/checkout/sessions');
    expect(sent?.body.get('mode')).toBe('payment');
    expect(sent?.body.get('line_items[0][price_data][unit_amount]')).toBe('4900');
    expect(sent?.body.get('line_items[0][quantity]')).toBe('2');
    expect(sent?.body.get('line_items[0][price_data][currency]')).toBe('eur');
    expect(sent?.body.get('metadata[checkout_session_id]')).toBe(res.data.id);
    expect(sent?.body.get('success_url')).toBe(`${STORE_ORIGIN}/done?session_id=${res.data.id}`);
    expect(sent?.idempotencyKey).toBe(`cs-create-${res.data.id}`);
  });

  it('one event id delivered to every route (the old subscription path too) creates exactly one order', async () => {
    const session = await checkout();
    const { payload, header } = signed(completedEvent('evt_1', session.data.id));
    const answers = await Promise.all([
      postWebhook(payload, header),
      postWebhook(payload, header, '/api/webhooks/stripe/abos'),
      postWebhook(payload, header),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200]);
    expect(answers.filter((a) => a.data.duplicate === false)).toHaveLength(1);
    // another event for the same session (Stripe may send async_payment_succeeded too) creates nothing new
    const other = signed({
      ...completedEvent('evt_2', session.data.id),
      type: 'checkout.session.async_payment_succeeded',
    });
    expect((await postWebhook(other.payload, other.header, '/api/webhooks/stripe/abos')).statusCode).toBe(200);
    const mine = await ordersOf(session.data.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'paid', payment_provider: 'stripe', total_cents: 9800, is_test: true });
    expect(await paymentEvent('evt_1')).toMatchObject({
      status: 'processed',
      reason: 'order_created',
      order_id: mine[0].id,
      checkout_session_id: session.data.id,
      amount_cents: 9800,
      currency: 'EUR',
    });
    expect(await paymentEvent('evt_2')).toMatchObject({ status: 'ignored', reason: 'already_complete' });
  });

  it('an amount, currency or provider session id that does not match creates nothing and is kept as rejected', async () => {
    const session = await checkout();
    const forged = [
      { id: 'evt_amount', override: { amount_total: 100 } },
      { id: 'evt_currency', override: { currency: 'usd' } },
      { id: 'evt_foreign', override: { id: 'cs_test_someone_else' } },
    ];
    for (const f of forged) {
      const { payload, header } = signed(completedEvent(f.id, session.data.id, f.override));
      expect((await postWebhook(payload, header)).data).toEqual({ received: true, duplicate: false });
    }
    expect(await ordersOf(session.data.id)).toHaveLength(0);
    expect(await paymentEvent('evt_amount', 'rejected')).toMatchObject({
      reason: expect.stringMatching(/^amount_mismatch: paid 100 EUR, expected 9800 EUR/),
      checkout_session_id: session.data.id,
    });
    expect((await paymentEvent('evt_currency', 'rejected')).reason).toMatch(/^amount_mismatch/);
    expect(await paymentEvent('evt_foreign', 'rejected')).toMatchObject({
      reason: 'provider_session_mismatch',
      provider_session_id: 'cs_test_someone_else',
    });
    expect(await paymentEvent('evt_amount', 'processed')).toBeUndefined();
    // the genuine payment still completes
    const real = signed(completedEvent('evt_real', session.data.id));
    await postWebhook(real.payload, real.header);
    expect(await ordersOf(session.data.id)).toHaveLength(1);
  });

  it('a late payment for an expired session becomes an order while the stock can be reserved again', async () => {
    const session = await checkout(lastOne, 1);
    expect(session.statusCode).toBe(201);
    expect(await stockOf(lastOne)).toBe(0);
    await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: 25 * 3600 } });
    expect(await stockOf(lastOne)).toBe(1);
    const { payload, header } = signed({
      ...completedEvent('evt_late_ok', session.data.id, { amount_total: 1000 }),
      type: 'checkout.session.async_payment_succeeded',
    });
    expect((await postWebhook(payload, header)).statusCode).toBe(200);
    const mine = await ordersOf(session.data.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'paid', total_cents: 1000 });
    expect(await stockOf(lastOne)).toBe(0);
    expect(await paymentEvent('evt_late_ok')).toMatchObject({ status: 'processed', reason: 'late_payment_order' });
    // give the piece back for the next test
    await call(t.app, 'PATCH', `/api/products/${lastOne}`, { token: shop.ownerToken, body: { stock_quantity: 1 } });
  });

  it('a late payment without stock left is refunded through the provider; a refund failure leaves no event row and the retry succeeds', async () => {
    const late = await checkout(lastOne, 1);
    await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: 25 * 3600 } });
    // someone else buys the last piece meanwhile
    expect((await checkout(lastOne, 1)).statusCode).toBe(201);
    expect(await stockOf(lastOne)).toBe(0);
    const { payload, header } = signed({
      ...completedEvent('evt_late_refund', late.data.id, { amount_total: 1000 }),
      type: 'checkout.session.async_payment_succeeded',
    });
    refundsFail = true;
    const failed = await postWebhook(payload, header);
    expect(failed.statusCode).toBeGreaterThanOrEqual(500);
    expect(await paymentEvent('evt_late_refund')).toBeUndefined();
    refundsFail = false;
    const retried = await postWebhook(payload, header);
    expect(retried.data).toEqual({ received: true, duplicate: false });
    expect(await ordersOf(late.data.id)).toHaveLength(0);
    const refund = requests.filter((r) => r.path === '/v1/refunds').at(-1);
    expect(refund?.body.get('payment_intent')).toBe(`pi_${late.data.id}`);
    expect(refund?.body.get('amount')).toBe('1000');
    expect(refund?.idempotencyKey).toBe(`refund-late_${late.data.id}`);
    expect(await paymentEvent('evt_late_refund', 'refunded')).toMatchObject({
      reason: expect.stringMatching(/^late_payment_out_of_stock: refunded in full \(re_\d+, succeeded\)/),
      checkout_session_id: late.data.id,
      amount_cents: 1000,
    });
    expect(await stockOf(lastOne)).toBe(0);
  });

  it('a refund stays pending until Stripe confirms it; the confirmation applies once', async () => {
    const session = await checkout();
    const paid = signed(completedEvent('evt_paid_for_refund', session.data.id));
    await postWebhook(paid.payload, paid.header);
    const [order] = await ordersOf(session.data.id);
    refundStatus = 'pending';
    const res = await call(t.app, 'POST', `/api/admin/orders/${order.id}/refunds`, {
      token: shop.ownerToken,
      body: { amount_cents: 4900, reason: 'Teilerstattung' },
    });
    refundStatus = 'succeeded';
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ status: 'pending', amount_cents: 4900 });
    const sent = requests.filter((r) => r.path === '/v1/refunds').at(-1);
    expect(sent?.body.get('payment_intent')).toBe(`pi_${session.data.id}`);
    expect(sent?.body.get('amount')).toBe('4900');
    expect(sent?.idempotencyKey).toBe(`refund-${res.data.id}`);
    // a pending refund counts: no more than the rest can be asked for meanwhile
    expectProblem(
      await call(t.app, 'POST', `/api/admin/orders/${order.id}/refunds`, {
        token: shop.ownerToken,
        body: { amount_cents: 4901, reason: 'zu viel' },
      }),
      409,
      'refund_exceeds_paid',
    );
    // pending at Stripe with its reference stored: the resume job leaves it to the webhook
    const refundCalls = requests.filter((r) => r.path === '/v1/refunds').length;
    await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: 16 * 60 } });
    expect(requests.filter((r) => r.path === '/v1/refunds')).toHaveLength(refundCalls);
    expect(
      (await call(t.app, 'GET', `/api/admin/orders/${order.id}/refunds`, { token: shop.ownerToken })).data.refunds,
    ).toMatchObject([{ id: res.data.id, status: 'pending' }]);
    const reId = `re_${requests.length}`;
    const confirm = (id: string) =>
      signed({
        id,
        object: 'event',
        type: 'refund.updated',
        data: {
          object: {
            id: reId,
            object: 'refund',
            status: 'succeeded',
            amount: 4900,
            payment_intent: `pi_${session.data.id}`,
            metadata: { refund_id: res.data.id },
          },
        },
      });
    const first = confirm('evt_refund_ok');
    expect((await postWebhook(first.payload, first.header)).data).toEqual({ received: true, duplicate: false });
    expect((await postWebhook(first.payload, first.header, '/api/webhooks/stripe/abos')).data).toEqual({
      received: true,
      duplicate: true,
    });
    const again = confirm('evt_refund_ok_again');
    expect((await postWebhook(again.payload, again.header)).statusCode).toBe(200);
    const list = await call(t.app, 'GET', `/api/admin/orders/${order.id}/refunds`, { token: shop.ownerToken });
    expect(list.data.refunds).toMatchObject([{ id: res.data.id, status: 'succeeded', amount_cents: 4900 }]);
    expect((await ordersOf(session.data.id))[0].status).toBe('partially_refunded');
    expect(await paymentEvent('evt_refund_ok')).toMatchObject({ status: 'processed', reason: 'refund_succeeded' });
    expect(await paymentEvent('evt_refund_ok_again')).toMatchObject({
      status: 'ignored',
      reason: 'refund_already_succeeded',
    });
    const sentEvents = await query<{ data: { refund_id: string } }>(
      t.app.deps.database.db,
      sql`SELECT data FROM webhook_events WHERE type = 'order.refunded' AND data->>'order_id' = ${order.id}`,
    );
    expect(sentEvents.map((e) => e.data.refund_id)).toEqual([res.data.id]);
  });

  it('a pending refund confirmed after its order was cancelled settles (200, once); the order stays cancelled', async () => {
    const session = await checkout();
    const paid = signed(completedEvent('evt_paid_cancel_refund', session.data.id));
    await postWebhook(paid.payload, paid.header);
    const [order] = await ordersOf(session.data.id);
    refundStatus = 'pending';
    const res = await call(t.app, 'POST', `/api/admin/orders/${order.id}/refunds`, {
      token: shop.ownerToken,
      body: { reason: 'Storno' },
    });
    refundStatus = 'succeeded';
    expect(res.data).toMatchObject({ status: 'pending', amount_cents: 9800 });
    expect(
      (await call(t.app, 'POST', `/api/admin/orders/${order.id}/cancel`, { token: shop.ownerToken, body: {} }))
        .statusCode,
    ).toBe(200);
    const confirm = signed({
      id: 'evt_refund_after_cancel',
      object: 'event',
      type: 'refund.updated',
      data: {
        object: {
          id: 're_after_cancel',
          object: 'refund',
          status: 'succeeded',
          amount: 9800,
          payment_intent: `pi_${session.data.id}`,
          metadata: { refund_id: res.data.id },
        },
      },
    });
    const answer = await postWebhook(confirm.payload, confirm.header);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(
      (await call(t.app, 'GET', `/api/admin/orders/${order.id}/refunds`, { token: shop.ownerToken })).data.refunds,
    ).toMatchObject([{ id: res.data.id, status: 'succeeded' }]);
    expect((await ordersOf(session.data.id))[0].status).toBe('cancelled');
    const sentEvents = await query<{ data: { refund_id: string } }>(
      t.app.deps.database.db,
      sql`SELECT data FROM webhook_events WHERE type = 'order.refunded' AND data->>'order_id' = ${order.id}`,
    );
    expect(sentEvents.map((e) => e.data.refund_id)).toEqual([res.data.id]);
  });

  it('a pending refund Stripe reports failed or canceled is failed and no longer holds the amount', async () => {
    const session = await checkout();
    const paid = signed(completedEvent('evt_paid_refund_canceled', session.data.id));
    await postWebhook(paid.payload, paid.header);
    const [order] = await ordersOf(session.data.id);
    const pendingRefund = async () => {
      refundStatus = 'pending';
      try {
        const res = await call(t.app, 'POST', `/api/admin/orders/${order.id}/refunds`, {
          token: shop.ownerToken,
          body: { reason: 'Storno' },
        });
        expect(res.data).toMatchObject({ status: 'pending', amount_cents: 9800 });
        return res.data.id as string;
      } finally {
        refundStatus = 'succeeded';
      }
    };
    const report = (eventId: string, type: string, status: string, refundId: string) => {
      const e = signed({
        id: eventId,
        object: 'event',
        type,
        data: {
          object: {
            id: `re_${eventId}`,
            object: 'refund',
            status,
            amount: 9800,
            payment_intent: `pi_${session.data.id}`,
            metadata: { refund_id: refundId },
          },
        },
      });
      return postWebhook(e.payload, e.header);
    };
    for (const [type, status] of [
      ['refund.failed', 'failed'],
      ['refund.updated', 'canceled'],
    ] as const) {
      const id = await pendingRefund();
      const answer = await report(`evt_refund_${status}`, type, status, id);
      expect(answer.statusCode, answer.body).toBe(200);
      expect(await paymentEvent(`evt_refund_${status}`)).toMatchObject({
        status: 'processed',
        reason: 'refund_failed',
      });
      const list = (await call(t.app, 'GET', `/api/admin/orders/${order.id}/refunds`, { token: shop.ownerToken })).data
        .refunds as { id: string; status: string }[];
      expect(list.find((r) => r.id === id)?.status).toBe('failed');
    }
    // the whole amount can be asked for again
    await pendingRefund();
    expect((await ordersOf(session.data.id))[0].status).toBe('paid');
  });

  it('a refund Stripe fails after it succeeded is failed, the order paid again, order.refund_failed sent once', async () => {
    const session = await checkout();
    const paid = signed(completedEvent('evt_paid_refund_fails_later', session.data.id));
    await postWebhook(paid.payload, paid.header);
    const [order] = await ordersOf(session.data.id);
    const res = await call(t.app, 'POST', `/api/admin/orders/${order.id}/refunds`, {
      token: shop.ownerToken,
      body: { amount_cents: 4900, reason: 'Rückgabe' },
    });
    expect(res.data).toMatchObject({ status: 'succeeded', amount_cents: 4900 });
    expect((await ordersOf(session.data.id))[0].status).toBe('partially_refunded');
    const report = (eventId: string, type: string, status: string, extra: object = {}) =>
      signed({
        id: eventId,
        object: 'event',
        type,
        data: {
          object: {
            id: 're_fails_later',
            object: 'refund',
            status,
            amount: 4900,
            payment_intent: `pi_${session.data.id}`,
            metadata: { refund_id: res.data.id },
            ...extra,
          },
        },
      });
    const failed = report('evt_refund_fails_later', 'refund.updated', 'failed', {
      failure_reason: 'expired_or_canceled_card',
    });
    expect((await postWebhook(failed.payload, failed.header)).statusCode).toBe(200);
    expect(await paymentEvent('evt_refund_fails_later')).toMatchObject({
      status: 'processed',
      reason: 'refund_failed_after_success',
    });
    const refundsNow = async () =>
      (await call(t.app, 'GET', `/api/admin/orders/${order.id}/refunds`, { token: shop.ownerToken })).data.refunds;
    expect(await refundsNow()).toMatchObject([{ id: res.data.id, status: 'failed' }]);
    expect((await ordersOf(session.data.id))[0].status).toBe('paid');
    // Stripe's refund.failed for the same change, a redelivery, and an older refund.updated
    // (succeeded) delivered late change nothing
    const alsoFailed = report('evt_refund_fails_later_2', 'refund.failed', 'failed');
    const stale = report('evt_refund_stale_success', 'refund.updated', 'succeeded');
    for (const e of [alsoFailed, failed, stale]) expect((await postWebhook(e.payload, e.header)).statusCode).toBe(200);
    expect(await paymentEvent('evt_refund_fails_later_2')).toMatchObject({
      status: 'ignored',
      reason: 'refund_already_failed',
    });
    expect(await paymentEvent('evt_refund_stale_success')).toMatchObject({
      status: 'ignored',
      reason: 'refund_already_failed',
    });
    expect((await ordersOf(session.data.id))[0].status).toBe('paid');
    const sent = await query<{ data: Record<string, unknown> }>(
      t.app.deps.database.db,
      sql`SELECT data FROM webhook_events WHERE type = 'order.refund_failed' AND data->>'order_id' = ${order.id}`,
    );
    expect(sent.map((e) => e.data)).toEqual([
      expect.objectContaining({
        refund_id: res.data.id,
        amount_cents: 4900,
        refunded_cents: 0,
        status: 'paid',
        failure_reason: expect.stringContaining('expired_or_canceled_card'),
      }),
    ]);
    // all of it is refundable again
    const again = await call(t.app, 'POST', `/api/admin/orders/${order.id}/refunds`, {
      token: shop.ownerToken,
      body: { reason: 'nochmal' },
    });
    expect(again.data).toMatchObject({ status: 'succeeded', amount_cents: 9800 });
    expect((await ordersOf(session.data.id))[0].status).toBe('refunded');
  });

  it("a refund.failed that overtakes Stripe's answer fails the refund; the answer does not make it succeed", async () => {
    const session = await checkout();
    const paid = signed(completedEvent('evt_paid_refund_overtaken', session.data.id));
    await postWebhook(paid.payload, paid.header);
    const [order] = await ordersOf(session.data.id);
    whileRefunding = async (r) => {
      const e = signed({
        id: 'evt_refund_overtakes',
        object: 'event',
        type: 'refund.failed',
        data: {
          object: {
            id: r.id,
            object: 'refund',
            status: 'failed',
            amount: 9800,
            payment_intent: `pi_${session.data.id}`,
            metadata: { refund_id: r.refundId },
          },
        },
      });
      expect((await postWebhook(e.payload, e.header)).statusCode).toBe(200);
    };
    try {
      const res = await call(t.app, 'POST', `/api/admin/orders/${order.id}/refunds`, {
        token: shop.ownerToken,
        body: { reason: 'Storno' },
      });
      expectProblem(res, 502, 'provider_error');
    } finally {
      whileRefunding = null;
    }
    expect(await paymentEvent('evt_refund_overtakes')).toMatchObject({ status: 'processed', reason: 'refund_failed' });
    const list = (await call(t.app, 'GET', `/api/admin/orders/${order.id}/refunds`, { token: shop.ownerToken })).data
      .refunds;
    expect(list).toMatchObject([{ status: 'failed', amount_cents: 9800 }]);
    expect((await ordersOf(session.data.id))[0].status).toBe('paid');
    const refunded = await query(
      t.app.deps.database.db,
      sql`SELECT 1 FROM webhook_events WHERE type IN ('order.refunded', 'order.refund_failed') AND data->>'order_id' = ${order.id}`,
    );
    expect(refunded).toHaveLength(0);
  });

  it('a checkout retried with its Idempotency-Key after a provider failure resumes the one session and reservation', async () => {
    const product = (
      await call(t.app, 'POST', '/api/products', {
        token: shop.ownerToken,
        body: {
          name: 'Fünf',
          is_digital: true,
          status: 'published',
          base_price_cents: 1000,
          track_stock: true,
          stock_quantity: 5,
        },
      })
    ).data.id;
    const channel = (await call(t.app, 'GET', '/api/admin/channels', { token: shop.ownerToken })).data.channels[0].id;
    await call(t.app, 'PATCH', `/api/products/${product}/channels/${channel}`, {
      token: shop.ownerToken,
      body: { is_published: true },
    });
    const attempt = () =>
      call(t.app, 'POST', '/api/store/checkout-sessions', {
        token: shop.publishableKey,
        headers: { origin: STORE_ORIGIN, 'idempotency-key': 'checkout-retry-1' },
        body: {
          items: [{ product_id: product, quantity: 1 }],
          customer: {
            email: 'retry@mail.test',
            billing_address: { name: 'A', line1: 'B 1', postal_code: '1', city: 'C', country: 'DE' },
          },
          return_url: `${STORE_ORIGIN}/done`,
        },
      });
    sessionsFail = 1;
    expectProblem(await attempt(), 502, 'provider_error');
    expect(await stockOf(product)).toBe(4);
    const retried = await attempt();
    expect(retried.statusCode).toBe(201);
    expect(retried.data.url).toMatch(/^https:\/\/checkout\.stripe\.test\//);
    const replay = await attempt();
    expect(replay.data.id).toBe(retried.data.id);
    expect(await stockOf(product)).toBe(4);
    const sessions = await query<{ id: string; provider_ref: string | null }>(
      t.app.deps.database.db,
      sql`SELECT id, provider_ref FROM checkout_sessions WHERE customer_email = 'retry@mail.test'`,
    );
    expect(sessions).toEqual([{ id: retried.data.id, provider_ref: providerIds.get(retried.data.id) }]);
    // both provider calls were for the one session, with Stripe's idempotency key of it
    const calls = requests.filter(
      (r) => r.path === '/v1/checkout/sessions' && r.body.get('metadata[checkout_session_id]') === retried.data.id,
    );
    expect(calls.map((c) => c.idempotencyKey)).toEqual([
      `cs-create-${retried.data.id}`,
      `cs-create-${retried.data.id}`,
    ]);
  });

  it('a checkout whose Stripe answer was lost, retried later with its Idempotency-Key, sends the same request: Stripe replays its one Checkout Session', async () => {
    const attempt = () =>
      call(t.app, 'POST', '/api/store/checkout-sessions', {
        token: shop.publishableKey,
        headers: { origin: STORE_ORIGIN, 'idempotency-key': 'checkout-lost-answer' },
        body: {
          items: [{ product_id: productId, quantity: 1 }],
          customer: {
            email: 'lost@mail.test',
            billing_address: { name: 'A', line1: 'B 1', postal_code: '1', city: 'C', country: 'DE' },
          },
          return_url: `${STORE_ORIGIN}/done`,
        },
      });
    // Stripe makes the Checkout Session, every answer (the SDK's retries too) is lost
    stub.dropAnswers('/v1/checkout/sessions', Number.POSITIVE_INFINITY);
    try {
      expectProblem(await attempt(), 502, 'provider_error');
    } finally {
      stub.dropAnswers('/v1/checkout/sessions', 0);
    }
    // the client retries a while later (a request built from "now" would differ by then)
    await new Promise((r) => setTimeout(r, 1100));
    const retried = await attempt();
    expect(retried.statusCode, retried.body).toBe(201);
    const sent = requests.filter(
      (r) => r.path === '/v1/checkout/sessions' && r.body.get('metadata[checkout_session_id]') === retried.data.id,
    );
    // made once, every later request identical and replayed
    expect(sent.filter((r) => !r.replayed)).toHaveLength(1);
    expect(sent.length).toBeGreaterThanOrEqual(2);
    expect(new Set(sent.map((r) => r.body.toString())).size).toBe(1);
    expect(new Set(sent.map((r) => r.idempotencyKey))).toEqual(new Set([`cs-create-${retried.data.id}`]));
    expect(retried.data.url).toBe(`https://checkout.stripe.test/c/pay/${providerIds.get(retried.data.id)}`);
    // expires_at from the stored session: its reservation, at least Stripe's minimum after its creation
    const [row] = await query<{ created_at: string | Date; expires_at: string | Date }>(
      t.app.deps.database.db,
      sql`SELECT created_at, expires_at FROM checkout_sessions WHERE id = ${retried.data.id}`,
    );
    const created = new Date(row?.created_at as string).getTime();
    const expires = new Date(row?.expires_at as string).getTime();
    expect(Number(sent[0]?.body.get('expires_at'))).toBe(Math.floor(Math.max(expires, created + 35 * 60_000) / 1000));
  });

  it('pins the Stripe API version: the SDK’s own, not older than the event shapes the handler reads, on every request', () => {
    expect(STRIPE_API_VERSION).toBe(Stripe.API_VERSION);
    expect(STRIPE_API_VERSION.slice(0, 10) >= EVENT_SHAPES_SINCE.slice(0, 10)).toBe(true);
    expect(EVENT_SHAPES_SINCE).toBe('2025-03-31.basil');
    expect(requests.length).toBeGreaterThan(0);
    expect(new Set(requests.map((r) => r.stripeVersion))).toEqual(new Set([STRIPE_API_VERSION]));
  });

  it('records events it does not act on as ignored', async () => {
    const { payload, header } = signed({
      id: 'evt_customer',
      object: 'event',
      type: 'customer.created',
      data: { object: { id: 'cus_1', object: 'customer' } },
    });
    expect((await postWebhook(payload, header)).data).toEqual({ received: true, duplicate: false });
    const rows = await query<{ status: string; reason: string }>(
      t.app.deps.database.db,
      sql`SELECT status, reason FROM payment_events WHERE provider = 'stripe' AND event_id = 'evt_customer'`,
    );
    expect(rows).toEqual([{ status: 'ignored', reason: 'event_type_not_used' }]);
  });

  it('refuses a bad or missing signature and changes nothing', async () => {
    const session = await checkout();
    const { payload } = signed(completedEvent('evt_3', session.data.id));
    const forged = signed(completedEvent('evt_3', session.data.id), 'whsec_wrong');
    expectProblem(await postWebhook(payload, forged.header), 400, 'signature_invalid');
    expectProblem(await postWebhook(payload, forged.header, '/api/webhooks/stripe/abos'), 400, 'signature_invalid');
    const res = await call(t.app, 'POST', '/api/webhooks/stripe', {
      body: payload,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 400, 'signature_invalid');
    expect(await ordersOf(session.data.id)).toHaveLength(0);
  });

  it('lists payment events for an admin session only, filtered by a valid status', async () => {
    expectProblem(
      await call(t.app, 'GET', '/api/admin/payment-events', { token: shop.ownerToken, query: { status: 'odd' } }),
      400,
      'validation_failed',
    );
    expect((await call(t.app, 'GET', '/api/admin/payment-events')).statusCode).toBe(401);
    const rejected = await call(t.app, 'GET', '/api/admin/payment-events', {
      token: shop.ownerToken,
      query: { status: 'rejected' },
    });
    expect(rejected.data.count).toBe(3);
    expect(rejected.data.payment_events.every((e: { status: string }) => e.status === 'rejected')).toBe(true);
  });

  it('lists the payment events of one order (order_id), none for an unknown order, 400 for an empty id', async () => {
    const all = await call(t.app, 'GET', '/api/admin/payment-events', {
      token: shop.ownerToken,
      query: { limit: '200' },
    });
    const withOrder = all.data.payment_events.find((e: { order_id: string | null }) => e.order_id !== null);
    expect(withOrder).toBeDefined();
    const one = await call(t.app, 'GET', '/api/admin/payment-events', {
      token: shop.ownerToken,
      query: { order_id: withOrder.order_id, limit: '200' },
    });
    expect(one.statusCode).toBe(200);
    expect(one.data.count).toBeGreaterThan(0);
    expect(one.data.payment_events.every((e: { order_id: string }) => e.order_id === withOrder.order_id)).toBe(true);
    const none = await call(t.app, 'GET', '/api/admin/payment-events', {
      token: shop.ownerToken,
      query: { order_id: 'ord_unknown' },
    });
    expect(none.data.count).toBe(0);
    expectProblem(
      await call(t.app, 'GET', '/api/admin/payment-events', { token: shop.ownerToken, query: { order_id: '' } }),
      400,
      'validation_failed',
    );
  });
});
