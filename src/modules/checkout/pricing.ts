/**
 * Prices a cart in a channel: prices and currency come from the channel (listing, variant,
 * product fallback), never from the client; tax per line by the table "Which tax applies"
 * (docs/finance.md, `tax.ts`) from the destination, the buyer's VAT ID and the channel's country rates.
 */
import type { Ctx } from '../../platform/auth/types.js';
import { AppError, type FieldError } from '../../platform/errors.js';
import { taxFromGross } from '../../platform/money.js';
import { VersionedLru } from '../../platform/versioned-lru.js';
import { catalogVersionOf, VersionedMemo } from '../../platform/versioned-memo.js';
import { type ChannelPrice, channelPrices, type PriceRef } from '../catalog/index.js';
import { channelCountry, channelCountryRates, type EffectiveCountry } from '../channels/index.js';
import { loadSettings } from '../finance/index.js';
import {
  type CountryRates,
  chargedPrice,
  classRate,
  determineTax,
  SELLER_COUNTRY,
  type TaxDecision,
  type TaxSituation,
} from '../tax/index.js';
import type { PricedLine } from './checkout.tables.js';
import { checkVatIdFormat, type VatIdCheck, type ViesUnavailablePolicy, verifyVatId } from './vat-id.js';

export interface CartItem {
  product_id: string;
  variant_id?: string;
  quantity: number;
}

/** The rate of a tax class in a country; a class without its own rate falls back to the standard rate. */
export function rateFor(country: EffectiveCountry, taxClass: string): number {
  return classRate(country, taxClass);
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
    catalogVersionOf(ctx.actor),
    () => channelCountry(ctx, channelId, code),
  );
  if (!country) {
    throw new AppError('country_not_served', `This shop does not deliver to ${code} in this channel`, [
      { path, message: 'is not served by this channel' },
    ]);
  }
  return country;
}

/**
 * The channel's price rows per (shop, channel, product, variant asked) at the catalog version
 * the request read with its publishable key (docs/ARCHITECTURE.md "Caches"). Every write to what
 * `channelPrices` reads (products, variants, listings, channels) bumps that version in its own
 * transaction, so a row is never used after a change, in any process. The one write that does
 * not bump it, a stock count that stays on the same side of zero, is not used here: the
 * reserving statement takes the stock. Spares a checkout one of its four round trips.
 */
const priceRows = new VersionedLru<ChannelPrice | null>(() => 1, { maxTotal: 20_000, maxItem: 1 });

/** `channelPrices` through `priceRows`: only the refs not held at this version are read. */
async function pricesAt(
  ctx: Pick<Ctx, 'db' | 'shopId'> & { actor?: Ctx['actor'] },
  channelId: string,
  refs: PriceRef[],
): Promise<(ChannelPrice | null)[]> {
  const version = catalogVersionOf(ctx.actor);
  const keys = refs.map((r) => `${ctx.shopId}\u0000${channelId}\u0000${r.product_id}\u0000${r.variant_id ?? ''}`);
  const prices = keys.map((k) => priceRows.get(k, version));
  const missing = prices.flatMap((p, i) => (p === undefined ? [i] : []));
  if (missing.length > 0) {
    const read = await channelPrices(
      ctx,
      channelId,
      missing.map((i) => refs[i] as PriceRef),
    );
    missing.forEach((i, j) => {
      const row = read[j] ?? null;
      prices[i] = row;
      priceRows.set(keys[i] as string, version, row);
    });
  }
  return prices as (ChannelPrice | null)[];
}

