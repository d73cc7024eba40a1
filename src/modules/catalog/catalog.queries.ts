/**
 * What other modules read of the catalog's tables, as functions of its own (docs/ARCHITECTURE.md,
 * "Cross-module table reads").
 */
import { and, asc, Column, desc, eq, getTableName, inArray, is, isNull, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import type { Db } from '../../platform/db/client.js';
import { query } from '../../platform/db/tx.js';
import { categories, products } from './catalog.tables.js';
import { catalogVersions } from './catalog-version.tables.js';

type ShopCtx = Pick<Ctx, 'db' | 'shopId'>;

/** Whether the product is listed in one of `channelIds` (a channel-restricted employee's reach). */
export async function productListedInChannels(ctx: ShopCtx, productId: string, channelIds: string[]): Promise<boolean> {
  if (channelIds.length === 0) return false;
  const rows = await query(
    ctx.db,
    sql`SELECT 1 FROM product_channel_listings
        WHERE shop_id = ${ctx.shopId} AND product_id = ${productId} AND channel_id IN (${sql.join(
          channelIds.map((c) => sql`${c}`),
          sql`, `,
        )})
        LIMIT 1`,
  );
  return rows.length > 0;
}

/** The category of each of the products that still exist (deleted ones included), by id. */
export async function productCategories(ctx: ShopCtx, productIds: string[]): Promise<Map<string, string | null>> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: products.id, categoryId: products.categoryId })
    .from(products)
    .where(and(eq(products.shopId, ctx.shopId), inArray(products.id, ids)));
  return new Map(rows.map((r) => [r.id, r.categoryId]));
}

/** The names of those of `categoryIds` that are categories of the shop, by id. */
export async function categoryNames(ctx: ShopCtx, categoryIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(categoryIds)];
  if (ids.length === 0) return new Map();
  const rows = await ctx.db
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(and(eq(categories.shopId, ctx.shopId), inArray(categories.id, ids)));
  return new Map(rows.map((r) => [r.id, r.name]));
}

const ofVendor = (ctx: ShopCtx, vendorId: string) =>
  and(eq(products.shopId, ctx.shopId), eq(products.vendorId, vendorId), isNull(products.deletedAt));

/**
 * A page of the vendor's products (not deleted), newest first, with their stock: the product's
 * own count, or its tracked variants summed; null when nothing is tracked. Exact count.
 */
export async function vendorProducts(ctx: ShopCtx, vendorId: string, limit: number, offset: number) {
  const where = ofVendor(ctx, vendorId);
  // qualified by hand: drizzle renders the columns of a one-table select without the table name
  const stock = sql<number | null>`CASE WHEN EXISTS (SELECT 1 FROM product_variants pv
        WHERE pv.shop_id = products.shop_id AND pv.product_id = products.id)
      THEN (SELECT (sum(pv.stock_quantity) FILTER (WHERE pv.track_stock))::int FROM product_variants pv
        WHERE pv.shop_id = products.shop_id AND pv.product_id = products.id)
      WHEN products.track_stock THEN products.stock_quantity END`;
  const [rows, total] = await Promise.all([
    ctx.db
      .select({
        id: products.id,
        name: products.name,
        slug: products.slug,
        sku: products.sku,
        status: products.status,
        basePriceCents: products.basePriceCents,
        isDigital: products.isDigital,
        stock,
        createdAt: products.createdAt,
        updatedAt: products.updatedAt,
      })
      .from(products)
      .where(where)
      .orderBy(desc(products.createdAt), desc(products.id))
      .limit(limit)
      .offset(offset),
    countVendorProducts(ctx, vendorId),
  ]);
  return { rows, count: total };
}

/** How many products (not deleted) the vendor has. */
export async function countVendorProducts(ctx: ShopCtx, vendorId: string): Promise<number> {
  const [row] = await ctx.db.select({ n: sql<number>`count(*)::int` }).from(products).where(ofVendor(ctx, vendorId));
  return Number(row?.n ?? 0);
}

