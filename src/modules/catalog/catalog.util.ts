/** Small pure helpers of the catalog: slugs, search terms, database error details. */
import { type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { escapeLike } from '../../platform/db/tx.js';
import { AppError, type FieldError } from '../../platform/errors.js';

const SLUG_MAX = 200;
/** Room left for a `-<n>` suffix when a generated slug is taken. */
const SLUG_BASE_MAX = SLUG_MAX - 8;

const TRANSLITERATE: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  å: 'a',
  ð: 'd',
  đ: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
};

/**
 * A URL slug from a name: lowercase, German umlauts spelled out (ä→ae, ö→oe, ü→ue, ß→ss), other
 * accents stripped, every run of other characters one dash. Never empty.
 */
export function slugify(name: string): string {
  const lower = name.normalize('NFC').toLowerCase();
  const spelled = lower.replace(/[äöüßæœøåðđþłı]/g, (c) => TRANSLITERATE[c] ?? c);
  const slug = spelled
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_BASE_MAX)
    .replace(/-+$/, '');
  return slug || 'product';
}

/** The smallest free slug of `base`, `base-2`, `base-3` … given the slugs already taken. */
export function nextFreeSlug(base: string, taken: Set<string>): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** At most this many whitespace-separated words of a search; each must match. */
const MAX_TERMS = 8;

/**
 * Conditions that each search word occurs in `column` (already lowercased and unaccented): the
 * word is normalised the same way in SQL, so `Kase` finds `Käse` and `kase` finds `KÄSE`.
 */
export function searchConditions(column: SQL | AnyPgColumn, q: string | undefined): SQL[] {
  return searchTerms(q).map((t) => searchCondition(column, t));
}

/** The words of a search, LIKE-escaped (at most MAX_TERMS). */
export function searchTerms(q: string | undefined): string[] {
  return (q ?? '').trim().split(/\s+/).filter(Boolean).slice(0, MAX_TERMS).map(escapeLike);
}

/** One escaped word (a value or a prepared statement's placeholder) occurs in `column`. */
export function searchCondition(column: SQL | AnyPgColumn, term: unknown): SQL {
  return sql`${column} LIKE '%' || lower(f_unaccent(${term})) || '%'`;
}

export { uniqueConstraintOf } from '../../platform/db/tx.js';

/** A 400 listing every invalid field, or nothing when the list is empty. */
export function throwIfInvalid(errors: FieldError[]): void {
  if (errors.length === 0) return;
  const first = errors[0] as FieldError;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  throw new AppError('validation_failed', `${first.path} ${first.message}${more}`, errors);
}

/** Advisory-lock keys (first half) of the catalog; the second half is hashtext(shop_id). */
export const LOCK_CATEGORY_TREE = 727_101;
/** Generating a product slug from a name (second half: hashtext of shop and base slug). */
export const LOCK_PRODUCT_SLUG = 727_102;
