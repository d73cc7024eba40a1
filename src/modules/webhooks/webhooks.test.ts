import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  employeeToken,
  expectProblem,
  type ShopFixture,
  shopCtx,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { withTx } from '../../platform/db/tx.js';
import { blockedReason, resolveDestination, send } from './delivery.js';
import { emitEvent } from './index.js';
import { MAX_ATTEMPTS, RETRY_SCHEDULE_MS } from './webhooks.service.js';

// ---- a real receiver on 127.0.0.1 ----

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}
type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

class Receiver {
  readonly received: Received[] = [];
  private readonly answers = new Map<string, (r: Received, n: number) => Answer>();
  private server!: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (c: string) => {
        body += c;
      });
      req.on('end', () => {
        const r: Received = { path: req.url ?? '', headers: req.headers, body };
        this.received.push(r);
        const answer = this.answers.get(r.path)?.(r, this.at(r.path).length) ?? { status: 200 };
        if (answer === 'hang') return;
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** How the receiver answers requests to `path` (n = how many it has seen there, this one included). */
  on(path: string, fn: (r: Received, n: number) => Answer): void {
    this.answers.set(path, fn);
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }
}

let t: TestApp;
let rx: Receiver;
let pathCounter = 0;

beforeAll(async () => {
  t = await startApp();
  rx = new Receiver();
  await rx.start();
});
afterAll(async () => {
  await rx.close();
  await t.close();
});

const db = () => t.app.deps.database.db;
const drain = () => t.app.deps.worker.drain();
const advance = (seconds: number) => t.app.deps.clock.advance(db(), seconds);
const now = () => t.app.deps.clock.now();

/** A shop with an endpoint at a path of its own on the receiver. */
async function shopWithEndpoint(): Promise<{ shop: ShopFixture; secret: string; path: string }> {
  const shop = await createShop(t.app);
  const path = `/hook-${++pathCounter}`;
  const res = await call(t.app, 'PUT', '/api/admin/checkout/webhook', {
    token: shop.ownerToken,
    body: { url: `${rx.base}${path}` },
  });
  expect(res.statusCode).toBe(201);
  return { shop, secret: res.data.secret, path };
}

const deliveries = async (shop: ShopFixture, query = '') =>
  (await call(t.app, 'GET', `/api/admin/checkout/webhook/deliveries${query}`, { token: shop.ownerToken })).data;

const deliveryOf = async (shop: ShopFixture, id: string) =>
  (await deliveries(shop)).deliveries.find((d: { id: string }) => d.id === id);

/** Checks the Standard Webhooks signature for any timestamp (the library's own check is against real time). */
function signatureValid(secret: string, r: Received): boolean {
  const id = String(r.headers['webhook-id']);
  const ts = Number(r.headers['webhook-timestamp']);
  return new Webhook(secret).sign(id, new Date(ts * 1000), r.body) === r.headers['webhook-signature'];
}

const emit = (shop: ShopFixture, data: Record<string, unknown>, orderingKey?: string) =>
  withTx(shopCtx(t.app, shop.shopId), (tx) =>
    emitEvent(tx, {
      type: 'abo.bezahlt',
      data,
      isTest: true,
      now: now(),
      ...(orderingKey ? { orderingKey } : {}),
    }),
  );

describe('webhook endpoint', () => {
  it('PUT creates the endpoint and shows the secret once; later PUTs change the URL only', async () => {
    const shop = await createShop(t.app);
    const token = shop.ownerToken;
    expectProblem(await call(t.app, 'GET', '/api/admin/checkout/webhook', { token }), 404, 'not_found');
    const created = await call(t.app, 'PUT', '/api/admin/checkout/webhook', {
      token,
      body: { url: `${rx.base}/first` },
    });
    expect(created.statusCode).toBe(201);
    expect(created.data.url).toBe(`${rx.base}/first`);
    expect(created.data.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.data.secret.slice(6), 'base64').length).toBeGreaterThanOrEqual(24);
    const read = await call(t.app, 'GET', '/api/admin/checkout/webhook', { token });
    expect(read.statusCode).toBe(200);
    expect(read.data).toEqual({
      url: `${rx.base}/first`,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const updated = await call(t.app, 'PUT', '/api/admin/checkout/webhook', {
      token,
      body: { url: `${rx.base}/second` },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.data.secret).toBeUndefined();
    expect(updated.data.url).toBe(`${rx.base}/second`);
    // the secret is stored encrypted, never in the clear
    const rows = (await db().execute(
      sql`SELECT secret_encrypted FROM webhook_endpoints WHERE shop_id = ${shop.shopId}`,
    )) as unknown as { rows: { secret_encrypted: string }[] };
    expect(rows.rows[0]?.secret_encrypted).toMatch(/^v1\./);
    expect(rows.rows[0]?.secret_encrypted).not.toContain(created.data.secret.slice(6));
  });

  it('refuses invalid URLs and unknown fields with 400', async () => {
    const shop = await createShop(t.app);
    const put = (body: unknown) => call(t.app, 'PUT', '/api/admin/checkout/webhook', { token: shop.ownerToken, body });
    for (const body of [
      {},
      { url: '' },
      { url: 42 },
      { url: 'not a url' },
      { url: 'ftp://example.com/hook' },
      { url: 'https://user:pw@example.com/hook' },
      { url: `https://example.com/${'x'.repeat(2100)}` },
      { url: 'https://example.com/hook', secret: 'whsec_mine' },
    ]) {
      expectProblem(await put(body), 400, 'validation_failed');
    }
    expectProblem(
      await call(t.app, 'GET', '/api/admin/checkout/webhook', { token: shop.ownerToken }),
      404,
      'not_found',
    );
  });

  it('refuses API tokens (token_blocked) and employees below admin', async () => {
    const shop = await createShop(t.app);
    const token = await apiToken(t.app, shop, ['catalog:write']);
    expectProblem(await call(t.app, 'GET', '/api/admin/checkout/webhook', { token }), 403, 'token_blocked');
    const viewer = await employeeToken(t.app, shop, 'viewer');
    expectProblem(
      await call(t.app, 'PUT', '/api/admin/checkout/webhook', { token: viewer, body: { url: 'https://example.com' } }),
      403,
      'role_denied',
    );
    const admin = await employeeToken(t.app, shop, 'admin');
    const res = await call(t.app, 'PUT', '/api/admin/checkout/webhook', {
      token: admin,
      body: { url: 'https://example.com/hook' },
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('delivery', () => {
  it('delivers a signed envelope that the receiver verifies with standardwebhooks', async () => {
    const { shop, secret, path } = await shopWithEndpoint();
    const sent = await call(t.app, 'POST', '/api/admin/checkout/webhook/test', { token: shop.ownerToken });
    expect(sent.statusCode).toBe(202);
    expect(sent.data.event_id).toMatch(/^evt_/);
    expect(sent.data.delivery_id).toMatch(/^dlv_/);
    // nothing is sent inside the request: the job runs in the worker
    expect(rx.at(path)).toHaveLength(0);
    await drain();
    const [r] = rx.at(path);
    expect(r).toBeDefined();
    const got = r as Received;
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['webhook-id']).toBe(sent.data.event_id);
    expect(got.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(Math.abs(Number(got.headers['webhook-timestamp']) - now().getTime() / 1000)).toBeLessThan(5);
    const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
    expect(verified).toEqual({
      id: sent.data.event_id,
      type: 'webhook.test',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      is_test: true,
      data: expect.any(Object),
    });
    // a wrong secret does not verify
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString('base64')}`).verify(
        got.body,
        got.headers as Record<string, string>,
      ),
    ).toThrow();
    const d = await deliveryOf(shop, sent.data.delivery_id);
    expect(d).toMatchObject({
      event_id: sent.data.event_id,
      event_type: 'webhook.test',
      url: `${rx.base}${path}`,
      status: 'succeeded',
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(d.delivered_at).not.toBeNull();
  });

  it('retries after a 500 with the same webhook-id, on the backoff schedule of the business clock', async () => {
    const { shop, secret, path } = await shopWithEndpoint();
    rx.on(path, (_r, n) => (n <= 2 ? { status: 500, body: 'boom' } : { status: 204 }));
    const { eventId, deliveryId } = await emit(shop, { subscription_id: 'abo_x' });
    await drain();
    let d = await deliveryOf(shop, deliveryId as string);
    expect(d).toMatchObject({ status: 'failed', attempts: 1, last_status_code: 500, last_error: 'HTTP 500: boom' });
    const due1 = new Date(d.next_attempt_at).getTime() - now().getTime();
    expect(due1).toBeGreaterThan(3_000);
    expect(due1).toBeLessThanOrEqual(5_000);
    // not due yet: nothing happens
    await drain();
    expect(rx.at(path)).toHaveLength(1);
    await advance(6);
    await drain();
    d = await deliveryOf(shop, deliveryId as string);
    expect(d).toMatchObject({ status: 'failed', attempts: 2 });
    const due2 = new Date(d.next_attempt_at).getTime() - now().getTime();
    expect(due2).toBeGreaterThan(290_000);
    expect(due2).toBeLessThanOrEqual(300_000);
    await advance(301);
    await drain();
    d = await deliveryOf(shop, deliveryId as string);
    expect(d).toMatchObject({ status: 'succeeded', attempts: 3, last_status_code: 204, last_error: null });
    const got = rx.at(path);
    expect(got).toHaveLength(3);
    expect(got.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId, eventId]);
    // each attempt is signed afresh at the wall-clock time of the attempt, and verifies
    expect(Number(got[2]?.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(
      Number(got[0]?.headers['webhook-timestamp']),
    );
    for (const r of got) expect(signatureValid(secret, r)).toBe(true);
    for (const r of got)
      expect(() => new Webhook(secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
  });

  it('delivers events of one ordering key in order: a failing one holds back the next', async () => {
    const { shop, path } = await shopWithEndpoint();
    rx.on(path, (_r, n) => (n === 1 ? { status: 503 } : { status: 200 }));
    const first = await emit(shop, { n: 1 }, 'abo_1');
    const second = await emit(shop, { n: 2 }, 'abo_1');
    await drain();
    expect(rx.at(path).map((r) => JSON.parse(r.body).data.n)).toEqual([1]);
    expect((await deliveryOf(shop, second.deliveryId as string)).status).toBe('pending');
    // another key is not held back
    const other = await emit(shop, { n: 3 }, 'abo_2');
    await drain();
    expect(rx.at(path).map((r) => JSON.parse(r.body).data.n)).toEqual([1, 3]);
    expect((await deliveryOf(shop, other.deliveryId as string)).status).toBe('succeeded');
    await advance(6);
    await drain();
    expect(rx.at(path).map((r) => JSON.parse(r.body).data.n)).toEqual([1, 3, 1, 2]);
    expect((await deliveryOf(shop, first.deliveryId as string)).status).toBe('succeeded');
    expect((await deliveryOf(shop, second.deliveryId as string)).status).toBe('succeeded');
  });

  it('gives up after the last attempt (dead), releases the key, and a manual retry sends it again', async () => {
    const { shop, path } = await shopWithEndpoint();
    let healthy = false;
    rx.on(path, (r) => (healthy || JSON.parse(r.body).data.n !== 1 ? { status: 200 } : { status: 500 }));
    const doomed = await emit(shop, { n: 1 }, 'abo_dead');
    const next = await emit(shop, { n: 2 }, 'abo_dead');
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await drain();
      if (i < RETRY_SCHEDULE_MS.length) await advance((RETRY_SCHEDULE_MS[i] as number) / 1000 + 1);
    }
    await drain();
    const d = await deliveryOf(shop, doomed.deliveryId as string);
    expect(d).toMatchObject({ status: 'dead', attempts: MAX_ATTEMPTS, next_attempt_at: null, last_status_code: 500 });
    // ten attempts spread over more than two and a half days
    expect(RETRY_SCHEDULE_MS.reduce((a, b) => a + b, 0)).toBeGreaterThan(2.5 * 86_400_000);
    expect((await deliveryOf(shop, next.deliveryId as string)).status).toBe('succeeded');
    expect(rx.at(path).map((r) => JSON.parse(r.body).data.n)).toEqual([...Array(MAX_ATTEMPTS).fill(1), 2]);

    const dead = await deliveries(shop, '?status=dead');
    expect(dead.deliveries.map((x: { id: string }) => x.id)).toEqual([doomed.deliveryId]);

    healthy = true;
    const retried = await call(t.app, 'POST', `/api/admin/checkout/webhook/deliveries/${doomed.deliveryId}/retry`, {
      token: shop.ownerToken,
    });
    expect(retried.statusCode).toBe(202);
    expect(retried.data).toMatchObject({ id: doomed.deliveryId, status: 'pending' });
    expectProblem(
      await call(t.app, 'POST', `/api/admin/checkout/webhook/deliveries/${doomed.deliveryId}/retry`, {
        token: shop.ownerToken,
      }),
      409,
      'invalid_state',
    );
    await drain();
    const after = await deliveryOf(shop, doomed.deliveryId as string);
    expect(after).toMatchObject({ status: 'succeeded', attempts: MAX_ATTEMPTS + 1 });
    const last = rx.at(path).at(-1) as Received;
    expect(last.headers['webhook-id']).toBe(doomed.eventId);
  });

  it('resends a succeeded delivery with the same webhook-id and body, as one more attempt in the log (docs/webhooks.md)', async () => {
    const { shop, secret, path } = await shopWithEndpoint();
    rx.on(path, () => ({ status: 200 }));
    const { eventId, deliveryId } = await emit(shop, { n: 7 }, 'abo_resend');
    await drain();
    const first = await deliveryOf(shop, deliveryId as string);
    expect(first).toMatchObject({ status: 'succeeded', attempts: 1 });
    await advance(3600);
    const res = await call(t.app, 'POST', `/api/admin/checkout/webhook/deliveries/${deliveryId}/retry`, {
      token: shop.ownerToken,
    });
    expect(res.statusCode).toBe(202);
    expect(res.data).toMatchObject({ id: deliveryId, status: 'pending', attempts: 1 });
    await drain();
    const got = rx.at(path);
    expect(got).toHaveLength(2);
    expect(got.map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
    expect(got[1]?.body).toBe(got[0]?.body);
    // signed afresh at the (wall-clock) time of the resend, and it verifies at real time although
    // the business clock was advanced by an hour
    expect(Number(got[1]?.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(
      Number(got[0]?.headers['webhook-timestamp']),
    );
    expect(signatureValid(secret, got[1] as Received)).toBe(true);
    const resent = got[1] as Received;
    expect(new Webhook(secret).verify(resent.body, resent.headers as Record<string, string>)).toMatchObject({
      id: eventId,
    });
    const after = await deliveryOf(shop, deliveryId as string);
    expect(after).toMatchObject({ status: 'succeeded', attempts: 2, last_status_code: 200 });
    expect(new Date(after.delivered_at).getTime()).toBeGreaterThan(new Date(first.delivered_at).getTime());
    // still one delivery in the log for the event
    const log = await deliveries(shop);
    expect(log.deliveries.filter((d: { event_id: string }) => d.event_id === eventId)).toHaveLength(1);
  });

  it('a manual retry of a failed delivery runs it now instead of at the scheduled time', async () => {
    const { shop, path } = await shopWithEndpoint();
    rx.on(path, (_r, n) => (n === 1 ? { status: 500 } : { status: 200 }));
    const { eventId, deliveryId } = await emit(shop, { n: 1 }, 'abo_manual');
    await drain();
    expect((await deliveryOf(shop, deliveryId as string)).status).toBe('failed');
    const res = await call(t.app, 'POST', `/api/admin/checkout/webhook/deliveries/${deliveryId}/retry`, {
      token: shop.ownerToken,
    });
    expect(res.statusCode).toBe(202);
    await drain();
    expect(await deliveryOf(shop, deliveryId as string)).toMatchObject({ status: 'succeeded', attempts: 2 });
    expect(rx.at(path).map((r) => r.headers['webhook-id'])).toEqual([eventId, eventId]);
  });

  it('does not follow redirects: a 3xx is a failed attempt', async () => {
    const { shop, path } = await shopWithEndpoint();
    rx.on(path, () => ({ status: 302, headers: { location: `${path}-moved` } }));
    const { deliveryId } = await emit(shop, { n: 1 });
    await drain();
    expect(rx.at(`${path}-moved`)).toHaveLength(0);
    const d = await deliveryOf(shop, deliveryId as string);
    expect(d).toMatchObject({ status: 'failed', last_status_code: 302 });
    expect(d.last_error).toContain('redirects are not followed');
    // clean up: let it succeed so no retry stays queued for later tests
    rx.on(path, () => ({ status: 200 }));
    await call(t.app, 'POST', `/api/admin/checkout/webhook/deliveries/${deliveryId}/retry`, { token: shop.ownerToken });
    await drain();
    expect((await deliveryOf(shop, deliveryId as string)).status).toBe('succeeded');
  });

  it('rotate-secret: the new secret signs at once, the old one no longer verifies', async () => {
    const { shop, secret: oldSecret, path } = await shopWithEndpoint();
    const rotated = await call(t.app, 'POST', '/api/admin/checkout/webhook/rotate-secret', { token: shop.ownerToken });
    expect(rotated.statusCode).toBe(200);
    expect(rotated.data.secret).toMatch(/^whsec_/);
    expect(rotated.data.secret).not.toBe(oldSecret);
    await emit(shop, { n: 1 });
    await drain();
    const r = rx.at(path)[0] as Received;
    expect(signatureValid(rotated.data.secret, r)).toBe(true);
    expect(signatureValid(oldSecret, r)).toBe(false);
    const none = await createShop(t.app);
    expectProblem(
      await call(t.app, 'POST', '/api/admin/checkout/webhook/rotate-secret', { token: none.ownerToken }),
      404,
      'not_found',
    );
    expectProblem(
      await call(t.app, 'POST', '/api/admin/checkout/webhook/test', { token: none.ownerToken }),
      404,
      'not_found',
    );
  });
});

describe('without MASTER_KEY (development)', () => {
  it('encrypts the secret with the development key and still signs', async () => {
    const dev = await startApp({ MASTER_KEY: '' });
    try {
      expect(dev.config.masterKey).toBeNull();
      const shop = await createShop(dev.app);
      const path = `/hook-${++pathCounter}`;
      const put = await call(dev.app, 'PUT', '/api/admin/checkout/webhook', {
        token: shop.ownerToken,
        body: { url: `${rx.base}${path}` },
      });
      expect(put.statusCode).toBe(201);
      await call(dev.app, 'POST', '/api/admin/checkout/webhook/test', { token: shop.ownerToken });
      await dev.app.deps.worker.drain();
      const r = rx.at(path)[0] as Received;
      expect(signatureValid(put.data.secret, r)).toBe(true);
    } finally {
      await dev.close();
    }
  });
});

describe('outbox', () => {
  it('without an endpoint the event is recorded but nothing is queued', async () => {
    const shop = await createShop(t.app);
    const res = await emit(shop, { n: 1 });
    expect(res.eventId).toMatch(/^evt_/);
    expect(res.deliveryId).toBeNull();
    const jobs = (await db().execute(
      sql`SELECT count(*)::int AS n FROM jobs WHERE shop_id = ${shop.shopId} AND type = 'webhooks.deliver'`,
    )) as unknown as { rows: { n: number }[] };
    expect(jobs.rows[0]?.n).toBe(0);
    expect((await deliveries(shop)).count).toBe(0);
  });

  it('the event, its delivery and its job roll back with the transaction that emitted them', async () => {
    const { shop } = await shopWithEndpoint();
    await expect(
      withTx(shopCtx(t.app, shop.shopId), async (tx) => {
        await emitEvent(tx, { type: 'abo.aktiv', data: {}, isTest: false, now: now() });
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    const counts = (await db().execute(
      sql`SELECT (SELECT count(*)::int FROM webhook_events WHERE shop_id = ${shop.shopId}) AS events,
                 (SELECT count(*)::int FROM jobs WHERE shop_id = ${shop.shopId}) AS jobs`,
    )) as unknown as { rows: { events: number; jobs: number }[] };
    expect(counts.rows[0]).toEqual({ events: 0, jobs: 0 });
  });
});

describe('delivery log', () => {
  it('lists newest first with pagination and a status filter; another shop sees none of it', async () => {
    const { shop, path } = await shopWithEndpoint();
    rx.on(path, (r) => (JSON.parse(r.body).data.n === 2 ? { status: 500 } : { status: 200 }));
    const a = await emit(shop, { n: 1 });
    const b = await emit(shop, { n: 2 });
    const c = await emit(shop, { n: 3 });
    await drain();
    const all = await deliveries(shop);
    expect(all.count).toBe(3);
    expect(all.deliveries.map((d: { id: string }) => d.id)).toEqual([c.deliveryId, b.deliveryId, a.deliveryId]);
    expect(Object.keys(all.deliveries[0]).sort()).toEqual(
      [
        'id',
        'event_id',
        'event_type',
        'url',
        'status',
        'attempts',
        'last_status_code',
        'last_error',
        'next_attempt_at',
        'delivered_at',
        'created_at',
      ].sort(),
    );
    const page = await deliveries(shop, '?limit=1&offset=1');
    expect(page).toMatchObject({ count: 3, limit: 1, offset: 1 });
    expect(page.deliveries.map((d: { id: string }) => d.id)).toEqual([b.deliveryId]);
    const failed = await deliveries(shop, '?status=failed');
    expect(failed.deliveries.map((d: { id: string }) => d.id)).toEqual([b.deliveryId]);
    expect(failed.count).toBe(1);

    for (const q of ['?status=broken', '?limit=0', '?limit=201', '?offset=-1']) {
      const res = await call(t.app, 'GET', `/api/admin/checkout/webhook/deliveries${q}`, { token: shop.ownerToken });
      expectProblem(res, 400, 'validation_failed');
    }

    const other = await createShop(t.app);
    expect((await deliveries(other)).count).toBe(0);
    expectProblem(
      await call(t.app, 'POST', `/api/admin/checkout/webhook/deliveries/${b.deliveryId}/retry`, {
        token: other.ownerToken,
      }),
      404,
      'not_found',
    );
    expectProblem(
      await call(t.app, 'POST', '/api/admin/checkout/webhook/deliveries/dlv_unknown/retry', {
        token: shop.ownerToken,
      }),
      404,
      'not_found',
    );
    // a succeeded delivery is sent again (a resend)
    const resend = await call(t.app, 'POST', `/api/admin/checkout/webhook/deliveries/${a.deliveryId}/retry`, {
      token: shop.ownerToken,
    });
    expect(resend.statusCode).toBe(202);
    rx.on(path, () => ({ status: 200 }));
    await call(t.app, 'POST', `/api/admin/checkout/webhook/deliveries/${b.deliveryId}/retry`, {
      token: shop.ownerToken,
    });
    await drain();
    expect((await deliveries(shop, '?status=succeeded')).count).toBe(3);
  });
});

describe('SSRF guard', () => {
  it('judges addresses: private, loopback, link-local, CGNAT, multicast, unspecified, IPv4 inside IPv6', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.127.255.254',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::',
      '::1',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a9fe:a9fe',
      '2002:c0a8:0101::1',
      '[::1]',
    ]) {
      expect(blockedReason(a), a).not.toBeNull();
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:8.8.8.8']) {
      expect(blockedReason(a), a).toBeNull();
    }
  });

  it('resolves a hostname and refuses it when an address is loopback', async () => {
    await expect(resolveDestination(new URL('http://localhost:9/'), false)).rejects.toThrow(/loopback/);
    await expect(resolveDestination(new URL('http://[::ffff:127.0.0.1]:9/'), false)).rejects.toThrow(/loopback/);
    await expect(resolveDestination(new URL('http://localhost:9/'), true)).resolves.not.toBeNull();
  });

  it('with WEBHOOK_ALLOW_PRIVATE=0: http and private URLs are refused, and a stored private destination is never contacted', async () => {
    const strict = await startApp({ WEBHOOK_ALLOW_PRIVATE: '0' });
    try {
      const shop = await createShop(strict.app);
      const put = (url: string) =>
        call(strict.app, 'PUT', '/api/admin/checkout/webhook', { token: shop.ownerToken, body: { url } });
      for (const url of [
        'http://hooks.example.com/x',
        'https://10.0.0.1/x',
        'https://127.0.0.1/x',
        'https://[::1]/x',
        'https://169.254.169.254/latest',
        'https://localhost/x',
      ]) {
        expectProblem(await put(url), 400, 'validation_failed');
      }
      expect((await put('https://hooks.example.com/x')).statusCode).toBe(201);
      // e.g. stored while private destinations were allowed
      const path = `/hook-${++pathCounter}`;
      await strict.app.deps.database.db.execute(
        sql`UPDATE webhook_endpoints SET url = ${`${rx.base}${path}`} WHERE shop_id = ${shop.shopId}`,
      );
      const sent = await call(strict.app, 'POST', '/api/admin/checkout/webhook/test', { token: shop.ownerToken });
      expect(sent.statusCode).toBe(202);
      await strict.app.deps.worker.drain();
      expect(rx.at(path)).toHaveLength(0);
      const list = await call(strict.app, 'GET', '/api/admin/checkout/webhook/deliveries', { token: shop.ownerToken });
      expect(list.data.deliveries[0]).toMatchObject({ status: 'failed', attempts: 1, last_status_code: null });
      expect(list.data.deliveries[0].last_error).toMatch(/Destination refused: 127\.0\.0\.1 is a loopback address/);
    } finally {
      await strict.close();
    }
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const path = `/hang-${++pathCounter}`;
    rx.on(path, () => 'hang');
    const started = Date.now();
    const result = await send({
      url: `${rx.base}${path}`,
      headers: {},
      body: '{}',
      allowPrivate: true,
      timeoutMs: 300,
    });
    expect(result).toEqual({ ok: false, statusCode: null, error: 'No answer within 0.3 s' });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(rx.at(path)).toHaveLength(1);
  });
});
