/** The tenant: every shop-owned row in the service references a shop. */
import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

export const shops = pgTable('shops', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  /** `erlaubt` of the digital add-on: set by the platform operator only. */
  digitalAllowed: boolean('digital_allowed').notNull().default(false),
  /** `aktiv` of the digital add-on: set by the shop. */
  digitalActive: boolean('digital_active').notNull().default(false),
  aboProvision: text('abo_provision').notNull().default('erste'),
  aboProvisionMonate: integer('abo_provision_monate'),
  /** The most units one checkout line may hold (issue 16: no client reserves a shop's stock away). */
  maxLineQuantity: integer('max_line_quantity').notNull().default(20),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The `shop_id` column of a shop-owned row: removed with its shop. */
export const shopRef = () =>
  text('shop_id')
    .notNull()
    .references(() => shops.id, { onDelete: 'cascade' });
