/**
 * The prepared-statement seam (platform/db/prepared.ts) against both drivers: the statement name
 * and text each driver receives, and the Drizzle internals the seam relies on (the session's
 * `prepareQuery(query, fields, name, isResponseInArrayMode, …)`, called synchronously by
 * `db.execute`). A Drizzle upgrade that renames, reorders or stops calling it fails here.
 *
 * Runs on PGlite always (the default database; a second, in-memory PGlite when the suite runs on
 * PostgreSQL) and on PostgreSQL when TEST_DATABASE_URL is set. PGlite ignores statement names:
 * there the test checks the name Drizzle's session is given and the text the driver runs.
 */
import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, type MockInstance, vi } from 'vitest';
import { openDatabase } from '../../src/platform/db/client.js';
import { preparedQuery, preparedText } from '../../src/platform/db/prepared.js';
import { query, withTx } from '../../src/platform/db/tx.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

type Driver = 'pglite' | 'postgres';
const drivers: Driver[] = process.env.TEST_DATABASE_URL ? ['postgres', 'pglite'] : ['pglite'];

/** The statement name prepared.ts gives a text: `name` and the first 12 hex digits of its SHA-1. */
const nameOf = (name: string, text: string) => `${name}_${createHash('sha1').update(text).digest('hex').slice(0, 12)}`;

/** What the seam touches of Drizzle's session. */
interface Session {
  prepareQuery: (...args: unknown[]) => { execute: () => Promise<unknown> };
}

