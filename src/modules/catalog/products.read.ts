/** Reading products: one product, and the filtered, paginated admin list. */

import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Ctx } from '../../platform/auth/types.js';
import { query, type Tx } from '../../platform/db/tx.js';
import { notFound } from '../../platform/errors.js';
import type { ProductListInput, ProductOut } from './catalog.schemas.js';
import { productChannelListings, productImages, products, productVariants } from './catalog.tables.js';
import { searchConditions } from './catalog.util.js';

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

/** `ohne` selects products without the reference. */
function refFilter(column: AnyPgColumn, value: string | undefined): SQL[] {
  if (value === undefined) return [];
  return [value === 'ohne' ? isNull(column) : eq(column, value)];
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
  const rows = await query<{ version: number }>(
    ctx.db,
    sql`SELECT version FROM storefront_versions WHERE shop_id = ${ctx.shopId}`,
  );
  const version = Number(rows[0]?.version ?? 0);
  const hit = countCache.get(key);
  if (hit && hit.version === version) return [{ n: hit.count }];
  const total = await count();
  if (countCache.size >= COUNT_CACHE_MAX) countCache.delete(countCache.keys().next().value as string);
  countCache.set(key, { version, count: total[0]?.n ?? 0 });
  return total;
}

/**
 * The admin product list, newest first. Every filter, the search and an employee's channel
 * restriction are applied inside the query, so pages stay full and `count` is exact.
 */
export async function listProducts(ctx: Ctx, input: ProductListInput) {
  const limit = input.limit ?? 50;
  const offset = input.offset ?? 0;
  const conditions: SQL[] = [
    eq(products.shopId, ctx.shopId),
    isNull(products.deletedAt),
    ...searchConditions(products.searchText, input.q),
    ...(input.status ? [eq(products.status, input.status)] : []),
    ...refFilter(products.categoryId, input.category_id),
    ...refFilter(products.brandId, input.brand_id),
    ...refFilter(products.supplierId, input.supplier_id),
    ...(input.digital === 'ja' ? [eq(products.isDigital, true)] : []),
  ];
  const channels = restrictedChannels(ctx);
  if (channels.length > 0) {
    conditions.push(
      sql`EXISTS (SELECT 1 FROM ${productChannelListings} l
                  WHERE l.shop_id = ${products.shopId} AND l.product_id = ${products.id}
                    AND l.channel_id IN (${sql.join(
                      channels.map((c) => sql`${c}`),
                      sql`, `,
                    )}))`,
    );
  }
  const where = and(...conditions);
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
    // Deferred join: the page's ids come from the (covering) list indexes, and only those 50
    // rows are read from the table, so a deep offset does not fetch every skipped row.
    ctx.db
      .select()
      .from(products)
      .where(
        inArray(
          products.id,
          ctx.db
            .select({ id: products.id })
            .from(products)
            .where(where)
            .orderBy(desc(products.createdAt), desc(products.id))
            .limit(limit)
            .offset(offset),
        ),
      )
      .orderBy(desc(products.createdAt), desc(products.id)),
    cachedCount(ctx, countKey, () => ctx.db.select({ n: sql<number>`count(*)::int` }).from(products).where(where)),
  ]);
  const { variants, images } = await loadChildren(
    ctx.db,
    ctx.shopId,
    rows.map((r) => r.id),
  );
  return {
    products: rows.map((r) => productOut(r, variants.get(r.id) ?? [], images.get(r.id) ?? [])),
    count: total[0]?.n ?? 0,
    limit,
    offset,
  };
}
