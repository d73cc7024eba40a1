/** Reading products: one product, and the filtered, paginated admin list. */

import { and, asc, desc, eq, getTableColumns, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../platform/auth/types.js';
import { prepared, query, type Tx } from '../../platform/db/tx.js';
import { notFound } from '../../platform/errors.js';
import { storefrontVersionOf } from '../../platform/versioned-memo.js';
import type { ProductListInput, ProductOut } from './catalog.schemas.js';
import { productChannelListings, productImages, products, productVariants } from './catalog.tables.js';
import { searchCondition, searchTerms } from './catalog.util.js';

export type ProductRow = typeof products.$inferSelect;
export type VariantRow = typeof productVariants.$inferSelect;
export type ImageRow = typeof productImages.$inferSelect;

export function productOut(p: ProductRow, variants: VariantRow[], images: ImageRow[]): ProductOut {
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    sku: p.sku,
    status: p.status as ProductOut['status'],
    type: p.type as ProductOut['type'],
    tax_class: p.taxClass as ProductOut['tax_class'],
    base_price_cents: p.basePriceCents,
    cost_price_cents: p.costPriceCents,
    category_id: p.categoryId,
    brand_id: p.brandId,
    supplier_id: p.supplierId,
    vendor_id: p.vendorId,
    is_digital: p.isDigital,
    track_stock: p.trackStock,
    stock_quantity: p.stockQuantity,
    description: p.description,
    short_description: p.shortDescription,
    options: p.options,
    variants: variants.map((v) => ({
      id: v.id,
      sku: v.sku,
      title: v.title,
      option_values: v.optionValues,
      price_cents: v.priceCents,
      effective_price_cents: v.priceCents ?? p.basePriceCents,
      cost_price_cents: v.costPriceCents,
      stock_quantity: v.stockQuantity,
      track_stock: v.trackStock,
      is_default: v.isDefault,
      position: v.position,
      created_at: v.createdAt.toISOString(),
      updated_at: v.updatedAt.toISOString(),
    })),
    images: images.map((i) => ({
      id: i.id,
      url: i.url,
      alt: i.alt,
      position: i.position,
      variant_id: i.variantId,
      created_at: i.createdAt.toISOString(),
      updated_at: i.updatedAt.toISOString(),
    })),
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

/** Variants and images of some products of one shop, grouped by product, in display order. */
export async function loadChildren(db: Tx, shopId: string, productIds: string[]) {
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
export async function loadProduct(db: Tx, shopId: string, id: string): Promise<ProductOut> {
  const [row] = await db
    .select()
    .from(products)
    .where(and(eq(products.id, id), eq(products.shopId, shopId), isNull(products.deletedAt)));
  if (!row) throw notFound('Product');
  const { variants, images } = await loadChildren(db, shopId, [id]);
  return productOut(row, variants.get(id) ?? [], images.get(id) ?? []);
}

export const getProduct = (ctx: Ctx, id: string) => loadProduct(ctx.db, ctx.shopId, id);

type Json<T> = { [K in keyof T]: T[K] extends Date ? string : T[K] extends Date | null ? string | null : T[K] };

/**
 * A product's variants as a JSON array (display order), for list queries. The outer table is
 * named in full: Drizzle leaves columns unqualified in single-table selects.
 */
const VARIANTS_JSON = sql<Json<VariantRow>[] | null>`(
  SELECT json_agg(json_build_object(
    'id', v.id, 'shopId', v.shop_id, 'productId', v.product_id, 'sku', v.sku, 'title', v.title,
    'optionValues', v.option_values, 'priceCents', v.price_cents, 'costPriceCents', v.cost_price_cents,
    'stockQuantity', v.stock_quantity, 'trackStock', v.track_stock, 'isDefault', v.is_default,
    'position', v.position, 'createdAt', v.created_at, 'updatedAt', v.updated_at) ORDER BY v.position, v.id)
  FROM ${productVariants} v WHERE v.shop_id = "products"."shop_id" AND v.product_id = "products"."id")`;

/** A product's images as a JSON array (display order), for list queries. */
const IMAGES_JSON = sql<Json<ImageRow>[] | null>`(
  SELECT json_agg(json_build_object(
    'id', i.id, 'shopId', i.shop_id, 'productId', i.product_id, 'url', i.url, 'alt', i.alt,
    'position', i.position, 'variantId', i.variant_id, 'createdAt', i.created_at, 'updatedAt', i.updated_at)
    ORDER BY i.position, i.id)
  FROM ${productImages} i WHERE i.shop_id = "products"."shop_id" AND i.product_id = "products"."id")`;

const variantFromJson = (v: Json<VariantRow>): VariantRow => ({
  ...v,
  createdAt: new Date(v.createdAt),
  updatedAt: new Date(v.updatedAt),
});

const imageFromJson = (i: Json<ImageRow>): ImageRow => ({
  ...i,
  createdAt: new Date(i.createdAt),
  updatedAt: new Date(i.updatedAt),
});

type RefMode = 'none' | 'ohne' | 'value';
const refMode = (value: string | undefined): RefMode =>
  value === undefined ? 'none' : value === 'ohne' ? 'ohne' : 'value';

/** `ohne` selects products without the reference; a value is a placeholder of the statement. */
function refFilter(column: AnyPgColumn, mode: RefMode, name: string): SQL[] {
  if (mode === 'none') return [];
  return [mode === 'ohne' ? isNull(column) : eq(column, sql.placeholder(name))];
}

/** Channel ids the caller is restricted to; empty = sees the whole catalog. */
function restrictedChannels(ctx: Ctx): string[] {
  return ctx.actor?.kind === 'admin' ? ctx.actor.channelIds : [];
}

/**
 * Exact counts of the admin list, remembered per filter set and catalog version. The version
 * (storefront_versions, bumped by triggers in the transaction of every product, variant, image
 * and listing change) is read before counting, so an entry is never newer than the data it
 * counted: paging through one result set counts once, and any change recounts. Per process,
 * bounded.
 */
const COUNT_CACHE_MAX = 5_000;
const countCache = new Map<string, { version: number; count: number }>();

async function cachedCount(ctx: Ctx, key: string, count: () => Promise<{ n: number }[]>): Promise<{ n: number }[]> {
  // read with the credential when it was checked (one round trip less), else here
  const version =
    storefrontVersionOf(ctx.actor) ??
    Number(
      (
        await query<{ version: number }>(
          ctx.db,
          sql`SELECT version FROM storefront_versions WHERE shop_id = ${ctx.shopId}`,
        )
      )[0]?.version ?? 0,
    );
  const hit = countCache.get(key);
  if (hit && hit.version === version) return [{ n: hit.count }];
  const total = await count();
  if (countCache.size >= COUNT_CACHE_MAX) countCache.delete(countCache.keys().next().value as string);
  countCache.set(key, { version, count: total[0]?.n ?? 0 });
  return total;
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
    return {
      // Deferred join: the page's ids come from the (covering) list indexes, and only those rows
      // are read from the table, so a deep offset does not fetch every skipped row. Their
      // variants and images come along as JSON in the same round trip.
      page: db
        .select({ ...getTableColumns(products), variantsJson: VARIANTS_JSON, imagesJson: IMAGES_JSON })
        .from(products)
        .where(
          inArray(
            products.id,
            db
              .select({ id: products.id })
              .from(products)
              .where(where)
              .orderBy(desc(products.createdAt), desc(products.id))
              .limit(sql.placeholder('limit'))
              .offset(sql.placeholder('offset')),
          ),
        )
        .orderBy(desc(products.createdAt), desc(products.id))
        .prepare(`${name}_page`),
      count: db.select({ n: sql<number>`count(*)::int` }).from(products).where(where).prepare(`${name}_count`),
    };
  });
}

/**
 * The admin product list, newest first. Every filter, the search and an employee's channel
 * restriction are applied inside the query, so pages stay full and `count` is exact.
 */
export async function listProducts(ctx: Ctx, input: ProductListInput) {
  const limit = input.limit ?? 50;
  const offset = input.offset ?? 0;
  const terms = searchTerms(input.q);
  const channels = restrictedChannels(ctx);
  const statements = listStatements(ctx, {
    terms: terms.length,
    status: input.status !== undefined,
    category: refMode(input.category_id),
    brand: refMode(input.brand_id),
    supplier: refMode(input.supplier_id),
    digital: input.digital === 'ja',
    channels: channels.length > 0,
  });
  const params: Record<string, unknown> = {
    shop: ctx.shopId,
    status: input.status,
    category: input.category_id,
    brand: input.brand_id,
    supplier: input.supplier_id,
    channels,
    limit,
    offset,
  };
  terms.forEach((t, i) => {
    params[`q${i}`] = t;
  });
  const countKey = JSON.stringify([
    ctx.shopId,
    input.q ?? '',
    input.status ?? '',
    input.category_id ?? '',
    input.brand_id ?? '',
    input.supplier_id ?? '',
    input.digital ?? '',
    channels,
  ]);
  const [rows, total] = await Promise.all([
    statements.page.execute(params),
    cachedCount(ctx, countKey, () => statements.count.execute(params)),
  ]);
  return {
    // productOut reads the product's own fields; the JSON columns ride along unread
    products: rows.map((r) =>
      productOut(r, (r.variantsJson ?? []).map(variantFromJson), (r.imagesJson ?? []).map(imageFromJson)),
    ),
    count: total[0]?.n ?? 0,
    limit,
    offset,
  };
}
