/**
 * The statement check (issue 28, docs/ARCHITECTURE.md "Routing by shop"): every statement the app
 * sends while a representative set of flows runs over HTTP is read, and each one that touches a
 * shop-owned table without a `shop_id` condition on that table fails the test, unless the
 * allowlist below names it with its reason. An allowlist entry no statement needs any more fails
 * too, so the list only shrinks. On Citus such a statement would run on every shard (or be
 * refused); on plain PostgreSQL and PGlite it runs, so this test is where it shows.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BILLING,
  type FinanceShop,
  finalInvoice,
  financeShop,
  paidOrder,
} from '../../src/modules/finance/finance.fixtures.js';
import { inviteTokenFor } from '../../src/modules/partners/partners.fixtures.js';
import type { PartnerType } from '../../src/modules/partners/partners.tables.js';
import { CLEANUP_JOB } from '../../src/platform/jobs/maintenance.js';
import { enqueue } from '../../src/platform/jobs/queue.js';
import {
  call,
  customerToken,
  PLATFORM_TOKEN,
  type Response,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../helpers/app.js';
import {
  type AllowEntry,
  allowedBy,
  shopOwnedTables,
  unroutedTables,
  type Violation,
} from '../helpers/shop-routing.js';

/**
 * Statements that may touch a shop-owned table without naming one shop, each with its reason.
 * `contains` is a piece of the statement as `normalize` writes it (literals emptied, identifiers
 * unquoted, lower case).
 */
const ALLOWED: AllowEntry[] = [
  // ---- lookups that find the shop and have no directory entry to find it by ----
  {
    table: 'storefront_settings',
    contains: 'from storefront_settings where storefront_settings.publishable_key_id is not null',
    reason:
      "domain resolution for the service's own host only (PUBLIC_URL or localhost, no channel domain): the first shop with a storefront key, the demo shop of `npm start`; a mapped domain resolves through domain_directory",
  },
  {
    table: 'checkout_sessions',
    contains: 'from checkout_sessions where checkout_sessions.id = $1',
    reason:
      'the hosted payment page (/pay/:id), and a provider event whose provider reference has no directory row, know only the checkout session id: one unlocked primary-key read per shard finds the shop, every statement after it names the shop (a directory row per session, or a session id that carries its shop, would route it)',
  },
  // ---- maintenance across all shops ----
  {
    table: 'idempotency_keys',
    contains: 'delete from idempotency_keys where expires_at < now()',
    reason:
      'maintenance (every 15 min): expired keys of every shop; one multi-shard DELETE, no lock taken by reading, no join',
  },
  {
    table: 'sessions',
    contains: 'delete from sessions where expires_at < now()',
    reason: 'maintenance (every 15 min): expired sessions of every shop; one multi-shard DELETE, no join',
  },
  {
    table: 'account_tokens',
    contains: 'delete from account_tokens where expires_at < now()',
    reason: 'maintenance (every 15 min): expired account tokens of every shop; one multi-shard DELETE, no join',
  },
];

const owned = shopOwnedTables();

// ---- the reading itself can fail ----

describe('the statement reading', () => {
  const flagged = (text: string) => unroutedTables(text, owned).map((v) => v.table);

  it('knows the shop-owned tables from the catalogue, less the coordinator-local ones', () => {
    for (const name of ['products', 'orders', 'webhook_deliveries', 'refunds', 'partner_earnings']) {
      expect(owned.has(name), name).toBe(true);
    }
    for (const name of ['shops', 'jobs', 'payment_events', 'rate_limits']) expect(owned.has(name), name).toBe(false);
  });

  it('flags a read, a write and a lock by id alone, a join on id alone and a fan-out over several shops', () => {
    expect(flagged('select * from "orders" where "orders"."id" = $1')).toEqual(['orders']);
    expect(flagged('update refunds set status = $1 where id = $2')).toEqual(['refunds']);
    expect(flagged('select * from refunds where id = $1 for update')).toEqual(['refunds']);
    expect(flagged('delete from "webhook_deliveries" where "id" = $1')).toEqual(['webhook_deliveries']);
    expect(
      flagged('SELECT d.id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id WHERE d.shop_id = $1'),
    ).toEqual(['webhook_events']);
    expect(flagged('select * from orders where shop_id = any($1)')).toEqual(['orders']);
    expect(flagged('insert into "orders" ("id", "status") values ($1, $2)')).toEqual(['orders']);
    expect(flagged("select * from orders where note = 'shop_id = 1'")).toEqual(['orders']);
    // a column list before the table does not hide it
    expect(
      flagged('select "id", "shop_id", "kind" from "checkout_sessions" where "checkout_sessions"."id" = $1'),
    ).toEqual(['checkout_sessions']);
  });

  it('passes statements that name the shop of every shop-owned table', () => {
    expect(flagged('select * from "orders" where ("orders"."shop_id" = $1 and "orders"."id" = $2)')).toEqual([]);
    expect(flagged('update refunds set status = $1 where shop_id = $2 and id = $3')).toEqual([]);
    expect(
      flagged(
        'SELECT d.id FROM webhook_deliveries d JOIN webhook_events e ON e.shop_id = d.shop_id AND e.id = d.event_id WHERE d.shop_id = $1',
      ),
    ).toEqual([]);
    expect(flagged('insert into "orders" ("id", "shop_id", "status") values ($1, $2, $3)')).toEqual([]);
    expect(flagged('select * from shops where id = $1')).toEqual([]);
  });

  it('reports a statement the allowlist does not name, and finds the entry that does', () => {
    const v: Violation = { table: 'orders', sql: 'select * from orders where id = $1' };
    expect(allowedBy(v, [{ table: 'orders', contains: 'from orders where id', reason: 'r' }])).toBeDefined();
    expect(allowedBy(v, [{ table: 'refunds', contains: 'from orders where id', reason: 'r' }])).toBeUndefined();
  });
});

