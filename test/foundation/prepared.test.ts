/** preparedQuery (platform/db/tx.ts): named by its text, one name per text, results as db.execute gives them. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { preparedQuery, query, withTx } from '../../src/platform/db/tx.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let t: TestDatabase;

beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(async () => {
  await t.drop();
});

describe('preparedQuery', () => {
  it('runs through db.execute once, with its parameters, and names each text once (PostgreSQL)', async () => {
    const db = t.database.db;
    const spy = vi.spyOn(db, 'execute');
    try {
      const rows = await preparedQuery<{ n: number; s: string }>(
        db,
        'probe',
        sql`SELECT ${41}::int + 1 AS n, ${'a'}::text || ${'b'} AS s`,
      );
      expect(rows).toEqual([{ n: 42, s: 'ab' }]);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
    if (t.url === null) return; // PGlite has one session and ignores statement names
    const names = await withTx(db, async (tx) => {
      // the same text with other values: one statement; another text: another
      expect(await preparedQuery(tx, 'probe', sql`SELECT ${7}::int AS n`)).toEqual([{ n: 7 }]);
      expect(await preparedQuery(tx, 'probe', sql`SELECT ${8}::int AS n`)).toEqual([{ n: 8 }]);
      expect(await preparedQuery(tx, 'probe', sql`SELECT ${9}::int AS m`)).toEqual([{ m: 9 }]);
      return query<{ name: string; statement: string }>(
        tx,
        sql`SELECT name, statement FROM pg_prepared_statements WHERE name LIKE 'probe_%' AND statement LIKE 'SELECT $1::int AS _' ORDER BY statement`,
      );
    });
    expect(names).toHaveLength(2);
    expect(names.map((n) => n.statement)).toEqual(['SELECT $1::int AS m', 'SELECT $1::int AS n']);
    for (const n of names) expect(n.name).toMatch(/^probe_[0-9a-f]{12}$/);
    // the session's own prepareQuery is back: a plain query is not named
    const [plain] = await withTx(db, async (tx) => {
      await tx.execute(sql`SELECT ${1}::int AS plain_probe`);
      return query<{ n: number }>(
        tx,
        sql`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE '%plain_probe%'`,
      );
    });
    expect(plain?.n).toBe(0);
  });
});
