/**
 * Housekeeping that keeps the shared tables small: expired idempotency keys, rate-limit windows,
 * sessions, finished jobs, and webhook history past its retention.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db } from '../db/client.js';
import { dropCredentials } from '../db/directory.js';
import { query, withTx } from '../db/tx.js';
import { enqueue } from './queue.js';
import type { JobRegistry } from './worker.js';

export const CLEANUP_JOB = 'maintenance.cleanup';
const EVERY_MS = 15 * 60_000;

/** Rows one DELETE removes at most: each statement is its own short transaction, so no lock is held for long. */
export const PRUNE_BATCH_ROWS = 5_000;
/** Rows of one table one run removes at most; the rest waits for the next run (every 15 minutes). */
export const PRUNE_MAX_ROWS_PER_RUN = 100_000;

export function registerMaintenanceJobs(registry: JobRegistry, config: Pick<Config, 'webhookRetentionDays'>): void {
  registry.register(CLEANUP_JOB, {
    async run(_payload, { db, clock, log, job }) {
      // each step on its own: one failing step is logged and retried in the next run, and never
      // stops the others or the rescheduling below
      const steps: [string, () => Promise<unknown>][] = [
        ['idempotency keys', () => db.execute(sql`DELETE FROM idempotency_keys WHERE expires_at < now()`)],
        ['rate limits', () => db.execute(sql`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`)],
        [
          'sessions',
          () => pruneCredentials(db, sql`DELETE FROM sessions WHERE expires_at < now() - interval '7 days'`),
        ],
        [
          'account tokens',
          () => pruneCredentials(db, sql`DELETE FROM account_tokens WHERE expires_at < now() - interval '7 days'`),
        ],
        [
          'jobs',
          () => db.execute(sql`DELETE FROM jobs WHERE status = 'done' AND finished_at < now() - interval '7 days'`),
        ],
        [
          'webhook history',
          async () => {
            const pruned = await pruneWebhookHistory(db, config.webhookRetentionDays);
            if (pruned.deliveries > 0 || pruned.events > 0) log.info(pruned, 'pruned webhook history');
          },
        ],
      ];
      for (const [name, step] of steps) {
        try {
          await step();
        } catch (err) {
          log.error({ err }, `maintenance: pruning ${name} failed`);
        }
      }
      // The next run, unless another chain goes on: two workers that started at the same moment
      // may each have scheduled a cleanup. A run leaves the rescheduling to a queued cleanup, or
      // to one running with a lower seq (that one does not defer to this one), so the chains
      // merge into one whether their runs come one after the other or at the same time.
      const other = await query(
        db,
        sql`SELECT 1 FROM jobs WHERE type = ${CLEANUP_JOB} AND id <> ${job.id}
              AND (status = 'queued' OR (status = 'running' AND seq < ${job.seq})) LIMIT 1`,
      );
      if (other.length === 0) {
        await enqueue(db, CLEANUP_JOB, {}, { now: clock.now(), runAt: new Date(clock.now().getTime() + EVERY_MS) });
      }
    },
  });
}

/** Makes sure one cleanup job is scheduled (called when a worker starts). */
export async function scheduleMaintenance(db: Db, now: Date): Promise<void> {
  const rows = (await db.execute(
    sql`SELECT 1 FROM jobs WHERE type = ${CLEANUP_JOB} AND status IN ('queued', 'running') LIMIT 1`,
  )) as unknown as { rows: unknown[] };
  if (rows.rows.length === 0) await enqueue(db, CLEANUP_JOB, {}, { now });
}

export interface PruneLimits {
  batchRows: number;
  maxRowsPerRun: number;
}

