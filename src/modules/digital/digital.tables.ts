/**
 * The digital add-on (docs/digital.md): subscription plans (`plaene`) and subscriptions (`abos`).
 * The add-on settings (erlaubt, aktiv, abo_provision, abo_provision_monate) live on `shops`.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { cents, ts } from '../../platform/db/columns.js';
import { products } from '../catalog/catalog.tables.js';
import { channels } from '../channels/channels.tables.js';
import type { Address } from '../orders/orders.tables.js';
import { shopRef } from '../shops/shops.tables.js';
import type { VatIdStatus } from '../tax/index.js';
import type { WebhookEventType } from '../webhooks/webhooks.tables.js';

export const INTERVAL_UNITS = ['day', 'week', 'month', 'year'] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

export const aboPlans = pgTable(
  'abo_plans',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    /** Immutable after creation (docs/digital.md). */
    productId: text('product_id').notNull(),
    name: text('name').notNull(),
    priceCents: cents('price_cents').notNull(),
    /** The shop's default channel currency when the plan was created (docs/decisions.md). */
    currency: text('currency').notNull(),
    intervalUnit: text('interval_unit').$type<IntervalUnit>().notNull(),
    intervalCount: integer('interval_count').notNull().default(1),
    trialDays: integer('trial_days').notNull().default(0),
    introDiscountPercent: integer('intro_discount_percent'),
    introDiscountMonths: integer('intro_discount_months'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'abo_plans_pkey', columns: [t.shopId, t.id] }),
    index('abo_plans_shop_idx').on(t.shopId, t.createdAt.desc(), t.id.desc()),
    index('abo_plans_product_idx').on(t.shopId, t.productId),
    foreignKey({
      name: 'abo_plans_product_fk',
      columns: [t.shopId, t.productId],
      foreignColumns: [products.shopId, products.id],
    }),
  ],
);

/**
 * The recurring price objects a provider made for a plan (Stripe Prices), one per set of terms they
 * encode: amount (gross, or the net of a 0 % tax row), currency, interval and the name shown. Made
 * once and reused by every later subscription checkout with the same terms (docs/payments.md,
 * "Stripe calls"); test-mode and live objects are kept apart (`is_test`).
 */
export const aboProviderPrices = pgTable(
  'abo_provider_prices',
  {
    shopId: shopRef(),
    planId: text('plan_id').notNull(),
    provider: text('provider').notNull(),
    isTest: boolean('is_test').notNull(),
    currency: text('currency').notNull(),
    amountCents: cents('amount_cents').notNull(),
    intervalUnit: text('interval_unit').$type<IntervalUnit>().notNull(),
    intervalCount: integer('interval_count').notNull(),
    /** The name the provider shows (the session line's name: product and plan name as stored). */
    name: text('name').notNull(),
    /** The provider's id of the price (price_…). */
    ref: text('ref').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({
      name: 'abo_provider_prices_pk',
      columns: [
        t.shopId,
        t.planId,
        t.provider,
        t.isTest,
        t.currency,
        t.amountCents,
        t.intervalUnit,
        t.intervalCount,
        t.name,
      ],
    }),
    index('abo_provider_prices_shop_idx').on(t.shopId),
    foreignKey({
      name: 'abo_provider_prices_plan_fk',
      columns: [t.shopId, t.planId],
      foreignColumns: [aboPlans.shopId, aboPlans.id],
    }).onDelete('cascade'),
  ],
);

/** The intro-discount coupon a provider made for a plan, one per discount terms (percent, months). */
export const aboProviderCoupons = pgTable(
  'abo_provider_coupons',
  {
    shopId: shopRef(),
    planId: text('plan_id').notNull(),
    provider: text('provider').notNull(),
    isTest: boolean('is_test').notNull(),
    percentOff: integer('percent_off').notNull(),
    durationMonths: integer('duration_months').notNull(),
    /** The provider's id of the coupon. */
    ref: text('ref').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({
      name: 'abo_provider_coupons_pk',
      columns: [t.shopId, t.planId, t.provider, t.isTest, t.percentOff, t.durationMonths],
    }),
    index('abo_provider_coupons_shop_idx').on(t.shopId),
    foreignKey({
      name: 'abo_provider_coupons_plan_fk',
      columns: [t.shopId, t.planId],
      foreignColumns: [aboPlans.shopId, aboPlans.id],
    }).onDelete('cascade'),
  ],
);

/** Provider-style statuses (docs/digital.md); the transitions are in abo-states.ts. */
export const ABO_STATUSES = ['trialing', 'active', 'past_due', 'unpaid', 'canceled'] as const;
export type AboStatus = (typeof ABO_STATUSES)[number];

/** The subscription's events (abo_events, and the webhook events emitAbo sends): the `abo.*` webhook event types. */
export type AboEventType = Extract<WebhookEventType, `abo.${string}`>;

