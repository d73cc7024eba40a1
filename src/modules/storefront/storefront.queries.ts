/**
 * What other modules read of the storefront's tables, as functions of its own (docs/ARCHITECTURE.md,
 * "Cross-module table reads").
 */
import { Column, getTableName, is, type SQL, sql } from 'drizzle-orm';

/**
 * The shop's catalog version (`storefront_versions`), as a scalar subquery correlated to
 * `shopId`, for a credential lookup's select list: the lookup stays one statement (one round trip
 * per request). Null when the shop has no row yet. A column is named with its table, so the
 * reference stays outer even where drizzle drops table names (a one-table select).
 */
export function catalogVersionOf(shopId: Column | SQL): SQL<number | null> {
  const ref = is(shopId, Column)
    ? sql`${sql.identifier(getTableName(shopId.table))}.${sql.identifier(shopId.name)}`
    : shopId;
  return sql<number | null>`(SELECT sv.version FROM storefront_versions sv WHERE sv.shop_id = ${ref})`;
}
