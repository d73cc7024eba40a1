/**
 * What the product screens share: euros typed by a person ↔ integer cents, and the reference
 * records (categories, brands, suppliers) and channels offered in pickers.
 */
import { $api } from '../../../shared/api.js';
import { useChannelScope } from '../../../shared/auth.js';

/**
 * "19,99", "19.99", "1.299,00", "1,299.00", "19" → cents; "" → null; anything else → undefined
 * (not an amount). The page only converts the unit: every rule about prices is the server's.
 */
export function parseMoney(text: string): number | null | undefined {
  const s = text.trim().replace(/\s|€/g, '');
  if (s === '') return null;
  if (!/^-?[\d.,]+$/.test(s)) return undefined;
  const lastSep = Math.max(s.lastIndexOf(','), s.lastIndexOf('.'));
  let whole = s;
  let frac = '';
  if (lastSep >= 0 && s.length - lastSep - 1 <= 2) {
    whole = s.slice(0, lastSep);
    frac = s.slice(lastSep + 1);
  }
  whole = whole.replace(/[.,]/g, '');
  if (!/^-?\d*$/.test(whole) || !/^\d{0,2}$/.test(frac) || (whole === '' && frac === '')) return undefined;
  const negative = whole.startsWith('-');
  const cents = Number(whole.replace('-', '') || '0') * 100 + Number(frac.padEnd(2, '0') || '0');
  return Number.isSafeInteger(cents) ? (negative ? -cents : cents) : undefined;
}

/** Cents as the amount a person edits, in the page's language ("19,99" / "19.99"). */
export function moneyInput(cents: number | null | undefined, language: 'de' | 'en'): string {
  if (cents === null || cents === undefined) return '';
  const text = (cents / 100).toFixed(2);
  return language === 'de' ? text.replace('.', ',') : text;
}

export type ReferenceKind = 'categories' | 'brands' | 'suppliers';
export interface ReferenceOption {
  id: string;
  name: string;
}

/** Pickers offer the first 200 records by name (the API's page limit). */
const PICKER_LIMIT = 200;

export function useReferenceOptions(): Record<ReferenceKind, ReferenceOption[]> {
  const query = { params: { query: { limit: PICKER_LIMIT } } };
  const cats = $api.useQuery('get', '/api/admin/categories', query, { staleTime: 60_000 }).data;
  const brands = $api.useQuery('get', '/api/admin/brands', query, { staleTime: 60_000 }).data;
  const suppliers = $api.useQuery('get', '/api/admin/suppliers', query, { staleTime: 60_000 }).data;
  return {
    categories: cats?.categories ?? [],
    brands: brands?.brands ?? [],
    suppliers: suppliers?.suppliers ?? [],
  };
}

/** The channels the employee may work in (a channel-restricted employee: only theirs). */
export function useChannelOptions() {
  const scope = useChannelScope();
  const data = $api.useQuery('get', '/api/admin/channels', {}, { staleTime: 60_000 }).data;
  return (data?.channels ?? []).filter((c) => scope === null || scope.includes(c.id));
}
