/**
 * Issue 26, point 1: a refund is never paid twice. The real Stripe SDK against a local stub that,
 * like Stripe, stores the answer of each idempotency key and replays it (a stored 500 included),
 * and that can answer 500, hang past the SDK's timeout, or reset the connection for a refund call
 * — after which the refund may or may not exist at Stripe. Only a definitive refusal fails a
 * refund; everything else keeps it pending until Stripe (by webhook, or asked by the resume job)
 * tells.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, STORE_ORIGIN, startApp, type TestApp } from '../../../test/helpers/app.js';
import { query } from '../../platform/db/tx.js';
import { BILLING, type FinanceShop, financeShop } from '../finance/finance.fixtures.js';
import { advance } from '../partners/vendors.fixtures.js';

const WEBHOOK_SECRET = 'whsec_refund_ambiguity';

/** What the stub does with the next refund call under a new idempotency key. */
type Fault =
  /** Stripe refunds, then answers 500 (and replays that 500 for the key). */
  | 'made_then_500'
  /** Stripe answers 500 without refunding (and replays that 500 for the key). */
  | 'not_made_500'
  /** Stripe refunds and its answer never comes (the SDK times out). */
  | 'made_then_hang'
  /** The connection is reset before Stripe got the request, and again for the SDK's one retry: nothing refunded. */
  | 'reset'
  /** A definitive refusal (400): nothing refunded. */
  | 'refuse';

interface StubRefund {
  id: string;
  object: 'refund';
  status: string;
  amount: number;
  payment_intent: string | null;
  metadata: { refund_id: string };
}

const stub = {
  server: null as Server | null,
  /** Every refund Stripe made. */
  made: [] as StubRefund[],
  /** Every refund create request: its idempotency key and whether it was a replay. */
  posts: [] as { key: string; replay: boolean }[],
  /** The stored answer per idempotency key (Stripe keeps it 24 hours; `forgetKeys` ends the window). */
  answers: new Map<string, { status: number; body: string }>(),
  faults: [] as Fault[],
  /** Idempotency keys whose next request is reset too (the SDK retries a closed connection once). */
  resetAgain: new Set<string>(),
  /** List calls still to answer 500. */
  listFaults: 0,
  lists: 0,
  hanging: [] as ServerResponse[],
  providerIds: new Map<string, string>(),
  forgetKeys() {
    this.answers.clear();
  },
};

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => {
      data += String(c);
    });
    req.on('end', () => resolve(data));
  });

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_stub' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
};

async function handle(req: IncomingMessage, res: ServerResponse) {
  const body = new URLSearchParams(await readBody(req));
  const url = new URL(req.url ?? '/', 'http://stub');
  if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
    const id = `cs_test_${stub.providerIds.size + 1}`;
    stub.providerIds.set(body.get('metadata[checkout_session_id]') ?? '', id);
    return json(res, 200, { id, object: 'checkout.session', url: `https://checkout.stripe.test/${id}` });
  }
  if (req.method === 'GET' && url.pathname === '/v1/refunds') {
    stub.lists++;
    if (stub.listFaults > 0) {
      stub.listFaults--;
      return json(res, 500, { error: { type: 'api_error', message: 'stub list outage' } });
    }
    const pi = url.searchParams.get('payment_intent');
    const data = stub.made.filter((r) => r.payment_intent === pi).reverse();
    return json(res, 200, { object: 'list', data, has_more: false, url: '/v1/refunds' });
  }
  if (req.method === 'POST' && url.pathname === '/v1/refunds') {
    const key = String(req.headers['idempotency-key'] ?? '');
    const stored = stub.answers.get(key);
    stub.posts.push({ key, replay: stored !== undefined });
    if (stub.resetAgain.delete(key)) {
      req.socket.destroy();
      return;
    }
    if (stored) return json(res, stored.status, stored.body);
    const fault = stub.faults.shift();
    if (fault === 'reset') {
      stub.resetAgain.add(key);
      req.socket.destroy();
      return;
    }
    if (fault === 'refuse') {
      return json(res, 400, {
        error: { type: 'invalid_request_error', code: 'charge_disputed', message: 'The charge is disputed' },
      });
    }
    const refund: StubRefund = {
      id: `re_stub_${stub.made.length + 1}`,
      object: 'refund',
      status: 'succeeded',
      amount: Number(body.get('amount')),
      payment_intent: body.get('payment_intent'),
      metadata: { refund_id: body.get('metadata[refund_id]') ?? '' },
    };
    if (fault !== 'not_made_500') stub.made.push(refund);
    if (fault === 'made_then_500' || fault === 'not_made_500') {
      const answer = { status: 500, body: JSON.stringify({ error: { type: 'api_error', message: 'stub 500' } }) };
      stub.answers.set(key, answer);
      return json(res, answer.status, answer.body);
    }
    const answer = { status: 200, body: JSON.stringify(refund) };
    stub.answers.set(key, answer);
    if (fault === 'made_then_hang') {
      stub.hanging.push(res);
      return;
    }
    return json(res, answer.status, answer.body);
  }
  json(res, 404, { error: { type: 'invalid_request_error', message: 'unknown' } });
}

