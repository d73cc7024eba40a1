/**
 * Stock reservations for checkout. A conditional UPDATE takes units only when enough are left,
 * so concurrent checkouts of the last unit can never both succeed (no oversell).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { query } from '../../platform/db/tx.js';

export interface StockRef {
  product_id: string;
  variant_id: string | null;
  quantity: number;
}

/** Takes `quantity` units of a tracked product or variant; false when not enough are in stock. */
export async function reserveStock(tx: Db, shopId: string, ref: StockRef): Promise<boolean> {
  const rows = ref.variant_id
    ? await query(
        tx,
        sql`UPDATE product_variants SET stock_quantity = stock_quantity - ${ref.quantity}
            WHERE shop_id = ${shopId} AND id = ${ref.variant_id} AND product_id = ${ref.product_id}
              AND (NOT track_stock OR stock_quantity >= ${ref.quantity})
            RETURNING id`,
      )
    : await query(
        tx,
        sql`UPDATE products SET stock_quantity = stock_quantity - ${ref.quantity}
            WHERE shop_id = ${shopId} AND id = ${ref.product_id}
              AND (NOT track_stock OR stock_quantity >= ${ref.quantity})
            RETURNING id`,
      );
  return rows.length === 1;
}

/** Gives reserved units back (expired session, cancelled unpaid order). */
export async function releaseStock(tx: Db, shopId: string, ref: StockRef): Promise<void> {
  if (ref.variant_id) {
    await tx.execute(
      sql`UPDATE product_variants SET stock_quantity = stock_quantity + ${ref.quantity}
          WHERE shop_id = ${shopId} AND id = ${ref.variant_id}`,
    );
  } else {
    await tx.execute(
      sql`UPDATE products SET stock_quantity = stock_quantity + ${ref.quantity} WHERE shop_id = ${shopId} AND id = ${ref.product_id}`,
    );
  }
}
