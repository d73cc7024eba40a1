/** Checkout sessions: a priced cart waiting for payment, with the stock it reserves. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { cents, ts } from '../../platform/db/columns.js';
import { channels } from '../channels/channels.tables.js';
import type { Address, PricedLine } from '../orders/orders.tables.js';
import { shopRef } from '../shops/shops.tables.js';
import type { VatIdStatus } from '../tax/index.js';
import type { CheckoutSessionKind, CheckoutSessionStatus } from './session-states.js';

// A priced line as stored on the session and copied to the order: orders owns its shape.
export type { PricedLine } from '../orders/orders.tables.js';
/**
 * An abo session's tax determination: the buyer fields the API took (the one-time checkout's
 * billing_address names) or, without them, the channel's default country as a consumer. With a
 * provider that keeps the recurring price (Stripe), `decision` fixed the amount sent to it.
 */
export interface AboSessionTax {
  /** Whether company / vat_id / billing_country came with the request. */
  given: boolean;
  company: string | null;
  /** Normalized (upper case, no spaces). */
  vat_id: string | null;
  country: string;
  decision: {
    tax_rate: number;
    tax_category: 'S' | 'Z' | 'K' | 'AE' | 'G' | 'O';
    tax_exemption_reason: string | null;
    price_rate: number;
  } | null;
  vat_id_status: VatIdStatus | null;
  /** ISO time of the VIES check. */
  vat_id_checked_at: string | null;
}

export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    channelId: text('channel_id').notNull(),
    /** order (one-time purchase) | abo (subscription) */
    kind: text('kind').$type<CheckoutSessionKind>().notNull().default('order'),
    /** session-states.ts: open | complete | expired */
    status: text('status').$type<CheckoutSessionStatus>().notNull().default('open'),
    flow: text('flow').notNull().default('hosted'),
    currency: text('currency').notNull(),
    customerEmail: text('customer_email').notNull(),
    customerId: text('customer_id'),
    billingAddress: jsonb('billing_address').$type<Address>(),
    shippingAddress: jsonb('shipping_address').$type<Address>(),
    shippingMethodId: text('shipping_method_id'),
    lines: jsonb('lines').$type<PricedLine[]>().notNull(),
    subtotalCents: cents('subtotal_cents').notNull(),
    shippingCents: cents('shipping_cents').notNull().default(0),
    shippingTaxCents: cents('shipping_tax_cents').notNull().default(0),
    /** The shipping's rate and VAT category (docs/finance.md; null before tax determination or without shipping). */
    shippingTaxRate: numeric('shipping_tax_rate', { precision: 6, scale: 5, mode: 'number' }),
    shippingTaxCategory: text('shipping_tax_category'),
    /** The buyer's VAT ID check when it decided the tax: valid | invalid | unverified | unchecked. */
    vatIdStatus: text('vat_id_status').$type<VatIdStatus>(),
    vatIdCheckedAt: ts('vat_id_checked_at'),
    /** Abo sessions: the buyer fields given to the API and the tax determination they gave (docs/finance.md). */
    aboTax: jsonb('abo_tax').$type<AboSessionTax>(),
    taxCents: cents('tax_cents').notNull(),
    totalCents: cents('total_cents').notNull(),
    requiresShipping: boolean('requires_shipping').notNull(),
    hasDigital: boolean('has_digital').notNull(),
    widerrufVerzicht: boolean('widerruf_verzicht').notNull().default(false),
    widerrufVerzichtAt: ts('widerruf_verzicht_at'),
    returnUrl: text('return_url').notNull(),
    affiliateCode: text('affiliate_code'),
    /** Subscription sessions: the plan bought. */
    planId: text('plan_id'),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    isTest: boolean('is_test').notNull(),
    /** Stock was decremented at creation and is given back when the session expires. */
    stockReserved: boolean('stock_reserved').notNull().default(false),
    orderId: text('order_id'),
    subscriptionId: text('subscription_id'),
    expiresAt: ts('expires_at').notNull(),
    /** The caller and Idempotency-Key that created it: a retry resumes this session (issue 14). */
    idempotencyKey: text('idempotency_key'),
    completedAt: ts('completed_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'checkout_sessions_pkey', columns: [t.shopId, t.id] }),
    index('checkout_sessions_shop_idx').on(t.shopId, t.createdAt),
    index('checkout_sessions_open_expiry_idx').on(t.expiresAt).where(sql`status = 'open'`),
    uniqueIndex('checkout_sessions_idempotency_uq')
      .on(t.shopId, t.idempotencyKey)
      .where(sql`idempotency_key IS NOT NULL`),
    uniqueIndex('checkout_sessions_provider_ref_uq')
      .on(t.shopId, t.provider, t.providerRef)
      .where(sql`provider_ref IS NOT NULL`),
    foreignKey({
      name: 'checkout_sessions_channel_fk',
      columns: [t.shopId, t.channelId],
      foreignColumns: [channels.shopId, channels.id],
    }),
  ],
);

/** What the recording of a provider event did with it (platform/hooks.ts, EventOutcome). */
export const PAYMENT_EVENT_STATUSES = ['processed', 'ignored', 'rejected', 'refunded'] as const;
export type PaymentEventStatus = (typeof PAYMENT_EVENT_STATUSES)[number];

/**
 * Provider webhook events, one row per (provider, event id), written in the transaction that
 * applies the event: the row is the deduplication key and the audit trail of what it did.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text('provider').notNull(),
    eventId: text('event_id').notNull(),
    /** The provider's event type (checkout.session.completed, …). */
    type: text('type').notNull().default(''),
    /** processed | ignored | rejected | refunded (a late payment given back) */
    status: text('status').$type<PaymentEventStatus>().notNull().default('processed'),
    /** Why it was ignored, rejected or refunded, or what it did. */
    reason: text('reason'),
    /** Null when the event names no session of ours. A coordinator-local table: no key to the distributed shops. */
    shopId: text('shop_id'),
    checkoutSessionId: text('checkout_session_id'),
    providerSessionId: text('provider_session_id'),
    orderId: text('order_id'),
    amountCents: cents('amount_cents'),
    currency: text('currency'),
    receivedAt: ts('received_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.eventId] }),
    index('payment_events_shop_status_idx').on(t.shopId, t.status, t.receivedAt),
    /** One order's events: the admin's order timeline. */
    index('payment_events_order_idx').on(t.shopId, t.orderId).where(sql`order_id IS NOT NULL`),
  ],
);

export type PaymentEventRow = typeof paymentEvents.$inferSelect;

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;
