/**
 * The storefront's cache version: one row per shop, bumped in the same transaction as every
 * change the public catalog shows (products, variants, images, channel listings, channels,
 * domains). Database triggers do the bumping (migration `storefront`), so no write path — present
 * or future, service or bulk SQL — can forget it. See docs/storefront.md.
 */
import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { shops } from '../shops/shops.tables.js';

export const storefrontVersions = pgTable('storefront_versions', {
  shopId: text('shop_id')
    .primaryKey()
    .references(() => shops.id, { onDelete: 'cascade' }),
  /** Strictly increasing per shop; starts at the epoch milliseconds of the first change. */
  version: bigint('version', { mode: 'number' }).notNull(),
  /** The transaction that bumped last: one bump per transaction is enough. */
  bumpedIn: bigint('bumped_in', { mode: 'number' }),
});
