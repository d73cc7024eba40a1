/** Fixed lists the channels area validates against: currencies and payment method codes. */

/**
 * Currencies a channel may use: ISO 4217 codes with two minor digits (amounts are integer cents,
 * so zero- and three-decimal currencies such as JPY or KWD are not offered).
 */
export const SUPPORTED_CURRENCIES = [
  'EUR',
  'USD',
  'GBP',
  'CHF',
  'SEK',
  'DKK',
  'NOK',
  'PLN',
  'CZK',
  'HUF',
  'RON',
  'CAD',
  'AUD',
  'NZD',
  'SGD',
  'HKD',
  'MXN',
  'BRL',
  'ZAR',
  'AED',
  'ILS',
  'TRY',
  'INR',
  'CNY',
  'RSD',
  'BAM',
  'MKD',
  'ALL',
  'MDL',
  'GEL',
  'UAH',
] as const;

export const PAYMENT_METHOD_CODES = [
  'card',
  'apple_pay',
  'google_pay',
  'paypal',
  'sepa_debit',
  'klarna',
  'sofort',
  'giropay',
  'ideal',
  'bancontact',
  'eps',
  'przelewy24',
  'twint',
  'invoice',
  'bank_transfer',
] as const;

/** The shop-wide selection when a shop has configured none. */
export const DEFAULT_PAYMENT_METHODS = ['card'];

export const ALLOCATION_STRATEGIES = ['priority', 'nearest', 'manual'] as const;
export type AllocationStrategy = (typeof ALLOCATION_STRATEGIES)[number];
