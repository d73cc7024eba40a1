/**
 * Creating, changing and soft-deleting products. Slugs are unique per shop among live products
 * (a partial unique index); SKUs are unique per shop across products and variants through the
 * `catalog_skus` register, so concurrent writes cannot both take one SKU.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { lockOwned } from '../../platform/db/lock.js';
import { type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError, type FieldError, notFound } from '../../platform/errors.js';
import { callPort } from '../../platform/hooks.js';
import { newId } from '../../platform/ids.js';
import type { ProductCreateInput, ProductOut, ProductPatchInput } from './catalog.schemas.js';
import { catalogSkus, type ProductOption, products } from './catalog.tables.js';
import { slugify, throwIfInvalid, uniqueConstraintOf } from './catalog.util.js';
import {
  boundByPolicy,
  enforcePolicy,
  getWritePolicy,
  loadWindowStarts,
  type PriceChange,
  recordPriceChanges,
} from './policy.service.js';
import {
  checkOptions,
  checkVariantOptions,
  collectSkus,
  planImages,
  planVariants,
  settleDefault,
  type VariantPlan,
} from './products.plan.js';
import { loadChildren, loadProduct, type ProductRow, type VariantRow } from './products.read.js';
import {
  applyChildren,
  checkSkusFree,
  generateSlug,
  lockReferences,
  refreshSearchText,
  SLUG_ATTEMPTS,
  SLUG_INDEX,
  slugInUse,
  slugTaken,
  translateConflict,
} from './products.repo.js';

/** `vendor_id` must name a vendor of the shop (any status): 400 unknown_vendor otherwise. */
async function checkVendor(ctx: TxCtx, vendorId: string | null | undefined): Promise<void> {
  if (!vendorId) return;
  if (!(await callPort('vendorExists')(ctx, vendorId))) {
    throw new AppError('unknown_vendor', 'vendor_id is not a vendor of this shop', [
      { path: '/body/vendor_id', message: 'is not a vendor of this shop' },
    ]);
  }
}

/** Prices a new product sets (for the token write policy). */
function pricesOnCreate(input: ProductCreateInput): PriceChange[] {
  const prices: PriceChange[] = [];
  if (input.base_price_cents !== undefined && input.base_price_cents !== 0) {
    prices.push({ path: '/body/base_price_cents', after: input.base_price_cents });
  }
  if (input.cost_price_cents != null) prices.push({ path: '/body/cost_price_cents', after: input.cost_price_cents });
  input.variants?.forEach((v, i) => {
    if (v.price_cents != null) prices.push({ path: `/body/variants/${i}/price_cents`, after: v.price_cents });
    if (v.cost_price_cents != null) {
      prices.push({ path: `/body/variants/${i}/cost_price_cents`, after: v.cost_price_cents });
    }
  });
  return prices;
}

/** Creates a product with its variants and images; returns it as the API shows it. */
export async function createProduct(ctx: Ctx, input: ProductCreateInput): Promise<ProductOut> {
  const errors: FieldError[] = [];
  const options: ProductOption[] = input.options ?? [];
  checkOptions(options, errors);
  const isDigital = input.is_digital ?? false;
  const trackStock = input.track_stock ?? !isDigital;
  const variants = planVariants(input.variants, [], trackStock, errors);
  settleDefault(variants);
  checkVariantOptions(variants, options, errors);
  const images = planImages(input.images, [], variants, input.variants !== undefined, errors);
  throwIfInvalid(errors);
  const skus = collectSkus(input.sku ?? null, variants);

  if (boundByPolicy(ctx)) {
    const status = input.status !== undefined && input.status !== 'draft' ? '/body/status' : null;
    enforcePolicy(await getWritePolicy(ctx), status, pricesOnCreate(input));
  }

  const generated = input.slug === undefined;
  const base = input.slug ?? slugify(input.name);
  for (let attempt = 1; ; attempt++) {
    let slug = base;
    try {
      return await withTx(ctx, async (t) => {
        const tx = t.db;
        await lockReferences(t, input);
        await checkVendor(t, input.vendor_id);
        await checkSkusFree(t, skus, null);
        if (generated) slug = await generateSlug(t, base);
        else if (await slugInUse(t, slug, null)) throw slugTaken(slug);
        const id = newId('product');
        const now = ctx.clock.now();
        await tx.insert(products).values({
          id,
          shopId: ctx.shopId,
          name: input.name.trim(),
          slug,
          sku: input.sku ?? null,
          status: input.status ?? 'draft',
          type: input.type ?? 'STANDARD',
          taxClass: input.tax_class ?? 'standard',
          basePriceCents: input.base_price_cents ?? 0,
          costPriceCents: input.cost_price_cents ?? null,
          categoryId: input.category_id ?? null,
          brandId: input.brand_id ?? null,
          supplierId: input.supplier_id ?? null,
          vendorId: input.vendor_id ?? null,
          isDigital,
          trackStock,
          stockQuantity: input.stock_quantity ?? 0,
          description: input.description ?? null,
          shortDescription: input.short_description ?? null,
          options,
          createdAt: now,
          updatedAt: now,
        });
        await applyChildren(t, id, variants, images, skus, now);
        await refreshSearchText(t, id);
        return loadProduct(t, id);
      });
    } catch (err) {
      // Another write took the generated slug between our check and insert: pick the next one.
      if (generated && uniqueConstraintOf(err) === SLUG_INDEX && attempt < SLUG_ATTEMPTS) continue;
      translateConflict(err, slug);
    }
  }
}

