/**
 * The shop's catalog version (`catalogVersion` in code; the table keeps its first name,
 * docs/decisions.md "Catalog version"): one row per shop, bumped in the same transaction as every
 * change the public catalog shows (products, variants, images, channel listings, channels,
 * domains). Database triggers do the bumping (migration `storefront`), so no write path — present
 * or future, service or bulk SQL — can forget it. It keys the storefront's response cache, the
 * admin product list's caches and the per-process memos of channels and checkout; the credential
 * lookups read it (`catalogVersionOf`). See docs/storefront.md.
 */
import { bigint, pgTable, text } from 'drizzle-orm/pg-core';
import { shops } from '../shops/shops.tables.js';

export const catalogVersions = pgTable('storefront_versions', {
  shopId: text('shop_id')
    .primaryKey()
    .references(() => shops.id, { onDelete: 'cascade' }),
  /** Strictly increasing per shop; starts at the epoch milliseconds of the first change. */
  version: bigint('version', { mode: 'number' }).notNull(),
  /** The transaction that bumped last: one bump per transaction is enough. */
  bumpedIn: bigint('bumped_in', { mode: 'number' }),
});
