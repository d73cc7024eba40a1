/** The one transaction helper, and raw-SQL helpers that behave the same on both drivers. */
import type { SQL } from 'drizzle-orm';
import type { Db } from './client.js';

/** A database handle or an open transaction: services accept either. */
export type Tx = Db;

/** Runs `fn` in a transaction; nested calls become savepoints. */
export function withTx<T>(db: Tx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Tx));
}

/** Runs a raw query and returns its rows (both drivers put them in `.rows`). */
export async function query<T = Record<string, unknown>>(db: Tx, q: SQL): Promise<T[]> {
  const res = (await db.execute(q)) as unknown as { rows: T[] };
  return res.rows;
}

export async function queryOne<T = Record<string, unknown>>(db: Tx, q: SQL): Promise<T | undefined> {
  const rows = await query<T>(db, q);
  return rows[0];
}

/**
 * Raw queries return timestamps as PostgreSQL text on both drivers (Drizzle maps them only for
 * typed queries); sessions run in UTC, so `2026-01-02 03:04:05.678+00` becomes a Date here.
 */
export function pgDate(value: string | Date): Date;
export function pgDate(value: string | Date | null): Date | null;
export function pgDate(value: string | Date | null): Date | null {
  if (value === null || value instanceof Date) return value;
  const iso = value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
  return new Date(iso);
}

/** The constraint a unique violation (SQLSTATE 23505) hit — `''` when unnamed — or null for any other error. */
export function uniqueConstraintOf(err: unknown): string | null {
  const e = err as { code?: string; constraint?: string; cause?: { code?: string; constraint?: string } };
  if (e?.code === '23505') return e.constraint ?? '';
  if (e?.cause?.code === '23505') return e.cause.constraint ?? '';
  return null;
}

/** Escapes LIKE wildcards so a search for `50%` finds the text `50%` (the default escape is `\`). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern that finds `text` anywhere, its wildcards taken literally. */
export const likeAnywhere = (text: string): string => `%${escapeLike(text)}%`;

/** True when the error is a unique violation (both drivers; Drizzle wraps it in `cause`). */
export const isUniqueViolation = (err: unknown): boolean => uniqueConstraintOf(err) !== null;

const preparedByDb = new WeakMap<Db, Map<string, unknown>>();

/**
 * A statement of the hottest paths, prepared once per database handle under `name` (PostgreSQL
 * then parses and plans it once per connection). `build` receives the handle and returns the
 * query builder's `.prepare(name)`.
 */
export function prepared<T>(db: Db, name: string, build: (db: Db, name: string) => T): T {
  let byName = preparedByDb.get(db);
  if (!byName) {
    byName = new Map();
    preparedByDb.set(db, byName);
  }
  let statement = byName.get(name) as T | undefined;
  if (!statement) {
    statement = build(db, name);
    byName.set(name, statement);
  }
  return statement;
}
