/**
 * The product form's state: what a person types (text for amounts, in euros), from a product
 * read and into the create/PATCH body. Variants and images are sent as the complete list (the
 * API's PATCH semantics: entries with an id are kept and changed, others created, the rest deleted).
 */
import type { operations } from '../../../../../clients/typescript/schema.js';
import { moneyInput, parseMoney } from '../shared.js';

export type Product = operations['getProduct']['responses'][200]['content']['application/json']['product'];
export type CreateBody = operations['createProduct']['requestBody']['content']['application/json'];
export type UpdateBody = NonNullable<operations['updateProduct']['requestBody']>['content']['application/json'];

export interface OptionDraft {
  key: string;
  name: string;
  values: string;
}
export interface VariantDraft {
  key: string;
  id?: string;
  title: string;
  sku: string;
  price: string;
  stock: string;
  option_values: Record<string, string>;
}
export interface ImageDraft {
  key: string;
  id?: string;
  url: string;
  alt: string;
}
export interface Draft {
  name: string;
  slug: string;
  sku: string;
  description: string;
  short_description: string;
  status: 'draft' | 'published' | 'archived';
  base_price: string;
  cost_price: string;
  tax_class: 'standard' | 'food' | 'books';
  is_digital: boolean;
  track_stock: boolean;
  stock_quantity: string;
  category_id: string;
  brand_id: string;
  supplier_id: string;
  options: OptionDraft[];
  variants: VariantDraft[];
  /** The key of the default variant */
  default_variant: string;
  images: ImageDraft[];
}

let seq = 0;
export const newKey = () => `k${++seq}`;

export function draftOf(p: Product | null, language: 'de' | 'en'): Draft {
  const variants: VariantDraft[] = (p?.variants ?? []).map((v) => ({
    key: newKey(),
    id: v.id,
    title: v.title,
    sku: v.sku ?? '',
    price: moneyInput(v.price_cents, language),
    stock: String(v.stock_quantity),
    option_values: { ...v.option_values },
  }));
  const defaultIndex = (p?.variants ?? []).findIndex((v) => v.is_default);
  return {
    name: p?.name ?? '',
    slug: p?.slug ?? '',
    sku: p?.sku ?? '',
    description: p?.description ?? '',
    short_description: p?.short_description ?? '',
    status: p?.status ?? 'draft',
    base_price: p ? moneyInput(p.base_price_cents, language) : '',
    cost_price: moneyInput(p?.cost_price_cents, language),
    tax_class: p?.tax_class ?? 'standard',
    is_digital: p?.is_digital ?? false,
    track_stock: p?.track_stock ?? true,
    stock_quantity: String(p?.stock_quantity ?? 0),
    category_id: p?.category_id ?? '',
    brand_id: p?.brand_id ?? '',
    supplier_id: p?.supplier_id ?? '',
    options: (p?.options ?? []).map((o) => ({ key: newKey(), name: o.name, values: o.values.join(', ') })),
    variants,
    default_variant: variants[defaultIndex]?.key ?? variants[0]?.key ?? '',
    images: (p?.images ?? []).map((i) => ({ key: newKey(), id: i.id, url: i.url, alt: i.alt ?? '' })),
  };
}

export interface Messages {
  money: string;
  wholeNumber: string;
}

/** The body, or the fields the page cannot turn into it (an amount that is no amount). */
export function bodyOf(
  d: Draft,
  m: Messages,
  original: Product | null,
): { body: CreateBody & UpdateBody; errors: null } | { body: null; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const money = (field: string, text: string, nullable: boolean): number | null | undefined => {
    const cents = parseMoney(text);
    if (cents === undefined || (cents === null && !nullable)) {
      if (cents === undefined || text.trim() !== '') errors[field] = m.money;
      return undefined;
    }
    return cents;
  };
  const whole = (field: string, text: string): number | undefined => {
    if (!/^\s*-?\d+\s*$/.test(text)) {
      errors[field] = m.wholeNumber;
      return undefined;
    }
    return Number(text);
  };
  const base = d.base_price.trim() === '' ? 0 : money('base_price_cents', d.base_price, false);
  const cost = money('cost_price_cents', d.cost_price, true);
  const stock = whole('stock_quantity', d.stock_quantity);
  const options = d.options
    .filter((o) => o.name.trim() !== '' || o.values.trim() !== '')
    .map((o) => ({
      name: o.name.trim(),
      values: o.values
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean),
    }));
  const optionNames = new Set(options.map((o) => o.name));
  const variants = d.variants.map((v, i) => {
    const price = money(`variants.${i}.price_cents`, v.price, true);
    const vStock = whole(`variants.${i}.stock_quantity`, v.stock);
    const option_values = Object.fromEntries(
      Object.entries(v.option_values).filter(([k, val]) => optionNames.has(k) && val !== ''),
    );
    return {
      ...(v.id ? { id: v.id } : {}),
      ...(v.title.trim() ? { title: v.title.trim() } : {}),
      sku: v.sku.trim() === '' ? null : v.sku,
      price_cents: price ?? null,
      stock_quantity: vStock ?? 0,
      option_values,
      ...(v.key === d.default_variant ? { is_default: true } : {}),
    };
  });
  if (Object.keys(errors).length) return { body: null, errors };
  const slugChanged = original ? d.slug.trim() !== original.slug : d.slug.trim() !== '';
  const body = {
    name: d.name,
    ...(slugChanged && d.slug.trim() !== '' ? { slug: d.slug.trim() } : {}),
    sku: d.sku.trim() === '' ? null : d.sku,
    description: d.description === '' ? null : d.description,
    short_description: d.short_description === '' ? null : d.short_description,
    status: d.status,
    base_price_cents: base ?? 0,
    cost_price_cents: cost ?? null,
    tax_class: d.tax_class,
    is_digital: d.is_digital,
    track_stock: d.track_stock,
    stock_quantity: stock ?? 0,
    category_id: d.category_id || null,
    brand_id: d.brand_id || null,
    supplier_id: d.supplier_id || null,
    options,
    variants,
    images: d.images
      .filter((i) => i.url.trim() !== '')
      .map((i, position) => ({
        ...(i.id ? { id: i.id } : {}),
        url: i.url.trim(),
        alt: i.alt.trim() === '' ? null : i.alt,
        position,
      })),
  };
  return { body: body as CreateBody & UpdateBody, errors: null };
}
