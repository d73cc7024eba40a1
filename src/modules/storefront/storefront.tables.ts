/** The built-in storefront's settings (docs/storefront.md, "The built-in storefront"). */
import { sql } from 'drizzle-orm';
import { foreignKey, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { publishableKeys } from '../identity/identity.tables.js';
import { shopRef } from '../shops/shops.tables.js';

/**
 * One row per shop: the publishable key the pages at /shop/ use (null: the shop has no built-in
 * storefront). The key is public by design and stored in full by identity, so this names it only;
 * and the plans it offers.
 */
export const storefrontSettings = pgTable(
  'storefront_settings',
  {
    shopId: shopRef().primaryKey(),
    /**
     * Publishable keys are revoked, never deleted (a revoked key reads as none here); a shop's deletion
     * takes both rows. No ON DELETE SET NULL (docs/decisions.md, "Keys for Citus").
     */
    publishableKeyId: text('publishable_key_id'),
    /** The subscription plans the storefront offers on their products' pages (spec §4.3 rule 5: no public plan list). */
    offeredPlanIds: text('offered_plan_ids').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: 'storefront_settings_publishable_key_fk',
      columns: [t.shopId, t.publishableKeyId],
      foreignColumns: [publishableKeys.shopId, publishableKeys.id],
    }),
  ],
);
