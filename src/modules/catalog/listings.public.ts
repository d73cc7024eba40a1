/**
 * The public view of the catalog in one sales channel: the storefront's product list and detail,
 * and the channel prices checkout uses. Only this file decides what a product looks like to the
 * public; nothing private (cost prices, suppliers, vendors, stock counts) is selected at all.
 *
 * Visibility (docs/decisions.md): a product is shown in a channel when it is published, not deleted, and
 * its own listing there (variant_id null) is published. A variant listing with is_published false
 * hides that variant in the channel. Prices: see listings.service.ts.
 */
import { and, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { preparedQuery } from '../../platform/db/prepared.js';
import { VersionedLru } from '../../platform/versioned-lru.js';
import { VersionedMemo } from '../../platform/versioned-memo.js';
import { searchConditions } from './catalog.util.js';

export interface PublicVariant {
  id: string;
  sku: string | null;
  title: string;
  option_values: Record<string, string>;
  /** The price in the channel (variant listing → variant → product listing → base price). */
  price_cents: number;
  compare_at_price_cents: number | null;
  is_default: boolean;
  in_stock: boolean;
}

export interface PublicImage {
  id: string;
  url: string;
  alt: string | null;
  position: number;
  variant_id: string | null;
}

/** What the storefront shows of a product as it is stored (the row read and the response alike). */
interface PublicProductFields {
  id: string;
  name: string;
  slug: string;
  sku: string | null;
  type: string;
  is_digital: boolean;
  tax_class: string;
  description: string | null;
  short_description: string | null;
  category_id: string | null;
  brand_id: string | null;
  base_price_cents: number;
  options: { name: string; values: string[] }[];
  variants: PublicVariant[];
  images: PublicImage[];
}

export interface PublicProduct extends PublicProductFields {
  in_stock: boolean;
  channel: { id: string; currency: string; price_cents: number | null; compare_at_price_cents: number | null };
}

export interface PublicListInput {
  q?: string;
  category_id?: string;
  limit: number;
  offset: number;
}

interface PublicRow extends PublicProductFields {
  track_stock: boolean;
  stock_quantity: number;
  listing_price: number | null;
  listing_compare_at: number | null;
  total?: number;
}

export interface PublicChannel {
  id: string;
  currency: string;
}

/**
 * The one visibility rule of the storefront, for a product `p`: the product's own listing `l` in
 * the channel is published (the join), and the product is live and published (the condition).
 * Every public read joins and filters through these two.
 */
function visibleListing(channelId: string) {
  return sql`JOIN product_channel_listings l
      ON l.shop_id = p.shop_id AND l.product_id = p.id AND l.channel_id = ${channelId}
     AND l.variant_id IS NULL AND l.is_published`;
}
const LIVE_PUBLISHED = sql`p.deleted_at IS NULL AND p.status = 'published'`;

/** Products visible in the channel, the filters given: the FROM and WHERE of both queries. */
function visibleIn(shopId: string, channelId: string, filters: SQL[]) {
  return sql`FROM products p
    ${visibleListing(channelId)}
    WHERE ${and(sql`p.shop_id = ${shopId}`, LIVE_PUBLISHED, ...filters)}`;
}

const PRODUCT_COLUMNS = sql`p.id, p.name, p.slug, p.sku, p.type, p.is_digital, p.tax_class, p.description,
  p.short_description, p.category_id, p.brand_id, p.base_price_cents, p.options, p.track_stock, p.stock_quantity,
  p.created_at, l.price_cents AS listing_price, l.compare_at_price_cents AS listing_compare_at`;

/**
 * Variants (without those hidden in the channel) and images of each product of `page`, as JSON
 * arrays in display order. A variant sells at its own listing price, else its own price, else the
 * product's listing price, else the base price; the product listing's compare-at price applies to
 * the variants that sell at the product's price.
 */
function children(shopId: string, channelId: string) {
  return sql`
    (SELECT coalesce(json_agg(json_build_object(
              'id', v.id, 'sku', v.sku, 'title', v.title, 'option_values', v.option_values,
              'price_cents', coalesce(vl.price_cents, v.price_cents, page.listing_price, page.base_price_cents),
              'compare_at_price_cents', coalesce(vl.compare_at_price_cents,
                 CASE WHEN vl.price_cents IS NULL AND v.price_cents IS NULL THEN page.listing_compare_at END),
              'is_default', v.is_default,
              'in_stock', (NOT v.track_stock OR v.stock_quantity > 0)
            ) ORDER BY v.position, v.id), '[]'::json)
       FROM product_variants v
       LEFT JOIN product_channel_listings vl
         ON vl.shop_id = v.shop_id AND vl.product_id = v.product_id AND vl.channel_id = ${channelId}
        AND vl.variant_id = v.id
      WHERE v.shop_id = ${shopId} AND v.product_id = page.id AND vl.is_published IS NOT FALSE) AS variants,
    (SELECT coalesce(json_agg(json_build_object(
              'id', i.id, 'url', i.url, 'alt', i.alt, 'position', i.position, 'variant_id', i.variant_id
            ) ORDER BY i.position, i.id), '[]'::json)
       FROM product_images i
      WHERE i.shop_id = ${shopId} AND i.product_id = page.id
        AND NOT EXISTS (SELECT 1 FROM product_channel_listings hl
                         WHERE hl.shop_id = i.shop_id AND hl.product_id = i.product_id
                           AND hl.channel_id = ${channelId} AND hl.variant_id = i.variant_id
                           AND NOT hl.is_published)) AS images`;
}

function publicOut(r: PublicRow, channel: PublicChannel): PublicProduct {
  const variants = r.variants;
  return {
    id: r.id,
    name: r.name,
    slug: r.slug,
    sku: r.sku,
    type: r.type,
    is_digital: r.is_digital,
    tax_class: r.tax_class,
    description: r.description,
    short_description: r.short_description,
    category_id: r.category_id,
    brand_id: r.brand_id,
    base_price_cents: r.base_price_cents,
    in_stock: variants.length > 0 ? variants.some((v) => v.in_stock) : !r.track_stock || r.stock_quantity > 0,
    channel: {
      id: channel.id,
      currency: channel.currency,
      price_cents: r.listing_price,
      compare_at_price_cents: r.listing_compare_at,
    },
    options: r.options,
    variants,
    images: r.images,
  };
}

/** A filter's whole ordered id list is remembered only up to this many products. */
const MAX_LIST_IDS = 20_000;

/**
 * The ordered ids of the products visible per (shop, channel, search, category), remembered per
 * storefront version (docs/storefront.md): every page and page size of one filter is a slice of
 * it, and its length is the exact count. The version (bumped by triggers in the transaction of
 * every product, variant, image, listing and channel change) is read with the publishable key
 * before the ids, so an entry is never newer than the data it lists; any change recomputes it, in
 * every process. Per process, bounded by the number of ids held (about 64 bytes each).
 */
const ID_BUDGET = 100_000;

/**
 * What the public list reads remember between requests: the filters' ordered id lists and the
 * exact counts of filters too large for one, per storefront version. Owned by the storefront's
 * read model (storefront/read-model.ts), which holds every cache of the public catalog in one
 * place; catalog only reads and fills it.
 */
export class PublicListMemo {
  readonly idLists = new VersionedLru<string[]>((ids) => ids.length, { maxTotal: ID_BUDGET, maxItem: ID_BUDGET / 4 });
  /** Exact counts of filters too large for an id list, per storefront version (as the id lists). */
  readonly largeCounts = new VersionedMemo<number>(5_000);
}

/** The id lists' key of a filter. */
function listKey(shopId: string, channelId: string, input: Pick<PublicListInput, 'q' | 'category_id'>): string {
  return JSON.stringify([shopId, channelId, input.q ?? null, input.category_id ?? null]);
}

/**
 * The ids of one page and the exact count, when the filter's ordered id list is remembered at
 * `version`, or can be cut from the channel's whole list (remembered at `version`) with one
 * narrow statement on products alone; undefined otherwise (then `publicProducts` reads the page
 * and remembers the filter's list). The storefront answers the page from what it keeps per product.
 *
 * The filter's ids are the products that match it in the order of the channel's whole list,
 * which holds exactly the products visible in the channel (docs/storefront.md). The statement's
 * generic plan (a named statement settles on one after five runs) suits any search term, where
 * a join with the listings would be planned for the average term: for a SKU that matches one
 * product it walked the whole channel.
 */
export async function publicPageIds(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  memo: PublicListMemo,
  channelId: string,
  input: PublicListInput,
  version: number | null,
): Promise<{ ids: string[]; count: number } | undefined> {
  if (version === null) return undefined;
  const { db, shopId } = ctx;
  const { idLists } = memo;
  const slice = (ids: string[]) => ({ ids: ids.slice(input.offset, input.offset + input.limit), count: ids.length });
  const key = listKey(shopId, channelId, input);
  const known = idLists.get(key, version);
  if (known !== undefined) return slice(known);
  const filters = filtersOf(input);
  const whole = filters.length > 0 ? idLists.get(listKey(shopId, channelId, {}), version) : undefined;
  if (whole === undefined) return undefined;
  const matched = await preparedQuery<{ id: string }>(
    db,
    'store_matching',
    sql`SELECT p.id FROM products p
        WHERE ${and(sql`p.shop_id = ${shopId}`, LIVE_PUBLISHED, ...filters)}`,
  );
  const ids = inOrderOf(
    whole,
    matched.map((r) => r.id),
  );
  idLists.set(key, version, ids);
  return slice(ids);
}

/** Positions in a whole list, made on first use and gone with the list. */
const positions = new WeakMap<string[], Map<string, number>>();

/** The ids of `match` that are in `whole`, in its order (by position when few match, else by a scan). */
export function inOrderOf(whole: string[], match: string[]): string[] {
  if (match.length * 32 >= whole.length) {
    const set = new Set(match);
    return whole.filter((id) => set.has(id));
  }
  let pos = positions.get(whole);
  if (!pos) {
    pos = new Map(whole.map((id, i) => [id, i]));
    positions.set(whole, pos);
  }
  const at = pos;
  return match.filter((id) => at.has(id)).sort((a, b) => (at.get(a) as number) - (at.get(b) as number));
}

/** The product conditions of a list filter. */
function filtersOf(input: Pick<PublicListInput, 'q' | 'category_id'>): SQL[] {
  return [
    ...searchConditions(sql`p.search_text`, input.q),
    ...(input.category_id !== undefined ? [sql`p.category_id = ${input.category_id}`] : []),
  ];
}

/** The products of `ids` that are visible in the channel, in the order given. */
export async function publicProductsByIds(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  channel: PublicChannel,
  ids: string[],
): Promise<PublicProduct[]> {
  const rows = await rowsByIds(ctx, channel.id, ids);
  return rows.map((r) => publicOut(r, channel));
}

/** The rows of `ids` (visible in the channel) with their variants and images, in the order given. */
async function rowsByIds(ctx: Pick<Ctx, 'db' | 'shopId'>, channelId: string, ids: string[]): Promise<PublicRow[]> {
  if (ids.length === 0) return [];
  const { db, shopId } = ctx;
  return preparedQuery<PublicRow>(
    db,
    'store_rows_by_ids',
    sql`WITH page AS (
          SELECT ${PRODUCT_COLUMNS}, o.n
          FROM unnest(string_to_array(${ids.join(',')}, ',')) WITH ORDINALITY AS o(id, n)
          JOIN products p ON p.id = o.id AND p.shop_id = ${shopId}
          ${visibleListing(channelId)}
          WHERE ${LIVE_PUBLISHED})
        SELECT page.*, ${children(shopId, channelId)} FROM page ORDER BY page.n`,
  );
}

/**
 * One page of the products visible in the channel, newest first, with the exact count, read from
 * the database: what a caller asks when `publicPageIds` has no answer (a page it does answer is
 * read by id, `publicProductsByIds`). With the storefront `version` the request read (null:
 * nothing is remembered), the filter's ordered id list is read once per version (one narrow index scan, at most MAX_LIST_IDS ids) and shared by
 * all its pages and page sizes; a page is then a slice of it, read by id with its variants and
 * images. A filter matching more products pages in SQL: the page walks the ordered index and
 * stops after `limit` rows, and the count is remembered per version.
 */
export async function publicProducts(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  memo: PublicListMemo,
  channel: PublicChannel,
  input: PublicListInput,
  version: number | null = null,
) {
  const { db, shopId } = ctx;
  const { idLists, largeCounts } = memo;
  const filters = filtersOf(input);
  const from = visibleIn(shopId, channel.id, filters);
  const key = listKey(shopId, channel.id, input);
  const pageQuery = () =>
    preparedQuery<PublicRow>(
      db,
      'store_page',
      sql`WITH page AS (
            SELECT ${PRODUCT_COLUMNS} ${from}
            ORDER BY p.created_at DESC, p.id DESC
            LIMIT ${input.limit} OFFSET ${input.offset})
          SELECT page.*, ${children(shopId, channel.id)}
          FROM page ORDER BY page.created_at DESC, page.id DESC`,
    );
  const countOf = () =>
    largeCounts.through(key, version, async () => {
      const [n] = await preparedQuery<{ n: number }>(db, 'store_count', sql`SELECT count(*)::int AS n ${from}`);
      return Number(n?.n ?? 0);
    });
  if (largeCounts.get(key, version) !== undefined) {
    const [rows, count] = await Promise.all([pageQuery(), countOf()]);
    return { products: rows.map((r) => publicOut(r, channel)), count };
  }
  // One round trip: the filter's ordered ids (narrow, at most MAX_LIST_IDS + 1) and the page's
  // rows cut from them; the id list comes once, on the first row (or the only, empty-page row).
  const rows = await preparedQuery<PublicRow & { all_ids: string | null; n: number; ord: number | null }>(
    db,
    'store_ids_page',
    sql`WITH ids AS (
          SELECT p.id, p.created_at ${from}
          ORDER BY p.created_at DESC, p.id DESC LIMIT ${MAX_LIST_IDS + 1}),
        agg AS (
          SELECT string_agg(ids.id, ',' ORDER BY ids.created_at DESC, ids.id DESC) AS all_ids, count(*)::int AS n
          FROM ids),
        page AS (
          SELECT ${PRODUCT_COLUMNS}, row_number() OVER (ORDER BY p.created_at DESC, p.id DESC) AS ord
          FROM (SELECT ids.id FROM ids ORDER BY ids.created_at DESC, ids.id DESC
                LIMIT ${input.limit} OFFSET ${input.offset}) o
          JOIN products p ON p.shop_id = ${shopId} AND p.id = o.id
          ${visibleListing(channel.id)})
        SELECT CASE WHEN page.ord IS NULL OR page.ord = 1 THEN agg.all_ids END AS all_ids, agg.n, page.*,
               ${children(shopId, channel.id)}
        FROM agg LEFT JOIN page ON true ORDER BY page.ord`,
  );
  const pageRows = rows.filter((r) => r.ord !== null);
  const n = Number(rows[0]?.n ?? 0);
  if (n <= MAX_LIST_IDS) {
    const ids = rows[0]?.all_ids ? rows[0].all_ids.split(',') : [];
    idLists.set(key, version, ids);
    return { products: pageRows.map((r) => publicOut(r, channel)), count: ids.length };
  }
  // more than an id list holds: the count is remembered instead, deep pages come from SQL
  const [deep, count] = await Promise.all([
    input.offset + input.limit > MAX_LIST_IDS ? pageQuery() : Promise.resolve(pageRows),
    countOf(),
  ]);
  return { products: deep.map((r) => publicOut(r, channel)), count };
}

/** One product visible in the channel, by id or slug; null when it is not visible there. */
export async function publicProduct(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  channel: PublicChannel,
  idOrSlug: string,
): Promise<PublicProduct | null> {
  const { db, shopId } = ctx;
  const rows = await preparedQuery<PublicRow>(
    db,
    'store_product',
    sql`WITH page AS (
          SELECT ${PRODUCT_COLUMNS}
          ${visibleIn(shopId, channel.id, [sql`(p.id = ${idOrSlug} OR p.slug = ${idOrSlug})`])}
          LIMIT 1)
        SELECT page.*, ${children(shopId, channel.id)} FROM page`,
  );
  return rows[0] ? publicOut(rows[0], channel) : null;
}

// ---- checkout ----------------------------------------------------------------------------------

export interface PriceRef {
  product_id: string;
  variant_id?: string | null;
}

export interface ChannelPrice {
  product_id: string;
  /** The variant asked for; else the default variant of a product with variants; else null. */
  variant_id: string | null;
  variant_title: string | null;
  /**
   * Sold in the channel now: the product is published and not deleted, its own listing in the
   * channel is published, and the variant (if any) is not hidden there by its listing.
   */
  visible: boolean;
  name: string;
  /** The variant's SKU, else the product's. */
  sku: string | null;
  is_digital: boolean;
  tax_class: string;
  /** Of the variant when there is one, else of the product. */
  track_stock: boolean;
  stock_quantity: number;
  unit_price_cents: number;
  compare_at_price_cents: number | null;
  vendor_id: string | null;
}

interface PriceRow {
  idx: number;
  product_id: string;
  name: string;
  sku: string | null;
  is_digital: boolean;
  tax_class: string;
  track_stock: boolean;
  stock_quantity: number;
  base_price_cents: number;
  vendor_id: string | null;
  sellable: boolean;
  asked_variant: boolean;
  v_id: string | null;
  v_title: string | null;
  v_sku: string | null;
  v_price: number | null;
  v_track: boolean | null;
  v_stock: number | null;
  pl_published: boolean | null;
  pl_price: number | null;
  pl_compare_at: number | null;
  vl_published: boolean | null;
  vl_price: number | null;
  vl_compare_at: number | null;
}

/**
 * The price and sellability of each ref in the channel, in one query. The result is aligned with
 * `refs`; an entry is null when the product is not one of the shop's, or the variant asked for is
 * not a variant of that product. Unit price: the variant's listing price → the variant's own price
 * → the product's listing price → the product's base price (for a product without variants: its
 * listing price → its base price). The compare-at price follows the same levels: the variant
 * listing's, else the product listing's for a variant that sells at the product's price.
 */
export async function channelPrices(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  channelId: string,
  refs: PriceRef[],
): Promise<(ChannelPrice | null)[]> {
  if (refs.length === 0) return [];
  const { db, shopId } = ctx;
  const values = sql.join(
    refs.map((r, i) => sql`(${i}::int, ${r.product_id}::text, ${r.variant_id ?? null}::text)`),
    sql`, `,
  );
  const rows = await preparedQuery<PriceRow>(
    db,
    'channel_prices',
    sql`WITH refs(idx, product_id, variant_id) AS (VALUES ${values})
        SELECT r.idx, p.id AS product_id, p.name, p.sku, p.is_digital, p.tax_class, p.track_stock,
               p.stock_quantity, p.base_price_cents, p.vendor_id,
               (p.deleted_at IS NULL AND p.status = 'published') AS sellable,
               (r.variant_id IS NOT NULL) AS asked_variant,
               v.id AS v_id, v.title AS v_title, v.sku AS v_sku, v.price_cents AS v_price,
               v.track_stock AS v_track, v.stock_quantity AS v_stock,
               pl.is_published AS pl_published, pl.price_cents AS pl_price, pl.compare_at_price_cents AS pl_compare_at,
               vl.is_published AS vl_published, vl.price_cents AS vl_price, vl.compare_at_price_cents AS vl_compare_at
        FROM refs r
        JOIN products p ON p.id = r.product_id AND p.shop_id = ${shopId}
        LEFT JOIN LATERAL (
          SELECT * FROM product_variants pv
          WHERE pv.shop_id = ${shopId} AND pv.product_id = p.id
            AND (r.variant_id IS NULL OR pv.id = r.variant_id)
          ORDER BY pv.is_default DESC, pv.position, pv.id
          LIMIT 1) v ON true
        LEFT JOIN product_channel_listings pl
          ON pl.shop_id = ${shopId} AND pl.product_id = p.id AND pl.channel_id = ${channelId} AND pl.variant_id IS NULL
        LEFT JOIN product_channel_listings vl
          ON vl.shop_id = ${shopId} AND vl.product_id = p.id AND vl.channel_id = ${channelId} AND vl.variant_id = v.id`,
  );
  const out: (ChannelPrice | null)[] = refs.map(() => null);
  for (const r of rows) {
    if (r.asked_variant && r.v_id === null) continue;
    const hasVariant = r.v_id !== null;
    const ownPrice = r.vl_price ?? r.v_price;
    out[Number(r.idx)] = {
      product_id: r.product_id,
      variant_id: r.v_id,
      variant_title: r.v_title,
      visible: r.sellable && r.pl_published === true && r.vl_published !== false,
      name: r.name,
      sku: r.v_sku ?? r.sku,
      is_digital: r.is_digital,
      tax_class: r.tax_class,
      track_stock: hasVariant ? (r.v_track as boolean) : r.track_stock,
      stock_quantity: hasVariant ? (r.v_stock as number) : r.stock_quantity,
      unit_price_cents: ownPrice ?? r.pl_price ?? r.base_price_cents,
      compare_at_price_cents: r.vl_compare_at ?? (ownPrice === null ? r.pl_compare_at : null),
      vendor_id: r.vendor_id,
    };
  }
  return out;
}