export const abos = pgTable(
  'abos',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    planId: text('plan_id').notNull(),
    productId: text('product_id').notNull(),
    /** The channel the subscription was sold in: its orders belong to it. */
    channelId: text('channel_id').notNull(),
    checkoutSessionId: text('checkout_session_id'),
    customerId: text('customer_id'),
    customerEmail: text('customer_email').notNull(),
    billingAddress: jsonb('billing_address').$type<Address>(),
    status: text('status').$type<AboStatus>().notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** `grund` of the cancellation. */
    cancelReason: text('cancel_reason'),
    /** Who cancelled: admin | customer | token | dunning | provider. */
    canceledBy: text('canceled_by'),
    canceledAt: ts('canceled_at'),
    /** When the subscription ends or ended (scheduled cancellation, dunning or immediate end). */
    endetAm: ts('endet_am'),
    trialEnd: ts('trial_end'),
    /** Periods are computed from this anchor (first paid period start), so months never drift. */
    billingAnchor: ts('billing_anchor').notNull(),
    /** 0 = the trial, 1 = the first paid period, … */
    periodIndex: integer('period_index').notNull(),
    currentPeriodStart: ts('current_period_start').notNull(),
    currentPeriodEnd: ts('current_period_end').notNull(),
    /** Price and interval at the start: later plan changes affect new subscriptions only. */
    priceCents: cents('price_cents').notNull(),
    currency: text('currency').notNull(),
    intervalUnit: text('interval_unit').$type<IntervalUnit>().notNull(),
    intervalCount: integer('interval_count').notNull(),
    introDiscountPercent: integer('intro_discount_percent'),
    introPriceCents: cents('intro_price_cents'),
    /** Periods starting before this instant are charged at the intro price. */
    introUntil: ts('intro_until'),
    taxClass: text('tax_class').notNull().default('standard'),
    /**
     * The tax determination of the subscription (docs/finance.md, made at checkout): rate, EN 16931
     * category and the invoice text of a 0 % row. Every payment uses it; in the S/Z rows a
     * payment takes the billing country's current rate. Null category: made before issue 17
     * (a consumer; the billing country's row at each payment).
     */
    taxRate: numeric('tax_rate', { precision: 6, scale: 5, mode: 'number' }).notNull().default(0),
    taxCategory: text('tax_category'),
    taxExemptionReason: text('tax_exemption_reason'),
    /** The VIES check of the buyer's VAT ID (billing_address.vat_id) when it decided the tax. */
    vatIdStatus: text('vat_id_status').$type<VatIdStatus>(),
    vatIdCheckedAt: ts('vat_id_checked_at'),
    /** Paid orders so far; the next paid order gets number payments_count + 1 (commission hook). */
    paymentsCount: integer('payments_count').notNull().default(0),
    /** Failed charge attempts of the open period (0 when paid). */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    pastDueSince: ts('past_due_since'),
    nextRetryAt: ts('next_retry_at'),
    affiliateCode: text('affiliate_code'),
    isTest: boolean('is_test').notNull(),
    /** test | stripe */
    provider: text('provider').notNull(),
    /** Stripe subscription id. */
    providerRef: text('provider_ref'),
    cardLast4: text('card_last4'),
    /** Test card 4000000000000341: succeeded at checkout, every later charge fails. */
    cardFailsLater: boolean('card_fails_later').notNull().default(false),
    /** SHA-256 of the e-mailed management link token. */
    manageTokenHash: text('manage_token_hash').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'abos_pkey', columns: [t.shopId, t.id] }),
    index('abos_shop_created_idx').on(t.shopId, t.createdAt.desc(), t.id.desc()),
    index('abos_shop_plan_idx').on(t.shopId, t.planId, t.status),
    index('abos_shop_customer_idx').on(t.shopId, t.customerId),
    uniqueIndex('abos_manage_token_uq').on(t.shopId, t.manageTokenHash),
    uniqueIndex('abos_provider_ref_uq').on(t.shopId, t.provider, t.providerRef).where(sql`provider_ref IS NOT NULL`),
    uniqueIndex('abos_checkout_session_uq')
      .on(t.shopId, t.checkoutSessionId)
      .where(sql`checkout_session_id IS NOT NULL`),
    foreignKey({ name: 'abos_plan_fk', columns: [t.shopId, t.planId], foreignColumns: [aboPlans.shopId, aboPlans.id] }),
    foreignKey({
      name: 'abos_channel_fk',
      columns: [t.shopId, t.channelId],
      foreignColumns: [channels.shopId, channels.id],
    }),
  ],
);

export type PlanRow = typeof aboPlans.$inferSelect;
export type AboRow = typeof abos.$inferSelect;

/**
 * The history of each subscription: every abo.* event emitAbo sends (abo-common.ts), kept for as
 * long as the subscription (webhook events are pruned after WEBHOOK_RETENTION_DAYS). Business time.
 */
export const aboEvents = pgTable(
  'abo_events',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    aboId: text('abo_id').notNull(),
    /** abo.aktiv | abo.bezahlt | abo.zahlung_fehlgeschlagen | abo.gekuendigt | abo.fortgesetzt | abo.beendet */
    type: text('type').$type<AboEventType>().notNull(),
    /** The status after the event. */
    status: text('status').$type<AboStatus>().notNull(),
    /** What the event adds to the subscription's data (grund, canceled_by, order_id, amount_cents …). */
    data: jsonb('data').notNull().$type<Record<string, unknown>>(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'abo_events_pkey', columns: [t.shopId, t.id] }),
    index('abo_events_abo_idx').on(t.shopId, t.aboId, t.createdAt, t.id),
    foreignKey({ name: 'abo_events_abo_fk', columns: [t.shopId, t.aboId], foreignColumns: [abos.shopId, abos.id] }),
  ],
);
