/**
 * The list-page helper every resource list uses: filters, sort and page live in the URL (typed by
 * the route's validateSearch), the server pages, filters and sorts (limit/offset and the filter
 * params of the generated query type), and the same controls everywhere: a pager and sortable
 * column headers with aria-sort.
 */
import { useT } from './i18n/index.js';

export const PAGE_SIZES = [25, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];

export interface Paging {
  page: number;
  limit: PageSize;
}

type Raw = Record<string, unknown>;

/**
 * A route's `validateSearch` from a parse function: links and navigations may leave out any key
 * (input: all optional), the screen reads every key parsed (output). A Standard Schema object,
 * which TanStack Router takes as a validator.
 */
export function searchValidator<Out extends object>(parse: (raw: Raw) => Out) {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'admin',
      validate: (value: unknown) => ({ value: parse((value ?? {}) as Raw) }),
      types: undefined as unknown as { input: Partial<Out>; output: Out },
    },
  };
}

/** page ≥ 1 and a known page size; anything else in the URL falls back to the first page of 25. */
export function pagingSearch(raw: Raw): Paging {
  const page = Number(raw.page);
  const limit = Number(raw.limit);
  return {
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    limit: (PAGE_SIZES as readonly number[]).includes(limit) ? (limit as PageSize) : 25,
  };
}

/** The server's paging of a URL page. */
export function serverPaging({ page, limit }: Paging): { limit: number; offset: number } {
  return { limit, offset: (page - 1) * limit };
}

/** A trimmed text filter, or absent. */
export function textParam(raw: Raw, key: string, max = 200): string | undefined {
  const value = raw[key];
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim().slice(0, max);
  return trimmed === '' ? undefined : trimmed;
}

/** One of the allowed values, or absent. */
export function enumParam<T extends string>(raw: Raw, key: string, values: readonly T[]): T | undefined {
  const value = raw[key];
  return typeof value === 'string' && (values as readonly string[]).includes(value) ? (value as T) : undefined;
}

/** A calendar day YYYY-MM-DD, or absent. */
export function dayParam(raw: Raw, key: string): string | undefined {
  const value = raw[key];
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
    ? value
    : undefined;
}

/** The start (or end) of a local calendar day as the ISO timestamp the API takes. */
export function dayBound(day: string | undefined, end = false): string | undefined {
  if (!day) return undefined;
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return (end ? new Date(y, m - 1, d, 23, 59, 59, 999) : new Date(y, m - 1, d)).toISOString();
}

/** URL search as plain `key=value` pairs (no JSON quoting): readable, shareable list URLs. */
export function parseSearch(search: string): Raw {
  return Object.fromEntries(new URLSearchParams(search.startsWith('?') ? search.slice(1) : search));
}

export function stringifySearch(search: Raw): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(search)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export interface PagerProps {
  count: number;
  paging: Paging;
  onChange: (paging: Paging) => void;
}

/** Previous/next, where we are, and the page size: native buttons and a select. */
export function Pager({ count, paging, onChange }: PagerProps) {
  const t = useT();
  const pages = Math.max(1, Math.ceil(count / paging.limit));
  const from = count === 0 ? 0 : (paging.page - 1) * paging.limit + 1;
  const to = Math.min(count, paging.page * paging.limit);
  return (
    <nav className="pager" aria-label={t.list.pagination}>
      <p className="pager-range" aria-live="polite">
        {t.list.range(from, to, count)} · {t.list.pageOf(Math.min(paging.page, pages), pages)}
      </p>
      <button type="button" disabled={paging.page <= 1} onClick={() => onChange({ ...paging, page: paging.page - 1 })}>
        {t.list.previous}
      </button>
      <button
        type="button"
        disabled={paging.page >= pages}
        onClick={() => onChange({ ...paging, page: paging.page + 1 })}
      >
        {t.list.next}
      </button>
      <label className="pager-size">
        {t.list.perPage}{' '}
        <select
          value={paging.limit}
          onChange={(e) => onChange({ page: 1, limit: Number(e.currentTarget.value) as PageSize })}
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}

/** `column` ascending, `-column` descending (the API's sort convention). */
export type Sort = string | undefined;

export interface SortHeaderProps {
  label: string;
  column: string;
  sort: Sort;
  onSort: (sort: string) => void;
  className?: string;
}

/** A column header that sorts by its column: a button in the <th>, the state in aria-sort. */
export function SortHeader({ label, column, sort, onSort, className }: SortHeaderProps) {
  const t = useT();
  const state = sort === column ? 'ascending' : sort === `-${column}` ? 'descending' : 'none';
  return (
    <th scope="col" aria-sort={state} className={className}>
      <button
        type="button"
        className="sort"
        onClick={() => onSort(state === 'ascending' ? `-${column}` : column)}
        title={t.list.sortBy(label)}
      >
        {label}
        <span aria-hidden="true" className="sort-mark">
          {state === 'ascending' ? '▲' : state === 'descending' ? '▼' : '↕'}
        </span>
      </button>
    </th>
  );
}
