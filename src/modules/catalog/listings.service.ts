/**
 * A product's channel listings (docs/storefront.md; docs/decisions.md). A listing offers the product
 * (variant_id null) or one variant in a sales channel, with an optional custom price.
 *
 * Price in a channel, most specific first: the variant's listing price → the variant's own price
 * → the product's listing price → the product's base price. `price_cents: null` removes a custom
 * price, so the next one applies. See docs/storefront.md.
 */

import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { one, query, withTx } from '../../platform/db/tx.js';
import { invalidField, notFound } from '../../platform/errors.js';
import type { ChannelDependency } from '../../platform/hooks.js';
import { getChannel, listChannels } from '../channels/index.js';
import type { ListingOut, ListingPatchInput } from './listings.schemas.js';
import { boundByPolicy, enforcePolicy, getWritePolicy, type PriceChange } from './policy.service.js';

// Amounts in a channel are in its currency and are never converted: a custom price (or
// compare-at price) of a live product locks the channel's currency (docs/storefront.md, "Currency lock").
export const listingsChannelDependency: ChannelDependency = {
  what: 'listings with custom prices',
  kinds: ['commerce'],
  async exists(ctx: Ctx, channelId: string) {
    const rows = await query(
      ctx.db,
      sql`SELECT 1 FROM product_channel_listings l
          JOIN products p ON p.id = l.product_id AND p.shop_id = l.shop_id AND p.deleted_at IS NULL
          WHERE l.shop_id = ${ctx.shopId} AND l.channel_id = ${channelId}
            AND (l.price_cents IS NOT NULL OR l.compare_at_price_cents IS NOT NULL)
          LIMIT 1`,
    );
    return rows.length > 0;
  },
};

interface ListingRow {
  channel_id: string;
  variant_id: string | null;
  is_published: boolean;
  price_cents: number | null;
  compare_at_price_cents: number | null;
  created_at: string;
  updated_at: string;
  /** The price that applies without this listing's custom price. */
  fallback_cents: number;
  variant_position: number | null;
}

/** Listings of one product (or one listing), with the fallback price of each. */
function listingRows(ctx: Ctx, productId: string, only?: { channelId: string; variantId: string | null }) {
  return query<ListingRow>(
    ctx.db,
    sql`SELECT l.channel_id, l.variant_id, l.is_published, l.price_cents, l.compare_at_price_cents,
               l.created_at, l.updated_at, v.position AS variant_position,
               CASE WHEN l.variant_id IS NULL THEN p.base_price_cents
                    ELSE coalesce(v.price_cents, pl.price_cents, p.base_price_cents) END AS fallback_cents
        FROM product_channel_listings l
        JOIN products p ON p.id = l.product_id AND p.shop_id = l.shop_id
        LEFT JOIN product_variants v ON v.id = l.variant_id AND v.shop_id = l.shop_id
        LEFT JOIN product_channel_listings pl
          ON pl.shop_id = l.shop_id AND pl.product_id = l.product_id AND pl.channel_id = l.channel_id
         AND pl.variant_id IS NULL
        WHERE l.shop_id = ${ctx.shopId} AND l.product_id = ${productId}
          ${only ? sql`AND l.channel_id = ${only.channelId} AND l.variant_id IS NOT DISTINCT FROM ${only.variantId}` : sql``}`,
  );
}