// ---- the flows ----

let t: TestApp;
let f: FinanceShop;
let capturing = true;
const statements: string[] = [];
let receiver: Server;
let receiverUrl = '';

/** Runs a test-side read (a fixture reading the outbox from the table) without capturing it. */
async function uncaptured<T>(fn: () => Promise<T>): Promise<T> {
  capturing = false;
  try {
    return await fn();
  } finally {
    capturing = true;
  }
}

function ok(res: Response, status = 200) {
  if (res.statusCode !== status) throw new Error(`${res.statusCode} ${res.body}`);
  return res.data;
}

const get = (url: string, token = f.owner) => call(t.app, 'GET', url, { token });
const post = (url: string, body?: unknown, token = f.owner) => call(t.app, 'POST', url, { token, body });
const patch = (url: string, body: unknown, token = f.owner) => call(t.app, 'PATCH', url, { token, body });
const drain = () => t.app.deps.worker.drain();
const advanceDays = async (days: number) => {
  ok(await post('/api/platform/clock/advance', { seconds: days * 86_400, run_jobs: true }, PLATFORM_TOKEN));
  await drain();
};

async function partner(kind: PartnerType, email: string, body: Record<string, unknown>) {
  const created = ok(await post(`/api/admin/${kind}s${kind === 'vendor' ? '/invite' : ''}`, { email, ...body }), 201);
  if (kind === 'affiliate') ok(await post('/api/admin/affiliates/invite', { email }));
  const token = await uncaptured(() => inviteTokenFor(t, kind, email));
  const session = ok(
    await call(t.app, 'POST', `/api/${kind}/auth/accept`, { body: { token, password: 'partner-pass-1' } }),
  );
  return { id: created.id as string, session: session.token as string };
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200);
      res.end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  t = await startApp({}, undefined, undefined, undefined, (text) => {
    if (capturing) statements.push(text);
  });
}, 120_000);
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((r) => receiver.close(r));
  await t.close();
});

