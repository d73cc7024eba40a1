/**
 * Tax: which tax applies (tax.ts, one pure function for checkout, subscriptions, orders, invoices
 * and credit notes) and the tax fields of priced documents. No routes, no tables: a module so
 * that checkout, orders, finance and digital share it without depending on each other.
 */
export {
  type CountryRates,
  chargedPrice,
  classRate,
  determineTax,
  EXEMPTION_CODE,
  EXEMPTION_TEXT,
  exemptionText,
  netOfGross,
  SELLER_COUNTRY,
  type TaxCategory,
  type TaxDecision,
  type TaxItem,
  type TaxSituation,
  VAT_ID_STATUSES,
  type VatIdStatus,
} from './tax.js';
export { lineTaxFields, pricingTaxFields, pricingTaxOut } from './tax.schemas.js';
