/** Statements written as text (platform/db/statement.ts): the same row as the query builder writes, on both drivers. */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/platform/db/platform.tables.js';
import { preparedText } from '../../src/platform/db/prepared.js';
import { insertInto, Params } from '../../src/platform/db/statement.js';
import { query, withTx } from '../../src/platform/db/tx.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

let t: TestDatabase;

beforeAll(async () => {
  t = await freshDatabase();
});
afterAll(async () => {
  await t.drop();
});

const runAt = new Date('2026-11-26T12:34:56.789Z');
const row = (id: string) => ({
  id,
  type: 'probe',
  // jsonb with text that needs quoting, a nested object and a number
  payload: { note: 'a "quoted" \\ text', nested: { n: 1.5 }, list: [1, 'x'] },
  shopId: null,
  orderingKey: 'k',
  runAt,
  // maxAttempts, status, attempts and createdAt are left to their defaults
});

describe('insertInto + preparedText', () => {
  it('writes the row the query builder writes (encoders, nulls, defaults)', async () => {
    const db = t.database.db;
    await db.insert(jobs).values(row('job_builder'));
    const params = new Params();
    const text = insertInto(jobs, { ...row('job_text'), maxAttempts: undefined }, params);
    expect(text).toBe(
      'INSERT INTO "jobs" ("id", "type", "payload", "shop_id", "ordering_key", "run_at") VALUES ($1, $2, $3, $4, $5, $6)',
    );
    await preparedText(db, 'probe_insert', text, params.values);
    const [built] = await db.select().from(jobs).where(eq(jobs.id, 'job_builder'));
    const [written] = await db.select().from(jobs).where(eq(jobs.id, 'job_text'));
    const strip = (r: typeof built) => ({ ...r, id: '', seq: 0, createdAt: null });
    expect(written && strip(written)).toEqual(built && strip(built));
    expect(written?.maxAttempts).toBe(10);
    expect(written?.runAt?.toISOString()).toBe(runAt.toISOString());
  });

  it('runs in the caller transaction and rolls back with it; a driver error keeps its SQLSTATE', async () => {
    const db = t.database.db;
    await expect(
      withTx(db, async (tx) => {
        const params = new Params();
        await preparedText(tx, 'probe_insert', insertInto(jobs, row('job_rolled_back'), params), params.values);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await query(db, sql`SELECT 1 FROM jobs WHERE id = 'job_rolled_back'`)).toEqual([]);

    const params = new Params();
    const err: { code?: string; cause?: { code?: string } } = await preparedText(
      db,
      'probe_insert',
      insertInto(jobs, row('job_builder'), params),
      params.values,
    ).then(
      () => ({}),
      (e: unknown) => e as { code?: string; cause?: { code?: string } },
    );
    expect(err.code ?? err.cause?.code).toBe('23505');
  });

  it('refuses a key the table does not have', () => {
    expect(() => insertInto(jobs, { nope: 1 } as never, new Params())).toThrow('jobs has no column nope');
  });
});