/**
 * Webhook retention (docs/webhooks.md). Deletes finished deliveries — `succeeded` or `dead` —
 * whose last change is older than `retentionDays`, then events older than that with no
 * delivery left (deleting an event would cascade to its deliveries, so one that still has any
 * is kept). `pending` and `failed` deliveries (a retry is scheduled) and their events stay,
 * however old. Age is measured against the database's wall clock, like the other clean-ups, so
 * advancing a simulated clock never prunes. Rows locked by a concurrent change (a manual retry)
 * are skipped and looked at again in the next run. `id = ANY(ARRAY(…))` rather than `id IN (…)`:
 * PostgreSQL plans the IN form as a hash semi-join over a sequential scan of the whole table,
 * the array form as primary-key lookups of just the chosen ids. One shop at a time, every
 * statement naming its shop: on Citus each runs on the shop's shard, and rows are locked only
 * where they were found by `shop_id` (docs/ARCHITECTURE.md "Routing by shop"). The cap on rows
 * per run holds across all shops.
 */
export async function pruneWebhookHistory(
  db: Db,
  retentionDays: number,
  limits: PruneLimits = { batchRows: PRUNE_BATCH_ROWS, maxRowsPerRun: PRUNE_MAX_ROWS_PER_RUN },
): Promise<{ deliveries: number; events: number }> {
  const cutoff = sql`now() - make_interval(days => ${retentionDays})`;
  const shops = await query<{ id: string }>(db, sql`SELECT id FROM shops ORDER BY id`);
  let deliveries = 0;
  let events = 0;
  for (const { id: shop } of shops) {
    if (deliveries < limits.maxRowsPerRun) {
      deliveries += await deleteInBatches(
        db,
        { batchRows: limits.batchRows, maxRowsPerRun: limits.maxRowsPerRun - deliveries },
        (n) => sql`
          WITH gone AS (
            DELETE FROM webhook_deliveries WHERE shop_id = ${shop} AND id = ANY(ARRAY(
              SELECT id FROM webhook_deliveries
              WHERE shop_id = ${shop} AND status IN ('succeeded', 'dead') AND updated_at < ${cutoff}
              ORDER BY updated_at
              LIMIT ${n}
              FOR UPDATE SKIP LOCKED))
            RETURNING 1)
          SELECT count(*)::int AS n FROM gone`,
      );
    }
    if (events < limits.maxRowsPerRun) {
      events += await deleteInBatches(
        db,
        { batchRows: limits.batchRows, maxRowsPerRun: limits.maxRowsPerRun - events },
        (n) => sql`
          WITH gone AS (
            DELETE FROM webhook_events WHERE shop_id = ${shop} AND id = ANY(ARRAY(
              SELECT e.id FROM webhook_events e
              WHERE e.shop_id = ${shop} AND e.created_at < ${cutoff}
                AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.shop_id = e.shop_id AND d.event_id = e.id)
              ORDER BY e.created_at
              LIMIT ${n}
              FOR UPDATE SKIP LOCKED))
            RETURNING 1)
          SELECT count(*)::int AS n FROM gone`,
      );
    }
  }
  return { deliveries, events };
}

/** Runs `statement(n)` (deletes at most n rows, answers `n` = how many) until a batch comes back short or the cap is reached. */
async function deleteInBatches(db: Db, limits: PruneLimits, statement: (n: number) => SQL): Promise<number> {
  let total = 0;
  while (total < limits.maxRowsPerRun) {
    const n = Math.min(limits.batchRows, limits.maxRowsPerRun - total);
    const [row] = await query<{ n: number }>(db, statement(n));
    const deleted = Number(row?.n ?? 0);
    total += deleted;
    if (deleted < n) break;
  }
  return total;
}

/**
 * Deletes expired credentials (`del` is a DELETE of a table with `token_hash`) and their
 * credential directory rows in one transaction (platform/db/directory.ts).
 */
async function pruneCredentials(db: Db, del: SQL): Promise<number> {
  return withTx(db, async (tx) => {
    const gone = await query<{ token_hash: string }>(tx, sql`${del} RETURNING token_hash`);
    await dropCredentials(
      tx,
      gone.map((r) => r.token_hash),
    );
    return gone.length;
  });
}
