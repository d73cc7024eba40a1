/**
 * Webhook retention: the maintenance job prunes finished deliveries and orphaned events past
 * WEBHOOK_RETENTION_DAYS, and never a delivery that may still be sent.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createShop, type ShopFixture, shopCtx, startApp, type TestApp } from '../../../test/helpers/app.js';
import type { Db } from '../../platform/db/client.js';
import { query, withTx } from '../../platform/db/tx.js';
import { CLEANUP_JOB, pruneWebhookHistory, scheduleMaintenance } from '../../platform/jobs/maintenance.js';
import { emitEvent } from './index.js';

/** A receiver that answers 500 to events with `data.fail`, 200 to the rest. */
let server: Server;
let base = '';
let t: TestApp;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      res.writeHead(JSON.parse(body).data.fail ? 500 : 200);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await startApp();
});
afterAll(async () => {
  await t?.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const db = () => t.app.deps.database.db;

async function putEndpoint(app: TestApp['app'], shop: ShopFixture): Promise<void> {
  const res = await call(app, 'PUT', '/api/admin/checkout/webhook', {
    token: shop.ownerToken,
    body: { url: `${base}/hook` },
  });
  expect(res.statusCode).toBe(201);
}

const emit = (app: TestApp['app'], shop: ShopFixture, data: Record<string, unknown>, orderingKey?: string) =>
  withTx(shopCtx(app, shop.shopId), (tx) =>
    emitEvent(tx, {
      type: 'abo.bezahlt',
      data,
      isTest: true,
      now: app.deps.clock.now(),
      ...(orderingKey ? { orderingKey } : {}),
    }),
  );

/** Moves a delivery's times (and its event's) into the past, by the database's wall clock. */
async function backdate(
  d: Db,
  ids: { eventId: string; deliveryId?: string | null },
  days: { created: number; updated?: number },
): Promise<void> {
  await d.execute(
    sql`UPDATE webhook_events SET created_at = now() - make_interval(days => ${days.created}) WHERE id = ${ids.eventId}`,
  );
  if (ids.deliveryId) {
    await d.execute(
      sql`UPDATE webhook_deliveries
          SET created_at = now() - make_interval(days => ${days.created}),
              updated_at = now() - make_interval(days => ${days.updated ?? days.created})
          WHERE id = ${ids.deliveryId}`,
    );
  }
}

const remaining = async (d: Db, table: 'webhook_events' | 'webhook_deliveries', ids: string[]) =>
  (await query<{ id: string }>(d, sql`SELECT id FROM ${sql.identifier(table)} WHERE id IN ${ids} ORDER BY id`))
    .map((r) => r.id)
    .sort();

const statusOf = async (d: Db, deliveryId: string) =>
  (await query<{ status: string }>(d, sql`SELECT status FROM webhook_deliveries WHERE id = ${deliveryId}`))[0]?.status;

type Ids = { eventId: string; deliveryId: string };

/**
 * One shop's webhook history in every state, as real deliveries produce it, then backdated:
 * what the cleanup must remove (`gone`) and what it must keep (`kept`).
 */
async function seedShop(app: TestApp['app']) {
  const shop = await createShop(app);
  const drain = () => app.deps.worker.drain();
  await putEndpoint(app, shop);

  // dead: the endpoint disappeared before the attempt
  const deadOld = (await emit(app, shop, { n: 'dead_old' })) as Ids;
  await app.deps.database.db.execute(sql`DELETE FROM webhook_endpoints WHERE shop_id = ${shop.shopId}`);
  await drain();
  expect(await statusOf(app.deps.database.db, deadOld.deliveryId)).toBe('dead');
  // events recorded while no endpoint was configured have no delivery at all
  const lonelyOld = await emit(app, shop, { n: 'lonely_old' });
  const lonelyRecent = await emit(app, shop, { n: 'lonely_recent' });
  expect(lonelyOld.deliveryId).toBeNull();
  await putEndpoint(app, shop);

  const okOld = (await emit(app, shop, { n: 'ok_old' })) as Ids;
  const okRecent = (await emit(app, shop, { n: 'ok_recent' })) as Ids;
  const okJustInside = (await emit(app, shop, { n: 'ok_29_days' })) as Ids;
  /** Created long ago, but it finished (after a manual retry) within the retention. */
  const okRetriedLately = (await emit(app, shop, { n: 'ok_retried_lately' })) as Ids;
  /** Failing, a retry scheduled; the next event of its key waits behind it (pending). */
  const failingOld = (await emit(app, shop, { n: 'failing_old', fail: true }, 'abo_hold')) as Ids;
  const pendingOld = (await emit(app, shop, { n: 'pending_old' }, 'abo_hold')) as Ids;
  await drain();
  for (const [ids, status] of [
    [okOld, 'succeeded'],
    [okRecent, 'succeeded'],
    [okJustInside, 'succeeded'],
    [okRetriedLately, 'succeeded'],
    [failingOld, 'failed'],
    [pendingOld, 'pending'],
  ] as const) {
    expect(await statusOf(app.deps.database.db, ids.deliveryId)).toBe(status);
  }

  const d = app.deps.database.db;
  await backdate(d, deadOld, { created: 45 });
  await backdate(d, lonelyOld, { created: 31 });
  await backdate(d, okOld, { created: 40 });
  await backdate(d, okJustInside, { created: 29 });
  await backdate(d, okRetriedLately, { created: 60, updated: 10 });
  await backdate(d, failingOld, { created: 90 });
  await backdate(d, pendingOld, { created: 90 });

  const gone = [deadOld, okOld];
  const kept = [okRecent, okJustInside, okRetriedLately, failingOld, pendingOld];
  return {
    shop,
    gone: { deliveries: gone.map((x) => x.deliveryId), events: [...gone.map((x) => x.eventId), lonelyOld.eventId] },
    kept: {
      deliveries: kept.map((x) => x.deliveryId),
      events: [...kept.map((x) => x.eventId), lonelyRecent.eventId],
    },
  };
}

describe('webhook retention (maintenance.cleanup)', () => {
  it('prunes old finished deliveries and orphaned events in every shop; keeps pending, retrying and recent ones; a second run changes nothing', async () => {
    const a = await seedShop(t.app);
    const b = await seedShop(t.app);
    const all = (k: 'gone' | 'kept', table: 'deliveries' | 'events') => [...a[k][table], ...b[k][table]].sort();
    expect(await remaining(db(), 'webhook_deliveries', all('gone', 'deliveries'))).toHaveLength(4);
    const logBefore = await call(t.app, 'GET', '/api/admin/checkout/webhook/deliveries', { token: a.shop.ownerToken });
    expect(logBefore.data.count).toBe(7);

    // the worker's start-up scheduling, then the worker runs the due cleanup
    await scheduleMaintenance(db(), t.app.deps.clock.now());
    await t.app.deps.worker.drain();

    const check = async () => {
      expect(await remaining(db(), 'webhook_deliveries', all('gone', 'deliveries'))).toEqual([]);
      expect(await remaining(db(), 'webhook_events', all('gone', 'events'))).toEqual([]);
      expect(await remaining(db(), 'webhook_deliveries', all('kept', 'deliveries'))).toEqual(all('kept', 'deliveries'));
      expect(await remaining(db(), 'webhook_events', all('kept', 'events'))).toEqual(all('kept', 'events'));
      for (const s of [a, b]) {
        const log = await call(t.app, 'GET', '/api/admin/checkout/webhook/deliveries', { token: s.shop.ownerToken });
        expect(log.data.count).toBe(5);
        expect(log.data.deliveries.map((x: { id: string }) => x.id).sort()).toEqual([...s.kept.deliveries].sort());
      }
    };
    await check();
    for (const s of [a, b]) {
      expect(await statusOf(db(), s.kept.deliveries[3] as string)).toBe('failed');
      expect(await statusOf(db(), s.kept.deliveries[4] as string)).toBe('pending');
    }

    // the job rescheduled itself; 15 minutes later it runs again and finds nothing more to do
    await t.app.deps.clock.advance(db(), 15 * 60 + 1);
    await t.app.deps.worker.drain();
    await check();
    const jobs = await query<{ status: string; n: number }>(
      db(),
      sql`SELECT status, count(*)::int AS n FROM jobs WHERE type = ${CLEANUP_JOB} GROUP BY status ORDER BY status`,
    );
    expect(jobs).toEqual([
      { status: 'done', n: 2 },
      { status: 'queued', n: 1 },
    ]);
  });

  it('deletes in batches of the given size and stops at the per-run cap; the next run takes the rest', async () => {
    const shop = await createShop(t.app);
    await putEndpoint(t.app, shop);
    const sent: Ids[] = [];
    for (let i = 0; i < 7; i++) sent.push((await emit(t.app, shop, { n: i })) as Ids);
    await t.app.deps.worker.drain();
    for (const ids of sent) await backdate(db(), ids, { created: 40 });
    const limits = { batchRows: 2, maxRowsPerRun: 5 };
    expect(await pruneWebhookHistory(db(), 30, limits)).toEqual({ deliveries: 5, events: 5 });
    expect(
      await remaining(
        db(),
        'webhook_deliveries',
        sent.map((x) => x.deliveryId),
      ),
    ).toHaveLength(2);
    expect(await pruneWebhookHistory(db(), 30, limits)).toEqual({ deliveries: 2, events: 2 });
    expect(await pruneWebhookHistory(db(), 30, limits)).toEqual({ deliveries: 0, events: 0 });
    expect(
      await remaining(
        db(),
        'webhook_events',
        sent.map((x) => x.eventId),
      ),
    ).toEqual([]);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    'skips a delivery locked by a manual retry in progress (PostgreSQL: two connections)',
    async () => {
      const shop = await createShop(t.app);
      await putEndpoint(t.app, shop);
      const dead = (await emit(t.app, shop, { n: 'dead' })) as Ids;
      await db().execute(sql`UPDATE webhook_deliveries SET status = 'dead' WHERE id = ${dead.deliveryId}`);
      await t.app.deps.worker.drain();
      await backdate(db(), dead, { created: 40 });
      await withTx(db(), async (tx) => {
        // what retryDelivery does: lock the row, then make it pending again
        await tx.execute(
          sql`SELECT 1 FROM webhook_deliveries WHERE shop_id = ${shop.shopId} AND id = ${dead.deliveryId} FOR UPDATE`,
        );
        expect(await pruneWebhookHistory(db(), 30)).toEqual({ deliveries: 0, events: 0 });
        await tx.execute(sql`UPDATE webhook_deliveries SET status = 'pending' WHERE id = ${dead.deliveryId}`);
      });
      expect(await pruneWebhookHistory(db(), 30)).toEqual({ deliveries: 0, events: 0 });
      expect(await statusOf(db(), dead.deliveryId)).toBe('pending');
      expect(await remaining(db(), 'webhook_events', [dead.eventId])).toEqual([dead.eventId]);
    },
  );
});

describe('WEBHOOK_RETENTION_DAYS', () => {
  it('sets the retention of the maintenance job', async () => {
    const short = await startApp({ WEBHOOK_RETENTION_DAYS: '7' });
    try {
      const shop = await createShop(short.app);
      await putEndpoint(short.app, shop);
      const d = short.app.deps.database.db;
      const older = (await emit(short.app, shop, { n: 'eight_days' })) as Ids;
      const newer = (await emit(short.app, shop, { n: 'six_days' })) as Ids;
      await short.app.deps.worker.drain();
      await backdate(d, older, { created: 8 });
      await backdate(d, newer, { created: 6 });
      await scheduleMaintenance(d, short.app.deps.clock.now());
      await short.app.deps.worker.drain();
      expect(await remaining(d, 'webhook_deliveries', [older.deliveryId, newer.deliveryId])).toEqual([
        newer.deliveryId,
      ]);
      expect(await remaining(d, 'webhook_events', [older.eventId, newer.eventId])).toEqual([newer.eventId]);
    } finally {
      await short.close();
    }
  });
});
