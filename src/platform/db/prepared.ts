/**
 * Named prepared statements, the one seam between the hot paths and Drizzle's internals:
 * `prepared` (a query builder's `.prepare(name)` kept per handle), `preparedQuery` (a raw query
 * built with `sql`, named by its text) and `preparedText` (a query written as text). The last two
 * use Drizzle's session `prepareQuery(query, fields, name, arrayMode, …)`, which is not part of
 * its public API: test/foundation/prepared.test.ts checks, on both drivers, that it still has that
 * shape, that `db.execute` calls it synchronously, and the statement name and text each driver
 * receives — a Drizzle upgrade that changes them fails there, not silently in production.
 */
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { Db } from './client.js';

/**
 * The part of Drizzle's session (`db._.session`, PgliteSession or NodePgSession) these helpers
 * use: `prepareQuery(query, fields, name, isResponseInArrayMode, …)` returns a prepared query
 * whose `execute()` sends `query.sql` with `query.params` to the driver under `name`.
 */
interface DrizzleSession {
  prepareQuery(
    query: { sql: string; params: unknown[] },
    fields: unknown,
    name: string | undefined,
    isResponseInArrayMode: boolean,
    ...rest: unknown[]
  ): { execute: () => Promise<unknown> };
}

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
  const session = db._.session as unknown as DrizzleSession;
  const own = Object.hasOwn(session, 'prepareQuery');
  const original = session.prepareQuery;
  session.prepareQuery = (query, fields, _name, ...rest) =>
    original.call(session, query, fields, statementName(name, query.sql), ...rest);
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
  const session = db._.session as unknown as DrizzleSession;
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
