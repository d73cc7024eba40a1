/** The Stripe adapter, run for real against a local stub of the Stripe endpoints it calls. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

const WEBHOOK_SECRET = 'whsec_test_stub_secret';
let stub: Server;
let stubUrl: string;
const requests: { path: string; body: URLSearchParams; idempotencyKey: string | undefined }[] = [];

let t: TestApp;
let shop: ShopFixture;
let productId: string;

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => {
      data += String(c);
    });
    req.on('end', () => resolve(data));
  });

beforeAll(async () => {
  stub = createServer(async (req, res) => {
    const body = new URLSearchParams(await readBody(req));
    requests.push({ path: req.url ?? '', body, idempotencyKey: req.headers['idempotency-key'] as string | undefined });
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
      const id = `cs_test_${requests.length}`;
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
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'unknown' } }));
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  t = await startApp({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_123',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stubUrl,
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
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => stub.close(r));
});

async function checkout() {
  return call(t.app, 'POST', '/api/store/checkout-sessions', {
    token: shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: {
      items: [{ product_id: productId, quantity: 2 }],
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

function completedEvent(id: string, ours: string) {
  return {
    id,
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: {
        id: 'cs_test_x',
        object: 'checkout.session',
        payment_status: 'paid',
        payment_intent: 'pi_123',
        metadata: { checkout_session_id: ours },
      },
    },
  };
}

const postWebhook = (payload: string, header: string) =>
  call(t.app, 'POST', '/api/webhooks/stripe', {
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });

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

  it('completes the order from a signed webhook exactly once', async () => {
    const session = await checkout();
    const { payload, header } = signed(completedEvent('evt_1', session.data.id));
    const first = await postWebhook(payload, header);
    expect(first.statusCode).toBe(200);
    expect(first.data).toEqual({ received: true, duplicate: false });
    const dup = await postWebhook(payload, header);
    expect(dup.data).toEqual({ received: true, duplicate: true });
    // another event for the same session (Stripe may send async_payment_succeeded too) creates nothing new
    const other = signed({
      ...completedEvent('evt_2', session.data.id),
      type: 'checkout.session.async_payment_succeeded',
    });
    expect((await postWebhook(other.payload, other.header)).statusCode).toBe(200);
    const orders = await call(t.app, 'GET', '/api/admin/orders?q=stripe@mail.test', { token: shop.ownerToken });
    const mine = orders.data.orders.filter(
      (o: { checkout_session_id: string }) => o.checkout_session_id === session.data.id,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ status: 'paid', payment_provider: 'stripe', total_cents: 9800, is_test: true });
  });

  it('refuses a bad or missing signature and changes nothing', async () => {
    const session = await checkout();
    const { payload } = signed(completedEvent('evt_3', session.data.id));
    const forged = signed(completedEvent('evt_3', session.data.id), 'whsec_wrong');
    expectProblem(await postWebhook(payload, forged.header), 400, 'signature_invalid');
    const res = await call(t.app, 'POST', '/api/webhooks/stripe', {
      body: payload,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 400, 'signature_invalid');
    const orders = await call(t.app, 'GET', '/api/admin/orders?q=stripe@mail.test', { token: shop.ownerToken });
    expect(
      orders.data.orders.some((o: { checkout_session_id: string }) => o.checkout_session_id === session.data.id),
    ).toBe(false);
  });
});
