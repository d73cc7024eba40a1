/** Orders and their lines: the record of what was sold, at which price and tax, to whom. */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { cents, ts } from '../../platform/db/columns.js';
import { channels } from '../channels/channels.tables.js';
import { shopRef } from '../shops/shops.tables.js';
import type { TaxCategory, VatIdStatus } from '../tax/index.js';
import type { OrderStatus } from './order-states.js';
import type { RefundStatus } from './refund-states.js';

export interface Address {
  name: string;
  company?: string | null;
  vat_id?: string | null;
  line1: string;
  line2?: string | null;
  postal_code: string;
  city: string;
  country: string;
}

/**
 * What every stored line (a priced line, an invoice or credit note line) says about one item and
 * its tax. Amounts are gross (docs/finance.md); net = gross − tax.
 */
export interface LineAmounts {
  name: string;
  sku: string | null;
  quantity: number;
  unit_price_cents: number;
  line_total_cents: number;
  tax_rate: number;
  tax_cents: number;
  net_cents: number;
  /**
   * EN 16931 VAT category of the line (docs/finance.md "Which tax applies"); absent on lines priced
   * (and documents made) before it: S (or Z at 0 %).
   */
  tax_category?: TaxCategory;
  /** The text the invoice carries for a 0 % category (BT-120; null for S). */
  tax_exemption_reason?: string | null;
}

/** A priced line as stored on the session and copied to the order. */
export interface PricedLine extends LineAmounts {
  product_id: string;
  variant_id: string | null;
  /** The gross list price (German rate included) the unit price was derived from; a 0 % row charges its net. */
  list_unit_price_cents?: number;
  tax_class: string;
  is_digital: boolean;
  track_stock: boolean;
  vendor_id: string | null;
}

export const orders = pgTable(
  'orders',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    /** Per-shop sequential order number. */
    number: text('number').notNull(),
    channelId: text('channel_id').notNull(),
    checkoutSessionId: text('checkout_session_id'),
    customerId: text('customer_id'),
    customerEmail: text('customer_email').notNull(),
    billingAddress: jsonb('billing_address').$type<Address>(),
    shippingAddress: jsonb('shipping_address').$type<Address>(),
    shippingMethodId: text('shipping_method_id'),
    /** order-states.ts */
    status: text('status').$type<OrderStatus>().notNull(),
    confirmedAt: ts('confirmed_at'),
    currency: text('currency').notNull(),
    subtotalCents: cents('subtotal_cents').notNull(),
    shippingCents: cents('shipping_cents').notNull().default(0),
    shippingTaxCents: cents('shipping_tax_cents').notNull().default(0),
    /** The shipping's rate and VAT category (docs/finance.md; null on orders priced before tax determination). */
    shippingTaxRate: numeric('shipping_tax_rate', { precision: 6, scale: 5, mode: 'number' }),
    shippingTaxCategory: text('shipping_tax_category'),
    /** The buyer's VAT ID check when the order was priced: valid | invalid | unverified | unchecked. */
    vatIdStatus: text('vat_id_status').$type<VatIdStatus>(),
    vatIdCheckedAt: ts('vat_id_checked_at'),
    taxCents: cents('tax_cents').notNull(),
    totalCents: cents('total_cents').notNull(),
    requiresShipping: boolean('requires_shipping').notNull(),
    widerrufVerzicht: boolean('widerruf_verzicht').notNull().default(false),
    widerrufVerzichtAt: ts('widerruf_verzicht_at'),
    affiliateCode: text('affiliate_code'),
    subscriptionId: text('subscription_id'),
    /** Which paid order of its subscription this is (1 = first); null for one-time orders. */
    subscriptionPaymentNumber: integer('subscription_payment_number'),
    /**
     * The billed period of a subscription payment (the abo's period it pays: start inclusive, end
     * exclusive, as the abo stores it); null for one-time orders and orders made before it.
     */
    servicePeriodStart: ts('service_period_start'),
    servicePeriodEnd: ts('service_period_end'),
    isTest: boolean('is_test').notNull().default(false),
    paymentProvider: text('payment_provider'),
    paymentRef: text('payment_ref'),
    paidAt: ts('paid_at'),
    /** When it was marked fulfilled, and cancelled (the timeline; null on orders moved before these existed). */
    fulfilledAt: ts('fulfilled_at'),
    cancelledAt: ts('cancelled_at'),
    expiresAt: ts('expires_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'orders_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('orders_number_uq').on(t.shopId, t.number),
    uniqueIndex('orders_session_uq').on(t.shopId, t.checkoutSessionId).where(sql`checkout_session_id IS NOT NULL`),
    index('orders_shop_created_idx').on(t.shopId, t.createdAt.desc(), t.id.desc()),
    index('orders_shop_status_idx').on(t.shopId, t.status, t.createdAt.desc()),
    index('orders_shop_channel_idx').on(t.shopId, t.channelId),
    index('orders_shop_customer_idx').on(t.shopId, t.customerId),
    index('orders_shop_subscription_idx').on(t.shopId, t.subscriptionId),
    // one order per paid subscription payment: a period can never be billed twice (renewal idempotency)
    uniqueIndex('orders_subscription_payment_uq')
      .on(t.shopId, t.subscriptionId, t.subscriptionPaymentNumber)
      .where(sql`subscription_id IS NOT NULL`),
    index('orders_pending_expiry_idx').on(t.expiresAt).where(sql`status = 'pending_payment'`),
    // the admin list's sorts and the overview's revenue (the trigram search index on e-mail and
    // billing name is the custom migration orders_search: drizzle cannot express it)
    index('orders_shop_total_idx').on(t.shopId, t.totalCents, t.id),
    index('orders_shop_number_idx').on(t.shopId, sql`length(${t.number})`, t.number),
    index('orders_shop_paid_idx').on(t.shopId, t.paidAt).where(sql`paid_at IS NOT NULL`),
    foreignKey({
      name: 'orders_channel_fk',
      columns: [t.shopId, t.channelId],
      foreignColumns: [channels.shopId, channels.id],
    }),
  ],
);

