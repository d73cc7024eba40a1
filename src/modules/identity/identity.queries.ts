/**
 * What other modules change of identity's tables, as functions of its own (docs/ARCHITECTURE.md,
 * "Cross-module table reads").
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { query, type TxCtx } from '../../platform/db/tx.js';

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

export interface LivePublishableKey {
  id: string;
  key: string;
  allowed_origins: string[];
}

/** A live (not revoked) publishable key of the shop, with its key text (public by design), or null. */
export async function livePublishableKey(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  id: string,
): Promise<LivePublishableKey | null> {
  const rows = await query<LivePublishableKey>(
    ctx.db,
    sql`SELECT id, key, allowed_origins FROM publishable_keys
        WHERE id = ${id} AND shop_id = ${ctx.shopId} AND revoked_at IS NULL`,
  );
  return rows[0] ?? null;
}