let t: TestApp;
let f: FinanceShop;
let lastOne: string;

beforeAll(async () => {
  stub.server = createServer((req, res) => {
    void handle(req, res);
  });
  await new Promise<void>((r) => stub.server?.listen(0, '127.0.0.1', r));
  t = await startApp({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_ambiguity',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: `http://127.0.0.1:${(stub.server.address() as AddressInfo).port}`,
    // one attempt of 1.5 s: the SDK's own retries would replay the same key anyway
    STRIPE_REFUND_TIMEOUT_MS: '1500',
    STRIPE_REFUND_MAX_NETWORK_RETRIES: '0',
  });
  f = await financeShop(t);
  const p = await call(t.app, 'POST', '/api/products', {
    token: f.owner,
    body: {
      name: 'Letztes Stück',
      is_digital: true,
      status: 'published',
      base_price_cents: 1000,
      track_stock: true,
      stock_quantity: 0,
    },
  });
  lastOne = p.data.id;
  await call(t.app, 'PATCH', `/api/products/${lastOne}/channels/${f.channel}`, {
    token: f.owner,
    body: { is_published: true },
  });
});
afterAll(async () => {
  for (const res of stub.hanging) res.destroy();
  await t.close();
  await new Promise((r) => stub.server?.close(r));
});

function signed(event: object) {
  const payload = JSON.stringify(event);
  return { payload, header: Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }) };
}

const postEvent = (event: object) => {
  const { payload, header } = signed(event);
  return call(t.app, 'POST', '/api/webhooks/stripe', {
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });
};

async function checkout(product: string, quantity = 1) {
  const res = await call(t.app, 'POST', '/api/store/checkout-sessions', {
    token: f.shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: {
      items: [{ product_id: product, quantity }],
      customer: { email: `amb-${Math.random().toString(36).slice(2, 8)}@mail.test`, billing_address: BILLING },
      return_url: `${STORE_ORIGIN}/done`,
    },
  });
  expect(res.statusCode).toBe(201);
  return res.data as { id: string; total_cents: number };
}

/** Stripe's checkout.session.completed (paid) for our session. */
const completed = (eventId: string, session: { id: string; total_cents: number }, created?: Date) => ({
  id: eventId,
  object: 'event',
  type: 'checkout.session.completed',
  ...(created ? { created: Math.floor(created.getTime() / 1000) } : {}),
  data: {
    object: {
      id: stub.providerIds.get(session.id),
      object: 'checkout.session',
      mode: 'payment',
      payment_status: 'paid',
      payment_intent: `pi_${session.id}`,
      amount_total: session.total_cents,
      currency: 'eur',
      metadata: { checkout_session_id: session.id },
    },
  },
});

let n = 0;
/** A paid Stripe order of the online course (9900 cents), with a final invoice when `invoiced`. */
async function paidOrder(invoiced = false) {
  const session = await checkout(f.products.course);
  expect((await postEvent(completed(`evt_paid_${++n}`, session))).statusCode).toBe(200);
  const found = await query<{ id: string; total_cents: number }>(
    t.app.deps.database.db,
    sql`SELECT id, total_cents FROM orders WHERE checkout_session_id = ${session.id}`,
  );
  const order = found[0] as { id: string; total_cents: number };
  let invoiceId: string | null = null;
  if (invoiced) {
    const draft = await call(t.app, 'POST', `/api/admin/orders/${order.id}/invoice`, { token: f.owner, body: {} });
    expect(draft.statusCode).toBe(201);
    const fin = await call(t.app, 'POST', `/api/admin/invoices/${draft.data.id}/finalize`, { token: f.owner });
    expect(fin.statusCode).toBe(200);
    invoiceId = draft.data.id;
  }
  return { id: order.id, total: Number(order.total_cents), paymentIntent: `pi_${session.id}`, invoiceId };
}

