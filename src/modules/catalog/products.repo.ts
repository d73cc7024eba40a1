/**
 * The persistence steps product writes share: reference checks, the SKU register, slugs, the
 * search column, and writing variant and image lists. Every statement is scoped by shop.
 */
import { and, eq, inArray, isNotNull, isNull, ne, notInArray, sql } from 'drizzle-orm';
import type { TxCtx } from '../../platform/db/tx.js';
import { AppError, conflict, type FieldError } from '../../platform/errors.js';
import {
  brands,
  catalogSkus,
  categories,
  productImages,
  products,
  productVariants,
  suppliers,
} from './catalog.tables.js';
import { LOCK_PRODUCT_SLUG, nextFreeSlug, throwIfInvalid, uniqueConstraintOf } from './catalog.util.js';
import type { ImagePlan, SkuUse, VariantPlan } from './products.plan.js';

export const SLUG_INDEX = 'products_slug_uq';
const SKU_KEY = 'catalog_skus_shop_id_sku_pk';
/** Attempts when a generated slug is taken by a concurrent write between check and insert. */
export const SLUG_ATTEMPTS = 5;

export const slugTaken = (slug: string) =>
  new AppError('slug_taken', `The slug ${slug} is already used by another product`, [
    { path: '/body/slug', message: 'is already used' },
  ]);

/** Maps the unique indexes' verdicts to the API's conflicts. */
export function translateConflict(err: unknown, slug: string): never {
  const constraint = uniqueConstraintOf(err);
  if (constraint === SLUG_INDEX) throw slugTaken(slug);
  if (constraint === SKU_KEY) throw conflict('sku_taken', 'A SKU of this product is already used by another product');
  throw err;
}

type RefColumn = 'category_id' | 'brand_id' | 'supplier_id';
const REF_TABLES = { category_id: categories, brand_id: brands, supplier_id: suppliers } as const;

/**
 * Each referenced record must belong to the shop. The KEY SHARE lock keeps it from being deleted
 * before this transaction commits (its delete then sees the product and answers in_use).
 */
export async function lockReferences(ctx: TxCtx, refs: Partial<Record<RefColumn, string | null>>) {
  const { db: tx, shopId } = ctx;
  const errors: FieldError[] = [];
  for (const column of Object.keys(REF_TABLES) as RefColumn[]) {
    const id = refs[column];
    if (!id) continue;
    const table = REF_TABLES[column];
    const [row] = await tx
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.id, id), eq(table.shopId, shopId)))
      .for('key share');
    if (!row) errors.push({ path: `/body/${column}`, message: `is not a ${column.slice(0, -3)} of this shop` });
  }
  throwIfInvalid(errors);
}

/** A friendly 409 naming the SKU when another live product already holds it. */
export async function checkSkusFree(ctx: TxCtx, uses: SkuUse[], productId: string | null) {
  const { db: tx, shopId } = ctx;
  if (uses.length === 0) return;
  const taken = await tx
    .select({ sku: catalogSkus.sku })
    .from(catalogSkus)
    .where(
      and(
        eq(catalogSkus.shopId, shopId),
        inArray(
          catalogSkus.sku,
          uses.map((u) => u.sku),
        ),
        ...(productId ? [ne(catalogSkus.productId, productId)] : []),
      ),
    );
  if (taken.length === 0) return;
  const set = new Set(taken.map((t) => t.sku));
  const errors = uses.filter((u) => set.has(u.sku)).map((u) => ({ path: u.path, message: 'is already used' }));
  throw new AppError('sku_taken', `SKU ${taken[0]?.sku} is already used by another product`, errors);
}

