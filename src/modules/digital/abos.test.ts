/**
 * Subscriptions end to end over HTTP with the simulated clock: abo sessions (docs/digital.md),
 * the hosted page, the lifecycle (trial, renewals, intro price, dunning, cancellation), admin
 * reads, self-service and token links, and the signed events a local receiver verifies.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  call,
  createShop,
  customerToken,
  expectProblem,
  PLATFORM_TOKEN,
  type ShopFixture,
  STORE_ORIGIN,
  shopCtx,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { sha256 } from '../../platform/crypto.js';
import { query } from '../../platform/db/tx.js';
import { enqueue } from '../../platform/jobs/queue.js';
import { Worker } from '../../platform/jobs/worker.js';
import { SELLER } from '../finance/finance.fixtures.js';
import { DUE_JOB, processDue } from './renewals.js';

// ---- a local receiver of the shop's signed events ----

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string; created_at: string; is_test: boolean; data: Record<string, unknown> };
}
let server: Server;
let receiverUrl = '';
const received: Received[] = [];
let secret = '';

/** Verifies with the library's own check, at the moment the (simulated) timestamp names. */
function verify(r: Received): unknown {
  const ts = Number(r.headers['webhook-timestamp']);
  vi.useFakeTimers({ now: ts * 1000, toFake: ['Date'] });
  try {
    return new Webhook(secret).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    });
  } finally {
    vi.useRealTimers();
  }
}

const eventsOf = (aboId: string) => received.filter((r) => r.event.data.subscription_id === aboId).map((r) => r.event);
const typesOf = (aboId: string) => eventsOf(aboId).map((e) => e.type);

// ---- the shop ----