function listingOut(r: ListingRow, channel: { name: string; currency: string }): ListingOut {
  return {
    channel_id: r.channel_id,
    channel_name: channel.name,
    variant_id: r.variant_id,
    is_published: r.is_published,
    price_cents: r.price_cents,
    compare_at_price_cents: r.compare_at_price_cents,
    effective_price_cents: r.price_cents ?? r.fallback_cents,
    currency: channel.currency,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** A live product of the shop, or 404 (missing, deleted or another shop's). */
async function liveProduct(ctx: Ctx, id: string, lock = false) {
  const rows = await query<{ id: string; base_price_cents: number }>(
    ctx.db,
    sql`SELECT id, base_price_cents FROM products
        WHERE id = ${id} AND shop_id = ${ctx.shopId} AND deleted_at IS NULL ${lock ? sql`FOR UPDATE` : sql``}`,
  );
  if (!rows[0]) throw notFound('Product');
  return rows[0];
}

/** The product's listings in every channel: channels in their list order, the product before its variants. */
export async function listListings(ctx: Ctx, productId: string): Promise<ListingOut[]> {
  await liveProduct(ctx, productId);
  const [rows, channels] = await Promise.all([listingRows(ctx, productId), listChannels(ctx)]);
  const order = new Map(channels.map((c, i) => [c.id, { index: i, name: c.name, currency: c.currency }]));
  return rows
    .filter((r) => order.has(r.channel_id))
    .sort(
      (a, b) =>
        (order.get(a.channel_id)?.index ?? 0) - (order.get(b.channel_id)?.index ?? 0) ||
        (a.variant_position ?? -1) - (b.variant_position ?? -1) ||
        String(a.variant_id).localeCompare(String(b.variant_id)),
    )
    .map((r) => listingOut(r, order.get(r.channel_id) as { name: string; currency: string }));
}

/**
 * Creates or changes the listing of the product (or of one of its variants) in a channel. A new
 * product listing starts unpublished; a new variant listing starts published (it exists to carry
 * the variant's channel price; `is_published: false` hides the variant in that channel). Token
 * writes obey the write policy: `price_cents` is measured against the price that applied in the
 * channel before, `compare_at_price_cents` against its previous value.
 */
export async function upsertListing(
  ctx: Ctx,
  productId: string,
  channelId: string,
  input: ListingPatchInput,
): Promise<ListingOut> {
  const channel = await getChannel(ctx, channelId);
  const policy = boundByPolicy(ctx) ? await getWritePolicy(ctx) : null;
  return withTx(ctx, async (t) => {
    const tx = t.db;
    // The product row lock serialises listing writes of one product (no duplicate inserts).
    const product = await liveProduct(t, productId, true);
    const variantId = input.variant_id ?? null;
    let variantPrice: number | null = null;
    if (variantId !== null) {
      const variants = await query<{ price_cents: number | null }>(
        tx,
        sql`SELECT price_cents FROM product_variants
            WHERE id = ${variantId} AND product_id = ${productId} AND shop_id = ${ctx.shopId}`,
      );
      if (!variants[0]) throw invalidField('/body/variant_id', 'is not a variant of this product');
      variantPrice = variants[0].price_cents;
    }
    const [current] = await listingRows(t, productId, { channelId, variantId });

    if (policy) {
      const prices: PriceChange[] = [];
      if (input.price_cents !== undefined && input.price_cents !== (current?.price_cents ?? null)) {
        // What customers pay in the channel before and after: a new or removed custom price is
        // measured against the price that applies without it.
        const fallback =
          current?.fallback_cents ??
          (variantId === null
            ? product.base_price_cents
            : (variantPrice ?? (await productListingPrice(t, productId, channelId)) ?? product.base_price_cents));
        prices.push({
          path: '/body/price_cents',
          before: current?.price_cents ?? fallback,
          after: input.price_cents ?? fallback,
        });
      }
      const compareAt = input.compare_at_price_cents;
      if (compareAt !== undefined && compareAt !== (current?.compare_at_price_cents ?? null)) {
        prices.push({
          path: '/body/compare_at_price_cents',
          before: current?.compare_at_price_cents,
          after: compareAt,
        });
      }
      enforcePolicy(policy, null, prices);
    }

    const now = ctx.clock.now();
    if (current) {
      await tx.execute(
        sql`UPDATE product_channel_listings SET
              is_published = ${input.is_published ?? current.is_published},
              price_cents = ${input.price_cents !== undefined ? input.price_cents : current.price_cents}::bigint,
              compare_at_price_cents = ${
                input.compare_at_price_cents !== undefined
                  ? input.compare_at_price_cents
                  : current.compare_at_price_cents
              }::bigint,
              updated_at = ${now.toISOString()}::timestamptz
            WHERE shop_id = ${ctx.shopId} AND product_id = ${productId} AND channel_id = ${channelId}
              AND variant_id IS NOT DISTINCT FROM ${variantId}`,
      );
    } else {
      await tx.execute(
        sql`INSERT INTO product_channel_listings
              (shop_id, product_id, channel_id, variant_id, is_published, price_cents, compare_at_price_cents,
               created_at, updated_at)
            VALUES (${ctx.shopId}, ${productId}, ${channelId}, ${variantId},
                    ${input.is_published ?? variantId !== null}, ${input.price_cents ?? null}::bigint,
                    ${input.compare_at_price_cents ?? null}::bigint,
                    ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz)`,
      );
    }
    const row = one(await listingRows(t, productId, { channelId, variantId }));
    return listingOut(row, channel);
  });
}

/** The custom price of the product's own listing in the channel, if any. */
async function productListingPrice(ctx: Ctx, productId: string, channelId: string) {
  const rows = await query<{ price_cents: number | null }>(
    ctx.db,
    sql`SELECT price_cents FROM product_channel_listings
        WHERE shop_id = ${ctx.shopId} AND product_id = ${productId} AND channel_id = ${channelId} AND variant_id IS NULL`,
  );
  return rows[0]?.price_cents ?? null;
}

/**
 * Takes the product out of a channel: its own listing and its variants' listings there go, with
 * their custom prices. Nothing listed is no change. A token may not drop a custom price where the
 * write policy refuses price changes (the next listing would sell at the fallback price): that is
 * measured like setting `price_cents` to null.
 */
export async function removeListing(ctx: Ctx, productId: string, channelId: string): Promise<void> {
  await getChannel(ctx, channelId);
  const policy = boundByPolicy(ctx) ? await getWritePolicy(ctx) : null;
  await withTx(ctx, async (t) => {
    await liveProduct(t, productId, true);
    if (policy) {
      const rows = await listingRows(t, productId);
      const prices: PriceChange[] = rows
        .filter((r) => r.channel_id === channelId && r.price_cents !== null)
        .map((r) => ({
          path: '/params/channelId',
          before: r.price_cents,
          after: r.fallback_cents,
        }));
      enforcePolicy(policy, null, prices);
    }
    await t.db.execute(
      sql`DELETE FROM product_channel_listings
          WHERE shop_id = ${ctx.shopId} AND product_id = ${productId} AND channel_id = ${channelId}`,
    );
  });
}