describe.each(drivers)('prepared statements on %s', (driver) => {
  let t: TestDatabase;
  beforeAll(async () => {
    if (driver === 'pglite' && process.env.TEST_DATABASE_URL) {
      // the suite runs on PostgreSQL: PGlite gets a database of its own (no tables needed)
      const database = await openDatabase({ url: null, dataDir: 'memory' });
      t = { database, url: null, drop: () => database.close() };
    } else {
      t = await freshDatabase();
    }
    expect(t.database.kind).toBe(driver);
  });
  afterAll(async () => {
    await t.drop();
  });

  const db = () => t.database.db;
  const session = () => db()._.session as unknown as Session;
  /** The session class's prepareQuery (the method prepared.ts patches on the instance). */
  const spyPrepare = () =>
    vi.spyOn(Object.getPrototypeOf(session()) as Session, 'prepareQuery') as unknown as MockInstance<
      Session['prepareQuery']
    >;
  /** The driver's own query method: pg's pool, or the PGlite instance. */
  const spyDriver = () =>
    vi.spyOn(t.database.raw as { query: (...args: unknown[]) => Promise<unknown> }, 'query') as MockInstance<
      (...args: unknown[]) => Promise<unknown>
    >;
  /** The statement name and text of a driver call (PGlite is given the text alone). */
  const sent = (args: unknown[]) =>
    driver === 'postgres'
      ? { name: (args[0] as pg.QueryConfig).name, text: (args[0] as pg.QueryConfig).text, params: args[1] }
      : { name: undefined, text: args[0] as string, params: args[1] };

  describe('the Drizzle internals the seam relies on', () => {
    it('the session has prepareQuery(query, fields, name, isResponseInArrayMode, …) on its class, not on the instance', () => {
      const s = session();
      expect(s.constructor.name).toBe(driver === 'postgres' ? 'NodePgSession' : 'PgliteSession');
      expect(Object.hasOwn(s, 'prepareQuery')).toBe(false);
      const method = (Object.getPrototypeOf(s) as Session).prepareQuery;
      expect(typeof method).toBe('function');
      expect(method.toString()).toMatch(/^prepareQuery\(query, fields, name, isResponseInArrayMode\b/);
    });

    it('db.execute compiles once and calls prepareQuery synchronously, then executes what it returns', async () => {
      const prepare = spyPrepare();
      try {
        const pending = db().execute(sql`SELECT ${5}::int AS n`);
        // before any await: preparedQuery restores the session right after execute returns
        expect(prepare).toHaveBeenCalledTimes(1);
        const [q, fields, name] = prepare.mock.calls[0] ?? [];
        expect(q).toMatchObject({ sql: 'SELECT $1::int AS n', params: [5] });
        expect(fields).toBeUndefined();
        expect(name).toBeUndefined();
        expect(typeof prepare.mock.results[0]?.value.execute).toBe('function');
        expect(((await pending) as unknown as { rows: unknown[] }).rows).toEqual([{ n: 5 }]);
      } finally {
        prepare.mockRestore();
      }
    });
  });

  describe('preparedQuery', () => {
    // one name per text across the process (the first name a text gets): each test uses texts of its own
    it('sends its statement to the driver once, under a name by its text, and restores the session', async () => {
      const prepare = spyPrepare();
      const query_ = spyDriver();
      const execute = vi.spyOn(db(), 'execute');
      try {
        const rows = await preparedQuery<{ n: number; s: string }>(
          db(),
          'probe',
          sql`SELECT ${41}::int + 1 AS n, ${'a'}::text || ${'b'} AS s`,
        );
        expect(rows).toEqual([{ n: 42, s: 'ab' }]);
        const text = 'SELECT $1::int + 1 AS n, $2::text || $3 AS s';
        expect(execute).toHaveBeenCalledTimes(1);
        expect(prepare).toHaveBeenCalledTimes(1);
        const [q, fields, name] = prepare.mock.calls[0] ?? [];
        expect(q).toMatchObject({ sql: text, params: [41, 'a', 'b'] });
        expect(fields).toBeUndefined();
        expect(name).toBe(nameOf('probe', text));
        expect(query_).toHaveBeenCalledTimes(1);
        expect(sent(query_.mock.calls[0] ?? [])).toEqual({
          name: driver === 'postgres' ? nameOf('probe', text) : undefined,
          text,
          params: [41, 'a', 'b'],
        });
        expect(Object.hasOwn(session(), 'prepareQuery')).toBe(false);

        // the same text with other values: the same name; another text: another name
        prepare.mockClear();
        expect(await preparedQuery(db(), 'probe', sql`SELECT ${7}::int AS n`)).toEqual([{ n: 7 }]);
        expect(await preparedQuery(db(), 'probe', sql`SELECT ${8}::int AS n`)).toEqual([{ n: 8 }]);
        expect(await preparedQuery(db(), 'probe', sql`SELECT ${9}::int AS m`)).toEqual([{ m: 9 }]);
        expect(prepare.mock.calls.map((c) => c[2])).toEqual([
          nameOf('probe', 'SELECT $1::int AS n'),
          nameOf('probe', 'SELECT $1::int AS n'),
          nameOf('probe', 'SELECT $1::int AS m'),
        ]);

        // a plain query afterwards is not named
        prepare.mockClear();
        await db().execute(sql`SELECT 1 AS plain`);
        expect(prepare.mock.calls[0]?.[2]).toBeUndefined();
      } finally {
        execute.mockRestore();
        query_.mockRestore();
        prepare.mockRestore();
      }
    });

    it('names the statement inside a transaction too, and leaves the transaction session as it was', async () => {
      const prepare = spyPrepare();
      try {
        const names = await withTx(db(), async (tx) => {
          const txSession = tx._.session as unknown as Session;
          expect(txSession).not.toBe(session());
          expect(await preparedQuery(tx, 'probe_tx', sql`SELECT ${3}::int AS in_tx`)).toEqual([{ in_tx: 3 }]);
          expect(Object.hasOwn(txSession, 'prepareQuery')).toBe(false);
          if (driver === 'pglite') return [];
          return query<{ name: string; statement: string }>(
            tx,
            sql`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'probe_tx_%'`,
          );
        });
        expect(prepare.mock.calls.map((c) => c[2])).toContain(nameOf('probe_tx', 'SELECT $1::int AS in_tx'));
        if (driver === 'postgres') {
          // PostgreSQL holds it under that name on the transaction's connection
          expect(names).toEqual([
            { name: nameOf('probe_tx', 'SELECT $1::int AS in_tx'), statement: 'SELECT $1::int AS in_tx' },
          ]);
        }
      } finally {
        prepare.mockRestore();
      }
    });
  });

  describe('preparedText', () => {
    it('sends the text and its parameters to the driver under a name by the text, with no query building', async () => {
      const prepare = spyPrepare();
      const query_ = spyDriver();
      const execute = vi.spyOn(db(), 'execute');
      try {
        const text = 'SELECT $1::int * 2 AS n, $2::text AS s';
        expect(await preparedText(db(), 'probe_text', text, [21, 'x'])).toEqual([{ n: 42, s: 'x' }]);
        expect(execute).not.toHaveBeenCalled();
        expect(prepare).toHaveBeenCalledTimes(1);
        expect(prepare.mock.calls[0]).toEqual([
          { sql: text, params: [21, 'x'] },
          undefined,
          nameOf('probe_text', text),
          false,
        ]);
        expect(query_).toHaveBeenCalledTimes(1);
        expect(sent(query_.mock.calls[0] ?? [])).toEqual({
          name: driver === 'postgres' ? nameOf('probe_text', text) : undefined,
          text,
          params: [21, 'x'],
        });
      } finally {
        execute.mockRestore();
        query_.mockRestore();
        prepare.mockRestore();
      }
    });
  });
});
