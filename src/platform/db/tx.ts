/** The one transaction helper, and raw-SQL helpers that behave the same on both drivers. */
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
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
export { query, queryOne } from './query.js';

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

/** Statement names by SQL text: one name per distinct text, so a name never changes its text. */
const namesByText = new Map<string, string>();
const MAX_NAMED_TEXTS = 500;

/**
 * Runs a raw query (as `query`) as a named prepared statement: PostgreSQL parses it once per
 * connection and, after a few executions, reuses a generic plan, which saves the planning of
 * wide queries (many indexes, correlated subqueries) on every call. The name is `name` and a
 * hash of the text, so queries whose text varies with their shape (number of search words, a
 * filter present or not) each get their own statement; past MAX_NAMED_TEXTS distinct texts a
 * query runs unnamed. PGlite ignores the name.
 */
export async function preparedQuery<T = Record<string, unknown>>(db: Db, name: string, q: SQL): Promise<T[]> {
  // Through `db.execute` (what every raw query goes through, and what tests count), with the
  // session's prepareQuery given the name for this one synchronous call: execute compiles the
  // query once and prepares it before it returns, so no other query can run in between. The name
  // is taken from the text execute compiled (building the SQL is a large part of a hot route's
  // CPU: it is done once, not once for the name and again for the driver).
  const session = db._.session as unknown as { prepareQuery: (...args: unknown[]) => unknown };
  const own = Object.hasOwn(session, 'prepareQuery');
  const original = session.prepareQuery;
  session.prepareQuery = (query: unknown, fields: unknown, _name: unknown, ...rest: unknown[]) =>
    original.call(session, query, fields, statementName(name, (query as { sql: string }).sql), ...rest);
  let pending: ReturnType<Db['execute']>;
  try {
    pending = db.execute(q);
  } finally {
    if (own) session.prepareQuery = original;
    else delete (session as { prepareQuery?: unknown }).prepareQuery;
  }
  const res = (await pending) as unknown as { rows: T[] };
  return res.rows;
}

/**
 * Runs a query written as text with numbered parameters (platform/db/statement.ts) as a named
 * prepared statement, like `preparedQuery` but with no query building at all. It goes through the
 * session's prepareQuery, as `db.execute` does, so transactions, driver errors (wrapped as the
 * query builder wraps them) and both drivers behave the same.
 */
export async function preparedText<T = Record<string, unknown>>(
  db: Db,
  name: string,
  text: string,
  params: unknown[],
): Promise<T[]> {
  const session = db._.session as unknown as {
    prepareQuery: (
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string | undefined,
      arrayMode: boolean,
    ) => { execute: () => Promise<unknown> };
  };
  const res = (await session
    .prepareQuery({ sql: text, params }, undefined, statementName(name, text), false)
    .execute()) as { rows: T[] };
  return res.rows;
}

/** The statement name of a query text: `name` and a hash of the text; undefined (unnamed) past MAX_NAMED_TEXTS texts. */
function statementName(name: string, text: string): string | undefined {
  let statement = namesByText.get(text);
  if (statement === undefined && namesByText.size < MAX_NAMED_TEXTS) {
    statement = `${name}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`;
    namesByText.set(text, statement);
  }
  return statement;
}
