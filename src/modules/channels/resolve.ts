/**
 * Channel resolution for storefront requests (docs/storefront.md), within the shop of the
 * publishable key: (a) an active channel whose domain is the Origin host, else the Referer host;
 * (b) an active channel whose path prefix matches; (c) the shop's active default channel.
 * Domain mapping only selects the channel; whether the request is allowed is the key's business.
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { query } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import { catalogVersionOf, VersionedMemo } from '../../platform/versioned-memo.js';

export interface ResolvedChannel {
  id: string;
  currency: string;
  default_country: string;
  pending_payment_ttl_hours: number;
  auto_confirm_orders: boolean;
  allow_unpaid_orders: boolean;
  matched_by: 'origin' | 'referer' | 'path_prefix' | 'default';
}

/** Parsed hosts of recent Origin/Referer values: the same few storefront origins repeat. */
const hosts = new Map<string, string>();

/** The hostname of an Origin or Referer, as channel resolution compares it. */
export function hostOf(value: string | undefined): string {
  if (!value || value === 'null') return '';
  const known = hosts.get(value);
  if (known !== undefined) return known;
  let host = '';
  try {
    host = new URL(value).hostname.replace(/\.$/, '').toLowerCase();
  } catch {
    host = '';
  }
  if (hosts.size >= 1000) hosts.clear();
  hosts.set(value, host);
  return host;
}

export interface ResolveInput {
  origin?: string;
  referer?: string;
  pathPrefix?: string | null;
}

/** Resolutions by (shop, hosts, prefix) per storefront version (channel and domain writes bump it). */
const resolved = new VersionedMemo<ResolvedChannel>();

/** One query ranks every candidate; the best active match wins. */
export async function resolveChannel(
  ctx: Pick<Ctx, 'db' | 'shopId'> & { actor?: Ctx['actor'] },
  input: ResolveInput,
): Promise<ResolvedChannel> {
  const originHost = hostOf(input.origin);
  const refererHost = hostOf(input.referer);
  const prefix = input.pathPrefix ?? '';
  const version = catalogVersionOf(ctx.actor);
  const key = `${ctx.shopId}\u0000${originHost}\u0000${refererHost}\u0000${prefix}`;
  const hit = resolved.get(key, version);
  if (hit) return hit;
  const rows = await query<ResolvedChannel & { rank: number }>(
    ctx.db,
    sql`SELECT c.id, c.currency, c.default_country, c.pending_payment_ttl_hours, c.auto_confirm_orders,
               c.allow_unpaid_orders,
               CASE WHEN d.domain = ${originHost} THEN 1
                    WHEN d.domain = ${refererHost} THEN 2
                    WHEN c.path_prefix = ${prefix} THEN 3
                    ELSE 4 END AS rank
        FROM channels c
        LEFT JOIN channel_domains d
          ON d.channel_id = c.id AND d.shop_id = c.shop_id AND d.domain IN (${originHost}, ${refererHost})
        WHERE c.shop_id = ${ctx.shopId} AND c.is_active
          AND (d.domain IS NOT NULL OR c.path_prefix = ${prefix} OR c.is_default)
        ORDER BY rank
        LIMIT 1`,
  );
  const row = rows[0];
  if (!row) throw new AppError('channel_not_found', 'No active channel serves this storefront request');
  const by = ['origin', 'referer', 'path_prefix', 'default'] as const;
  const { rank, ...rest } = row;
  const channel: ResolvedChannel = { ...rest, matched_by: by[Math.min(4, Number(rank)) - 1] ?? 'default' };
  resolved.set(key, version, channel);
  return channel;
}