let t: TestApp;
let shop: ShopFixture;
let owner: string;
let channel: string;
let productId: string;
const RETURN = `${STORE_ORIGIN}/abo/danke`;
const good = { name: 'Erika Muster', line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' };
const DAY = 86_400;

const db = () => t.app.deps.database.db;
const drain = () => t.app.deps.worker.drain();
const advance = async (seconds: number, run_jobs = true) => {
  const res = await call(t.app, 'POST', '/api/platform/clock/advance', {
    token: PLATFORM_TOKEN,
    body: { seconds, run_jobs },
  });
  expect(res.statusCode).toBe(200);
  await drain();
  return new Date(res.data.now);
};

async function plan(body: Record<string, unknown>) {
  const res = await call(t.app, 'POST', '/api/admin/digital/plaene', {
    token: owner,
    body: { product_id: productId, name: 'Plan', price_cents: 990, interval_unit: 'month', ...body },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.data as { id: string; price_cents: number };
}

const session = (body: Record<string, unknown>, headers: Record<string, string> = { origin: STORE_ORIGIN }) =>
  call(t.app, 'POST', '/api/store/abo-sessions', { token: shop.publishableKey, headers, body });

const payForm = (id: string, fields: Record<string, string>) =>
  call(t.app, 'POST', `/pay/${id}`, {
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/** Buys a plan through the hosted page and returns the subscription. */
async function subscribe(
  planId: string,
  email: string,
  card = '4242424242424242',
  extra: Record<string, unknown> = {},
) {
  const s = await session({ plan_id: planId, return_url: RETURN, customer_email: email, ...extra });
  expect(s.statusCode, s.body).toBe(201);
  const page = await call(t.app, 'GET', new URL(s.data.url).pathname);
  expect(page.statusCode).toBe(200);
  const paid = await payForm(s.data.id, { ...good, card_number: card });
  expect(paid.statusCode, paid.body).toBe(303);
  expect(paid.headers.location).toBe(`${RETURN}?session_id=${s.data.id}`);
  await drain();
  const list = await call(t.app, 'GET', '/api/admin/digital/abos', { token: owner, query: { q: email } });
  expect(list.data.abos).toHaveLength(1);
  return { sessionId: s.data.id as string, abo: list.data.abos[0] };
}

const detail = async (id: string) =>
  (await call(t.app, 'GET', `/api/admin/digital/abos/${id}`, { token: owner })).data as {
    abo: Record<string, any>;
    bestellungen: Record<string, any>[];
  };

let emailCounter = 0;
const email = (label: string) => `${label}-${++emailCounter}@kunde.test`;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body, event: JSON.parse(body) });
      res.writeHead(200);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;

  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
  await call(t.app, 'PUT', '/api/admin/digital/status', { token: owner, body: { aktiv: true } });
  // the shop's default channel (DE, EUR), made with the shop
  channel = shop.defaultChannelId;
  productId = (
    await call(t.app, 'POST', '/api/products', {
      token: owner,
      body: { name: 'Videokurs', is_digital: true, status: 'published', base_price_cents: 990 },
    })
  ).data.id;
  const hook = await call(t.app, 'PUT', '/api/admin/checkout/webhook', { token: owner, body: { url: receiverUrl } });
  expect(hook.statusCode).toBe(201);
  secret = hook.data.secret;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await t.close();
});

describe('POST /api/store/abo-sessions (docs/digital.md)', () => {
  let planId: string;
  beforeAll(async () => {
    planId = (await plan({ name: 'Session-Plan' })).id;
  });

  it('rule 1: the plan must exist (404), be active and its product published (400)', async () => {
    const body = { return_url: RETURN, customer_email: 'a@kunde.test' };
    expectProblem(await session({ ...body, plan_id: 'plan_unknown' }), 404, 'plan_not_found');
    const inactive = await plan({ name: 'Aus', is_active: false });
    expectProblem(await session({ ...body, plan_id: inactive.id }), 400, 'plan_inactive');
    const draft = (
      await call(t.app, 'POST', '/api/products', { token: owner, body: { name: 'Entwurf', is_digital: true } })
    ).data.id;
    const draftPlan = (
      await call(t.app, 'POST', '/api/admin/digital/plaene', {
        token: owner,
        body: { product_id: draft, name: 'E', price_cents: 990, interval_unit: 'month' },
      })
    ).data.id;
    expectProblem(await session({ ...body, plan_id: draftPlan }), 400, 'product_unavailable');
    // another shop's plan is unknown here
    const other = await createShop(t.app);
    await call(t.app, 'PUT', '/api/admin/digital/status', { token: other.ownerToken, body: { aktiv: true } });
    const p = (
      await call(t.app, 'POST', '/api/products', {
        token: other.ownerToken,
        body: { name: 'K', is_digital: true, status: 'published' },
      })
    ).data.id;
    const foreign = (
      await call(t.app, 'POST', '/api/admin/digital/plaene', {
        token: other.ownerToken,
        body: { product_id: p, name: 'F', price_cents: 990, interval_unit: 'month' },
      })
    ).data.id;
    expectProblem(await session({ ...body, plan_id: foreign }), 404, 'plan_not_found');
  });

  it('rule 2: publishable key with an allowed Origin, return_url on its allowlist, customer_email required', async () => {
    const body = { plan_id: planId, return_url: RETURN, customer_email: 'b@kunde.test' };
    expectProblem(await session(body, {}), 403, 'origin_denied');
    expectProblem(await session(body, { origin: 'https://evil.example' }), 403, 'origin_denied');
    expectProblem(await session({ ...body, return_url: 'https://evil.example/x' }), 400, 'return_url_denied');
    expectProblem(await session({ ...body, return_url: 'javascript:alert(1)' }), 400, 'return_url_denied');
    expectProblem(await session({ ...body, customer_email: 'kein-email' }), 400, 'validation_failed');
    const { customer_email: _, ...noEmail } = body;
    const missing = await session(noEmail);
    expectProblem(missing, 400, 'validation_failed');
    expect(missing.data.errors[0].path).toBe('/body/customer_email');
    const admin = await call(t.app, 'POST', '/api/store/abo-sessions', { token: owner, body });
    expectProblem(admin, 403, 'credential_denied');
  });

  it('rule 3: always hosted; returns {id, url} of the hosted page', async () => {
    const res = await session({ plan_id: planId, return_url: RETURN, customer_email: 'c@kunde.test' });
    expect(res.statusCode).toBe(201);
    expect(Object.keys(res.data).sort()).toEqual(['id', 'url']);
    expect(res.data.url).toBe(`http://service.test/pay/${res.data.id}`);
    const page = await call(t.app, 'GET', `/pay/${res.data.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Videokurs (Session-Plan)');
    expect(page.body).toContain('Heute fällig');
    expect(page.body).not.toContain('widerruf_verzicht');
  });

  it('rule 4: no address prefill, discount code or express shortcut (400 naming the field)', async () => {
    const body = { plan_id: planId, return_url: RETURN, customer_email: 'd@kunde.test' };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ customer: { email: 'd@kunde.test', billing_address: good } }, 'prefill_unsupported', '/body/customer'],
      [{ billing_address: good }, 'prefill_unsupported', '/body/billing_address'],
      [{ shipping_address: good }, 'prefill_unsupported', '/body/shipping_address'],
      [{ discount_code: 'SOMMER' }, 'discount_unsupported', '/body/discount_code'],
      [{ express: true }, 'express_unsupported', '/body/express'],
      [{ express_checkout: true }, 'express_unsupported', '/body/express_checkout'],
      [{ flow: 'direct' }, 'express_unsupported', '/body/flow'],
    ];
    for (const [extra, code, path] of cases) {
      const res = await session({ ...body, ...extra });
      expectProblem(res, 400, code);
      expect(res.data.errors.map((e: { path: string }) => e.path)).toEqual([path]);
    }
    expectProblem(await session({ ...body, unknown_field: 1 }), 400, 'validation_failed');
    expect((await session({ ...body, flow: 'hosted' })).statusCode).toBe(201);
  });

  it('rule 5: there is no public plan list', async () => {
    for (const url of ['/api/store/plaene', '/api/store/abo-plans', '/api/store/abo-sessions']) {
      const res = await call(t.app, 'GET', url, { token: shop.publishableKey, headers: { origin: STORE_ORIGIN } });
      expect(res.statusCode, url).toBe(404);
    }
  });

  it('rule 6: channel_id in the body does not select the channel', async () => {
    const second = (
      await call(t.app, 'POST', '/api/admin/channels', {
        token: owner,
        body: { name: 'AT', default_country: 'AT', currency: 'EUR' },
      })
    ).data.id;
    const res = await session({
      plan_id: planId,
      return_url: RETURN,
      customer_email: 'e@kunde.test',
      channel_id: second,
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-channel-id']).toBe(channel);
    const rows = await query<{ channel_id: string; kind: string; plan_id: string }>(
      db(),
      sql`SELECT channel_id, kind, plan_id FROM checkout_sessions WHERE id = ${res.data.id}`,
    );
    expect(rows[0]).toEqual({ channel_id: channel, kind: 'abo', plan_id: planId });
  });

  it('a declined card creates nothing and the page shows the error', async () => {
    const s = await session({ plan_id: planId, return_url: RETURN, customer_email: 'declined@kunde.test' });
    const res = await payForm(s.data.id, { ...good, card_number: '4000000000000002' });
    expect(res.statusCode).toBe(402);
    expect(res.body).toContain('declined');
    const bad = await payForm(s.data.id, { ...good, country: 'XX', card_number: '4242424242424242' });
    expect(bad.statusCode).toBe(400);
    const list = await call(t.app, 'GET', '/api/admin/digital/abos', { token: owner, query: { q: 'declined@' } });
    expect(list.data.abos).toEqual([]);
    // the session is still open and can be paid
    expect((await payForm(s.data.id, { ...good, card_number: '4242424242424242' })).statusCode).toBe(303);
    // paying again only redirects
    expect((await payForm(s.data.id, { ...good, card_number: '4242424242424242' })).statusCode).toBe(303);
    const again = await call(t.app, 'GET', '/api/admin/digital/abos', { token: owner, query: { q: 'declined@' } });
    expect(again.data.abos).toHaveLength(1);
  });
});

describe('lifecycle through the hosted page and the simulated clock', () => {
  it('a trial: trialing, nothing charged, card collected; at the trial end the first order', async () => {
    const p = await plan({ name: 'Trial', trial_days: 14, price_cents: 1490 });
    const mail = email('trial');
    const { abo, sessionId } = await subscribe(p.id, mail);
    expect(abo).toMatchObject({
      status: 'trialing',
      plan_id: p.id,
      is_test: true,
      cancel_at_period_end: false,
      payments_count: 0,
      card_last4: '4242',
      endet_am: null,
    });
    expect(new Date(abo.trial_end).getTime() - new Date(abo.current_period_start).getTime()).toBe(14 * DAY * 1000);
    expect(abo.current_period_end).toBe(abo.trial_end);
    expect((await detail(abo.id)).bestellungen).toEqual([]);
    const completed = received.find(
      (r) => r.event.type === 'checkout.completed' && r.event.data.checkout_session_id === sessionId,
    );
    expect(completed?.event.data.subscription_id).toBe(abo.id);
    expect(completed?.event.data).not.toHaveProperty('order_id');
    expect(completed?.event.data.amount_cents).toBe(0);
    expect(typesOf(abo.id)).toEqual(['checkout.completed', 'abo.aktiv']);

    await advance(14 * DAY + 60);
    const after = await detail(abo.id);
    expect(after.abo).toMatchObject({ status: 'active', payments_count: 1 });
    expect(after.bestellungen).toHaveLength(1);
    expect(after.bestellungen[0]).toMatchObject({
      subscription_id: abo.id,
      total_cents: 1490,
      status: 'paid',
      is_test: true,
    });
    expect(typesOf(abo.id)).toEqual(['checkout.completed', 'abo.aktiv', 'abo.aktiv', 'abo.bezahlt']);
    const bezahlt = eventsOf(abo.id).at(-1);
    expect(bezahlt?.data).toMatchObject({
      order_id: after.bestellungen[0]?.id,
      amount_cents: 1490,
      currency: 'EUR',
      status: 'active',
      subscription_id: abo.id,
      plan_id: p.id,
      product_id: productId,
      customer_email: mail,
      is_test: true,
    });
  });

  it('a paid plan with intro price: first charge, two renewals at intro then full price', async () => {
    const p = await plan({ name: 'Intro', price_cents: 2000, intro_discount_percent: 50, intro_discount_months: 2 });
    const { abo, sessionId } = await subscribe(p.id, email('intro'), '4242424242424242', {
      affiliate_code: 'PARTNER1',
    });
    expect(abo).toMatchObject({
      status: 'active',
      payments_count: 1,
      intro_price_cents: 1000,
      next_charge_cents: 1000,
    });
    const first = await detail(abo.id);
    expect(first.bestellungen).toHaveLength(1);
    expect(first.bestellungen[0]).toMatchObject({
      subscription_id: abo.id,
      checkout_session_id: sessionId,
      total_cents: 1000,
      affiliate_code: 'PARTNER1',
    });
    const completed = eventsOf(abo.id)[0];
    expect(completed).toMatchObject({ type: 'checkout.completed' });
    expect(completed?.data.order_id).toBe(first.bestellungen[0]?.id);
    expect(typesOf(abo.id)).toEqual(['checkout.completed', 'abo.aktiv', 'abo.bezahlt']);

    await advance(31 * DAY);
    await advance(31 * DAY);
    const after = await detail(abo.id);
    expect(after.bestellungen.map((o) => o.total_cents)).toEqual([1000, 1000, 2000]);
    expect(after.abo).toMatchObject({ status: 'active', payments_count: 3, next_charge_cents: 2000 });
    expect(typesOf(abo.id)).toEqual(['checkout.completed', 'abo.aktiv', 'abo.bezahlt', 'abo.bezahlt', 'abo.bezahlt']);
    // the commission hook: affiliate and payment number on every paid order
    const rows = await query<{ subscription_payment_number: number; affiliate_code: string }>(
      db(),
      sql`SELECT subscription_payment_number, affiliate_code FROM orders WHERE subscription_id = ${abo.id} ORDER BY created_at`,
    );
    expect(rows).toEqual([1, 2, 3].map((n) => ({ subscription_payment_number: n, affiliate_code: 'PARTNER1' })));
    // periods follow calendar months from the anchor
    const start = new Date(abo.current_period_start);
    const expectedEnd = new Date(start);
    expectedEnd.setUTCMonth(expectedEnd.getUTCMonth() + 3);
    expect(after.abo.current_period_end).toBe(expectedEnd.toISOString());
    // a price change does not touch the running subscription
    await call(t.app, 'PATCH', `/api/admin/digital/plaene/${p.id}`, { token: owner, body: { price_cents: 5000 } });
    await advance(31 * DAY);
    expect((await detail(abo.id)).bestellungen.map((o) => o.total_cents)).toEqual([1000, 1000, 2000, 2000]);
    const plans = await call(t.app, 'GET', '/api/admin/digital/plaene', { token: owner });
    expect(plans.data.plaene.find((x: { id: string }) => x.id === p.id).active_count).toBe(1);
  });

  it('card 4000000000000341: paid now, renewal fails → past_due → retries on day 1, 3, 5 → unpaid → ended', async () => {
    const p = await plan({ name: 'Dunning', price_cents: 990 });
    const { abo } = await subscribe(p.id, email('dunning'), '4000000000000341');
    expect(abo).toMatchObject({ status: 'active', payments_count: 1, card_last4: '0341' });

    await advance(31 * DAY);
    let a = (await detail(abo.id)).abo;
    expect(a).toMatchObject({ status: 'past_due', failed_attempts: 1 });
    const renewalAt = new Date(a.current_period_start).getTime();
    expect(new Date(a.next_retry_at).getTime()).toBe(renewalAt + DAY * 1000);
    const failed = eventsOf(abo.id).filter((e) => e.type === 'abo.zahlung_fehlgeschlagen');
    expect(failed[0]?.data).toMatchObject({ attempt: 1, amount_cents: 990, status: 'past_due', final: false });

    await advance(DAY);
    a = (await detail(abo.id)).abo;
    expect(a).toMatchObject({ status: 'past_due', failed_attempts: 2 });
    expect(new Date(a.next_retry_at).getTime()).toBe(renewalAt + 3 * DAY * 1000);
    await advance(2 * DAY);
    a = (await detail(abo.id)).abo;
    expect(a).toMatchObject({ status: 'past_due', failed_attempts: 3 });
    expect(new Date(a.next_retry_at).getTime()).toBe(renewalAt + 5 * DAY * 1000);
    const filtered = await call(t.app, 'GET', '/api/admin/digital/abos', {
      token: owner,
      query: { status: 'zahlung_offen' },
    });
    expect(filtered.data.abos.map((x: { id: string }) => x.id)).toContain(abo.id);

    await advance(2 * DAY);
    a = (await detail(abo.id)).abo;
    expect(a).toMatchObject({
      status: 'unpaid',
      failed_attempts: 4,
      next_retry_at: null,
      endet_am: a.current_period_end,
    });
    await advance(30 * DAY);
    const end = await detail(abo.id);
    expect(end.abo).toMatchObject({ status: 'canceled', endet_am: a.current_period_end });
    expect(end.bestellungen).toHaveLength(1);
    expect(typesOf(abo.id)).toEqual([
      'checkout.completed',
      'abo.aktiv',
      'abo.bezahlt',
      'abo.zahlung_fehlgeschlagen',
      'abo.zahlung_fehlgeschlagen',
      'abo.zahlung_fehlgeschlagen',
      'abo.zahlung_fehlgeschlagen',
      'abo.beendet',
    ]);
    expect(eventsOf(abo.id).at(-2)?.data).toMatchObject({ attempt: 4, final: true, status: 'unpaid' });
    // nothing more happens
    await advance(40 * DAY);
    expect((await detail(abo.id)).bestellungen).toHaveLength(1);
  });

  it('a trial with 4000000000000341 goes past_due at the trial end', async () => {
    const p = await plan({ name: 'Trial-341', trial_days: 7 });
    const { abo } = await subscribe(p.id, email('trial341'), '4000000000000341');
    expect(abo.status).toBe('trialing');
    await advance(7 * DAY + 60);
    expect((await detail(abo.id)).abo).toMatchObject({ status: 'past_due', payments_count: 0 });
  });
});

describe('kuendigen and fortsetzen (docs/digital.md)', () => {
  let planId: string;
  beforeAll(async () => {
    planId = (await plan({ name: 'Kuendbar' })).id;
  });
  const kuendigen = (id: string, body?: unknown) =>
    call(t.app, 'POST', `/api/admin/digital/abos/${id}/kuendigen`, { token: owner, ...(body ? { body } : {}) });
  const fortsetzen = (id: string) => call(t.app, 'POST', `/api/admin/digital/abos/${id}/fortsetzen`, { token: owner });

  it('sofort false: scheduled for the period end (abo.gekuendigt), withdrawn by fortsetzen, then ends', async () => {
    const { abo } = await subscribe(planId, email('kuendigen'));
    const res = await kuendigen(abo.id, { grund: 'zu teuer' });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({
      status: 'active',
      cancel_at_period_end: true,
      endet_am: abo.current_period_end,
      grund: 'zu teuer',
    });
    expectProblem(await kuendigen(abo.id), 409, 'invalid_state');
    const listed = await call(t.app, 'GET', '/api/admin/digital/abos', {
      token: owner,
      query: { status: 'gekuendigt' },
    });
    expect(listed.data.abos.map((x: { id: string }) => x.id)).toContain(abo.id);

    const back = await fortsetzen(abo.id);
    expect(back.statusCode).toBe(200);
    expect(back.data).toMatchObject({ cancel_at_period_end: false, endet_am: null, grund: null });
    expectProblem(await fortsetzen(abo.id), 409, 'invalid_state');

    expect((await kuendigen(abo.id, { sofort: false })).statusCode).toBe(200);
    await advance(31 * DAY);
    const end = await detail(abo.id);
    expect(end.abo).toMatchObject({ status: 'canceled', endet_am: abo.current_period_end });
    expect(end.bestellungen).toHaveLength(1);
    expect(typesOf(abo.id)).toEqual([
      'checkout.completed',
      'abo.aktiv',
      'abo.bezahlt',
      'abo.gekuendigt',
      'abo.fortgesetzt',
      'abo.gekuendigt',
      'abo.beendet',
    ]);
    expect(eventsOf(abo.id)[3]?.data).toMatchObject({ sofort: false, grund: 'zu teuer', cancel_at_period_end: true });
    expectProblem(await fortsetzen(abo.id), 409, 'invalid_state');
    expectProblem(await kuendigen(abo.id, { sofort: true }), 409, 'invalid_state');
  });

  it('sofort true: canceled now, endet_am = now, abo.gekuendigt then abo.beendet', async () => {
    const { abo } = await subscribe(planId, email('sofort'));
    const before = t.app.deps.clock.now().getTime();
    const res = await kuendigen(abo.id, { sofort: true, grund: 'Betrug' });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ status: 'canceled', cancel_at_period_end: false, grund: 'Betrug' });
    expect(Math.abs(new Date(res.data.endet_am).getTime() - before)).toBeLessThan(5000);
    await drain();
    expect(typesOf(abo.id).slice(-2)).toEqual(['abo.gekuendigt', 'abo.beendet']);
    expectProblem(await fortsetzen(abo.id), 409, 'invalid_state');
    await advance(40 * DAY);
    expect((await detail(abo.id)).bestellungen).toHaveLength(1);
  });

  it('validates the body and answers 404 for unknown or foreign subscriptions', async () => {
    const { abo } = await subscribe(planId, email('body'));
    expectProblem(await kuendigen(abo.id, { sofort: 'ja' }), 400, 'validation_failed');
    expectProblem(await kuendigen(abo.id, { sofort: true, mehr: 1 }), 400, 'validation_failed');
    expectProblem(await kuendigen('abo_unknown'), 404, 'not_found');
    const other = await createShop(t.app);
    await call(t.app, 'PUT', '/api/admin/digital/status', { token: other.ownerToken, body: { aktiv: true } });
    const foreign = await call(t.app, 'POST', `/api/admin/digital/abos/${abo.id}/kuendigen`, {
      token: other.ownerToken,
    });
    expectProblem(foreign, 404, 'not_found');
    expectProblem(
      await call(t.app, 'GET', `/api/admin/digital/abos/${abo.id}`, { token: other.ownerToken }),
      404,
      'not_found',
    );
    expect((await detail(abo.id)).abo.cancel_at_period_end).toBe(false);
  });
});

describe('self-service', () => {
  let planId: string;
  beforeAll(async () => {
    planId = (await plan({ name: 'Selbst' })).id;
  });

  it('a customer lists and cancels own subscriptions (period end); another customer gets 404', async () => {
    const token = await customerToken(t.app, shop);
    const me = await call(t.app, 'GET', '/api/customer/me', {
      token,
      headers: { origin: STORE_ORIGIN },
    });
    const { abo } = await subscribe(planId, me.data.customer.email);
    expect(abo.customer_id).toBe(me.data.customer.id);
    const list = await call(t.app, 'GET', '/api/customer/abos', { token });
    expect(list.data.abos.map((a: { id: string }) => a.id)).toEqual([abo.id]);

    const stranger = await customerToken(t.app, shop);
    expect((await call(t.app, 'GET', '/api/customer/abos', { token: stranger })).data.abos).toEqual([]);
    expectProblem(
      await call(t.app, 'POST', `/api/customer/abos/${abo.id}/kuendigen`, { token: stranger }),
      404,
      'not_found',
    );
    const res = await call(t.app, 'POST', `/api/customer/abos/${abo.id}/kuendigen`, {
      token,
      body: { grund: 'Pause' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ status: 'active', cancel_at_period_end: true, endet_am: abo.current_period_end });
    expectProblem(await call(t.app, 'POST', `/api/customer/abos/${abo.id}/kuendigen`, { token }), 409, 'invalid_state');
    await drain();
    expect(eventsOf(abo.id).at(-1)).toMatchObject({ type: 'abo.gekuendigt', data: { canceled_by: 'customer' } });
    // a customer cannot end it at once
    expectProblem(
      await call(t.app, 'POST', `/api/customer/abos/${abo.id}/kuendigen`, { token, body: { sofort: true } }),
      400,
      'validation_failed',
    );
  });

  it('token links: e-mailed on creation, hashed at rest, status, kuendigen, fortsetzen; unknown 404', async () => {
    const mail = email('token');
    const { abo } = await subscribe(planId, mail);
    const { abo: other } = await subscribe(planId, email('token-other'));
    await drain();
    const mails = await call(t.app, 'GET', '/api/admin/emails', { token: owner, query: { to: mail } });
    expect(mails.statusCode).toBe(200);
    expect(mails.data.emails).toHaveLength(1);
    const sent = mails.data.emails[0];
    expect(sent).toMatchObject({ kind: 'abo.created', to: mail, status: 'stored', transport: 'outbox' });
    // bought on a headless storefront (return_url on its origin): the link is that storefront's
    // documented page, never a JSON route (the built-in storefront's: storefront.browser.test.ts)
    expect(sent.text).not.toContain('/api/');
    const link = /https:\/\/store\.example\/account\/abo\?token=(\S+)/.exec(sent.text);
    expect(link).not.toBeNull();
    const token = decodeURIComponent(link?.[1] as string);
    expect(token.length).toBeGreaterThanOrEqual(40);
    const stored = await query<{ manage_token_hash: string }>(
      db(),
      sql`SELECT manage_token_hash FROM abos WHERE id = ${abo.id}`,
    );
    expect(stored[0]?.manage_token_hash).toBe(sha256(token));
    const raw = await query(db(), sql`SELECT 1 FROM abos WHERE manage_token_hash = ${token}`);
    expect(raw).toHaveLength(0);

    const view = await call(t.app, 'GET', `/api/checkout/abo/${token}`);
    expect(view.statusCode).toBe(200);
    expect(view.data).toMatchObject({
      abo: { id: abo.id, status: 'active' },
      plan_name: 'Selbst',
      product_name: 'Videokurs',
      kann_kuendigen: true,
      kann_fortsetzen: false,
    });
    const cancel = await call(t.app, 'POST', `/api/checkout/abo/${token}/kuendigen`);
    expect(cancel.statusCode).toBe(200);
    expect(cancel.data).toMatchObject({
      abo: { cancel_at_period_end: true },
      kann_kuendigen: false,
      kann_fortsetzen: true,
    });
    expectProblem(await call(t.app, 'POST', `/api/checkout/abo/${token}/kuendigen`), 409, 'invalid_state');
    const resume = await call(t.app, 'POST', `/api/checkout/abo/${token}/fortsetzen`);
    expect(resume.data).toMatchObject({ abo: { cancel_at_period_end: false, endet_am: null } });
    expectProblem(await call(t.app, 'POST', `/api/checkout/abo/${token}/fortsetzen`), 409, 'invalid_state');
    // the token manages only its own subscription
    expect((await detail(other.id)).abo.cancel_at_period_end).toBe(false);
    expectProblem(await call(t.app, 'GET', `/api/checkout/abo/${token}x`), 404, 'not_found');
    expectProblem(await call(t.app, 'POST', '/api/checkout/abo/abolink_guess/kuendigen'), 404, 'not_found');
    await drain();
    expect(typesOf(abo.id).slice(-2)).toEqual(['abo.gekuendigt', 'abo.fortgesetzt']);
  });

  it('token links honour Idempotency-Key (DESIGN §3): a retried kuendigen replays its 200, scoped to the link', async () => {
    const mail = email('token-idem');
    await subscribe(planId, mail);
    const otherMail = email('token-idem-other');
    const { abo: other } = await subscribe(planId, otherMail);
    await drain();
    const tokenOf = async (to: string) => {
      const mails = await call(t.app, 'GET', '/api/admin/emails', { token: owner, query: { to } });
      return decodeURIComponent(/\/account\/abo\?token=(\S+)/.exec(mails.data.emails[0].text)?.[1] as string);
    };
    const token = await tokenOf(mail);
    const headers = { 'idempotency-key': 'link-retry' };
    const first = await call(t.app, 'POST', `/api/checkout/abo/${token}/kuendigen`, {
      headers,
      body: { grund: 'zu teuer' },
    });
    expect(first.statusCode).toBe(200);
    const retries = await Promise.all(
      [1, 2, 3].map(() =>
        call(t.app, 'POST', `/api/checkout/abo/${token}/kuendigen`, { headers, body: { grund: 'zu teuer' } }),
      ),
    );
    for (const r of retries) {
      expect(r.statusCode).toBe(200);
      expect(r.headers['idempotent-replayed']).toBe('true');
      expect(r.body).toBe(first.body);
    }
    expectProblem(
      await call(t.app, 'POST', `/api/checkout/abo/${token}/kuendigen`, { headers, body: { grund: 'anders' } }),
      409,
      'idempotency_key_reused',
    );
    // without the key it is a new request: already scheduled
    expectProblem(await call(t.app, 'POST', `/api/checkout/abo/${token}/kuendigen`), 409, 'invalid_state');
    // another link with the same key is its own request, and gets its own answer
    const otherToken = await tokenOf(otherMail);
    const second = await call(t.app, 'POST', `/api/checkout/abo/${otherToken}/kuendigen`, {
      headers,
      body: { grund: 'zu teuer' },
    });
    expect(second.statusCode).toBe(200);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.data.abo.id).toBe(other.id);
    const resumed = await Promise.all(
      [1, 2].map(() =>
        call(t.app, 'POST', `/api/checkout/abo/${token}/fortsetzen`, { headers: { 'idempotency-key': 'link-resume' } }),
      ),
    );
    expect(resumed.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(resumed[1]?.body).toBe(resumed[0]?.body);
    await drain();
    expect(typesOf(other.id).filter((x) => x === 'abo.gekuendigt')).toHaveLength(1);
  });

  it('guessing tokens is rate-limited per client address (429 with Retry-After)', async () => {
    const guess = (i: number, ip: string) =>
      t.app.inject({ method: 'GET', url: `/api/checkout/abo/abolink_guess${i}`, remoteAddress: ip });
    let limited = null as Awaited<ReturnType<typeof guess>> | null;
    for (let i = 0; i < 130 && !limited; i++) {
      const res = await guess(i, '10.9.9.9');
      if (res.statusCode === 429) limited = res;
      else expect(res.statusCode).toBe(404);
    }
    expect(limited?.statusCode).toBe(429);
    expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);
    // another address is not affected
    expect((await guess(0, '10.9.9.10')).statusCode).toBe(404);
  });

  it('guesses from many addresses of one IPv6 /64 count together', async () => {
    const guess = (i: number, ip: string) =>
      t.app.inject({ method: 'GET', url: `/api/checkout/abo/abolink_v6guess${i}`, remoteAddress: ip });
    // start well inside a 10-minute window (fixed windows)
    const left = 600_000 - (Date.now() % 600_000);
    if (left < 15_000) await new Promise((r) => setTimeout(r, left + 50));
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) statuses.push((await guess(i, `2001:db8:99:1:${i.toString(16)}::1`)).statusCode);
    expect(statuses.slice(0, 60).every((s) => s === 404)).toBe(true);
    expect(statuses[60]).toBe(429);
    expect((await guess(0, '2001:db8:99:2::1')).statusCode).toBe(404);
  });
});

describe('admin reads', () => {
  it('filters by status, plan, q and test; detail holds bestellungen; statistik', async () => {
    const own = await createShop(t.app);
    const token = own.ownerToken;
    await call(t.app, 'PUT', '/api/admin/digital/status', { token, body: { aktiv: true } });
    const s = await statsShop(own);
    const list = (query: Record<string, string>) =>
      call(t.app, 'GET', '/api/admin/digital/abos', { token, query }).then((r) => r.data);

    const all = await list({});
    expect(all.count).toBe(505);
    expect(all.abos).toHaveLength(500);
    const created = all.abos.map((a: { created_at: string }) => a.created_at);
    expect([...created].sort().reverse()).toEqual(created);
    expect(all.abos[0].id).toBe(s.newest);

    const expectCount = async (q: Record<string, string>, n: number) =>
      expect((await list(q)).count, JSON.stringify(q)).toBe(n);
    await expectCount(
      { status: 'laufend' },
      s.count((r) => ['active', 'trialing', 'past_due'].includes(r.status)),
    );
    await expectCount(
      { status: 'testzeit' },
      s.count((r) => r.status === 'trialing'),
    );
    await expectCount(
      { status: 'zahlung_offen' },
      s.count((r) => ['past_due', 'unpaid'].includes(r.status)),
    );
    await expectCount(
      { status: 'gekuendigt' },
      s.count((r) => r.cancel && r.status !== 'canceled'),
    );
    await expectCount(
      { status: 'beendet' },
      s.count((r) => r.status === 'canceled'),
    );
    await expectCount({ status: 'alle' }, 505);
    await expectCount(
      { test: 'ja' },
      s.count((r) => r.isTest),
    );
    await expectCount(
      { test: 'nein' },
      s.count((r) => !r.isTest),
    );
    await expectCount(
      { test: 'nein', status: 'testzeit' },
      s.count((r) => !r.isTest && r.status === 'trialing'),
    );
    await expectCount(
      { plan_id: s.planB },
      s.count((r) => r.plan === 'B'),
    );
    await expectCount({ q: 'seed-7@' }, 1);
    await expectCount({ q: s.newest }, 1);
    await expectCount(
      { q: 'SEED-1' },
      s.count((r) => /^seed-1/.test(r.email)),
    );
    expectProblem(
      await call(t.app, 'GET', '/api/admin/digital/abos', { token, query: { status: 'aktiv' } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await call(t.app, 'GET', '/api/admin/digital/abos', { token, query: { test: 'vielleicht' } }),
      400,
      'validation_failed',
    );

    const stats = await call(t.app, 'GET', '/api/admin/digital/abos/statistik', { token });
    expect(stats.statusCode).toBe(200);
    expect(stats.data).toEqual({
      laufend: s.count((r) => ['active', 'trialing', 'past_due'].includes(r.status)),
      testzeit: s.count((r) => r.status === 'trialing'),
      zahlung_offen: s.count((r) => ['past_due', 'unpaid'].includes(r.status)),
      gekuendigt: s.count((r) => r.cancel && r.status !== 'canceled'),
      beendet: s.count((r) => r.status === 'canceled'),
      mrr_cents: s.mrr(() => true),
      currency: 'EUR',
      mrr_by_currency: [{ currency: 'EUR', mrr_cents: s.mrr(() => true) }],
    });
    const real = await call(t.app, 'GET', '/api/admin/digital/abos/statistik', { token, query: { test: 'nein' } });
    expect(real.data.mrr_cents).toBe(s.mrr((r) => !r.isTest));

    // subscriptions sold in another currency count in their own currency, never in the shop's
    await db().execute(sql`INSERT INTO abos (id, shop_id, plan_id, product_id, channel_id, customer_email, status,
        cancel_at_period_end, billing_anchor, period_index, current_period_start, current_period_end, price_cents,
        currency, interval_unit, interval_count, is_test, provider, manage_token_hash, created_at, updated_at)
        SELECT id || '_usd', shop_id, plan_id, product_id, channel_id, customer_email, 'active', false, billing_anchor,
          period_index, current_period_start, current_period_end, 999, 'USD', 'month', 1, false, provider,
          manage_token_hash || '_usd', created_at, updated_at
        FROM abos WHERE shop_id = ${own.shopId} AND id IN ('abo_seed0000', 'abo_seed0001')`);
    const mixed = await call(t.app, 'GET', '/api/admin/digital/abos/statistik', { token });
    expect(mixed.data).toMatchObject({
      mrr_cents: s.mrr(() => true),
      currency: 'EUR',
      mrr_by_currency: [
        { currency: 'EUR', mrr_cents: s.mrr(() => true) },
        { currency: 'USD', mrr_cents: 1998 },
      ],
    });
  });

  it('the detail returns {abo, bestellungen} of this subscription only', async () => {
    const p = await plan({ name: 'Detail' });
    const { abo } = await subscribe(p.id, email('detail'));
    const res = await call(t.app, 'GET', `/api/admin/digital/abos/${abo.id}`, { token: owner });
    expect(Object.keys(res.data).sort()).toEqual(['abo', 'bestellungen']);
    expect(res.data.abo.id).toBe(abo.id);
    expect(res.data.bestellungen.every((o: { subscription_id: string }) => o.subscription_id === abo.id)).toBe(true);
    expectProblem(await call(t.app, 'GET', '/api/admin/digital/abos/abo_unknown', { token: owner }), 404, 'not_found');
  });
});

interface SeedRow {
  status: string;
  cancel: boolean;
  isTest: boolean;
  plan: 'A' | 'B';
  email: string;
  unit: 'month' | 'year' | 'week';
  price: number;
}

/** 505 subscriptions of a fresh shop written directly, with known statuses, intervals and prices. */
async function statsShop(own: ShopFixture) {
  const chan = (
    await call(t.app, 'POST', '/api/admin/channels', {
      token: own.ownerToken,
      body: { name: 'DE', default_country: 'DE', currency: 'EUR' },
    })
  ).data.id;
  const prod = (
    await call(t.app, 'POST', '/api/products', {
      token: own.ownerToken,
      body: { name: 'K', is_digital: true, status: 'published' },
    })
  ).data.id;
  const mk = async (name: string) =>
    (
      await call(t.app, 'POST', '/api/admin/digital/plaene', {
        token: own.ownerToken,
        body: { product_id: prod, name, price_cents: 1000, interval_unit: 'month' },
      })
    ).data.id as string;
  const planA = await mk('A');
  const planB = await mk('B');
  const statuses = ['active', 'trialing', 'past_due', 'unpaid', 'canceled'];
  const rows: SeedRow[] = [];
  for (let i = 0; i < 505; i++) {
    const unit = (['month', 'year', 'week'] as const)[i % 3] as SeedRow['unit'];
    rows.push({
      status: statuses[i % 5] as string,
      cancel: i % 10 === 0 || i % 10 === 4,
      isTest: i % 2 === 0,
      plan: i % 7 === 0 ? 'B' : 'A',
      email: `seed-${i}@kunde.test`,
      unit,
      price: unit === 'year' ? 12_000 : unit === 'week' ? 700 : 1000,
    });
  }
  const values = sql.join(
    rows.map(
      (r, i) =>
        sql`(${`abo_seed${String(i).padStart(4, '0')}`}, ${own.shopId}, ${r.plan === 'B' ? planB : planA}, ${prod}, ${chan},
             ${r.email}, ${r.status}, ${r.cancel}, now(), 1, now(), now() + interval '30 days', ${r.price}, 'EUR',
             ${r.unit}, 1, ${r.isTest}, 'test', ${`seedhash${i}`},
             now() - make_interval(secs => ${505 - i}), now())`,
    ),
    sql`, `,
  );
  await db().execute(sql`INSERT INTO abos (id, shop_id, plan_id, product_id, channel_id, customer_email, status,
      cancel_at_period_end, billing_anchor, period_index, current_period_start, current_period_end, price_cents,
      currency, interval_unit, interval_count, is_test, provider, manage_token_hash, created_at, updated_at)
      VALUES ${values}`);
  const perMonth = { month: 1, year: 1 / 12, week: 52 / 12 };
  return {
    planB,
    newest: 'abo_seed0504',
    count: (f: (r: SeedRow) => boolean) => rows.filter(f).length,
    mrr: (f: (r: SeedRow) => boolean) =>
      Math.floor(
        rows
          .filter((r) => f(r) && ['active', 'past_due'].includes(r.status))
          .reduce((s, r) => s + r.price * perMonth[r.unit], 0) + 0.5,
      ),
  };
}

describe('events and idempotent renewals', () => {
  it('every event is signed (Standard Webhooks) and a subscription’s events arrive in order', async () => {
    await drain();
    expect(received.length).toBeGreaterThan(10);
    for (const r of received) {
      expect(verify(r)).toEqual(r.event);
      expect(r.headers['webhook-id']).toBe(r.event.id);
    }
    const byAbo = new Map<string, Received[]>();
    for (const r of received) {
      const id = r.event.data.subscription_id as string | undefined;
      if (id) byAbo.set(id, [...(byAbo.get(id) ?? []), r]);
    }
    for (const list of byAbo.values()) {
      const created = list.map((r) => r.event.created_at);
      expect([...created].sort()).toEqual(created);
      expect(list[0]?.event.type).toBe('checkout.completed');
    }
    // a forged signature does not verify
    const first = received[0] as Received;
    expect(() => verify({ ...first, body: first.body.replace('"is_test":true', '"is_test":false') })).toThrow();
  });

  it('two workers, duplicate jobs and a job re-run after a crash create one order per period', async () => {
    const p = await plan({ name: 'Parallel' });
    const { abo } = await subscribe(p.id, email('parallel'));
    const now = t.app.deps.clock.now();
    // duplicate due jobs for the same subscription, as a retry storm or a double enqueue would leave
    for (let i = 0; i < 3; i++) {
      await enqueue(
        db(),
        DUE_JOB,
        { shop_id: shop.shopId, abo_id: abo.id },
        { now, shopId: shop.shopId, runAt: new Date(abo.current_period_end) },
      );
    }
    await advance(31 * DAY, false);
    const worker = () =>
      new Worker({ db: db(), clock: t.app.deps.clock, log: t.app.log, registry: t.app.deps.jobs, pollMs: 1000 });
    await Promise.all([worker().drain(), worker().drain(), worker().drain()]);
    let d = await detail(abo.id);
    expect(d.bestellungen).toHaveLength(2);
    expect(d.abo.payments_count).toBe(2);

    // the process died after the renewal committed but before the job was marked done: it runs again
    await db().execute(sql`UPDATE jobs SET status = 'running', locked_until = now() - interval '1 minute'
                           WHERE type = ${DUE_JOB} AND payload->>'abo_id' = ${abo.id} AND status = 'done'`);
    await drain();
    expect(await processDue(shopCtx(t.app, shop.shopId), abo.id)).toBe('none');
    d = await detail(abo.id);
    expect(d.bestellungen).toHaveLength(2);
    expect(typesOf(abo.id).filter((x) => x === 'abo.bezahlt')).toHaveLength(2);

    // and the database refuses a second order for a payment number
    await expect(
      db().execute(sql`UPDATE orders SET subscription_payment_number = 1
                       WHERE subscription_id = ${abo.id} AND subscription_payment_number = 2`),
    ).rejects.toThrow();
  });
});

describe('the billed period of every payment (Leistungszeitraum, docs/finance.md)', () => {
  it('first and renewal orders carry the period they pay; the invoice and its credit note state it (JSON, UBL, CII)', async () => {
    // the clock to the 1st of next month, 10:00 UTC: periods from the 1st to the last day of a month
    const now = t.app.deps.clock.now();
    const target = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 10);
    await advance(Math.ceil((target - now.getTime()) / 1000));
    const day = (offsetMonths: number, d: number) =>
      new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1 + offsetMonths, d)).toISOString().slice(0, 10);
    await call(t.app, 'PUT', '/api/admin/settings/company', { token: owner, body: SELLER });

    const p = await plan({ name: 'Monatlich', price_cents: 1190 });
    const { abo } = await subscribe(p.id, email('period'));
    await advance(31 * DAY);
    const d = await detail(abo.id);
    expect(d.bestellungen).toHaveLength(2);
    const [first, renewal] = d.bestellungen as Record<string, any>[];
    // the first order pays the first period, the renewal the second (end exclusive, as the abo states it)
    expect(first).toMatchObject({ service_period_start: abo.current_period_start });
    expect(first?.service_period_end).toBe(renewal?.service_period_start);
    expect(renewal?.service_period_end).toBe(d.abo.current_period_end);
    expect(new Date(first?.service_period_start).getUTCDate()).toBe(1);
    expect(new Date(renewal?.service_period_start).getUTCMonth()).toBe((now.getUTCMonth() + 2) % 12);
    const read = await call(t.app, 'GET', `/api/admin/orders/${renewal?.id}`, { token: owner });
    expect(read.data.order).toMatchObject({
      service_period_start: renewal?.service_period_start,
      service_period_end: renewal?.service_period_end,
    });

    // the invoices: days in the shop's time zone (Europe/Berlin), the last day inclusive
    const invoiceOf = async (orderId: string) => {
      const draft = await call(t.app, 'POST', `/api/admin/orders/${orderId}/invoice`, {
        token: owner,
        body: { is_business: true },
      });
      expect(draft.statusCode, draft.body).toBe(201);
      const fin = await call(t.app, 'POST', `/api/admin/invoices/${draft.data.id}/finalize`, { token: owner });
      expect(fin.statusCode, fin.body).toBe(200);
      return fin.data;
    };
    const inv1 = await invoiceOf(first?.id);
    expect(inv1).toMatchObject({ service_period_start: day(0, 1), service_period_end: day(1, 0) });
    const inv2 = await invoiceOf(renewal?.id);
    expect(inv2).toMatchObject({ service_period_start: day(1, 1), service_period_end: day(2, 0) });

    const get = (url: string) => call(t.app, 'GET', url, { token: owner });
    const ubl = (await get(`/api/admin/invoices/${inv2.id}/xrechnung`)).body;
    const compact = (xml: string) => xml.replace(/>\s+</g, '><');
    expect(compact(ubl)).toContain(
      `<cac:InvoicePeriod><cbc:StartDate>${day(1, 1)}</cbc:StartDate><cbc:EndDate>${day(2, 0)}</cbc:EndDate></cac:InvoicePeriod>`,
    );
    // BT-72 would say the service was completed on the payment day: the period replaces it
    expect(ubl).not.toContain('ActualDeliveryDate');
    const cii = compact((await get(`/api/admin/invoices/${inv2.id}/xrechnung?syntax=cii`)).body);
    const ymd = (iso: string) => iso.replaceAll('-', '');
    expect(cii).toContain(
      `<ram:BillingSpecifiedPeriod><ram:StartDateTime><udt:DateTimeString format="102">${ymd(day(1, 1))}</udt:DateTimeString></ram:StartDateTime><ram:EndDateTime><udt:DateTimeString format="102">${ymd(day(2, 0))}</udt:DateTimeString></ram:EndDateTime></ram:BillingSpecifiedPeriod>`,
    );
    expect(cii).toContain('<ram:ApplicableHeaderTradeDelivery/>');

    // a credit note of it states the same period
    const cn = await call(t.app, 'POST', `/api/admin/invoices/${inv2.id}/credit-note`, { token: owner, body: {} });
    expect(cn.statusCode, cn.body).toBe(201);
    expect(cn.data).toMatchObject({ service_period_start: day(1, 1), service_period_end: day(2, 0) });
    const cnFinal = await call(t.app, 'POST', `/api/admin/credit-notes/${cn.data.id}/finalize`, { token: owner });
    expect(cnFinal.statusCode, cnFinal.body).toBe(200);
    const cnUbl = compact((await get(`/api/admin/credit-notes/${cn.data.id}/xrechnung`)).body);
    expect(cnUbl).toContain(`<cac:InvoicePeriod><cbc:StartDate>${day(1, 1)}</cbc:StartDate>`);
  });
});
