/** The fixed lists the channel forms offer, typed by the API's schema (a code it does not take does not compile). */
import type { operations } from '../../../../clients/typescript/schema.js';

type ChannelCreate = NonNullable<operations['createChannel']['requestBody']>['content']['application/json'];
type PaymentMethodsBody = NonNullable<
  operations['setChannelPaymentMethods']['requestBody']
>['content']['application/json'];

export type Currency = ChannelCreate['currency'];
export type Allocation = NonNullable<ChannelCreate['allocation_strategy']>;
export type MethodCode = PaymentMethodsBody['method_codes'][number];
export type Channel = operations['getChannel']['responses'][200]['content']['application/json'];

export const CURRENCIES = [
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
] as const satisfies readonly Currency[];

export const ALLOCATIONS = ['priority', 'nearest', 'manual'] as const satisfies readonly Allocation[];

export const METHOD_CODES = [
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
] as const satisfies readonly MethodCode[];

/**
 * Each list is the API's whole enum, not only a subset of it: the schema's values come as types
 * only (clients/typescript), so a value the server gains or drops fails this check at compile time
 * instead of silently missing from the form.
 */
type Exactly<List extends readonly string[], Enum extends string> = [Exclude<Enum, List[number]>] extends [never]
  ? true
  : false;
const complete: [
  Exactly<typeof CURRENCIES, Currency>,
  Exactly<typeof ALLOCATIONS, Allocation>,
  Exactly<typeof METHOD_CODES, MethodCode>,
] = [true, true, true];
void complete;

/** Percent as typed (19 or 19,5) → the fraction the API stores (0.19); '' → null; not a number → undefined. */
export function percentToFraction(text: string): number | null | undefined {
  const trimmed = text.trim().replace(',', '.');
  if (trimmed === '') return null;
  const value = Number(trimmed);
  if (!Number.isFinite(value)) return undefined;
  return Number((value / 100).toFixed(6));
}

/** A stored fraction as the number shown in a percent field (0.19 → "19"). */
export function fractionToPercent(fraction: number | null): string {
  return fraction === null ? '' : String(Number((fraction * 100).toFixed(4)));
}
