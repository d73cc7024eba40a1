/** "Lock a row of this shop or 404": the one way a service takes a row lock by id. */
import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { notFound } from '../errors.js';
import type { Tx } from './tx.js';

/** A table whose rows belong to a shop: an `id` and a `shop_id` column. */
export type ShopOwnedTable = PgTable & { id: PgColumn; shopId: PgColumn };

/**
 * Reads the row `id` of `shopId` with `FOR UPDATE` (held until `tx` ends) or throws 404 `what`
 * not found; a row of another shop is not found either. `also` narrows the match (e.g. not
 * deleted), so a row outside it is not found as well.
 */
export async function lockOwned<T extends ShopOwnedTable>(
  tx: Tx,
  table: T,
  shopId: string,
  id: string,
  what: string,
  also?: SQL,
): Promise<T['$inferSelect']> {
  const [row] = await tx
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), eq(table.shopId, shopId), also))
    .for('update');
  if (!row) throw notFound(what);
  return row as T['$inferSelect'];
}
