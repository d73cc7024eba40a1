/** Signed events (docs/webhooks.md): the shop's endpoint, the events it emitted and their deliveries. */
import { sql } from 'drizzle-orm';
import { boolean, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { shopRef, shops } from '../shops/shops.tables.js';

/**
 * Every event type a shop emits (docs/webhooks.md): the one-time and subscription checkout
 * (docs/payments.md, docs/digital.md), refunds, the subscription lifecycle, the test event.
 */
export const WEBHOOK_EVENT_TYPES = [
  'checkout.completed',
  'order.refunded',
  'order.refund_failed',
  'abo.aktiv',
  'abo.bezahlt',
  'abo.zahlung_fehlgeschlagen',
  'abo.gekuendigt',
  'abo.fortgesetzt',
  'abo.beendet',
  'webhook.test',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The shop's one checkout webhook destination. */
export const webhookEndpoints = pgTable('webhook_endpoints', {
  shopId: text('shop_id')
    .primaryKey()
    .references(() => shops.id, { onDelete: 'cascade' }),
  url: text('url').notNull(),
  /** The `whsec_…` signing secret, AES-256-GCM with MASTER_KEY (platform/crypto `encrypt`). */
  secretEncrypted: text('secret_encrypted').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Every event a shop emitted, whether or not an endpoint was configured at the time. */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    type: text('type').$type<WebhookEventType>().notNull(),
    isTest: boolean('is_test').notNull(),
    data: jsonb('data').notNull().$type<Record<string, unknown>>(),
    /** Events sharing a key (one subscription, one order) are delivered in the order they happened. */
    orderingKey: text('ordering_key'),
    /** Business time (the clock), which is also the envelope's `created_at`. */
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'webhook_events_pkey', columns: [t.shopId, t.id] }),
    index('webhook_events_shop_idx').on(t.shopId, t.createdAt),
    /** One order's (or subscription's) events: the admin's order timeline. */
    index('webhook_events_ordering_idx').on(t.shopId, t.orderingKey, t.createdAt).where(sql`ordering_key IS NOT NULL`),
    /** Retention (platform/jobs/maintenance.ts): the oldest events first. */
    index('webhook_events_created_idx').on(t.createdAt),
  ],
);

/** One event on its way to the endpoint: attempts, outcome and the job that carries it. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    eventId: text('event_id').notNull(),
    /** The destination of the last attempt (the endpoint's URL at that time). */
    url: text('url').notNull(),
    /** pending | succeeded | failed (a retry is scheduled) | dead */
    status: text('status').$type<WebhookDeliveryStatus>().notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    /** The job that currently carries this delivery; a job that is not it does nothing. */
    jobId: text('job_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'webhook_deliveries_pkey', columns: [t.shopId, t.id] }),
    index('webhook_deliveries_shop_idx').on(t.shopId, t.createdAt.desc(), t.id.desc()),
    index('webhook_deliveries_event_idx').on(t.eventId),
    /** The overview's count of dead deliveries. */
    index('webhook_deliveries_dead_idx').on(t.shopId, t.updatedAt).where(sql`status = 'dead'`),
    /** Retention (platform/jobs/maintenance.ts): finished deliveries, oldest last change first. */
    index('webhook_deliveries_finished_idx').on(t.updatedAt).where(sql`status IN ('succeeded', 'dead')`),
    foreignKey({
      name: 'webhook_deliveries_event_fk',
      columns: [t.shopId, t.eventId],
      foreignColumns: [webhookEvents.shopId, webhookEvents.id],
    }).onDelete('cascade'),
  ],
);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'dead'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];
