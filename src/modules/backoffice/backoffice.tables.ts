/** The back office's own records: the list views employees save (docs/admin-api.md). */
import { foreignKey, index, pgTable, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { ts } from '../../platform/db/columns.js';
import { users } from '../identity/identity.tables.js';
import { shopRef } from '../shops/shops.tables.js';

/** A list's filters, sort and page size as the admin's URL search params, saved by one employee under a name. */
export const savedViews = pgTable(
  'saved_views',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    /** The employee who saved it; only they see and change it. Deleting the employee deletes their views. */
    userId: text('user_id').notNull(),
    /** orders | products | invoices | abos | customers */
    resource: text('resource').notNull(),
    name: text('name').notNull(),
    /** URL search params of the list (`status=paid&sort=-created_at`), without the leading `?`. */
    query: text('query').notNull(),
    createdAt: ts('created_at').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'saved_views_pkey', columns: [t.shopId, t.id] }),
    index('saved_views_owner_idx').on(t.shopId, t.userId, t.resource, t.createdAt),
    uniqueIndex('saved_views_name_uq').on(t.shopId, t.userId, t.resource, t.name),
    foreignKey({
      name: 'saved_views_user_fk',
      columns: [t.shopId, t.userId],
      foreignColumns: [users.shopId, users.id],
    }).onDelete('cascade'),
  ],
);

export type SavedViewRow = typeof savedViews.$inferSelect;
