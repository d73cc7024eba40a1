/**
 * German first, English second: every string of a page comes from a typed dictionary (de.ts is
 * the source; en.ts is typed by it). The language is chosen by the person (persisted in
 * localStorage), German by default, and `<html lang>` follows it.
 */
import { useSyncExternalStore } from 'react';
import type { ErrorCode } from '../api.js';
import { de } from './de.js';
import { en } from './en.js';
import { errorsDe } from './errors.de.js';
import { errorsEn } from './errors.en.js';

/** The German dictionary with every literal widened: the shape en.ts must have. */
export type Widen<T> = T extends (...args: infer A) => infer R
  ? (...args: A) => R extends string ? string : R
  : T extends string
    ? string
    : { [K in keyof T]: Widen<T[K]> };
export type Dictionary = Widen<typeof de>;

export const LANGUAGES = ['de', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

const DICTIONARIES: Record<Language, Dictionary> = { de, en };
const ERRORS: Record<Language, Record<ErrorCode, string>> = { de: errorsDe, en: errorsEn };
/** The locale of Intl formatting per language (the shop's market is Germany). */
export const LOCALES: Record<Language, string> = { de: 'de-DE', en: 'en-GB' };

const STORAGE_KEY = 'admin.language';
const listeners = new Set<() => void>();

function stored(): Language {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'en' ? 'en' : 'de';
  } catch {
    return 'de';
  }
}

let current: Language = stored();

export function getLanguage(): Language {
  return current;
}

export function setLanguage(language: Language): void {
  current = language;
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // private mode: the choice lasts for this page
  }
  document.documentElement.lang = language;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current language; re-renders when it changes. */
export function useLanguage(): Language {
  return useSyncExternalStore(subscribe, getLanguage);
}

/** The dictionary of the current language: `const t = useT(); t.orders.title`. */
export function useT(): Dictionary {
  return DICTIONARIES[useLanguage()];
}

/** A dictionary of an area in both languages (see `defineDictionary`). */
export type AreaDictionary<D> = { readonly de: Widen<D>; readonly en: Widen<D> };

/**
 * An area's own dictionary, kept beside its screens (routes/<area>/i18n.ts) so that it is loaded
 * with their lazy chunk instead of the main bundle: `export const subsText = defineDictionary(de, en)`
 * with `en` typed by `de` (a missing or extra key does not compile), then in a component
 * `const s = useDictionary(subsText)`.
 */
export function defineDictionary<D>(de: D, en: Widen<D>): AreaDictionary<D> {
  return { de: de as Widen<D>, en };
}

/** The current language's half of an area dictionary; re-renders when the language changes. */
export function useDictionary<D>(dictionary: AreaDictionary<D>): Widen<D> {
  return dictionary[useLanguage()];
}

/** The message of a problem code in the current language. */
export function useErrorMessage(): (code: ErrorCode) => string {
  const errors = ERRORS[useLanguage()];
  return (code) => errors[code] ?? errors.bad_request;
}

/** Outside React (titles, the router): the dictionary of the current language. */
export function dictionary(): Dictionary {
  return DICTIONARIES[current];
}

document.documentElement.lang = current;
