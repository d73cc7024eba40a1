/**
 * What other modules change of the digital add-on's tables, as functions of its own
 * (docs/ARCHITECTURE.md, "Cross-module table reads").
 */
import { sql } from 'drizzle-orm';
import type { TxCtx } from '../../platform/db/tx.js';

/**
 * Gives a verified customer account its e-mail's guest subscriptions (identity's
 * `customer.verified` hook, in the verifying transaction).
 */
export async function claimGuestAbos(ctx: TxCtx, e: { shopId: string; customerId: string; email: string }) {
  await ctx.db.execute(
    sql`UPDATE abos SET customer_id = ${e.customerId}
        WHERE shop_id = ${e.shopId} AND customer_id IS NULL AND lower(customer_email) = lower(${e.email})`,
  );
}
