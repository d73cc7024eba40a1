/** The built-in storefront's settings (docs/storefront.md, "The built-in storefront"). */
import { sql } from 'drizzle-orm';
import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { publishableKeys } from '../identity/identity.tables.js';
import { shopRef } from '../shops/shops.tables.js';

/**
 * One row per shop: the publishable key the pages at /shop/ use (null: the shop has no built-in
 * storefront). The key is public by design and stored in full by identity, so this names it only;
 * and the plans it offers.
 */
export const storefrontSettings = pgTable('storefront_settings', {
  shopId: shopRef().primaryKey(),
  publishableKeyId: text('publishable_key_id').references(() => publishableKeys.id, { onDelete: 'set null' }),
  /** The subscription plans the storefront offers on their products' pages (spec §4.3 rule 5: no public plan list). */
  offeredPlanIds: text('offered_plan_ids').array().notNull().default(sql`'{}'::text[]`),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
