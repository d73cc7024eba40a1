/** Tables of the platform itself: the simulated clock and the durable job queue. */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const clockState = pgTable('clock_state', {
  id: integer('id').primaryKey(),
  offsetMs: bigint('offset_ms', { mode: 'number' }).notNull().default(0),
});

export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    /** Monotonic order of enqueueing; jobs sharing an ordering key run in this order. */
    seq: bigserial('seq', { mode: 'number' }).notNull().unique(),
    shopId: text('shop_id'),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull().$type<Record<string, unknown>>(),
    orderingKey: text('ordering_key'),
    /** queued | running | done | dead */
    status: text('status').$type<'queued' | 'running' | 'done' | 'dead'>().notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(10),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('jobs_due_idx').on(t.runAt).where(sql`status = 'queued'`),
    index('jobs_running_idx').on(t.lockedUntil).where(sql`status = 'running'`),
    index('jobs_ordering_idx').on(t.orderingKey, t.seq).where(sql`status IN ('queued', 'running')`),
    index('jobs_shop_idx').on(t.shopId, t.createdAt),
  ],
);

/** Platform-wide secrets generated at first start (e.g. the demo platform token), hashed. */
export const platformSecrets = pgTable('platform_secrets', {
  name: text('name').primaryKey(),
  valueHash: text('value_hash').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
