/**
 * The durable job queue (docs/ARCHITECTURE.md): a table in the service's own database. Jobs are enqueued
 * in the transaction of the change that causes them, claimed with FOR UPDATE SKIP LOCKED, and
 * retried with exponential backoff. Jobs with the same ordering key run one at a time in the
 * order they were enqueued.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { jobs } from '../db/platform.tables.js';
import { query } from '../db/tx.js';
import { newId } from '../ids.js';

export interface EnqueueOptions {
  shopId?: string | null;
  /** Jobs with one key run strictly in enqueue order (e.g. events of one subscription). */
  orderingKey?: string | null;
  runAt?: Date;
  maxAttempts?: number;
}

export interface JobRow {
  id: string;
  seq: number;
  shop_id: string | null;
  type: string;
  payload: Record<string, unknown>;
  ordering_key: string | null;
  attempts: number;
  max_attempts: number;
  /** PostgreSQL text timestamp; see pgDate. */
  run_at: string;
}

/** Writes a job; call it with the transaction of the state change so both commit together. */
export async function enqueue(
  tx: Db,
  type: string,
  payload: Record<string, unknown>,
  opts: EnqueueOptions & { now: Date },
): Promise<string> {
  const values = jobValues(type, payload, opts);
  await tx.insert(jobs).values(values);
  return values.id;
}

/**
 * The row of a new job, for callers that fold its INSERT into one statement with the change that
 * causes it (the checkout's reserving statement, platform/db/statement.ts).
 */
export function jobValues(
  type: string,
  payload: Record<string, unknown>,
  opts: EnqueueOptions & { now: Date },
): typeof jobs.$inferInsert & { id: string } {
  return {
    id: newId('job'),
    type,
    payload,
    shopId: opts.shopId ?? null,
    orderingKey: opts.orderingKey ?? null,
    runAt: opts.runAt ?? opts.now,
    maxAttempts: opts.maxAttempts ?? 10,
  };
}

/**
 * Claims up to `limit` due jobs for `workerId`. A job is due when its run_at (business clock)
 * has passed, or when it is `running` but its lease (database wall clock) has expired because
 * the process that held it died. A job waits while an earlier job with its ordering key is open.
 */
export async function claim(
  db: Db,
  workerId: string,
  now: Date,
  limit: number,
  leaseSeconds: number,
): Promise<JobRow[]> {
  return query<JobRow>(
    db,
    sql`UPDATE jobs SET status = 'running', attempts = jobs.attempts + 1, locked_by = ${workerId},
               locked_until = now() + make_interval(secs => ${leaseSeconds})
        WHERE id IN (
          SELECT j.id FROM jobs j
          WHERE ((j.status = 'queued' AND j.run_at <= ${now.toISOString()}::timestamptz)
              OR (j.status = 'running' AND j.locked_until < now()))
            AND (j.ordering_key IS NULL OR NOT EXISTS (
              SELECT 1 FROM jobs p
              WHERE p.ordering_key = j.ordering_key AND p.seq < j.seq AND p.status IN ('queued', 'running')))
          ORDER BY j.run_at, j.seq
          LIMIT ${limit}
          FOR UPDATE SKIP LOCKED)
        RETURNING id, seq, shop_id, type, payload, ordering_key, attempts, max_attempts, run_at`,
  );
}

/**
 * Extends the lease of every job `workerId` is running. The worker renews while its batch runs,
 * so a short lease only runs out when the process holding it is gone (issue 14: a job claimed by
 * a dead process is taken over within seconds, not minutes).
 */
export async function renewLeases(db: Db, workerId: string, leaseSeconds: number): Promise<void> {
  await db.execute(
    sql`UPDATE jobs SET locked_until = now() + make_interval(secs => ${leaseSeconds})
        WHERE locked_by = ${workerId} AND status = 'running'`,
  );
}

export async function complete(db: Db, job: JobRow, workerId: string): Promise<void> {
  await db.execute(
    sql`UPDATE jobs SET status = 'done', finished_at = now(), locked_until = NULL, last_error = NULL
        WHERE id = ${job.id} AND locked_by = ${workerId}`,
  );
}

/** Delay before attempt n+1: 2^n × base, capped, with ±20 % jitter. */
export function backoffMs(attempts: number, baseMs = 10_000, capMs = 6 * 3600_000): number {
  const raw = Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(raw * (0.8 + Math.random() * 0.4));
}

/** Records a failure; the job is retried later, or marked dead after its last attempt. */
export async function fail(
  db: Db,
  job: JobRow,
  workerId: string,
  error: string,
  now: Date,
  retryInMs: number,
): Promise<'retry' | 'dead'> {
  const dead = job.attempts >= job.max_attempts;
  await db.execute(
    sql`UPDATE jobs SET status = ${dead ? 'dead' : 'queued'}, last_error = ${error.slice(0, 2000)},
               locked_until = NULL, locked_by = NULL,
               run_at = ${new Date(now.getTime() + retryInMs).toISOString()}::timestamptz,
               finished_at = ${dead ? sql`now()` : null}
        WHERE id = ${job.id} AND locked_by = ${workerId}`,
  );
  return dead ? 'dead' : 'retry';
}