const refund = (orderId: string, body: Record<string, unknown>, key?: string) =>
  call(t.app, 'POST', `/api/admin/orders/${orderId}/refunds`, {
    token: f.owner,
    body,
    ...(key ? { headers: { 'idempotency-key': key } } : {}),
  });
const refundsOf = async (orderId: string) =>
  (await call(t.app, 'GET', `/api/admin/orders/${orderId}/refunds`, { token: f.owner })).data.refunds as {
    id: string;
    status: string;
    amount_cents: number;
    credit_note_id: string | null;
  }[];
const orderStatus = async (orderId: string) =>
  (await call(t.app, 'GET', `/api/admin/orders/${orderId}`, { token: f.owner })).data.order.status as string;
const refundedEvents = async (orderId: string) =>
  (
    await query<{ refund_id: string }>(
      t.app.deps.database.db,
      sql`SELECT data->>'refund_id' AS refund_id FROM webhook_events
          WHERE type = 'order.refunded' AND data->>'order_id' = ${orderId}`,
    )
  ).map((r) => r.refund_id);
const eventRow = async (eventId: string) =>
  (
    await query<{ status: string; reason: string }>(
      t.app.deps.database.db,
      sql`SELECT status, reason FROM payment_events WHERE provider = 'stripe' AND event_id = ${eventId}`,
    )
  )[0];
/** The refunds Stripe made for our refund id, and the distinct keys it was asked with. */
const atStripe = (refundId: string) => stub.made.filter((r) => r.metadata.refund_id === refundId);
const keysSeen = (from: number) => [...new Set(stub.posts.slice(from).map((p) => p.key))];

/** Stripe's refund.updated (succeeded) for a refund it made. */
const refundSucceeded = (eventId: string, r: StubRefund) => ({
  id: eventId,
  object: 'event',
  type: 'refund.updated',
  data: { object: { ...r, status: 'succeeded' } },
});

