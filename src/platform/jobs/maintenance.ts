/** Housekeeping that keeps the shared tables small: expired idempotency keys, rate-limit windows, sessions. */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { enqueue } from './queue.js';
import type { JobRegistry } from './worker.js';

export const CLEANUP_JOB = 'maintenance.cleanup';
const EVERY_MS = 15 * 60_000;

export function registerMaintenanceJobs(registry: JobRegistry): void {
  registry.register(CLEANUP_JOB, {
    async run(_payload, { db, clock }) {
      await db.execute(sql`DELETE FROM idempotency_keys WHERE expires_at < now()`);
      await db.execute(sql`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`);
      await db.execute(sql`DELETE FROM sessions WHERE expires_at < now() - interval '7 days'`);
      await db.execute(sql`DELETE FROM jobs WHERE status = 'done' AND finished_at < now() - interval '7 days'`);
      await enqueue(db, CLEANUP_JOB, {}, { now: clock.now(), runAt: new Date(clock.now().getTime() + EVERY_MS) });
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
