/** The maintenance job: one cleanup chain however many workers scheduled one, and no step stops the others. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { query } from '../../src/platform/db/tx.js';
import { CLEANUP_JOB } from '../../src/platform/jobs/maintenance.js';
import { enqueue } from '../../src/platform/jobs/queue.js';
import { startApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const db = () => t.app.deps.database.db;
const cleanups = () =>
  query<{ status: string; n: number }>(
    db(),
    sql`SELECT status, count(*)::int AS n FROM jobs WHERE type = ${CLEANUP_JOB} GROUP BY status ORDER BY status`,
  );

beforeEach(async () => {
  await db().execute(sql`DELETE FROM jobs WHERE type = ${CLEANUP_JOB}`);
});

it('two cleanup chains (workers that started at the same moment) merge into one', async () => {
  const now = t.app.deps.clock.now();
  await enqueue(db(), CLEANUP_JOB, {}, { now });
  await enqueue(db(), CLEANUP_JOB, {}, { now });
  await t.app.deps.worker.drain();
  expect(await cleanups()).toEqual([
    { status: 'done', n: 2 },
    { status: 'queued', n: 1 },
  ]);
  // 15 minutes later the one chain runs once and schedules once
  await t.app.deps.clock.advance(db(), 15 * 60 + 1);
  await t.app.deps.worker.drain();
  expect(await cleanups()).toEqual([
    { status: 'done', n: 3 },
    { status: 'queued', n: 1 },
  ]);
});

it('a failing step is logged; the other steps run and the job reschedules itself', async () => {
  // a finished job from 8 days ago: the `jobs` step (after the failing one) removes it
  const [old] = await query<{ id: string }>(
    db(),
    sql`INSERT INTO jobs (id, type, payload, status, run_at, finished_at)
        VALUES ('job_maintenance_old', 'test.noop', '{}'::jsonb, 'done', now() - interval '8 days', now() - interval '8 days')
        RETURNING id`,
  );
  expect(old?.id).toBe('job_maintenance_old');
  await db().execute(sql`ALTER TABLE rate_limits RENAME TO rate_limits_away`);
  try {
    await enqueue(db(), CLEANUP_JOB, {}, { now: t.app.deps.clock.now() });
    await t.app.deps.worker.drain();
  } finally {
    await db().execute(sql`ALTER TABLE rate_limits_away RENAME TO rate_limits`);
  }
  expect(await query(db(), sql`SELECT 1 FROM jobs WHERE id = 'job_maintenance_old'`)).toEqual([]);
  expect(await cleanups()).toEqual([
    { status: 'done', n: 1 },
    { status: 'queued', n: 1 },
  ]);
});