describe('an unclear answer to a refund call never fails the refund', () => {
  it('500 after Stripe refunded: pending (201), counted; the retry is refused; the webhook settles it once; one refund at Stripe', async () => {
    const order = await paidOrder();
    const posts = stub.posts.length;
    stub.faults.push('made_then_500');
    const res = await refund(order.id, { reason: 'Rückgabe' });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ status: 'pending', amount_cents: order.total });
    expect(await orderStatus(order.id)).toBe('paid');

    // the admin tries again, without a key and with another one: nothing is left to refund
    expectProblem(await refund(order.id, { reason: 'Rückgabe' }), 409, 'refund_exceeds_paid');
    expectProblem(await refund(order.id, { reason: 'Rückgabe' }, 'another-key'), 409, 'refund_exceeds_paid');

    const [made] = atStripe(res.data.id);
    expect(made).toBeDefined();
    const first = await postEvent(refundSucceeded(`evt_ok_${res.data.id}`, made as StubRefund));
    expect(first.statusCode).toBe(200);
    expect(await eventRow(`evt_ok_${res.data.id}`)).toMatchObject({ status: 'processed', reason: 'refund_succeeded' });
    await postEvent(refundSucceeded(`evt_ok_again_${res.data.id}`, made as StubRefund));
    expect(await eventRow(`evt_ok_again_${res.data.id}`)).toMatchObject({
      status: 'ignored',
      reason: 'refund_already_succeeded',
    });
    expect(await refundsOf(order.id)).toMatchObject([{ id: res.data.id, status: 'succeeded' }]);
    expect(await orderStatus(order.id)).toBe('refunded');
    expect(await refundedEvents(order.id)).toEqual([res.data.id]);
    expectProblem(await refund(order.id, { reason: 'Rückgabe' }), 409, 'refund_exceeds_paid');

    // its job, later, changes nothing
    await advance(t, 16 * 60);
    expect(atStripe(res.data.id)).toHaveLength(1);
    expect(stub.made.filter((r) => r.payment_intent === order.paymentIntent)).toHaveLength(1);
    expect(keysSeen(posts)).toEqual([`refund-${res.data.id}`]);
    expect(await refundedEvents(order.id)).toEqual([res.data.id]);
  });

  it('a timeout after Stripe refunded: pending; the resume job finds the refund at Stripe and settles it, once', async () => {
    const order = await paidOrder();
    const posts = stub.posts.length;
    stub.faults.push('made_then_hang');
    const res = await refund(order.id, { amount_cents: 4000, reason: 'Teil' });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ status: 'pending', amount_cents: 4000 });
    expectProblem(
      await refund(order.id, { amount_cents: order.total - 3999, reason: 'zu viel' }),
      409,
      'refund_exceeds_paid',
    );
    const lists = stub.lists;
    await advance(t, 16 * 60);
    expect(stub.lists).toBeGreaterThan(lists);
    expect(await refundsOf(order.id)).toMatchObject([{ id: res.data.id, status: 'succeeded', amount_cents: 4000 }]);
    expect(await orderStatus(order.id)).toBe('partially_refunded');
    expect(await refundedEvents(order.id)).toEqual([res.data.id]);
    // found, not made again
    expect(stub.posts.length - posts).toBe(1);
    expect(atStripe(res.data.id)).toHaveLength(1);
  });

  it('a reset before Stripe got the call: pending; the job learns there is none and makes it under the same key, once', async () => {
    const order = await paidOrder();
    const posts = stub.posts.length;
    stub.faults.push('reset');
    const res = await refund(order.id, { reason: 'Verbindung weg' });
    expect(res.statusCode).toBe(201);
    expect(res.data.status).toBe('pending');
    expect(atStripe(res.data.id)).toHaveLength(0);
    await advance(t, 16 * 60);
    expect(await refundsOf(order.id)).toMatchObject([{ id: res.data.id, status: 'succeeded' }]);
    expect(await orderStatus(order.id)).toBe('refunded');
    expect(atStripe(res.data.id)).toHaveLength(1);
    expect(keysSeen(posts)).toEqual([`refund-${res.data.id}`]);
    expect(await refundedEvents(order.id)).toEqual([res.data.id]);
  });

  it('while Stripe cannot tell, the job asks again with a backoff; a stored 500 is replayed; after the key expired, none found → made once', async () => {
    const order = await paidOrder();
    const posts = stub.posts.length;
    stub.faults.push('not_made_500');
    const res = await refund(order.id, { reason: 'Später' });
    expect(res.data.status).toBe('pending');
    // first run: the lookup fails; second: none found, the same key replays Stripe's stored 500
    stub.listFaults = 1;
    await advance(t, 16 * 60);
    expect((await refundsOf(order.id))[0]?.status).toBe('pending');
    await advance(t, 16 * 60);
    expect((await refundsOf(order.id))[0]?.status).toBe('pending');
    expect(stub.posts.slice(posts).map((p) => p.replay)).toEqual([false, true]);
    // a day later Stripe has forgotten the key; the job, still asking, finds none and makes it
    stub.forgetKeys();
    for (let i = 0; i < 8 && (await refundsOf(order.id))[0]?.status === 'pending'; i++) await advance(t, 6 * 3600);
    expect(await refundsOf(order.id)).toMatchObject([{ id: res.data.id, status: 'succeeded' }]);
    expect(atStripe(res.data.id)).toHaveLength(1);
    expect(keysSeen(posts)).toEqual([`refund-${res.data.id}`]);
    expect(await refundedEvents(order.id)).toEqual([res.data.id]);
  });

  it('a definitive refusal fails the refund (502) and the amount is refundable again', async () => {
    const order = await paidOrder();
    stub.faults.push('refuse');
    expectProblem(await refund(order.id, { reason: 'Nein' }), 502, 'provider_error');
    const [failed] = await refundsOf(order.id);
    expect(failed?.status).toBe('failed');
    expect(atStripe(failed?.id ?? '')).toHaveLength(0);
    const again = await refund(order.id, { reason: 'Nochmal' });
    expect(again.data).toMatchObject({ status: 'succeeded', amount_cents: order.total });
  });
});

