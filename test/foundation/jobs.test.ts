import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Clock } from '../../src/platform/clock.js';
import type { Db } from '../../src/platform/db/client.js';
import { pgDate, query, withTx } from '../../src/platform/db/tx.js';
import { backoffMs, enqueue } from '../../src/platform/jobs/queue.js';
import { JobRegistry, Worker } from '../../src/platform/jobs/worker.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

const silent = {
  info() {},
  warn() {},
  error() {},
  debug() {},
  trace() {},
  fatal() {},
  child: () => silent,
  level: 'silent',
  silent() {},
} as never;

let tdb: TestDatabase;
let db: Db;
const clock = new Clock('simulated');

beforeAll(async () => {
  tdb = await freshDatabase();
  db = tdb.database.db;
});
afterAll(() => tdb.drop());

function worker(registry: JobRegistry, id: string): Worker {
  return new Worker({ db, clock, log: silent, registry, pollMs: 10, id, batchSize: 5 });
}

async function jobRow(id: string) {
  const rows = await query<{ status: string; attempts: number; last_error: string | null; run_at: string }>(
    db,
    sql`SELECT status, attempts, last_error, run_at FROM jobs WHERE id = ${id}`,
  );
  const row = rows[0];
  return row && { ...row, run_at: pgDate(row.run_at) };
}

