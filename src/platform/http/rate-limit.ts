/**
 * Fixed-window rate limits kept in the database, so every process counts together.
 * Windows use the wall clock, never the simulated business clock.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { preparedQuery } from '../db/prepared.js';
import { query } from '../db/tx.js';
import { AppError } from '../errors.js';

export interface Limit {
  bucket: string;
  max: number;
  windowSeconds: number;
}

function windowOf(limit: Limit): { start: Date; retryAfter: number } {
  const ms = limit.windowSeconds * 1000;
  const now = Date.now();
  const start = Math.floor(now / ms) * ms;
  return { start: new Date(start), retryAfter: Math.max(1, Math.ceil((start + ms - now) / 1000)) };
}

export function tooMany(retryAfter: number): AppError {
  return new AppError('rate_limited', `Too many requests; retry in ${retryAfter} s`, undefined, {
    'retry-after': String(retryAfter),
  });
}

/**
 * Counts one hit and refuses with 429 once the window's maximum is passed.
 *
 * `asyncCommit`: the counting statement's own transaction commits without waiting for its WAL
 * flush (`synchronous_commit` off for that transaction only, set in the statement itself). A hot
 * bucket (one storefront server sending every shopper's checkout) is one row whose lock every
 * request queues on; with a synchronous commit that lock is held through each flush, so the
 * bucket admits one request per disk flush. The count is visible to every process as soon as
 * the statement returns either way; only a crash of the database server can lose the last
 * fraction of a second of counts, which a rate limit can afford. Never pass it with a `db` that
 * is an open transaction (the setting would apply to that whole transaction).
 */
export async function consume(db: Db, limit: Limit, opts: { asyncCommit?: boolean } = {}): Promise<void> {
  const { start, retryAfter } = windowOf(limit);
  const rows = await preparedQuery<{ count: number }>(
    db,
    'rate_limit_consume',
    opts.asyncCommit
      ? sql`INSERT INTO rate_limits (bucket, window_start, count)
            SELECT ${limit.bucket}, ${start.toISOString()}::timestamptz, 1
            FROM (SELECT set_config('synchronous_commit', 'off', true)) AS local_setting
            ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limits.count + 1
            RETURNING count`
      : sql`INSERT INTO rate_limits (bucket, window_start, count) VALUES (${limit.bucket}, ${start.toISOString()}::timestamptz, 1)
            ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limits.count + 1
            RETURNING count`,
  );
  if ((rows[0]?.count ?? 0) > limit.max) throw tooMany(retryAfter);
}

/** Refuses with 429 when the window is already full, without counting (pair with `consume` on failure). */
export async function check(db: Db, limit: Limit): Promise<void> {
  const { start, retryAfter } = windowOf(limit);
  const rows = await query<{ count: number }>(
    db,
    sql`SELECT count FROM rate_limits WHERE bucket = ${limit.bucket} AND window_start = ${start.toISOString()}::timestamptz`,
  );
  if ((rows[0]?.count ?? 0) >= limit.max) throw tooMany(retryAfter);
}

/**
 * Takes one slot of a window atomically and says whether it fits: `{ok, retryAfter, start}`.
 * A slot that did not fit, or that the caller decides should not count, is given back with
 * `release` (login throttling reserves a failure before the password is checked).
 */
export async function reserve(db: Db, limit: Limit): Promise<{ ok: boolean; retryAfter: number; start: Date }> {
  const { start, retryAfter } = windowOf(limit);
  const rows = await query<{ count: number }>(
    db,
    sql`INSERT INTO rate_limits (bucket, window_start, count) VALUES (${limit.bucket}, ${start.toISOString()}::timestamptz, 1)
        ON CONFLICT (bucket, window_start) DO UPDATE SET count = rate_limits.count + 1
        RETURNING count`,
  );
  return { ok: (rows[0]?.count ?? 0) <= limit.max, retryAfter, start };
}

/** Gives back a slot taken by `reserve` in the same window. */
export async function release(db: Db, bucket: string, start: Date): Promise<void> {
  await db.execute(
    sql`UPDATE rate_limits SET count = count - 1
        WHERE bucket = ${bucket} AND window_start = ${start.toISOString()}::timestamptz AND count > 0`,
  );
}
