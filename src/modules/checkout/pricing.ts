/**
 * Prices a cart in a channel: prices and currency come from the channel (listing, variant,
 * product fallback), never from the client; tax per line from the destination country's rate
 * for the product's tax class, with the channel's country overrides (DESIGN §5).
 */
import type { Ctx } from '../../platform/auth/types.js';
import { AppError, type FieldError } from '../../platform/errors.js';
import { taxFromGross } from '../../platform/money.js';
import { storefrontVersionOf, VersionedMemo } from '../../platform/versioned-memo.js';
import { channelPrices } from '../catalog/index.js';
import { channelCountry, type EffectiveCountry } from '../channels/index.js';
import type { PricedLine } from './checkout.tables.js';

export interface CartItem {
  product_id: string;
  variant_id?: string;
  quantity: number;
}

/** The rate of a tax class in a country; a class without its own rate falls back to the standard rate. */
export function rateFor(country: EffectiveCountry, taxClass: string): number {
  const standard = country.tax_rate ?? 0;
  if (taxClass === 'food') return country.food_tax_rate ?? standard;
  if (taxClass === 'books') return country.books_tax_rate ?? standard;
  return standard;
}

/** Looks up the channel's view of a country, refusing one the channel does not sell to. */
/** Effective countries per (shop, channel, code) and storefront version (country writes bump it). */
const countries = new VersionedMemo<EffectiveCountry | null>();

export async function destination(
  ctx: Pick<Ctx, 'db' | 'shopId'> & { actor?: Ctx['actor'] },
  channelId: string,
  code: string,
  path: string,
) {
  const country = await countries.through(
    `${ctx.shopId}\u0000${channelId}\u0000${code}`,
    storefrontVersionOf(ctx.actor),
    () => channelCountry(ctx, channelId, code),
  );
  if (!country) {
    throw new AppError('country_not_served', 400, `This shop does not deliver to ${code} in this channel`, [
      { path, message: 'is not served by this channel' },
    ]);
  }
  return country;
}

/** Prices the items; refuses items that are not sold in the channel. Tax is added by `applyTax`. */
export async function priceItems(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  channelId: string,
  items: CartItem[],
): Promise<Omit<PricedLine, 'tax_rate' | 'tax_cents' | 'net_cents'>[]> {
  const prices = await channelPrices(
    ctx.db,
    ctx.shopId,
    channelId,
    items.map((i) => ({ product_id: i.product_id, ...(i.variant_id ? { variant_id: i.variant_id } : {}) })),
  );
  const errors: FieldError[] = [];
  const lines = items.map((item, i) => {
    const p = prices[i];
    if (!p || !p.visible) {
      errors.push({ path: `/body/items/${i}/product_id`, message: 'is not available in this channel' });
      return null;
    }
    if (item.variant_id && p.variant_id !== item.variant_id) {
      errors.push({ path: `/body/items/${i}/variant_id`, message: 'is not a variant of this product' });
      return null;
    }
    const unit = p.unit_price_cents;
    return {
      product_id: p.product_id,
      variant_id: p.variant_id,
      name: p.name,
      sku: p.sku,
      quantity: item.quantity,
      unit_price_cents: unit,
      line_total_cents: unit * item.quantity,
      tax_class: p.tax_class,
      is_digital: p.is_digital,
      track_stock: p.track_stock,
      vendor_id: p.vendor_id,
    };
  });
  if (errors.length > 0)
    throw new AppError('product_unavailable', 400, 'Some items cannot be bought in this channel', errors);
  return lines as Omit<PricedLine, 'tax_rate' | 'tax_cents' | 'net_cents'>[];
}

/** Adds tax per line for the destination country; totals are sums of rounded lines. */
export function applyTax(
  lines: Omit<PricedLine, 'tax_rate' | 'tax_cents' | 'net_cents'>[],
  country: EffectiveCountry,
): PricedLine[] {
  return lines.map((l) => {
    const rate = rateFor(country, l.tax_class);
    const tax = taxFromGross(l.line_total_cents, rate);
    return { ...l, tax_rate: rate, tax_cents: tax, net_cents: l.line_total_cents - tax };
  });
}

export interface Totals {
  subtotal_cents: number;
  shipping_cents: number;
  shipping_tax_cents: number;
  tax_cents: number;
  total_cents: number;
}

/** Shipping is taxed at the destination's standard rate. */
export function totals(lines: PricedLine[], shippingCents: number, country: EffectiveCountry): Totals {
  const subtotal = lines.reduce((s, l) => s + l.line_total_cents, 0);
  const shippingTax = taxFromGross(shippingCents, country.tax_rate ?? 0);
  const tax = lines.reduce((s, l) => s + l.tax_cents, 0) + shippingTax;
  return {
    subtotal_cents: subtotal,
    shipping_cents: shippingCents,
    shipping_tax_cents: shippingTax,
    tax_cents: tax,
    total_cents: subtotal + shippingCents,
  };
}
