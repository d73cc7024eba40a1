/** Shipping methods: a name, a gross price and the countries they ship to. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { shopRef } from '../shops/shops.tables.js';

export const shippingMethods = pgTable(
  'shipping_methods',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    name: text('name').notNull(),
    /** Gross, in the minor unit of the channel's currency. */
    priceCents: integer('price_cents').notNull(),
    /** ISO 3166-1 alpha-2 codes; empty = every country. */
    countries: text('countries').array().notNull().default(sql`'{}'::text[]`),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'shipping_methods_pkey', columns: [t.shopId, t.id] }),
    index('shipping_methods_shop_idx').on(t.shopId, t.createdAt),
  ],
);
