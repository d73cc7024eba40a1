/**
 * What the product screens share: euros typed by a person ↔ integer cents, and the reference
 * records (categories, brands, suppliers) and channels offered in pickers.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
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

/** A picker lists at most this many records (the API's page limit); beyond it, a search narrows them. */
const PICKER_LIMIT = 200;

export interface ReferencePicker {
  /** The records offered: the first 200 by name (or those matching the search), the selected one always among them. */
  options: ReferenceOption[];
  /** More records exist than are offered: the picker shows a search field. */
  more: boolean;
  search: string;
  setSearch: (text: string) => void;
}

/**
 * The records of one reference kind for a picker (by name, without their product counts:
 * `counts=false`). A shop with more than 200 categories (brands, suppliers) gets a search beside the picker, answered by the server (`q`, case- and
 * accent-insensitive); a selected record outside the page is read by its id so that it keeps its name.
 */
export function useReferencePicker(kind: ReferenceKind, selected?: string | null): ReferencePicker {
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setQ(search.trim()), 250);
    return () => clearTimeout(timer);
  }, [search]);
  // names only: counting each record's products is the costly part of the list, and a picker does not show it
  const query = { params: { query: { limit: PICKER_LIMIT, counts: false, ...(q ? { q } : {}) } } };
  const options = { staleTime: 60_000, placeholderData: keepPreviousData };
  const cats = $api.useQuery('get', '/api/admin/categories', query, {
    ...options,
    enabled: kind === 'categories',
  }).data;
  const brands = $api.useQuery('get', '/api/admin/brands', query, { ...options, enabled: kind === 'brands' }).data;
  const suppliers = $api.useQuery('get', '/api/admin/suppliers', query, {
    ...options,
    enabled: kind === 'suppliers',
  }).data;
  const page = kind === 'categories' ? cats?.categories : kind === 'brands' ? brands?.brands : suppliers?.suppliers;
  const count = (kind === 'categories' ? cats : kind === 'brands' ? brands : suppliers)?.count ?? 0;
  const listed: ReferenceOption[] = (page ?? []).map(({ id, name }) => ({ id, name }));
  const id = selected && selected !== 'ohne' && !listed.some((r) => r.id === selected) ? selected : null;
  const one = useSelectedReference(kind, id);
  return {
    options: one ? [one, ...listed] : listed,
    more: q !== '' || count > listed.length,
    search,
    setSearch,
  };
}

function useSelectedReference(kind: ReferenceKind, id: string | null): ReferenceOption | null {
  const path = { params: { path: { id: id ?? '' } } };
  const options = { staleTime: 60_000, retry: false };
  const cat = $api.useQuery('get', '/api/admin/categories/{id}', path, {
    ...options,
    enabled: kind === 'categories' && id !== null,
  }).data;
  const brand = $api.useQuery('get', '/api/admin/brands/{id}', path, {
    ...options,
    enabled: kind === 'brands' && id !== null,
  }).data;
  const supplier = $api.useQuery('get', '/api/admin/suppliers/{id}', path, {
    ...options,
    enabled: kind === 'suppliers' && id !== null,
  }).data;
  if (id === null) return null;
  const record = kind === 'categories' ? cat : kind === 'brands' ? brand : supplier;
  return record ? { id: record.id, name: record.name } : null;
}

/** The three pickers of a product form or filter bar. */
export function useReferencePickers(
  selected: Partial<Record<ReferenceKind, string | null | undefined>> = {},
): Record<ReferenceKind, ReferencePicker> {
  return {
    categories: useReferencePicker('categories', selected.categories),
    brands: useReferencePicker('brands', selected.brands),
    suppliers: useReferencePicker('suppliers', selected.suppliers),
  };
}

/** The channels the employee may work in (a channel-restricted employee: only theirs). */
export function useChannelOptions() {
  const scope = useChannelScope();
  const data = $api.useQuery('get', '/api/admin/channels', {}, { staleTime: 60_000 }).data;
  return (data?.channels ?? []).filter((c) => scope === null || scope.includes(c.id));
}