/**
 * Which of `refs` track stock (the variant's setting, else the product's), by position: one
 * statement for all of them. A ref whose product no longer exists tracks none.
 */
export async function refsTrackingStock(
  ctx: ShopCtx,
  refs: { product_id: string; variant_id: string | null }[],
): Promise<boolean[]> {
  if (refs.length === 0) return [];
  const rows = await query<{ i: number }>(
    ctx.db,
    sql`SELECT r.i FROM (VALUES ${sql.join(
      refs.map((r, i) => sql`(${i}::int, ${r.product_id}::text, ${r.variant_id}::text)`),
      sql`, `,
    )}) AS r(i, product_id, variant_id)
        LEFT JOIN product_variants v ON v.shop_id = ${ctx.shopId} AND v.id = r.variant_id
        JOIN products p ON p.shop_id = ${ctx.shopId} AND p.id = r.product_id
        WHERE coalesce(v.track_stock, p.track_stock)`,
  );
  const tracked = new Set(rows.map((r) => Number(r.i)));
  return refs.map((_, i) => tracked.has(i));
}

/**
 * The product `productId` of `shopId` as a derived table (id, name, sku, vendor_id, tax_class,
 * status, is_digital, deleted_at), for a statement that shows it beside its own rows and must stay
 * one statement: `JOIN LATERAL ${productSql(sql`pl.product_id`, sql`pl.shop_id`)} p ON true`.
 * Pass qualified references (or values).
 */
export const productSql = (productId: SQL, shopId: SQL): SQL =>
  sql`(SELECT p.id, p.name, p.sku, p.vendor_id, p.tax_class, p.status, p.is_digital, p.deleted_at
       FROM products p WHERE p.id = ${productId} AND p.shop_id = ${shopId})`;

/** Whether the product (of the shop, not deleted) is a digital one; null when there is no such product. */
export async function productIsDigital(ctx: ShopCtx, productId: string): Promise<boolean | null> {
  const rows = await query<{ is_digital: boolean }>(
    ctx.db,
    sql`SELECT is_digital FROM products WHERE id = ${productId} AND shop_id = ${ctx.shopId} AND deleted_at IS NULL`,
  );
  return rows[0] ? rows[0].is_digital : null;
}

// ---- the catalog version (docs/decisions.md, "Catalog version") ----

/**
 * The shop's catalog version (`storefront_versions`), as a scalar subquery correlated to
 * `shopId`, for a credential lookup's select list: the lookup stays one statement (one round trip
 * per request). Null when the shop has no row yet. A column is named with its table, so the
 * reference stays outer even where drizzle drops table names (a one-table select).
 */
export function catalogVersionOf(shopId: Column | SQL): SQL<number | null> {
  const ref = is(shopId, Column)
    ? sql`${sql.identifier(getTableName(shopId.table))}.${sql.identifier(shopId.name)}`
    : shopId;
  return sql<number | null>`(SELECT sv.version FROM storefront_versions sv WHERE sv.shop_id = ${ref})`;
}

/**
 * The shop's catalog version as a prepared statement named `name` (one primary-key lookup; null
 * before the shop's first catalog change), for a check per request (the storefront's cache).
 */
export function prepareCatalogVersion(db: Db, name: string): (shopId: string) => Promise<number | null> {
  const statement = db
    .select({ version: catalogVersions.version })
    .from(catalogVersions)
    .where(eq(catalogVersions.shopId, sql.placeholder('shopId')))
    .prepare(name);
  return async (shopId) => (await statement.execute({ shopId }))[0]?.version ?? null;
}

/** The shop's categories for a storefront's filter (names and parents only), by name; at most 500. */
export async function storeCategories(ctx: ShopCtx): Promise<{ id: string; name: string; parent_id: string | null }[]> {
  const rows = await ctx.db
    .select({ id: categories.id, name: categories.name, parentId: categories.parentId })
    .from(categories)
    .where(eq(categories.shopId, ctx.shopId))
    .orderBy(asc(categories.name), asc(categories.id))
    .limit(500);
  return rows.map((r) => ({ id: r.id, name: r.name, parent_id: r.parentId }));
}