describe('job queue', () => {
  it('runs a job enqueued in a committed transaction, and none from a rolled-back one', async () => {
    const registry = new JobRegistry();
    const seen: unknown[] = [];
    registry.register('t.record', { run: async (p) => void seen.push(p.n) });
    const committed = await withTx(db, (tx) => enqueue(tx, 't.record', { n: 1 }, { now: clock.now() }));
    await withTx(db, async (tx) => {
      await enqueue(tx, 't.record', { n: 2 }, { now: clock.now() });
      throw new Error('rollback');
    }).catch(() => {});
    await worker(registry, 'w1').drain();
    expect(seen).toEqual([1]);
    expect((await jobRow(committed))?.status).toBe('done');
  });

  it('retries a failing job with exponential backoff, records the error, and gives up after max attempts', async () => {
    const registry = new JobRegistry();
    let calls = 0;
    registry.register('t.flaky', {
      run: async () => {
        calls++;
        throw new Error(`boom ${calls}`);
      },
      retryDelayMs: (attempts) => 60_000 * 2 ** (attempts - 1),
    });
    const id = await enqueue(db, 't.flaky', {}, { now: clock.now(), maxAttempts: 3 });
    const w = worker(registry, 'w1');
    await w.drain();
    let row = await jobRow(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 1, last_error: 'boom 1' });
    const firstRetry = row!.run_at.getTime() - clock.now().getTime();
    expect(firstRetry).toBeGreaterThan(55_000);
    expect(firstRetry).toBeLessThanOrEqual(60_000);
    await w.drain(); // not due yet
    expect(calls).toBe(1);
    await clock.advance(db, 61);
    await w.drain();
    row = await jobRow(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 2, last_error: 'boom 2' });
    const secondRetry = row!.run_at.getTime() - clock.now().getTime();
    expect(secondRetry).toBeGreaterThan(115_000);
    await clock.advance(db, 121);
    await w.drain();
    row = await jobRow(id);
    expect(row).toMatchObject({ status: 'dead', attempts: 3, last_error: 'boom 3' });
    await clock.advance(db, 3600);
    await w.drain();
    expect(calls).toBe(3);
  });

  it('default backoff doubles from 10 s with jitter and a cap', () => {
    for (let i = 0; i < 20; i++) {
      const d1 = backoffMs(1);
      expect(d1).toBeGreaterThanOrEqual(8_000);
      expect(d1).toBeLessThanOrEqual(12_000);
      const d4 = backoffMs(4);
      expect(d4).toBeGreaterThanOrEqual(64_000);
      expect(d4).toBeLessThanOrEqual(96_000);
      expect(backoffMs(40)).toBeLessThanOrEqual(6 * 3600_000 * 1.2);
    }
  });

  it('two workers running at once never run the same job', async () => {
    const registry = new JobRegistry();
    const runs = new Map<number, string[]>();
    registry.register('t.once', {
      run: async (p, { job }) => {
        const n = p.n as number;
        runs.set(n, [...(runs.get(n) ?? []), job.id]);
        await new Promise((r) => setTimeout(r, 2));
      },
    });
    for (let n = 0; n < 60; n++) await enqueue(db, 't.once', { n }, { now: clock.now() });
    const a = worker(registry, 'wa');
    const b = worker(registry, 'wb');
    const [ra, rb] = await Promise.all([a.drain(), b.drain()]);
    expect(ra + rb).toBe(60);
    expect(runs.size).toBe(60);
    for (const ids of runs.values()) expect(ids).toHaveLength(1);
  });

  it('runs jobs with one ordering key strictly in order, one at a time', async () => {
    const registry = new JobRegistry();
    const order: number[] = [];
    let failedOnce = false;
    registry.register('t.ordered', {
      run: async (p) => {
        if (p.n === 1 && !failedOnce) {
          failedOnce = true;
          throw new Error('transient');
        }
        order.push(p.n as number);
      },
      retryDelayMs: () => 1_000,
    });
    for (let n = 0; n < 4; n++) await enqueue(db, 't.ordered', { n }, { now: clock.now(), orderingKey: 'abo_1' });
    const w = worker(registry, 'w1');
    await w.drain();
    // job 1 failed: 2 and 3 must wait behind it
    expect(order).toEqual([0]);
    await clock.advance(db, 2);
    await w.drain();
    expect(order).toEqual([0, 1, 2, 3]);
  });

  it('reclaims a job whose worker died mid-way (lease expired)', async () => {
    const registry = new JobRegistry();
    let runs = 0;
    registry.register('t.lease', { run: async () => void runs++ });
    const id = await enqueue(db, 't.lease', {}, { now: clock.now() });
    // a worker claimed it and died: status running with an expired lease
    await db.execute(
      sql`UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'dead-worker', locked_until = now() - interval '1 second' WHERE id = ${id}`,
    );
    await worker(registry, 'w2').drain();
    expect(runs).toBe(1);
    expect((await jobRow(id))?.status).toBe('done');
  });

  it('renews the short lease while a job runs longer than it, so no other worker takes it over', async () => {
    const registry = new JobRegistry();
    let runs = 0;
    registry.register('t.long', {
      run: async () => {
        runs++;
        await new Promise((r) => setTimeout(r, 2500));
      },
    });
    const id = await enqueue(db, 't.long', {}, { now: clock.now() });
    const long = new Worker({ db, clock, log: silent, registry, pollMs: 10, id: 'w-long', leaseSeconds: 1 });
    const other = new Worker({ db, clock, log: silent, registry, pollMs: 10, id: 'w-other', leaseSeconds: 1 });
    const running = long.tick();
    // the 1 s lease would have run out twice meanwhile without renewal
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setTimeout(r, 500));
      expect(await other.tick()).toBe(0);
    }
    await running;
    expect(runs).toBe(1);
    expect((await jobRow(id))?.status).toBe('done');
  });

  it('the default lease lets a job of a dead worker be taken over within 30 s', async () => {
    const { DEFAULT_LEASE_SECONDS } = await import('../../src/platform/jobs/worker.js');
    expect(DEFAULT_LEASE_SECONDS).toBeLessThanOrEqual(25);
    const registry = new JobRegistry();
    registry.register('t.dead', { run: async () => {} });
    const id = await enqueue(db, 't.dead', {}, { now: clock.now() });
    // claimed by a worker that never renews (its process is gone)
    await db.execute(
      sql`UPDATE jobs SET status = 'running', attempts = 1, locked_by = 'gone',
                 locked_until = now() + make_interval(secs => ${DEFAULT_LEASE_SECONDS}) WHERE id = ${id}`,
    );
    const w = worker(registry, 'w-takeover');
    expect(await w.tick()).toBe(0);
    await db.execute(
      sql`UPDATE jobs SET locked_until = locked_until - make_interval(secs => ${DEFAULT_LEASE_SECONDS}) WHERE id = ${id}`,
    );
    await w.drain();
    expect((await jobRow(id))?.status).toBe('done');
  });

  it('keeps a job queued when no handler exists and records why', async () => {
    const id = await enqueue(db, 't.unknown', {}, { now: clock.now(), maxAttempts: 1 });
    await worker(new JobRegistry(), 'w3').drain();
    const row = await jobRow(id);
    expect(row?.status).toBe('dead');
    expect(row?.last_error).toContain('no handler');
  });

  it('the polling loop starts and stops cleanly', async () => {
    const registry = new JobRegistry();
    let ran = 0;
    registry.register('t.loop', { run: async () => void ran++ });
    await enqueue(db, 't.loop', {}, { now: clock.now() });
    const w = worker(registry, 'loop');
    w.start();
    for (let i = 0; i < 100 && ran === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await w.stop();
    expect(ran).toBe(1);
  });
});
