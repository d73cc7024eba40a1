/**
 * What other modules read of the channels' tables, as functions of their own (docs/ARCHITECTURE.md,
 * "Cross-module table reads").
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { domainEntry } from '../../platform/db/directory.js';
import { query } from '../../platform/db/tx.js';

type ShopCtx = Pick<Ctx, 'db' | 'shopId'>;

/**
 * The currency of the shop's default channel (else its oldest, unless `orOldest` is false; null
 * without channels).
 */
export async function defaultChannelCurrency(ctx: ShopCtx, opts: { orOldest?: boolean } = {}): Promise<string | null> {
  const rows = await query<{ currency: string }>(
    ctx.db,
    opts.orOldest === false
      ? sql`SELECT currency FROM channels WHERE shop_id = ${ctx.shopId} AND is_default LIMIT 1`
      : sql`SELECT currency FROM channels WHERE shop_id = ${ctx.shopId} ORDER BY is_default DESC, created_at, id LIMIT 1`,
  );
  return rows[0]?.currency ?? null;
}

/** The first domain (oldest) of the shop's default channel, or null. */
export async function defaultChannelDomain(ctx: ShopCtx): Promise<string | null> {
  const rows = await query<{ domain: string }>(
    ctx.db,
    sql`SELECT d.domain FROM channel_domains d JOIN channels c ON c.id = d.channel_id AND c.shop_id = d.shop_id
        WHERE d.shop_id = ${ctx.shopId} AND c.is_default
        ORDER BY d.created_at, d.id LIMIT 1`,
  );
  return rows[0]?.domain ?? null;
}

/** Whether the channel confirms its orders on payment (`auto_confirm_orders`); false for no channel. */
export async function channelAutoConfirmsOrders(ctx: ShopCtx, channelId: string): Promise<boolean> {
  const rows = await query<{ auto_confirm_orders: boolean }>(
    ctx.db,
    sql`SELECT auto_confirm_orders FROM channels WHERE shop_id = ${ctx.shopId} AND id = ${channelId}`,
  );
  return rows[0]?.auto_confirm_orders ?? false;
}

/**
 * The channel `channelId` of `shopId` as a derived table (id, currency, is_default,
 * auto_confirm_orders), for a statement that must stay one statement:
 * `JOIN LATERAL ${channelSql(sql`${id}`, sql`pl.shop_id`)} c ON true`.
 */
export const channelSql = (channelId: SQL, shopId: SQL): SQL =>
  sql`(SELECT c.id, c.currency, c.is_default, c.auto_confirm_orders
       FROM channels c WHERE c.id = ${channelId} AND c.shop_id = ${shopId})`;

/**
 * The shop whose active channel has `host` as a domain mapping (domains are unique across shops),
 * or null: how a page served for a host finds its shop (DESIGN §10, spec §4.5 rule 3). The domain
 * directory names the shop and channel (one primary-key read); the mapping and the channel are
 * then read in that shop only.
 */
export async function shopOfDomain(db: Ctx['db'], host: string): Promise<string | null> {
  if (!host) return null;
  const entry = await domainEntry(db, host);
  if (!entry) return null;
  const rows = await query<{ shop_id: string }>(
    db,
    sql`SELECT d.shop_id FROM channel_domains d JOIN channels c ON c.id = d.channel_id AND c.shop_id = d.shop_id
        WHERE d.shop_id = ${entry.shopId} AND d.domain = ${host} AND c.id = ${entry.channelId} AND c.is_active LIMIT 1`,
  );
  return rows[0]?.shop_id ?? null;
}
