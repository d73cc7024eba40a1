/** Raw queries that behave the same on both drivers (re-exported by `tx.ts`). */
import type { SQL } from 'drizzle-orm';
import type { Db } from './client.js';

/** Runs a raw query and returns its rows (both drivers put them in `.rows`). */
export async function query<T = Record<string, unknown>>(db: Db, q: SQL): Promise<T[]> {
  const res = (await db.execute(q)) as unknown as { rows: T[] };
  return res.rows;
}

export async function queryOne<T = Record<string, unknown>>(db: Db, q: SQL): Promise<T | undefined> {
  const rows = await query<T>(db, q);
  return rows[0];
}

/**
 * The row a statement that must return one did return: an INSERT/UPDATE … RETURNING of a row
 * this transaction holds, or a read by a key just checked. None is a bug (500), never a 404: a
 * row the caller may legitimately miss is checked with its own notFound instead.
 */
export function one<T>(rows: readonly T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('the statement returned no row where it must return one');
  return row;
}
