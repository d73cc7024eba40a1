/** Money, dates and numbers through Intl, in the locale of the chosen language. */
import { LOCALES, useLanguage } from './i18n/index.js';

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function numberFormat(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `n|${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key) as Intl.NumberFormat | undefined;
  if (!f) {
    f = new Intl.NumberFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `d|${locale}|${JSON.stringify(options)}`;
  let f = cache.get(key) as Intl.DateTimeFormat | undefined;
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    cache.set(key, f);
  }
  return f;
}

export interface Formatters {
  /** Integer cents in a currency: money(1999, 'EUR') → "19,99 €". */
  money(cents: number, currency: string): string;
  /** A date and time (ISO string) in the browser's time zone. */
  dateTime(iso: string): string;
  date(iso: string): string;
  number(value: number): string;
  /** A tax rate stored as a fraction: percent(0.19) → "19 %". */
  percent(fraction: number): string;
}

export function formatters(locale: string): Formatters {
  return {
    money: (cents, currency) => numberFormat(locale, { style: 'currency', currency }).format(cents / 100),
    dateTime: (iso) => dateFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso)),
    date: (iso) => dateFormat(locale, { dateStyle: 'medium' }).format(new Date(iso)),
    number: (value) => numberFormat(locale, {}).format(value),
    percent: (fraction) => numberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(fraction),
  };
}

export function useFormat(): Formatters {
  return formatters(LOCALES[useLanguage()]);
}
