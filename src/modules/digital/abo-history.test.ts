/**
 * The subscription history (issue 31, docs/digital.md "Verlauf"): the abo list's pages beyond
 * 500 (`offset`), each subscription's stored events, and the daily series the Statistik charts
 * draw (MRR per day and currency, new / cancelled / churned per month, trial conversion).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  customerToken,
  employeeToken,
  expectProblem,
  PLATFORM_TOKEN,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { isoDay } from '../../platform/dates.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;
let productId: string;
const RETURN = `${STORE_ORIGIN}/abo/danke`;
const good = { name: 'Erika Muster', line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' };
const DAY = 86_400;

const advance = async (seconds: number) => {
  const res = await call(t.app, 'POST', '/api/platform/clock/advance', {
    token: PLATFORM_TOKEN,
    body: { seconds, run_jobs: true },
  });
  expect(res.statusCode).toBe(200);
  await t.app.deps.worker.drain();
  return new Date(res.data.now);
};

async function plan(body: Record<string, unknown>) {
  const res = await call(t.app, 'POST', '/api/admin/digital/plaene', {
    token: owner,
    body: { product_id: productId, name: 'Plan', price_cents: 1000, interval_unit: 'month', ...body },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.data.id as string;
}

async function subscribe(planId: string, email: string) {
  const s = await call(t.app, 'POST', '/api/store/abo-sessions', {
    token: shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: { plan_id: planId, return_url: RETURN, customer_email: email },
  });
  expect(s.statusCode, s.body).toBe(201);
  const paid = await call(t.app, 'POST', `/pay/${s.data.id}`, {
    body: new URLSearchParams({ ...good, card_number: '4242424242424242' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(paid.statusCode, paid.body).toBe(303);
  await t.app.deps.worker.drain();
  const list = await call(t.app, 'GET', '/api/admin/digital/abos', { token: owner, query: { q: email } });
  return list.data.abos[0].id as string;
}

const verlauf = (query: Record<string, string>, token = owner) =>
  call(t.app, 'GET', '/api/admin/digital/abos/statistik/verlauf', { token, query });

let start: Date;
let paying: string;
let trial: string;

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
  await call(t.app, 'PUT', '/api/admin/digital/status', { token: owner, body: { aktiv: true } });
  productId = (
    await call(t.app, 'POST', '/api/products', {
      token: owner,
      body: { name: 'Kurs', is_digital: true, status: 'published', base_price_cents: 1000 },
    })
  ).data.id;
  start = await advance(1);
  paying = await subscribe(await plan({ name: 'Monat' }), 'zahlt@kunde.test');
  trial = await subscribe(await plan({ name: 'Test', trial_days: 7 }), 'testet@kunde.test');
  // the trial converts (its first charge on day 7), then the paying one is cancelled at once on day 10
  await advance(10 * DAY);
  const cancelled = await call(t.app, 'POST', `/api/admin/digital/abos/${paying}/kuendigen`, {
    token: owner,
    body: { sofort: true, grund: 'zu teuer' },
  });
  expect(cancelled.statusCode, cancelled.body).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe('GET /api/admin/digital/abos: pages (offset)', () => {
  it('pages newest first with limit and offset; count is of all; 500 stays the most', async () => {
    const all = await call(t.app, 'GET', '/api/admin/digital/abos', { token: owner });
    expect(all.data).toMatchObject({ count: 2, limit: 500, offset: 0 });
    expect(all.data.abos.map((a: { id: string }) => a.id)).toEqual([trial, paying]);
    const second = await call(t.app, 'GET', '/api/admin/digital/abos', {
      token: owner,
      query: { limit: '1', offset: '1' },
    });
    expect(second.data).toMatchObject({ count: 2, limit: 1, offset: 1 });
    expect(second.data.abos.map((a: { id: string }) => a.id)).toEqual([paying]);
    const past = await call(t.app, 'GET', '/api/admin/digital/abos', { token: owner, query: { offset: '2' } });
    expect(past.data.abos).toEqual([]);
    expectProblem(
      await call(t.app, 'GET', '/api/admin/digital/abos', { token: owner, query: { limit: '501' } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await call(t.app, 'GET', '/api/admin/digital/abos', { token: owner, query: { offset: '-1' } }),
      400,
      'validation_failed',
    );
  });
});

describe('GET /api/admin/digital/abos/:id/events', () => {
  it('lists the stored events oldest first, with what each adds', async () => {
    const res = await call(t.app, 'GET', `/api/admin/digital/abos/${paying}/events`, { token: owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data.events.map((e: { type: string }) => e.type)).toEqual([
      'abo.aktiv',
      'abo.bezahlt',
      'abo.gekuendigt',
      'abo.beendet',
    ]);
    const cancel = res.data.events[2];
    expect(cancel).toMatchObject({
      status: 'canceled',
      data: { sofort: true, grund: 'zu teuer', canceled_by: 'admin' },
    });
    expect(res.data.events[1].data).toMatchObject({ payment_number: 1, amount_cents: 1000 });
    const trialEvents = await call(t.app, 'GET', `/api/admin/digital/abos/${trial}/events`, { token: owner });
    expect(trialEvents.data.events.map((e: { type: string; status: string }) => `${e.type}:${e.status}`)).toEqual([
      'abo.aktiv:trialing',
      'abo.aktiv:active',
      'abo.bezahlt:active',
    ]);
  });

  it('404 for an unknown or another shop’s subscription; refuses tokens and customers', async () => {
    expectProblem(
      await call(t.app, 'GET', '/api/admin/digital/abos/abo_unknown/events', { token: owner }),
      404,
      'not_found',
    );
    const other = await createShop(t.app);
    await call(t.app, 'PUT', '/api/admin/digital/status', { token: other.ownerToken, body: { aktiv: true } });
    expectProblem(
      await call(t.app, 'GET', `/api/admin/digital/abos/${paying}/events`, { token: other.ownerToken }),
      404,
      'not_found',
    );
    expect((await call(t.app, 'GET', `/api/admin/digital/abos/${paying}/events`)).statusCode).toBe(401);
    const token = await apiToken(t.app, shop, ['finance:read']);
    expectProblem(await call(t.app, 'GET', `/api/admin/digital/abos/${paying}/events`, { token }), 403, 'scope_denied');
  });

  it('a channel-restricted employee sees only the subscriptions of their channels', async () => {
    const inside = await employeeToken(t.app, shop, 'viewer', [shop.defaultChannelId]);
    expect((await call(t.app, 'GET', `/api/admin/digital/abos/${paying}/events`, { token: inside })).statusCode).toBe(
      200,
    );
    const none = await employeeToken(t.app, shop, 'viewer', []);
    expectProblem(
      await call(t.app, 'GET', `/api/admin/digital/abos/${paying}/events`, { token: none }),
      404,
      'not_found',
    );
    const empty = await verlauf({ from: isoDay(start), to: isoDay(start) }, none);
    expect(empty.data.mrr[0].days[0]).toMatchObject({ mrr_cents: 0, paying: 0 });
  });
});

describe('GET /api/admin/digital/abos/statistik/verlauf', () => {
  it('MRR per day and currency, the months and the trial conversion from the stored history', async () => {
    const before = isoDay(new Date(start.getTime() - DAY * 1000));
    const today = isoDay(new Date(start.getTime() + 10 * DAY * 1000));
    const res = await verlauf({ from: before, to: isoDay(new Date(start.getTime() + 40 * DAY * 1000)) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({ currency: 'EUR', days: 42 });
    const days: { date: string; mrr_cents: number; paying: number }[] = res.data.mrr[0].days;
    // the series ends today; the future has no history yet
    expect(days.at(-1)?.date).toBe(today);
    expect(days).toHaveLength(12);
    const on = (offset: number) => days[offset + 1];
    expect(on(-1)).toMatchObject({ mrr_cents: 0, paying: 0 });
    // day 0: the paying subscription; the trial pays nothing yet
    expect(on(0)).toMatchObject({ date: isoDay(start), mrr_cents: 1000, paying: 1 });
    expect(on(6)).toMatchObject({ mrr_cents: 1000, paying: 1 });
    // the trial converts on day 7
    expect(on(7)).toMatchObject({ mrr_cents: 2000, paying: 2 });
    // day 10: the paying one ended at once
    expect(on(10)).toMatchObject({ mrr_cents: 1000, paying: 1 });
    const months = res.data.months as { month: string; new: number; cancelled: number; churned: number }[];
    expect(months.reduce((s, m) => s + m.new, 0)).toBe(2);
    expect(months.reduce((s, m) => s + m.cancelled, 0)).toBe(1);
    expect(months.reduce((s, m) => s + m.churned, 0)).toBe(1);
    expect(months[0]?.month).toBe(before.slice(0, 7));
    expect(res.data.trials).toEqual({ started: 1, converted: 1, in_trial: 0, ended_without_payment: 0 });
    // test subscriptions apart: both were bought with the test provider
    const real = await verlauf({ from: before, to: today, test: 'nein' });
    expect(real.data.mrr[0].days.every((d: { mrr_cents: number }) => d.mrr_cents === 0)).toBe(true);
  });

  it('validates the range at the query path (400) and refuses other credentials', async () => {
    const check = async (query: Record<string, string>, path: string) => {
      const res = await verlauf(query);
      expectProblem(res, 400, 'validation_failed');
      expect(res.data.errors.map((e: { path: string }) => e.path)).toContain(path);
    };
    await check({ to: '2026-01-01' }, '/query/from');
    await check({ from: '2026-01-01' }, '/query/to');
    await check({ from: 'gestern', to: '2026-01-01' }, '/query/from');
    await check({ from: '2026-02-01', to: '2026-01-01' }, '/query/to');
    await check({ from: '2025-01-01', to: '2026-02-05' }, '/query/to');
    await check({ from: '2026-01-01', to: '2026-01-02', test: 'vielleicht' }, '/query/test');
    await check({ from: '2026-01-01', to: '2026-01-02', extra: '1' }, '/query/extra');
    // 400 days are fine; the last day PostgreSQL takes too
    expect((await verlauf({ from: '2025-01-01', to: '2026-02-04' })).statusCode).toBe(200);
    expect((await verlauf({ from: '9999-12-01', to: '9999-12-31' })).statusCode).toBe(200);
    expect((await verlauf({ from: '0001-01-01', to: '0001-01-31' })).statusCode).toBe(200);
    expect(
      (await call(t.app, 'GET', '/api/admin/digital/abos/statistik/verlauf?from=2026-01-01&to=2026-01-02')).statusCode,
    ).toBe(401);
    const customer = await customerToken(t.app, shop);
    expectProblem(await verlauf({ from: '2026-01-01', to: '2026-01-02' }, customer), 403, 'credential_denied');
  });
});