/** Prices the items; refuses items that are not sold in the channel. Tax is added by `applyTax`. */
export async function priceItems(
  ctx: Pick<Ctx, 'db' | 'shopId'> & { actor?: Ctx['actor'] },
  channelId: string,
  items: CartItem[],
): Promise<Omit<PricedLine, 'tax_rate' | 'tax_cents' | 'net_cents'>[]> {
  const prices = await pricesAt(
    ctx,
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
    throw new AppError('product_unavailable', 'Some items cannot be bought in this channel', errors);
  return lines as Omit<PricedLine, 'tax_rate' | 'tax_cents' | 'net_cents'>[];
}

/** What decides the tax of a priced cart: the table's inputs and the buyer's VAT ID check. */
export interface TaxContext {
  situation: TaxSituation;
  vatId: VatIdCheck | null;
}

/**
 * The shop's tax settings per catalog version: writes to company_settings bump it (migration
 * 0019_issue20_settings_version), so a change is seen by the next checkout in every process.
 */
const taxSettings = new VersionedMemo<{ ossRegistered: boolean; viesUnavailable: ViesUnavailablePolicy }>();

const NO_RATES: CountryRates = { tax_rate: null, food_tax_rate: null, books_tax_rate: null };

/**
 * Loads the inputs of the tax table for a destination: the channel's rates there and in Germany,
 * the shop's `oss_registered` and VIES policy, and the buyer's VAT ID (format-checked always,
 * VIES-checked when it decides the tax: a destination in another EU state). `vatIdPath` names the
 * field in a 400 vat_id_invalid.
 */
export async function taxContext(
  ctx: Pick<Ctx, 'db' | 'shopId' | 'config' | 'clock' | 'log'> & { actor?: Ctx['actor'] },
  channelId: string,
  country: EffectiveCountry,
  billing: { country: string; vat_id?: string | null } | null | undefined,
  vatIdPath: string,
): Promise<TaxContext> {
  const [settings, german] = await Promise.all([
    taxSettings.through(ctx.shopId, catalogVersionOf(ctx.actor), async () => {
      const row = await loadSettings(ctx);
      return { ossRegistered: row.ossRegistered, viesUnavailable: row.viesUnavailable };
    }),
    country.code === SELLER_COUNTRY ? country : channelCountryRates(ctx, channelId, SELLER_COUNTRY),
  ]);
  let vatId: VatIdCheck | null = null;
  const raw = billing?.vat_id?.trim();
  if (raw) {
    const billingIsEu =
      billing?.country === country.code
        ? country.is_eu
        : ((await channelCountryRates(ctx, channelId, billing?.country ?? ''))?.is_eu ?? false);
    const normalized = checkVatIdFormat(raw, billingIsEu, vatIdPath);
    // a German VAT ID never exempts a German seller's supply (§ 4 Nr. 1b with § 6a (1) Nr. 4 UStG:
    // an ID of another member state; § 3a (2): a German ID names an establishment in Germany)
    if (country.is_eu && country.code !== SELLER_COUNTRY && billingIsEu && !normalized.startsWith(SELLER_COUNTRY)) {
      vatId = await verifyVatId(ctx, normalized, settings.viesUnavailable as ViesUnavailablePolicy);
    }
  }
  return {
    situation: {
      destination: country,
      german: german ?? NO_RATES,
      ossRegistered: settings.ossRegistered,
      business: vatId?.business ?? false,
    },
    vatId,
  };
}

/** A subscription's tax determination: the table's row and the VAT ID check that decided it. */
export interface AboTax {
  decision: TaxDecision;
  vatId: VatIdCheck | null;
}

/**
 * The table's row for a subscription (a digital item of `taxClass`) billed to `billing.country`,
 * the buyer's VAT ID checked exactly as in the one-time checkout (format always, VIES when it
 * decides the tax, the shop's `vies_unavailable` when VIES cannot answer). 400
 * `country_not_served` names `paths.country`, 400 `vat_id_invalid` names `paths.vatId`.
 */
export async function aboTax(
  ctx: Pick<Ctx, 'db' | 'shopId' | 'config' | 'clock' | 'log'> & { actor?: Ctx['actor'] },
  channelId: string,
  billing: { country: string; vat_id?: string | null },
  taxClass: string,
  paths: { country: string; vatId: string },
): Promise<AboTax> {
  const country = await destination(ctx, channelId, billing.country, paths.country);
  const tax = await taxContext(ctx, channelId, country, billing, paths.vatId);
  return { decision: determineTax(tax.situation, { tax_class: taxClass, is_digital: true }), vatId: tax.vatId };
}

/**
 * The table's row for a consumer buying a digital item of `taxClass` billed to `countryCode`
 * (subscriptions without a VAT ID); null for a country the shop does not know.
 */
export async function consumerDigitalTax(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  channelId: string,
  countryCode: string,
  taxClass: string,
): Promise<TaxDecision | null> {
  const [country, german, settings] = await Promise.all([
    channelCountryRates(ctx, channelId, countryCode),
    channelCountryRates(ctx, channelId, SELLER_COUNTRY),
    loadSettings(ctx),
  ]);
  if (!country) return null;
  return determineTax(
    { destination: country, german: german ?? NO_RATES, ossRegistered: settings.ossRegistered, business: false },
    { tax_class: taxClass, is_digital: true },
  );
}

/** The line as priced under its decision: a 0 % row charges the net of the German gross price. */
function taxedLine(l: Omit<PricedLine, 'tax_rate' | 'tax_cents' | 'net_cents'>, d: TaxDecision): PricedLine {
  const list = l.list_unit_price_cents ?? l.unit_price_cents;
  const unit = chargedPrice(list, d);
  const gross = unit * l.quantity;
  const tax = taxFromGross(gross, d.tax_rate);
  return {
    ...l,
    list_unit_price_cents: list,
    unit_price_cents: unit,
    line_total_cents: gross,
    tax_rate: d.tax_rate,
    tax_cents: tax,
    net_cents: gross - tax,
    tax_category: d.tax_category,
    tax_exemption_reason: d.tax_exemption_reason,
  };
}

/** Adds tax per line by the table (docs/finance.md); totals are sums of rounded lines. */
export function applyTax(
  lines: Omit<PricedLine, 'tax_rate' | 'tax_cents' | 'net_cents'>[],
  tax: TaxContext,
): PricedLine[] {
  return lines.map((l) => taxedLine(l, determineTax(tax.situation, l)));
}

export interface Totals {
  subtotal_cents: number;
  shipping_cents: number;
  shipping_tax_cents: number;
  shipping_tax_rate: number;
  shipping_tax_category: TaxDecision['tax_category'];
  tax_cents: number;
  total_cents: number;
}

/**
 * Shipping follows the goods it carries: a physical item of the standard class under the same
 * table row (destination's standard rate in S, 0 % with the goods' category otherwise, charged net).
 */
export function totals(lines: PricedLine[], shippingListCents: number, tax: TaxContext): Totals {
  const d = determineTax(tax.situation, { tax_class: 'standard', is_digital: false });
  const shippingCents = chargedPrice(shippingListCents, d);
  const subtotal = lines.reduce((s, l) => s + l.line_total_cents, 0);
  const shippingTax = taxFromGross(shippingCents, d.tax_rate);
  const taxCents = lines.reduce((s, l) => s + l.tax_cents, 0) + shippingTax;
  return {
    subtotal_cents: subtotal,
    shipping_cents: shippingCents,
    shipping_tax_cents: shippingTax,
    shipping_tax_rate: d.tax_rate,
    shipping_tax_category: d.tax_category,
    tax_cents: taxCents,
    total_cents: subtotal + shippingCents,
  };
}

/**
 * The tax part of pricing (docs/finance.md "Which tax applies"): the buyer's VAT ID (format, VIES),
 * the table row per line and for the shipping, and the totals as sums of rounded lines. Used by
 * session creation and by the hosted page when the billing country decides the tax.
 */
export async function taxCart(
  ctx: Parameters<typeof taxContext>[0],
  channelId: string,
  country: EffectiveCountry,
  billing: { country: string; vat_id?: string | null } | null | undefined,
  priced: Parameters<typeof applyTax>[0],
  shippingListCents: number,
  vatIdPath: string,
) {
  const tax = await taxContext(ctx, channelId, country, billing, vatIdPath);
  const lines = applyTax(priced, tax);
  return { lines, sums: totals(lines, shippingListCents, tax), tax };
}
