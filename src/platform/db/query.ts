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
