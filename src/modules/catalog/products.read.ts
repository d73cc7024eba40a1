/** Reading products: one product, and the filtered, paginated admin list. */

import { and, asc, eq, inArray, isNull, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { restrictedChannels } from '../../platform/auth/channel-scope.js';
import type { Ctx } from '../../platform/auth/types.js';
import type { Db } from '../../platform/db/client.js';
import { prepared } from '../../platform/db/prepared.js';
import { query } from '../../platform/db/tx.js';
import { notFound } from '../../platform/errors.js';
import { catalogVersionOf, VersionedMemo } from '../../platform/versioned-memo.js';
import type { ProductListInput, ProductOut, ProductSort } from './catalog.schemas.js';
import { productChannelListings, productImages, products, productVariants } from './catalog.tables.js';
import { searchCondition, searchTerms } from './catalog.util.js';

export type ProductRow = typeof products.$inferSelect;
export type VariantRow = typeof productVariants.$inferSelect;
export type ImageRow = typeof productImages.$inferSelect;

// ---- the product's API shape, written by the database ------------------------------------------
// `format` fills one template per object with values already turned into JSON text. It is several
// times cheaper in PostgreSQL than json_build_object, which looks up each argument's type on
// every call; a page of 50 products with variants takes about 0.5 ms less.

/** A string (escaped) or null, as JSON text. */
const str = (value: SQL) => sql`coalesce(to_json(${value})::text, 'null')`;
/** A number or null, as JSON text. */
const num = (value: SQL) => sql`coalesce(${value}::text, 'null')`;
/** A boolean as JSON text (`::text` spells true/false; the output function would write t/f). */
const bool = (value: SQL) => sql`${value}::text`;
/** A timestamp as the API writes it: what `Date#toISOString` prints (UTC, milliseconds). */
const time = (value: SQL) => sql`'"' || to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"'`;

/** A JSON object of constant keys and JSON-text values, in the given key order. */
function jsonObject(fields: Record<string, SQL>): SQL {
  const template = `{${Object.keys(fields)
    .map((key) => `"${key}":%s`)
    .join(',')}}`;
  return sql`format(${sql.raw(`'${template}'`)}, ${sql.join(Object.values(fields), sql`, `)})`;
}

/** A JSON array of the objects a subquery aggregates with `string_agg(…, ',')`; `[]` when none. */
const jsonArray = (aggregated: SQL) => sql<string>`'[' || coalesce(${aggregated}, '') || ']'`;

const VARIANT_TEXT = jsonObject({
  id: str(sql`v.id`),
  sku: str(sql`v.sku`),
  title: str(sql`v.title`),
  option_values: sql`v.option_values::text`,
  price_cents: num(sql`v.price_cents`),
  effective_price_cents: sql`coalesce(v.price_cents, products.base_price_cents)::text`,
  cost_price_cents: num(sql`v.cost_price_cents`),
  stock_quantity: sql`v.stock_quantity::text`,
  track_stock: bool(sql`v.track_stock`),
  is_default: bool(sql`v.is_default`),
  position: sql`v.position::text`,
  created_at: time(sql`v.created_at`),
  updated_at: time(sql`v.updated_at`),
});

const IMAGE_TEXT = jsonObject({
  id: str(sql`i.id`),
  url: str(sql`i.url`),
  alt: str(sql`i.alt`),
  position: sql`i.position::text`,
  variant_id: str(sql`i.variant_id`),
  created_at: time(sql`i.created_at`),
  updated_at: time(sql`i.updated_at`),
});

/**
 * The outer `products` row in the API shape (`ProductSchema`) as JSON text: the one place that
 * shape is produced. Variants and images come in display order. The list passes this text
 * through to the response as it is; single reads parse it. The child subqueries name the shop as
 * a value (`shop`), not as `products.shop_id`: on Citus a correlated subquery only routes to the
 * shop's shard when its distribution column is pinned to the same value as the outer read's.
 */
const productText = (shop: SQL | Placeholder | string) =>
  jsonObject({
    id: str(sql`products.id`),
    name: str(sql`products.name`),
    slug: str(sql`products.slug`),
    sku: str(sql`products.sku`),
    status: str(sql`products.status`),
    type: str(sql`products.type`),
    tax_class: str(sql`products.tax_class`),
    base_price_cents: sql`products.base_price_cents::text`,
    cost_price_cents: num(sql`products.cost_price_cents`),
    category_id: str(sql`products.category_id`),
    brand_id: str(sql`products.brand_id`),
    supplier_id: str(sql`products.supplier_id`),
    vendor_id: str(sql`products.vendor_id`),
    is_digital: bool(sql`products.is_digital`),
    track_stock: bool(sql`products.track_stock`),
    stock_quantity: sql`products.stock_quantity::text`,
    description: str(sql`products.description`),
    short_description: str(sql`products.short_description`),
    options: sql`products.options::text`,
    variants: jsonArray(
      sql`(SELECT string_agg(${VARIANT_TEXT}, ',' ORDER BY v.position, v.id) FROM ${productVariants} v
         WHERE v.shop_id = ${shop} AND v.product_id = products.id)`,
    ),
    images: jsonArray(
      sql`(SELECT string_agg(${IMAGE_TEXT}, ',' ORDER BY i.position, i.id) FROM ${productImages} i
         WHERE i.shop_id = ${shop} AND i.product_id = products.id)`,
    ),
    created_at: time(sql`products.created_at`),
    updated_at: time(sql`products.updated_at`),
  });

/** Variants and images of some products of one shop, grouped by product, in display order. */
export async function loadChildren(ctx: Ctx, productIds: string[]) {
  const { db, shopId } = ctx;
  const variants = new Map<string, VariantRow[]>();
  const images = new Map<string, ImageRow[]>();
  if (productIds.length === 0) return { variants, images };
  const [vs, is] = await Promise.all([
    db
      .select()
      .from(productVariants)
      .where(and(eq(productVariants.shopId, shopId), inArray(productVariants.productId, productIds)))
      .orderBy(asc(productVariants.position), asc(productVariants.id)),
    db
      .select()
      .from(productImages)
      .where(and(eq(productImages.shopId, shopId), inArray(productImages.productId, productIds)))
      .orderBy(asc(productImages.position), asc(productImages.id)),
  ]);
  for (const v of vs) variants.set(v.productId, [...(variants.get(v.productId) ?? []), v]);
  for (const i of is) images.set(i.productId, [...(images.get(i.productId) ?? []), i]);
  return { variants, images };
}

/** A live product of the shop with its variants and images; 404 when missing, deleted or foreign. */
export async function loadProduct(ctx: Ctx, id: string): Promise<ProductOut> {
  const [row] = await ctx.db
    .select({ product: sql<string>`${productText(ctx.shopId)}` })
    .from(products)
    .where(and(eq(products.id, id), eq(products.shopId, ctx.shopId), isNull(products.deletedAt)));
  if (!row) throw notFound('Product');
  return JSON.parse(row.product) as ProductOut;
}

export const getProduct = (ctx: Ctx, id: string) => loadProduct(ctx, id);

type RefMode = 'none' | 'without' | 'value';
const refMode = (value: string | undefined): RefMode =>
  value === undefined ? 'none' : value === 'ohne' ? 'without' : 'value';

/** `ohne` in the API (mode `without`) selects products without the reference; a value is a placeholder of the statement. */
function refFilter(column: AnyPgColumn, mode: RefMode, name: string): SQL[] {
  if (mode === 'none') return [];
  return [mode === 'without' ? isNull(column) : eq(column, sql.placeholder(name))];
}

/**
 * Exact counts of the admin list, remembered per filter set and catalog version. The version
 * (storefront_versions, bumped by triggers in the transaction of every product, variant, image
 * and listing change) is read before counting, so an entry is never newer than the data it
 * counted: paging through one result set counts once, and any change recounts. Per process,
 * bounded.
 */
const counts = new VersionedMemo<number>(5_000);

/**
 * The ids of a page, in order, remembered per filter set, page and catalog version: a page asked
 * for again (a refresh, paging back, a second admin) skips the filter, the sort and the offset
 * and reads only its own rows. The rows themselves are always read live (stock moves without a
 * version bump), by a statement that also reads the version in the same snapshot; when a write
 * has committed since the entry was stored, the entry is not used. Per process, bounded.
 */
const pageIds = new VersionedMemo<string[]>(1_000);

/** The shop's catalog version as the statement's own snapshot sees it. */
const SNAPSHOT_VERSION = sql<
  number | string | null
>`(SELECT version FROM storefront_versions WHERE shop_id = ${sql.placeholder('shop')})`;
const versionNumber = (v: number | string | null | undefined) => (v === null || v === undefined ? null : Number(v));

/**
 * What each sort key orders by, ascending; ties by id in the same direction. Each has a partial
 * index `(shop_id, <expression>, id) WHERE deleted_at IS NULL` (created_at: products_list_idx),
 * which serves both directions. `name` orders as the search does: lower case, without accents
 * (`name_sort`, a stored generated column, so the index answers without reading the rows).
 */
const SORT_EXPRESSIONS: Record<string, SQL> = {
  created_at: sql`products.created_at`,
  name: sql`products.name_sort`,
  sku: sql`products.sku`,
  base_price_cents: sql`products.base_price_cents`,
  updated_at: sql`products.updated_at`,
};

/** The ORDER BY of a sort key (`-` descending). */
function orderOf(sort: ProductSort): SQL {
  const descending = sort.startsWith('-');
  const expression = SORT_EXPRESSIONS[descending ? sort.slice(1) : sort] as SQL;
  const dir = sql.raw(descending ? 'DESC' : 'ASC');
  return sql`${expression} ${dir}, products.id ${dir}`;
}

/** The products of the page as one JSON array text, in the given order. */
const pageText = (order: SQL) =>
  jsonArray(sql`string_agg(${productText(sql.placeholder('shop'))}, ',' ORDER BY ${order})`);

/** Reads the rows of remembered page ids, in the remembered order (filter set and sort independent). */
const pageByIds = (db: Db) =>
  prepared(db, 'products_list_by_ids', (d, name) =>
    d
      .select({
        products: pageText(sql`array_position(${sql.placeholder('ids')}::text[], products.id)`),
        version: SNAPSHOT_VERSION,
      })
      .from(products)
      .where(
        and(eq(products.shopId, sql.placeholder('shop')), sql`${products.id} = ANY(${sql.placeholder('ids')}::text[])`),
      )
      .prepare(name),
  );

async function catalogVersion(ctx: Ctx): Promise<number> {
  // read with the credential when it was checked (one round trip less), else here
  const known = catalogVersionOf(ctx.actor);
  if (known !== null) return known;
  const [row] = await query<{ version: number | string }>(
    ctx.db,
    sql`SELECT version FROM storefront_versions WHERE shop_id = ${ctx.shopId}`,
  );
  return Number(row?.version ?? 0);
}

/** Which filters a list request uses: one prepared statement per shape, values as placeholders. */
interface ListShape {
  terms: number;
  status: boolean;
  category: RefMode;
  brand: RefMode;
  supplier: RefMode;
  digital: boolean;
  channels: boolean;
  sort: ProductSort;
}

function listStatements(ctx: Ctx, shape: ListShape) {
  const key = [
    shape.terms,
    shape.status ? 's' : '',
    shape.category,
    shape.brand,
    shape.supplier,
    shape.digital ? 'd' : '',
    shape.channels ? 'c' : '',
    shape.sort.replace('-', 'desc_'),
  ].join('_');
  return prepared(ctx.db, `products_list_${key}`, (db, name) => {
    const conditions: SQL[] = [
      eq(products.shopId, sql.placeholder('shop')),
      isNull(products.deletedAt),
      ...Array.from({ length: shape.terms }, (_, i) => searchCondition(products.searchText, sql.placeholder(`q${i}`))),
      ...(shape.status ? [eq(products.status, sql.placeholder('status'))] : []),
      ...refFilter(products.categoryId, shape.category, 'category'),
      ...refFilter(products.brandId, shape.brand, 'brand'),
      ...refFilter(products.supplierId, shape.supplier, 'supplier'),
      ...(shape.digital ? [eq(products.isDigital, true)] : []),
      ...(shape.channels
        ? [
            sql`EXISTS (SELECT 1 FROM ${productChannelListings} l
                        WHERE l.shop_id = ${products.shopId} AND l.product_id = ${products.id}
                          AND l.channel_id = ANY(${sql.placeholder('channels')}::text[]))`,
          ]
        : []),
    ];
    const where = and(...conditions);
    const order = orderOf(shape.sort);
    return {
      // Deferred join: the page's ids come from the (covering) list indexes, and only those rows
      // are read from the table, so a deep offset does not fetch every skipped row. Their
      // variants and images come along as JSON in the same round trip.
      page: db
        .select({
          products: pageText(order),
          ids: sql<string[] | null>`array_agg(products.id ORDER BY ${order})`,
          version: SNAPSHOT_VERSION,
        })
        .from(products)
        .where(
          and(
            // the outer read names the shop too: every table of the statement on the shop's shard
            eq(products.shopId, sql.placeholder('shop')),
            inArray(
              products.id,
              db
                .select({ id: products.id })
                .from(products)
                .where(where)
                .orderBy(order)
                .limit(sql.placeholder('limit'))
                .offset(sql.placeholder('offset')),
            ),
          ),
        )
        .prepare(`${name}_page`),
      count: db.select({ n: sql<number>`count(*)::int` }).from(products).where(where).prepare(`${name}_count`),
    };
  });
}

/**
 * The admin product list, newest first unless `sort` says otherwise. Every filter, the search and an employee's channel
 * restriction are applied inside the query, so pages stay full and `count` is exact.
 */
export async function listProducts(ctx: Ctx, input: ProductListInput) {
  const limit = input.limit ?? 50;
  const offset = input.offset ?? 0;
  const terms = searchTerms(input.q);
  const channels = restrictedChannels(ctx.actor);
  const statements = listStatements(ctx, {
    terms: terms.length,
    status: input.status !== undefined,
    category: refMode(input.category_id),
    brand: refMode(input.brand_id),
    supplier: refMode(input.supplier_id),
    digital: input.digital === 'ja',
    channels: channels !== null,
    sort: input.sort ?? '-created_at',
  });
  const params: Record<string, unknown> = {
    shop: ctx.shopId,
    status: input.status,
    category: input.category_id,
    brand: input.brand_id,
    supplier: input.supplier_id,
    channels: channels ?? [],
    limit,
    offset,
  };
  terms.forEach((t, i) => {
    params[`q${i}`] = t;
  });
  const filterKey = JSON.stringify([
    ctx.shopId,
    input.q ?? '',
    input.status ?? '',
    input.category_id ?? '',
    input.brand_id ?? '',
    input.supplier_id ?? '',
    input.digital ?? '',
    channels,
  ]);
  // the count does not depend on the order; the page's ids do
  const pageKey = `${filterKey}:${input.sort ?? '-created_at'}:${limit}:${offset}`;
  const version = await catalogVersion(ctx);

  const page = async (): Promise<string> => {
    const ids = pageIds.get(pageKey, version);
    if (ids) {
      const [row] = await pageByIds(ctx.db).execute({ shop: ctx.shopId, ids });
      if (row && versionNumber(row.version) === version) return row.products;
    }
    const [row] = await statements.page.execute(params);
    pageIds.set(pageKey, versionNumber(row?.version), row?.ids ?? []);
    return row?.products ?? '[]';
  };
  const [pageText, count] = await Promise.all([
    page(),
    counts.through(filterKey, version, async () => (await statements.count.execute(params))[0]?.n ?? 0),
  ]);
  // the page is JSON text from the database; only the envelope is written here
  return `{"products":${pageText},"count":${count},"limit":${limit},"offset":${offset}}`;
}
