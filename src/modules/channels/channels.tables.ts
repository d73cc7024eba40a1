/** Sales channels and their domains, countries (shared and shop-owned), overrides and payment methods. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { shopRef, shops } from '../shops/shops.tables.js';
import type { AllocationStrategy } from './channels.reference.js';

export const channels = pgTable(
  'channels',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    currency: text('currency').notNull(),
    defaultCountry: text('default_country').notNull(),
    allocationStrategy: text('allocation_strategy').$type<AllocationStrategy>().notNull().default('priority'),
    autoConfirmOrders: boolean('auto_confirm_orders').notNull().default(false),
    allowUnpaidOrders: boolean('allow_unpaid_orders').notNull().default(false),
    pendingPaymentTtlHours: integer('pending_payment_ttl_hours').notNull().default(24),
    pathPrefix: text('path_prefix'),
    /** Payment method codes; empty = inherit the shop-wide selection. */
    paymentMethodCodes: text('payment_method_codes').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'channels_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('channels_slug_uq').on(t.shopId, t.slug),
    // at most one default per shop, enforced by the database
    uniqueIndex('channels_default_uq').on(t.shopId).where(sql`is_default`),
    uniqueIndex('channels_prefix_uq').on(t.shopId, t.pathPrefix).where(sql`path_prefix IS NOT NULL`),
    index('channels_shop_idx').on(t.shopId, t.createdAt),
  ],
);

export const channelDomains = pgTable(
  'channel_domains',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    channelId: text('channel_id').notNull(),
    /** Normalised hostname (lowercase, punycode, no trailing dot). */
    domain: text('domain').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'channel_domains_pkey', columns: [t.shopId, t.id] }),
    // a host selects exactly one channel: unique across every shop through the directory
    // (docs/decisions.md, "Keys for Citus"); this index holds it per shop
    uniqueIndex('channel_domains_domain_uq').on(t.shopId, t.domain),
    index('channel_domains_channel_idx').on(t.shopId, t.channelId),
    foreignKey({
      name: 'channel_domains_channel_fk',
      columns: [t.shopId, t.channelId],
      foreignColumns: [channels.shopId, channels.id],
    }).onDelete('cascade'),
  ],
);

/** Shared ISO 3166-1 countries (seeded by migration). */
export const countries = pgTable('countries', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  currency: text('currency'),
  taxRate: numeric('tax_rate', { precision: 6, scale: 5, mode: 'number' }),
  foodTaxRate: numeric('food_tax_rate', { precision: 6, scale: 5, mode: 'number' }),
  booksTaxRate: numeric('books_tax_rate', { precision: 6, scale: 5, mode: 'number' }),
  isEu: boolean('is_eu').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
});

/** Shop-owned (custom) countries. */
export const shopCountries = pgTable(
  'shop_countries',
  {
    shopId: shopRef(),
    code: text('code').notNull(),
    name: text('name').notNull(),
    currency: text('currency'),
    taxRate: numeric('tax_rate', { precision: 6, scale: 5, mode: 'number' }),
    foodTaxRate: numeric('food_tax_rate', { precision: 6, scale: 5, mode: 'number' }),
    booksTaxRate: numeric('books_tax_rate', { precision: 6, scale: 5, mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.code] })],
);

/**
 * A channel's country selection and per-channel overrides. `selected` rows form the selection
 * (none selected = all active countries); override columns are null when not overridden.
 */
export const channelCountries = pgTable(
  'channel_countries',
  {
    shopId: shopRef(),
    channelId: text('channel_id').notNull(),
    code: text('code').notNull(),
    selected: boolean('selected').notNull().default(false),
    position: integer('position').notNull().default(0),
    name: text('name'),
    currency: text('currency'),
    taxRate: numeric('tax_rate', { precision: 6, scale: 5, mode: 'number' }),
    foodTaxRate: numeric('food_tax_rate', { precision: 6, scale: 5, mode: 'number' }),
    booksTaxRate: numeric('books_tax_rate', { precision: 6, scale: 5, mode: 'number' }),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.channelId, t.code] }),
    foreignKey({
      name: 'channel_countries_channel_fk',
      columns: [t.shopId, t.channelId],
      foreignColumns: [channels.shopId, channels.id],
    }).onDelete('cascade'),
  ],
);

/** Shop-wide settings of the channels area. */
export const shopPaymentSettings = pgTable('shop_payment_settings', {
  shopId: text('shop_id')
    .primaryKey()
    .references(() => shops.id, { onDelete: 'cascade' }),
  methodCodes: text('method_codes').array().notNull().default(sql`'{}'::text[]`),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
