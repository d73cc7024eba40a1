/**
 * What other modules change of identity's tables, as functions of its own (docs/ARCHITECTURE.md,
 * "Cross-module table reads").
 */
import { sql } from 'drizzle-orm';
import type { TxCtx } from '../../platform/db/tx.js';

/**
 * Employees restricted to a deleted channel lose it from their list (channels'
 * `channel.deleted` hook, in the deleting transaction).
 */
export async function forgetDeletedChannel(ctx: TxCtx, e: { shopId: string; channelId: string }): Promise<void> {
  await ctx.db.execute(
    sql`UPDATE users SET channel_ids = array_remove(channel_ids, ${e.channelId})
        WHERE shop_id = ${e.shopId} AND ${e.channelId} = ANY(channel_ids)`,
  );
}