const sameOptions = (a: Record<string, string>, b: Record<string, string>) => {
  const ka = Object.keys(a);
  return ka.length > 0 && ka.length === Object.keys(b).length && ka.every((k) => b[k] === a[k]);
};

/**
 * The dropped variant a new one replaces: the one with its SKU, else the one with its option
 * values. A new variant that replaces none is measured against the product's base (cost) price.
 */
function replacedVariant(v: VariantPlan, dropped: VariantRow[]): VariantRow | undefined {
  return (
    (v.sku !== null ? dropped.find((d) => d.sku === v.sku) : undefined) ??
    dropped.find((d) => sameOptions(d.optionValues, v.optionValues))
  );
}

/** Prices a PATCH changes, each with its previous value (for the token write policy). */
function pricesOnPatch(
  current: ProductRow,
  input: ProductPatchInput,
  variants: VariantPlan[],
  currentVariants: VariantRow[],
  nextBase: number,
): PriceChange[] {
  const prices: PriceChange[] = [];
  if (input.base_price_cents !== undefined && input.base_price_cents !== current.basePriceCents) {
    prices.push({
      path: '/body/base_price_cents',
      key: 'base',
      before: current.basePriceCents,
      after: input.base_price_cents,
    });
  }
  if (input.cost_price_cents !== undefined && input.cost_price_cents !== current.costPriceCents) {
    prices.push({
      path: '/body/cost_price_cents',
      key: 'cost',
      before: current.costPriceCents,
      after: input.cost_price_cents,
    });
  }
  if (input.variants === undefined) return prices;
  const kept = new Set(variants.map((v) => v.existing?.id).filter(Boolean));
  const dropped = currentVariants.filter((d) => !kept.has(d.id));
  for (const v of variants) {
    const path = `/body/variants/${v.index}`;
    const old = v.existing;
    if (!old) {
      // A new variant is measured against the price it replaces, or the product's price.
      const replaced = replacedVariant(v, dropped);
      if (v.priceCents !== null) {
        prices.push({
          path: `${path}/price_cents`,
          key: `variant:${v.id}:price`,
          refKey: replaced ? `variant:${replaced.id}:price` : 'base',
          before: replaced ? (replaced.priceCents ?? current.basePriceCents) : current.basePriceCents,
          after: v.priceCents,
        });
      }
      if (v.costPriceCents !== null) {
        prices.push({
          path: `${path}/cost_price_cents`,
          key: `variant:${v.id}:cost`,
          refKey: replaced ? `variant:${replaced.id}:cost` : 'cost',
          before: replaced ? replaced.costPriceCents : current.costPriceCents,
          after: v.costPriceCents,
        });
      }
      continue;
    }
    if (v.priceCents !== old.priceCents) {
      // A variant without its own price sells at the base price: compare what customers pay.
      prices.push({
        path: `${path}/price_cents`,
        key: `variant:${old.id}:price`,
        before: old.priceCents ?? current.basePriceCents,
        after: v.priceCents ?? nextBase,
      });
    }
    if (v.costPriceCents !== old.costPriceCents) {
      prices.push({
        path: `${path}/cost_price_cents`,
        key: `variant:${old.id}:cost`,
        before: old.costPriceCents,
        after: v.costPriceCents,
      });
    }
  }
  return prices;
}