export const orderLines = pgTable(
  'order_lines',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    orderId: text('order_id').notNull(),
    position: integer('position').notNull(),
    productId: text('product_id').notNull(),
    variantId: text('variant_id'),
    name: text('name').notNull(),
    sku: text('sku'),
    quantity: integer('quantity').notNull(),
    unitPriceCents: cents('unit_price_cents').notNull(),
    lineTotalCents: cents('line_total_cents').notNull(),
    taxRate: numeric('tax_rate', { precision: 6, scale: 5, mode: 'number' }).notNull(),
    taxCents: cents('tax_cents').notNull(),
    netCents: cents('net_cents').notNull(),
    /** EN 16931 VAT category (S, K, AE, G, O; docs/finance.md). */
    taxCategory: text('tax_category').notNull().default('S'),
    taxClass: text('tax_class').notNull(),
    isDigital: boolean('is_digital').notNull(),
    vendorId: text('vendor_id'),
  },
  (t) => [
    primaryKey({ name: 'order_lines_pkey', columns: [t.shopId, t.id] }),
    index('order_lines_order_idx').on(t.shopId, t.orderId, t.position),
    index('order_lines_vendor_idx').on(t.shopId, t.vendorId),
    foreignKey({
      name: 'order_lines_order_fk',
      columns: [t.shopId, t.orderId],
      foreignColumns: [orders.shopId, orders.id],
    }).onDelete('cascade'),
  ],
);

/** Per-shop counters (order numbers); incremented in the transaction that uses the number. */
export const shopCounters = pgTable(
  'shop_counters',
  {
    shopId: shopRef(),
    name: text('name').notNull(),
    value: bigint('value', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ name: 'shop_counters_pk', columns: [t.shopId, t.name] })],
);

/** One order line a refund gives back: its quantity and the gross amount computed for it. */
export interface RefundLine {
  line_id: string;
  /** The order line's position (= the invoice line's position: finance credits it by that). */
  position: number;
  quantity: number;
  amount_cents: number;
}

/** Money given back for an order (docs/payments.md): pending at the provider, then succeeded or failed. */
export const refunds = pgTable(
  'refunds',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    orderId: text('order_id').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    /** refund-states.ts */
    status: text('status').$type<RefundStatus>().notNull(),
    reason: text('reason').notNull(),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    creditNoteId: text('credit_note_id'),
    failureReason: text('failure_reason'),
    /** `principal|Idempotency-Key` of the request that claimed it: its retry finds this refund */
    idempotencyKey: text('idempotency_key'),
    /** A refund by lines: the order lines and quantities it gives back (refund-plan.ts); null for an amount. */
    lines: jsonb('lines').$type<RefundLine[]>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ name: 'refunds_pkey', columns: [t.shopId, t.id] }),
    index('refunds_order_idx').on(t.shopId, t.orderId, t.createdAt),
    // the overview's counts (pending, failed) and refunded amounts per period
    index('refunds_shop_status_idx').on(t.shopId, t.status, t.createdAt),
    uniqueIndex('refunds_idempotency_uq')
      .on(t.shopId, t.orderId, t.idempotencyKey)
      .where(sql`idempotency_key IS NOT NULL`),
    uniqueIndex('refunds_provider_ref_uq').on(t.shopId, t.provider, t.providerRef).where(sql`provider_ref IS NOT NULL`),
    foreignKey({
      name: 'refunds_order_fk',
      columns: [t.shopId, t.orderId],
      foreignColumns: [orders.shopId, orders.id],
    }),
  ],
);

export type RefundRow = typeof refunds.$inferSelect;
