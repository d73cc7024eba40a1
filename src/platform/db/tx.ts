/**
 * The one transaction helper, and raw-SQL helpers that behave the same on both drivers. Named
 * prepared statements (the speed machinery) are in platform/db/prepared.ts.
 */
import type { Ctx } from '../auth/types.js';
import type { Db } from './client.js';

declare const openTransaction: unique symbol;

/**
 * An open transaction. A function that must run inside its caller's transaction (a row lock, a
 * stock reservation, a ledger entry, an event or a mail queued with the change) takes a `Tx` or
 * a `TxCtx`; a pool handle (`Db`) does not type-check there. Only `withTx` makes one. A `Tx` is
 * also a `Db`: what reads or writes either way takes `Db`.
 */
export type Tx = Db & { readonly [openTransaction]: true };

/** The request context inside a transaction: `db` is the open transaction. */
export interface TxCtx extends Ctx {
  db: Tx;
}

/**
 * Runs `fn` in a transaction and commits when it returns (rolls back when it throws); called
 * inside a transaction, it opens a savepoint. Given a context, `fn` receives the same context with
 * `db` the transaction.
 */
export function withTx<T>(ctx: Ctx, fn: (tx: TxCtx) => Promise<T>): Promise<T>;
export function withTx<T>(db: Db, fn: (tx: Tx) => Promise<T>): Promise<T>;
export function withTx<T>(handle: Db | Ctx, fn: ((tx: TxCtx) => Promise<T>) | ((tx: Tx) => Promise<T>)): Promise<T> {
  if ('shopId' in handle) {
    const ctx = handle;
    return ctx.db.transaction((tx) => (fn as (tx: TxCtx) => Promise<T>)({ ...ctx, db: tx as unknown as Tx }));
  }
  return handle.transaction((tx) => (fn as (tx: Tx) => Promise<T>)(tx as unknown as Tx));
}

/** A raw query's PostgreSQL text timestamp as a Date (platform/dates.ts). */
export { pgDate } from '../dates.js';
export { one, query, queryOne } from './query.js';

/**
 * The constraint a unique violation (SQLSTATE 23505) hit — `''` when unnamed — or null for any
 * other error. On Citus the error comes from a shard: it names the shard's index
 * (`affiliates_code_uq_102607`) and may carry no `constraint` field, so the name is then read
 * from the message (`… violates unique constraint "…"`) and a trailing `_<digits>` shard suffix is
 * removed: callers compare with the index name and get the same answer on every database. (No
 * index of the schema ends in `_<digits>`.)
 */
export function uniqueConstraintOf(err: unknown): string | null {
  type PgError = { code?: string; constraint?: string; message?: string; detail?: string };
  const e = err as PgError & { cause?: PgError };
  const hit = e?.code === '23505' ? e : e?.cause?.code === '23505' ? e.cause : null;
  if (!hit) return null;
  const named = hit.constraint || /unique constraint "([^"]+)"/.exec(`${hit.message ?? ''} ${hit.detail ?? ''}`)?.[1];
  return named ? named.replace(/_\d+$/, '') : '';
}

/** Escapes LIKE wildcards so a search for `50%` finds the text `50%` (the default escape is `\`). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A LIKE pattern that finds `text` anywhere, its wildcards taken literally. */
export const likeAnywhere = (text: string): string => `%${escapeLike(text)}%`;

/** True when the error is a unique violation (both drivers; Drizzle wraps it in `cause`). */
export const isUniqueViolation = (err: unknown): boolean => uniqueConstraintOf(err) !== null;