describe('a succeeded from Stripe for a refund held as failed', () => {
  it('reconciles it once: order refunded, one credit note, order.refunded once', async () => {
    const order = await paidOrder(true);
    stub.faults.push('made_then_500');
    const res = await refund(order.id, { reason: 'Altfall' });
    // what the code before issue 26 left: the refund failed on Stripe's 500, without its answer
    await t.app.deps.database.db.execute(
      sql`UPDATE refunds SET status = 'failed', failure_reason = 'An error occurred with our connection to Stripe.'
          WHERE id = ${res.data.id}`,
    );
    const [made] = atStripe(res.data.id);
    await postEvent(refundSucceeded(`evt_reconcile_${res.data.id}`, made as StubRefund));
    expect(await eventRow(`evt_reconcile_${res.data.id}`)).toMatchObject({
      status: 'processed',
      reason: 'refund_reconciled',
    });
    await postEvent(refundSucceeded(`evt_reconcile_again_${res.data.id}`, made as StubRefund));
    expect(await eventRow(`evt_reconcile_again_${res.data.id}`)).toMatchObject({
      status: 'ignored',
      reason: 'refund_already_succeeded',
    });
    const [settled] = await refundsOf(order.id);
    expect(settled).toMatchObject({
      id: res.data.id,
      status: 'succeeded',
      credit_note_id: expect.stringMatching(/^cn_/),
    });
    expect(await orderStatus(order.id)).toBe('refunded');
    expect(await refundedEvents(order.id)).toEqual([res.data.id]);
    const notes = await query<{ id: string }>(
      t.app.deps.database.db,
      sql`SELECT id FROM credit_notes WHERE invoice_id = ${order.invoiceId}`,
    );
    expect(notes.map((x) => x.id)).toEqual([settled?.credit_note_id]);
  });

  it('a refund Stripe itself failed stays failed (its failure is final)', async () => {
    const order = await paidOrder();
    const res = await refund(order.id, { amount_cents: 1000, reason: 'Karte' });
    expect(res.data.status).toBe('succeeded');
    const [made] = atStripe(res.data.id);
    const failedAt = { ...(made as StubRefund), status: 'failed', failure_reason: 'expired_or_canceled_card' };
    await postEvent({
      id: `evt_fail_${res.data.id}`,
      object: 'event',
      type: 'refund.updated',
      data: { object: failedAt },
    });
    expect((await refundsOf(order.id))[0]?.status).toBe('failed');
    await postEvent(refundSucceeded(`evt_stale_${res.data.id}`, made as StubRefund));
    expect(await eventRow(`evt_stale_${res.data.id}`)).toMatchObject({
      status: 'ignored',
      reason: 'refund_already_failed',
    });
    expect((await refundsOf(order.id))[0]?.status).toBe('failed');
  });
});

describe('the late-payment refund (session expired, stock gone)', () => {
  /** A session for the last piece, expired (its stock released) and the piece sold to someone else. */
  async function lateSession() {
    await call(t.app, 'PATCH', `/api/products/${lastOne}`, { token: f.owner, body: { stock_quantity: 1 } });
    const late = await checkout(lastOne);
    await advance(t, 25 * 3600);
    // the piece, released with the session, is sold elsewhere meanwhile
    await call(t.app, 'PATCH', `/api/products/${lastOne}`, { token: f.owner, body: { stock_quantity: 0 } });
    return late;
  }

  it('an unclear answer after Stripe refunded is not a failure: Stripe is asked and the event is recorded refunded, once', async () => {
    const late = await lateSession();
    const posts = stub.posts.length;
    stub.faults.push('made_then_500');
    const event = completed(`evt_late_500_${late.id}`, late, t.app.deps.clock.now());
    const res = await postEvent(event);
    expect(res.statusCode).toBe(200);
    expect(await eventRow(event.id)).toMatchObject({
      status: 'refunded',
      reason: expect.stringMatching(/^late_payment_out_of_stock: refunded in full \(re_stub_\d+, succeeded\)/),
    });
    expect(atStripe(`late_${late.id}`)).toHaveLength(1);
    expect(keysSeen(posts)).toEqual([`refund-late_${late.id}`]);
  });

  it('redelivered after Stripe forgot the key: the refund made by the first delivery is found, not made again', async () => {
    const late = await lateSession();
    const posts = stub.posts.length;
    // first delivery: Stripe refunds and answers 500; asking it fails too: 5xx, the event is redelivered
    stub.faults.push('made_then_500');
    stub.listFaults = 1;
    const event = completed(`evt_late_twice_${late.id}`, late, t.app.deps.clock.now());
    expect((await postEvent(event)).statusCode).toBeGreaterThanOrEqual(500);
    expect(await eventRow(event.id)).toBeUndefined();
    expect(atStripe(`late_${late.id}`)).toHaveLength(1);
    // Stripe redelivers a day later, when its idempotency key has expired
    await advance(t, 25 * 3600);
    stub.forgetKeys();
    expect((await postEvent(event)).statusCode).toBe(200);
    expect(await eventRow(event.id)).toMatchObject({ status: 'refunded' });
    expect(atStripe(`late_${late.id}`)).toHaveLength(1);
    expect(stub.posts.length - posts).toBe(1);
  });
});
