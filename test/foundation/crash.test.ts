/**
 * Crash safety (issue 14): the service is killed with SIGKILL in the middle of a checkout request
 * and of a webhook delivery job, then started again. The retry with the same Idempotency-Key gets
 * the one session (one reservation), and the job the dead process held is taken over within 30 s.
 * Two processes must share the database, so this runs on PostgreSQL only (TEST_DATABASE_URL).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emitEvent } from '../../src/modules/webhooks/index.js';
import { query, withTx } from '../../src/platform/db/tx.js';
import {
  call,
  createShop,
  PLATFORM_TOKEN,
  type ShopFixture,
  STORE_ORIGIN,
  shopCtx,
  startApp,
  type TestApp,
} from '../helpers/app.js';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let t: TestApp;
let shop: ShopFixture;
let product: string;
let stub: Server;
let stubUrl: string;
let hangCheckout = true;
let hangReceiver = true;
const sessionCalls: string[] = [];
const deliveries: number[] = [];
const children: ChildProcess[] = [];

const drain = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let data = '';
    req.on('data', (c) => {
      data += String(c);
    });
    req.on('end', () => resolve(data));
  });

beforeAll(async () => {
  if (!onPostgres) return;
  stub = createServer(async (req, res) => {
    const body = new URLSearchParams(await drain(req));
    if (req.url === '/v1/checkout/sessions') {
      const ours = body.get('metadata[checkout_session_id]') ?? '';
      sessionCalls.push(ours);
      if (hangCheckout) return; // the killed process never gets an answer
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_stub' });
      res.end(JSON.stringify({ id: `cs_test_${ours}`, object: 'checkout.session', url: `https://pay.test/${ours}` }));
      return;
    }
    if (req.url === '/receiver') {
      deliveries.push(Date.now());
      if (hangReceiver) return;
      res.writeHead(200);
      res.end('ok');
      return;
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  t = await startApp({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_crash', STRIPE_API_BASE: stubUrl });
  shop = await createShop(t.app);
  const channel = shop.defaultChannelId;
  product = (
    await call(t.app, 'POST', '/api/products', {
      token: shop.ownerToken,
      body: {
        name: 'Kurs',
        is_digital: true,
        status: 'published',
        base_price_cents: 1000,
        track_stock: true,
        stock_quantity: 10,
      },
    })
  ).data.id;
  await call(t.app, 'PATCH', `/api/products/${product}/channels/${channel}`, {
    token: shop.ownerToken,
    body: { is_published: true },
  });
  const hook = await call(t.app, 'PUT', '/api/admin/checkout/webhook', {
    token: shop.ownerToken,
    body: { url: `${stubUrl}/receiver` },
  });
  expect([200, 201]).toContain(hook.statusCode);
}, 60_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  if (!onPostgres) return;
  await t.close();
  stub.closeAllConnections();
  await new Promise((r) => stub.close(r));
});

/** Starts `src/server.ts` on the test database; resolves with its port. */
async function startService(): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      DATABASE_URL: t.db.url as string,
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO: '0',
      CLOCK: 'simulated',
      LOG_LEVEL: 'info',
      PLATFORM_TOKEN,
      MASTER_KEY: '0'.repeat(64),
      PUBLIC_URL: 'http://service.test',
      WEBHOOK_ALLOW_PRIVATE: '1',
      WORKER_POLL_MS: '200',
      PAYMENT_PROVIDER: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_crash',
      STRIPE_API_BASE: stubUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  child.stdout?.on('data', (d) => {
    out += String(d);
  });
  child.stderr?.on('data', (d) => {
    out += String(d);
  });
  const deadline = Date.now() + 40_000;
  while (Date.now() < deadline) {
    const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
    if (m) return { child, port: Number(m[1]) };
    await sleep(100);
  }
  throw new Error(`service did not start: ${out}`);
}

function checkout(port: number): Promise<{ status: number; body: string }> {
  const payload = JSON.stringify({
    items: [{ product_id: product, quantity: 1 }],
    customer: {
      email: 'crash@mail.test',
      billing_address: { name: 'A', line1: 'B 1', postal_code: '1', city: 'C', country: 'DE' },
    },
    return_url: `${STORE_ORIGIN}/done`,
  });
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/api/store/checkout-sessions',
        method: 'POST',
        agent: false,
        headers: {
          authorization: `Bearer ${shop.publishableKey}`,
          origin: STORE_ORIGIN,
          'content-type': 'application/json',
          'idempotency-key': 'crash-key-1',
        },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => {
          body += String(c);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

const stock = async () =>
  (await call(t.app, 'GET', `/api/admin/products/${product}`, { token: shop.ownerToken })).data.product.stock_quantity;

describe.skipIf(!onPostgres)('killed with SIGKILL and restarted (PostgreSQL)', () => {
  it('a checkout retried with its key gets the one session; a claimed job resumes within 30 s', async () => {
    const first = await startService();
    // a checkout request that is inside the provider call when the process dies
    const cut = checkout(first.port).catch(() => null);
    // and a webhook delivery job the same process is running
    await withTx(shopCtx(t.app, shop.shopId), (tx) =>
      emitEvent(tx, {
        type: 'checkout.completed',
        isTest: true,
        now: t.app.deps.clock.now(),
        data: { checkout_session_id: 'cs_crash', is_test: true },
      }),
    );
    const deadline = Date.now() + 30_000;
    while ((sessionCalls.length === 0 || deliveries.length === 0) && Date.now() < deadline) await sleep(50);
    expect(sessionCalls).toHaveLength(1);
    expect(deliveries).toHaveLength(1);
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const killedAt = Date.now();
    await cut;
    expect(await stock()).toBe(9);

    hangCheckout = false;
    hangReceiver = false;
    const second = await startService();
    const retried = await checkout(second.port);
    expect(retried.status, retried.body).toBe(201);
    const session = JSON.parse(retried.body) as { id: string; url: string };
    // the session the killed request created, resumed; its stock reserved once
    expect(session.id).toBe(sessionCalls[0]);
    expect(session.url).toBe(`https://pay.test/${session.id}`);
    expect(await stock()).toBe(9);
    const rows = await query<{ id: string }>(
      t.app.deps.database.db,
      sql`SELECT id FROM checkout_sessions WHERE customer_email = 'crash@mail.test'`,
    );
    expect(rows.map((r) => r.id)).toEqual([session.id]);

    while (deliveries.length < 2 && Date.now() < killedAt + 35_000) await sleep(100);
    expect(deliveries.length).toBe(2);
    expect((deliveries[1] as number) - killedAt).toBeLessThan(30_000);
    second.child.kill('SIGTERM');
    await once(second.child, 'exit');
  }, 120_000);
});
