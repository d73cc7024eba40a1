/**
 * Turns the options, variants and images of a product write into the complete new state, and
 * checks it: option values, one default variant, no duplicate SKUs, image links to variants.
 * Pure functions; the write services apply the plans.
 *
 * PATCH semantics (docs/catalog.md): a given `variants` (or `images`) list is the complete new
 * list. An entry with an id changes that variant (omitted fields keep their value), an entry
 * without an id creates one, and variants not listed are deleted. An absent list leaves them be.
 */
import { AppError, type FieldError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { ImageInput, VariantInput } from './catalog.schemas.js';
import type { ProductOption } from './catalog.tables.js';
import type { ImageRow, VariantRow } from './products.read.js';

export interface VariantPlan {
  id: string;
  existing?: VariantRow;
  sku: string | null;
  title: string;
  optionValues: Record<string, string>;
  priceCents: number | null;
  costPriceCents: number | null;
  stockQuantity: number;
  trackStock: boolean;
  isDefault: boolean;
  position: number;
  /** Index in the request's `variants` list, when it came from there. */
  index?: number;
}

export interface ImagePlan {
  id: string;
  existing?: ImageRow;
  url: string;
  alt: string | null;
  position: number;
  variantId: string | null;
}

/** Option names must be distinct (ignoring case). */
export function checkOptions(options: ProductOption[], errors: FieldError[]): void {
  const seen = new Set<string>();
  options.forEach((o, i) => {
    const key = o.name.trim().toLowerCase();
    if (seen.has(key)) errors.push({ path: `/body/options/${i}/name`, message: 'is listed twice' });
    seen.add(key);
  });
}

const defaultTitle = (values: Record<string, string>) => Object.values(values).join(' / ') || 'Default';

/** The complete variant list after a write; `entries` undefined keeps the current variants. */
export function planVariants(
  entries: VariantInput[] | undefined,
  current: VariantRow[],
  productTrackStock: boolean,
  errors: FieldError[],
): VariantPlan[] {
  if (entries === undefined) {
    return current.map((v) => ({
      id: v.id,
      existing: v,
      sku: v.sku,
      title: v.title,
      optionValues: v.optionValues,
      priceCents: v.priceCents,
      costPriceCents: v.costPriceCents,
      stockQuantity: v.stockQuantity,
      trackStock: v.trackStock,
      isDefault: v.isDefault,
      position: v.position,
    }));
  }
  const byId = new Map(current.map((v) => [v.id, v]));
  const listed = new Set<string>();
  const plans: VariantPlan[] = [];
  entries.forEach((e, i) => {
    let existing: VariantRow | undefined;
    if (e.id !== undefined) {
      existing = byId.get(e.id);
      if (!existing) errors.push({ path: `/body/variants/${i}/id`, message: 'is not a variant of this product' });
      else if (listed.has(e.id)) errors.push({ path: `/body/variants/${i}/id`, message: 'is listed twice' });
      listed.add(e.id);
    }
    const optionValues = e.option_values ?? existing?.optionValues ?? {};
    plans.push({
      id: existing?.id ?? newId('variant'),
      existing,
      sku: e.sku !== undefined ? e.sku : (existing?.sku ?? null),
      title: e.title ?? existing?.title ?? defaultTitle(optionValues),
      optionValues,
      priceCents: e.price_cents !== undefined ? e.price_cents : (existing?.priceCents ?? null),
      costPriceCents: e.cost_price_cents !== undefined ? e.cost_price_cents : (existing?.costPriceCents ?? null),
      stockQuantity: e.stock_quantity ?? existing?.stockQuantity ?? 0,
      trackStock: e.track_stock ?? existing?.trackStock ?? productTrackStock,
      isDefault: e.is_default ?? existing?.isDefault ?? false,
      position: i,
      index: i,
    });
  });
  const chosen = entries.flatMap((e, i) => (e.is_default === true ? [i] : []));
  if (chosen.length > 1) {
    errors.push({ path: `/body/variants/${chosen[1]}/is_default`, message: 'only one variant can be the default' });
  }
  if (chosen.length === 1) for (const p of plans) p.isDefault = p.index === chosen[0];
  return plans;
}

/** One default variant when there are variants: an explicit choice, else the current one, else the first. */
export function settleDefault(plans: VariantPlan[]): void {
  const defaults = plans.filter((p) => p.isDefault);
  if (defaults.length === 1 || plans.length === 0) return;
  for (const p of plans) p.isDefault = false;
  (defaults[0] ?? (plans[0] as VariantPlan)).isDefault = true;
}

/** Each variant's option values must name product options and one of their values; no two variants alike. */
export function checkVariantOptions(plans: VariantPlan[], options: ProductOption[], errors: FieldError[]): void {
  const byName = new Map(options.map((o) => [o.name, o]));
  const combos = new Map<string, number>();
  plans.forEach((p, i) => {
    const base = p.index !== undefined ? `/body/variants/${p.index}/option_values` : '/body/options';
    for (const [name, value] of Object.entries(p.optionValues)) {
      const option = byName.get(name);
      const where = p.index !== undefined ? '' : ` (variant ${p.id})`;
      if (!option) {
        errors.push({
          path: p.index !== undefined ? `${base}/${name}` : base,
          message: `${name} is not an option of the product${where}`,
        });
      } else if (!option.values.includes(value)) {
        errors.push({
          path: p.index !== undefined ? `${base}/${name}` : base,
          message: `${value} is not a value of option ${name}${where}`,
        });
      }
    }
    if (Object.keys(p.optionValues).length === 0) return;
    const key = JSON.stringify(Object.entries(p.optionValues).sort(([a], [b]) => (a < b ? -1 : 1)));
    const first = combos.get(key);
    if (first !== undefined) {
      errors.push({
        path: p.index !== undefined ? base : '/body/variants',
        message: `has the same option values as variant ${first}`,
      });
    } else combos.set(key, i);
  });
}

/** The complete image list after a write; `entries` undefined keeps the current images. */
export function planImages(
  entries: ImageInput[] | undefined,
  current: ImageRow[],
  variants: VariantPlan[],
  variantsGiven: boolean,
  errors: FieldError[],
): ImagePlan[] {
  const variantIds = new Set(variants.map((v) => v.id));
  const keepLink = (id: string | null) => (id !== null && variantIds.has(id) ? id : null);
  if (entries === undefined) {
    return current.map((i) => ({
      id: i.id,
      existing: i,
      url: i.url,
      alt: i.alt,
      position: i.position,
      variantId: keepLink(i.variantId),
    }));
  }
  const byId = new Map(current.map((i) => [i.id, i]));
  const listed = new Set<string>();
  return entries.map((e, n) => {
    const path = `/body/images/${n}`;
    let existing: ImageRow | undefined;
    if (e.id !== undefined) {
      existing = byId.get(e.id);
      if (!existing) errors.push({ path: `${path}/id`, message: 'is not an image of this product' });
      else if (listed.has(e.id)) errors.push({ path: `${path}/id`, message: 'is listed twice' });
      listed.add(e.id);
    } else if (e.url === undefined) {
      errors.push({ path: `${path}/url`, message: 'is required' });
    }
    let variantId = keepLink(existing?.variantId ?? null);
    if (e.variant_id !== undefined && e.variant_index !== undefined) {
      errors.push({ path: `${path}/variant_index`, message: 'give either variant_id or variant_index' });
    } else if (e.variant_id !== undefined) {
      if (e.variant_id !== null && !variantIds.has(e.variant_id)) {
        errors.push({ path: `${path}/variant_id`, message: 'is not a variant of this product' });
      }
      variantId = e.variant_id;
    } else if (e.variant_index !== undefined) {
      const target = variantsGiven ? variants.find((v) => v.index === e.variant_index) : undefined;
      if (!target) {
        errors.push({ path: `${path}/variant_index`, message: 'points to no entry of variants in this request' });
      }
      variantId = target?.id ?? null;
    }
    return {
      id: existing?.id ?? newId('image'),
      existing,
      url: e.url ?? existing?.url ?? '',
      alt: e.alt !== undefined ? e.alt : (existing?.alt ?? null),
      position: e.position ?? n,
      variantId,
    };
  });
}

export interface SkuUse {
  sku: string;
  path: string;
  variantId: string | null;
}

/** Every SKU the product will hold; the same SKU twice in one product is a conflict too. */
export function collectSkus(productSku: string | null, variants: VariantPlan[]): SkuUse[] {
  const uses: SkuUse[] = [];
  if (productSku) uses.push({ sku: productSku, path: '/body/sku', variantId: null });
  for (const v of variants) {
    if (v.sku) {
      uses.push({
        sku: v.sku,
        path: v.index !== undefined ? `/body/variants/${v.index}/sku` : '/body/variants',
        variantId: v.id,
      });
    }
  }
  const seen = new Map<string, string>();
  for (const u of uses) {
    const first = seen.get(u.sku);
    if (first !== undefined) {
      throw new AppError('sku_taken', `SKU ${u.sku} is used twice in this product (${first} and ${u.path})`, [
        { path: u.path, message: `duplicates ${first}` },
      ]);
    }
    seen.set(u.sku, u.path);
  }
  return uses;
}
