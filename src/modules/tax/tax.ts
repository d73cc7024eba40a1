/**
 * Which tax applies (docs/finance.md, "Which tax applies"): one pure function for checkout,
 * subscriptions, orders, invoices and credit notes. The seller is established in Germany; prices
 * are gross at the German rate of the tax class.
 *
 * | Buyer and destination                          | Rate                                   | Category |
 * | any buyer, Germany                             | German rate of the tax class           | S        |
 * | consumer in another EU state                   | that state's rate (OSS), else German   | S        |
 * | business (valid VAT ID), other EU state, goods | 0                                      | K        |
 * | business (valid VAT ID), other EU, digital     | 0                                      | AE       |
 * | outside the EU, physical goods                 | 0                                      | G        |
 * | outside the EU, digital goods and services     | 0                                      | O        |
 *
 * An S row whose rate is 0 (a state's zero rate, e.g. books in CZ) is category Z (zero rated).
 * Channel country overrides replace a state's rate in the S rows (the caller passes the channel's
 * effective rates). In a 0 % row the buyer pays the net price: round-half-up(gross / (1 + German rate)).
 */
/** Rates are stored with five decimals (as in platform/money). */
const RATE_SCALE = 100_000;

/** EN 16931 VAT categories (BT-151); Z is an S row whose rate is 0 (e.g. books in CZ). */
export type TaxCategory = 'S' | 'Z' | 'K' | 'AE' | 'G' | 'O';

/**
 * The buyer's VAT ID check, as a session, an order and an abo keep it (their `vat_id_status`
 * columns): valid | invalid (VIES said so) | unverified (VIES unreachable, accepted) | unchecked
 * (VIES unreachable, VAT charged). Here, below orders and checkout, so that their table files
 * can type the column; checkout/vat-id.ts (the check) re-exports it.
 */
export const VAT_ID_STATUSES = ['valid', 'invalid', 'unverified', 'unchecked'] as const;
export type VatIdStatus = (typeof VAT_ID_STATUSES)[number];
type ExemptCategory = Exclude<TaxCategory, 'S' | 'Z'>;

/** Rates of a country as the channel sees them (fractions; null = no rate of its own). */
export interface CountryRates {
  tax_rate: number | null;
  food_tax_rate: number | null;
  books_tax_rate: number | null;
}

export interface TaxSituation {
  /** The destination: ship-to country for goods, billing country otherwise. */
  destination: CountryRates & { code: string; is_eu: boolean };
  /** Germany's rates (the seller's), with the channel's overrides. */
  german: CountryRates;
  /** Shop setting `oss_registered` (default true). */
  ossRegistered: boolean;
  /** The buyer's billing address carries a VAT ID that was found valid (or accepted unverified). */
  business: boolean;
}

export interface TaxItem {
  tax_class: string;
  is_digital: boolean;
}

export interface TaxDecision {
  tax_rate: number;
  tax_category: TaxCategory;
  /** The text the invoice must carry (BT-120), null in the S rows. */
  tax_exemption_reason: string | null;
  /** The German rate the gross price includes; a 0 % row charges the price net of it. */
  price_rate: number;
}

/** Exemption texts (BT-120) per 0 % category, as docs/finance.md words them. */
export const EXEMPTION_TEXT: Record<ExemptCategory, string> = {
  K: 'Steuerfreie innergemeinschaftliche Lieferung (§ 4 Nr. 1b UStG)',
  AE: 'Steuerschuldnerschaft des Leistungsempfängers (Reverse Charge)',
  G: 'Steuerfreie Ausfuhrlieferung (§ 4 Nr. 1a UStG)',
  O: 'Nicht im Inland steuerbare Leistung',
};

/** EN 16931 exemption reason codes (BT-121, CEF VATEX list) per 0 % category. */
export const EXEMPTION_CODE: Record<ExemptCategory, string> = {
  K: 'VATEX-EU-IC',
  AE: 'VATEX-EU-AE',
  G: 'VATEX-EU-G',
  O: 'VATEX-EU-O',
};

export const SELLER_COUNTRY = 'DE';

/** The rate of a tax class in a country; a class without its own rate falls back to the standard rate. */
export function classRate(rates: CountryRates, taxClass: string): number {
  const standard = rates.tax_rate ?? 0;
  if (taxClass === 'food') return rates.food_tax_rate ?? standard;
  if (taxClass === 'books') return rates.books_tax_rate ?? standard;
  return standard;
}

/** The row of the table that applies to one item (or the shipping, as a physical standard-rate item). */
export function determineTax(s: TaxSituation, item: TaxItem): TaxDecision {
  const germanRate = classRate(s.german, item.tax_class);
  const zero = (category: ExemptCategory): TaxDecision => ({
    tax_rate: 0,
    tax_category: category,
    tax_exemption_reason: EXEMPTION_TEXT[category],
    price_rate: germanRate,
  });
  const standard = (rate: number): TaxDecision => ({
    tax_rate: rate,
    tax_category: rate > 0 ? 'S' : 'Z',
    tax_exemption_reason: null,
    price_rate: germanRate,
  });
  const d = s.destination;
  if (d.code === SELLER_COUNTRY) return standard(classRate(d, item.tax_class));
  if (d.is_eu) {
    if (s.business) return zero(item.is_digital ? 'AE' : 'K');
    return standard(s.ossRegistered ? classRate(d, item.tax_class) : germanRate);
  }
  return zero(item.is_digital ? 'O' : 'G');
}

/** round-half-up(gross / (1 + rate)) in integer arithmetic: the net a 0 % row charges. */
export function netOfGross(grossCents: number, rate: number): number {
  const r = Math.round(rate * RATE_SCALE);
  const num = grossCents * RATE_SCALE;
  const den = RATE_SCALE + r;
  const sign = num < 0 ? -1 : 1;
  return sign * Math.floor((2 * Math.abs(num) + den) / (2 * den));
}

/** The price the buyer pays for a gross list price under a decision: net in the 0 % rows. */
export function chargedPrice(grossCents: number, d: TaxDecision): number {
  return d.tax_category === 'S' || d.tax_category === 'Z' ? grossCents : netOfGross(grossCents, d.price_rate);
}

/** The exemption text of a category (null for S). */
export function exemptionText(category: TaxCategory | null | undefined): string | null {
  return category && category !== 'S' && category !== 'Z' ? EXEMPTION_TEXT[category] : null;
}