export async function slugInUse(ctx: TxCtx, slug: string, productId: string | null) {
  const { db: tx, shopId } = ctx;
  const rows = await tx
    .select({ id: products.id })
    .from(products)
    .where(
      and(
        eq(products.shopId, shopId),
        eq(products.slug, slug),
        isNull(products.deletedAt),
        ...(productId ? [ne(products.id, productId)] : []),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * The first free slug among `base`, `base-2`, `base-3` … Writers generating from the same base wait
 * for each other (advisory lock until commit), so parallel products of one name each get their own
 * slug instead of all picking the same one and most failing with 409 slug_taken.
 */
export async function generateSlug(ctx: TxCtx, base: string) {
  const { db: tx, shopId } = ctx;
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${LOCK_PRODUCT_SLUG}, hashtext(${`${shopId}:${base}`}))`);
  const rows = await tx
    .select({ slug: products.slug })
    .from(products)
    .where(
      and(
        eq(products.shopId, shopId),
        isNull(products.deletedAt),
        sql`(${products.slug} = ${base} OR ${products.slug} LIKE ${`${base}-%`})`,
      ),
    );
  return nextFreeSlug(base, new Set(rows.map((r) => r.slug)));
}

/** Recomputes the search column from the product and its variants' SKUs. */
export async function refreshSearchText(ctx: TxCtx, productId: string) {
  const { db: tx, shopId } = ctx;
  await tx.execute(sql`
    UPDATE products p SET search_text = lower(f_unaccent(
      p.name || ' ' || coalesce(p.sku, '') || ' ' || p.slug || ' ' ||
      coalesce((SELECT string_agg(v.sku, ' ' ORDER BY v.position) FROM product_variants v
                WHERE v.shop_id = p.shop_id AND v.product_id = p.id AND v.sku IS NOT NULL), '')))
    WHERE p.id = ${productId} AND p.shop_id = ${shopId}`);
}

const variantValues = (shopId: string, productId: string, v: VariantPlan, now: Date) => ({
  id: v.id,
  shopId,
  productId,
  sku: v.sku,
  title: v.title,
  optionValues: v.optionValues,
  priceCents: v.priceCents,
  costPriceCents: v.costPriceCents,
  stockQuantity: v.stockQuantity,
  trackStock: v.trackStock,
  isDefault: v.isDefault,
  position: v.position,
  createdAt: now,
  updatedAt: now,
});

const imageValues = (shopId: string, productId: string, i: ImagePlan, now: Date) => ({
  id: i.id,
  shopId,
  productId,
  url: i.url,
  alt: i.alt,
  position: i.position,
  variantId: i.variantId,
  createdAt: now,
  updatedAt: now,
});

/** Writes the new variant and image lists and the product's SKU register entries. */
export async function applyChildren(
  ctx: TxCtx,
  productId: string,
  variants: VariantPlan[] | null,
  images: ImagePlan[] | null,
  skus: SkuUse[],
  now: Date,
) {
  const { db: tx, shopId } = ctx;
  await tx.delete(catalogSkus).where(and(eq(catalogSkus.shopId, shopId), eq(catalogSkus.productId, productId)));
  if (variants) {
    const keep = variants.filter((v) => v.existing).map((v) => v.id);
    // Images linked to a variant that goes lose the link, in this transaction: the foreign key has
    // no ON DELETE SET NULL (Citus refuses it on a key with shop_id, docs/decisions.md)
    await tx
      .update(productImages)
      .set({ variantId: null })
      .where(
        and(
          eq(productImages.shopId, shopId),
          eq(productImages.productId, productId),
          isNotNull(productImages.variantId),
          ...(keep.length > 0 ? [notInArray(productImages.variantId, keep)] : []),
        ),
      );
    await tx
      .delete(productVariants)
      .where(
        and(
          eq(productVariants.shopId, shopId),
          eq(productVariants.productId, productId),
          ...(keep.length > 0 ? [notInArray(productVariants.id, keep)] : []),
        ),
      );
    for (const v of variants.filter((x) => x.existing)) {
      const {
        id: _id,
        shopId: _s,
        productId: _p,
        createdAt: _c,
        ...changes
      } = variantValues(shopId, productId, v, now);
      await tx
        .update(productVariants)
        .set(changes)
        .where(and(eq(productVariants.id, v.id), eq(productVariants.shopId, shopId)));
    }
    const fresh = variants.filter((v) => !v.existing);
    if (fresh.length > 0)
      await tx.insert(productVariants).values(fresh.map((v) => variantValues(shopId, productId, v, now)));
  }
  if (images) {
    const keep = images.filter((i) => i.existing).map((i) => i.id);
    await tx
      .delete(productImages)
      .where(
        and(
          eq(productImages.shopId, shopId),
          eq(productImages.productId, productId),
          ...(keep.length > 0 ? [notInArray(productImages.id, keep)] : []),
        ),
      );
    for (const i of images.filter((x) => x.existing)) {
      await tx
        .update(productImages)
        .set({ url: i.url, alt: i.alt, position: i.position, variantId: i.variantId, updatedAt: now })
        .where(and(eq(productImages.id, i.id), eq(productImages.shopId, shopId)));
    }
    const fresh = images.filter((i) => !i.existing);
    if (fresh.length > 0)
      await tx.insert(productImages).values(fresh.map((i) => imageValues(shopId, productId, i, now)));
  }
  if (skus.length > 0) {
    // Sorted, so two writes contending for several SKUs lock them in one order (no deadlock).
    const sorted = [...skus].sort((a, b) => (a.sku < b.sku ? -1 : a.sku > b.sku ? 1 : 0));
    await tx.insert(catalogSkus).values(sorted.map((u) => ({ shopId, sku: u.sku, productId, variantId: u.variantId })));
  }
}