describe('every statement of the flows names its shop', () => {
  it('runs the flows', async () => {
    f = await financeShop(t);
    ok(await call(t.app, 'PUT', '/api/admin/checkout/webhook', { token: f.owner, body: { url: receiverUrl } }), 201);

    // admin product list (a new page, the remembered page, after a change), detail, update
    const list = ok(await get('/api/admin/products'));
    expect(list.count).toBe(3);
    ok(await get('/api/admin/products'));
    ok(await get('/api/admin/products?q=kurs&sort=name'));
    ok(await get(`/api/admin/products/${f.products.cheese}`));
    ok(await patch(`/api/products/${f.products.cheese}`, { name: 'Bergkäse 300 g' }));
    ok(await get('/api/admin/products'));
    ok(
      await call(t.app, 'GET', '/api/store/products', {
        token: f.shop.publishableKey,
        headers: { origin: STORE_ORIGIN },
      }),
    );

    // channel CRUD
    const channel = ok(
      await post('/api/admin/channels', { name: 'Schweiz', default_country: 'CH', currency: 'CHF' }),
      201,
    );
    ok(await get('/api/admin/channels'));
    ok(await get(`/api/admin/channels/${channel.id}`));
    ok(await patch(`/api/admin/channels/${channel.id}`, { name: 'Schweiz (CHF)' }));
    ok(await call(t.app, 'DELETE', `/api/admin/channels/${channel.id}`, { token: f.owner }), 204);

    // partners: a vendor selling the cheese, an affiliate
    const vendor = await partner('vendor', `alm-${Date.now()}@vendor.test`, { name: 'Käserei Alm' });
    ok(await patch(`/api/products/${f.products.cheese}`, { vendor_id: vendor.id }));
    const affEmail = `blog-${Date.now()}@aff.test`;
    const affiliate = await partner('affiliate', affEmail, { name: 'Blog', code: 'BLOG10', commission_percent: 10 });

    // a customer account
    const customer = await customerToken(t.app, f.shop);
    ok(await get('/api/customer/me', customer));

    // hosted checkouts of a stock-tracked item (reservation), paid on the hosted page
    const orderId = await paidOrder(t, f, { affiliate_code: 'blog10' });
    await drain();
    ok(await get(`/api/admin/orders/${orderId}`));
    ok(await get('/api/admin/orders'));

    // fulfil, invoice, refund
    ok(await post(`/api/admin/orders/${orderId}/fulfill`));
    const invoice = ok(await post(`/api/admin/orders/${orderId}/invoice`, {}), 201);
    ok(await post(`/api/admin/invoices/${invoice.id}/finalize`));
    ok(await get(`/api/admin/invoices/${invoice.id}`));
    const second = await finalInvoice(t, f);
    ok(await post(`/api/admin/orders/${second.order_id}/refunds`, { reason: 'Kunde hat storniert' }), 201);
    ok(await get(`/api/admin/orders/${second.order_id}/refunds`));
    await drain();

    // webhook deliveries
    const deliveries = ok(await get('/api/admin/checkout/webhook/deliveries'));
    expect(deliveries.deliveries.length).toBeGreaterThan(0);

    // partner earnings and payouts, after the hold periods
    ok(await get('/api/admin/vendor-earnings'));
    ok(await get('/api/admin/vendor-analytics'));
    ok(await get('/api/vendor/dashboard', vendor.session));
    ok(await get('/api/vendor/earnings', vendor.session));
    ok(await get('/api/affiliate/earnings', affiliate.session));
    await advanceDays(31);
    ok(await post('/api/admin/vendor-earnings/release', {}));
    ok(await post('/api/admin/affiliate-earnings/release', {}));
    const payout = ok(await post('/api/admin/vendor-payouts', { vendor_id: vendor.id, amount_cents: 100 }), 201);
    ok(await post(`/api/admin/vendor-payouts/${payout.id}/process`));
    ok(await post(`/api/admin/vendor-payouts/${payout.id}/mark-paid`, { reference: 'SEPA-1' }));
    ok(await get('/api/vendor/payouts', vendor.session));
    ok(await get(`/api/admin/vendors/${vendor.id}`));

    // a subscription: plan, hosted page, cancel and continue, a renewal
    ok(await call(t.app, 'PUT', '/api/admin/digital/status', { token: f.owner, body: { aktiv: true } }));
    const plan = ok(
      await post('/api/admin/digital/plaene', {
        product_id: f.products.course,
        name: 'Monatlich',
        price_cents: 990,
        interval_unit: 'month',
      }),
      201,
    );
    const aboEmail = `abo-${Date.now()}@kunde.test`;
    const session = ok(
      await call(t.app, 'POST', '/api/store/abo-sessions', {
        token: f.shop.publishableKey,
        headers: { origin: STORE_ORIGIN },
        body: { plan_id: plan.id, return_url: `${STORE_ORIGIN}/danke`, customer_email: aboEmail },
      }),
      201,
    );
    ok(await call(t.app, 'GET', new URL(session.url).pathname));
    const paid = await call(t.app, 'POST', `/pay/${session.id}`, {
      body: new URLSearchParams({ ...BILLING, card_number: '4242424242424242' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(paid.statusCode, paid.body).toBe(303);
    await drain();
    const abos = ok(await get(`/api/admin/digital/abos?q=${encodeURIComponent(aboEmail)}`)).abos;
    expect(abos).toHaveLength(1);
    ok(await get(`/api/admin/digital/abos/${abos[0].id}`));
    ok(await post(`/api/admin/digital/abos/${abos[0].id}/kuendigen`, { sofort: false }));
    ok(await post(`/api/admin/digital/abos/${abos[0].id}/fortsetzen`));
    await advanceDays(32);

    // the customer's own pages
    ok(await get('/api/customer/orders', customer));
    ok(await get('/api/customer/invoices', customer));
    ok(await get('/api/customer/abos', customer));

    // the maintenance job (webhook history pruning shop by shop, the expired-row clean-ups)
    await uncaptured(() => enqueue(t.app.deps.database.db, CLEANUP_JOB, {}, { now: t.app.deps.clock.now() }));
    await drain();
  }, 240_000);

  it('sends no statement on a shop-owned table without its shop, but what the allowlist names', () => {
    expect(statements.length).toBeGreaterThan(300);
    const unrouted = new Map<string, Violation>();
    const used = new Set<AllowEntry>();
    for (const text of statements) {
      for (const v of unroutedTables(text, owned)) {
        const entry = allowedBy(v, ALLOWED);
        if (entry) used.add(entry);
        else unrouted.set(`${v.table}: ${v.sql}`, v);
      }
    }
    const list = [...unrouted.keys()];
    expect(list, `statements without shop_id on a shop-owned table:\n${list.join('\n')}\n`).toEqual([]);
    const stale = ALLOWED.filter((e) => !used.has(e)).map((e) => `${e.table}: ${e.contains}`);
    expect(stale, 'allowlist entries no statement of the flows needs').toEqual([]);
  });
});