/** Applies a partial change to a live product; see products.plan.ts for the list semantics. */
export async function updateProduct(ctx: Ctx, id: string, input: ProductPatchInput): Promise<ProductOut> {
  // The policy binds tokens only, but its window also sets how far back every write's recorded
  // price history starts (catalog_price_changes).
  const policy = await getWritePolicy(ctx);
  const bound = boundByPolicy(ctx);
  let slug = input.slug ?? '';
  try {
    return await withTx(ctx, async (t) => {
      const tx = t.db;
      const current = await lockOwned(tx, products, ctx.shopId, id, 'Product', isNull(products.deletedAt));
      const children = await loadChildren(t, [id]);
      const currentVariants = children.variants.get(id) ?? [];
      const currentImages = children.images.get(id) ?? [];

      const errors: FieldError[] = [];
      const options = input.options ?? current.options;
      checkOptions(options, errors);
      const trackStock = input.track_stock ?? current.trackStock;
      const variants = planVariants(input.variants, currentVariants, trackStock, errors);
      settleDefault(variants);
      if (input.options !== undefined || input.variants !== undefined) checkVariantOptions(variants, options, errors);
      const images =
        input.images !== undefined || input.variants !== undefined
          ? planImages(input.images, currentImages, variants, input.variants !== undefined, errors)
          : null;
      throwIfInvalid(errors);
      const sku = input.sku !== undefined ? input.sku : current.sku;
      const skus = collectSkus(sku, variants);

      const nextBase = input.base_price_cents ?? current.basePriceCents;
      const prices = pricesOnPatch(current, input, variants, currentVariants, nextBase);
      if (prices.length > 0) await loadWindowStarts(t, id, policy.price_change_window_hours, prices);
      if (bound) {
        const status = input.status !== undefined && input.status !== current.status ? '/body/status' : null;
        const vendorTax: string[] = [];
        if (input.vendor_id !== undefined && input.vendor_id !== current.vendorId) vendorTax.push('/body/vendor_id');
        if (input.tax_class !== undefined && input.tax_class !== current.taxClass) vendorTax.push('/body/tax_class');
        enforcePolicy(policy, status, prices, vendorTax);
      }

      await lockReferences(t, {
        category_id: input.category_id !== current.categoryId ? input.category_id : undefined,
        brand_id: input.brand_id !== current.brandId ? input.brand_id : undefined,
        supplier_id: input.supplier_id !== current.supplierId ? input.supplier_id : undefined,
      });
      if (input.vendor_id !== current.vendorId) await checkVendor(t, input.vendor_id);
      await checkSkusFree(t, skus, id);
      if (input.slug !== undefined && input.slug !== current.slug) {
        if (await slugInUse(t, input.slug, id)) throw slugTaken(input.slug);
      }
      slug = input.slug ?? current.slug;

      const now = ctx.clock.now();
      await tx
        .update(products)
        .set({
          ...(input.name !== undefined ? { name: input.name.trim() } : {}),
          ...(input.slug !== undefined ? { slug: input.slug } : {}),
          ...(input.sku !== undefined ? { sku: input.sku } : {}),
          ...(input.status !== undefined ? { status: input.status } : {}),
          ...(input.type !== undefined ? { type: input.type } : {}),
          ...(input.tax_class !== undefined ? { taxClass: input.tax_class } : {}),
          ...(input.base_price_cents !== undefined ? { basePriceCents: input.base_price_cents } : {}),
          ...(input.cost_price_cents !== undefined ? { costPriceCents: input.cost_price_cents } : {}),
          ...(input.category_id !== undefined ? { categoryId: input.category_id } : {}),
          ...(input.brand_id !== undefined ? { brandId: input.brand_id } : {}),
          ...(input.supplier_id !== undefined ? { supplierId: input.supplier_id } : {}),
          ...(input.vendor_id !== undefined ? { vendorId: input.vendor_id } : {}),
          ...(input.is_digital !== undefined ? { isDigital: input.is_digital } : {}),
          ...(input.track_stock !== undefined ? { trackStock: input.track_stock } : {}),
          ...(input.stock_quantity !== undefined ? { stockQuantity: input.stock_quantity } : {}),
          ...(input.description !== undefined ? { description: input.description } : {}),
          ...(input.short_description !== undefined ? { shortDescription: input.short_description } : {}),
          ...(input.options !== undefined ? { options: input.options } : {}),
          updatedAt: now,
        })
        .where(and(eq(products.id, id), eq(products.shopId, ctx.shopId)));
      await applyChildren(t, id, input.variants !== undefined ? variants : null, images, skus, now);
      await recordPriceChanges(t, id, prices);
      await refreshSearchText(t, id);
      return loadProduct(t, id);
    });
  } catch (err) {
    translateConflict(err, slug);
  }
}

/** Soft delete: the product vanishes from every read; its slug and SKUs become free. */
export async function deleteProduct(ctx: Ctx, id: string): Promise<void> {
  await withTx(ctx.db, async (tx) => {
    const now = ctx.clock.now();
    const rows = await tx
      .update(products)
      .set({ deletedAt: now, updatedAt: now })
      .where(and(eq(products.id, id), eq(products.shopId, ctx.shopId), isNull(products.deletedAt)))
      .returning({ id: products.id });
    if (rows.length === 0) throw notFound('Product');
    await tx.delete(catalogSkus).where(and(eq(catalogSkus.shopId, ctx.shopId), eq(catalogSkus.productId, id)));
  });
}
