/**
 * Dates in API responses, webhook payloads and e-mails: RFC 3339 in UTC with milliseconds
 * (`2026-01-02T03:04:05.678Z`). Every response mapper formats its dates here, so the format of a
 * date field is one edit. A raw query's PostgreSQL text timestamp is accepted too (`pgDate`).
 */

/**
 * Raw queries return timestamps as PostgreSQL text on both drivers (Drizzle maps them only for
 * typed queries); sessions run in UTC, so `2026-01-02 03:04:05.678+00` becomes a Date here.
 */
export function pgDate(value: string | Date): Date;
export function pgDate(value: string | Date | null): Date | null;
export function pgDate(value: string | Date | null): Date | null {
  if (value === null || value instanceof Date) return value;
  const iso = value.replace(' ', 'T').replace(/([+-]\d{2})$/, '$1:00');
  return new Date(iso);
}

/** A timestamp as the API shows it. */
export function iso(d: Date | string): string {
  return pgDate(d).toISOString();
}

/** `iso`, or null for a date that is not set. */
export function isoOrNull(d: Date | string | null | undefined): string | null {
  return d === null || d === undefined ? null : iso(d);
}

/** The UTC calendar day `YYYY-MM-DD` of a timestamp. */
export function isoDay(d: Date | string): string {
  return iso(d).slice(0, 10);
}
