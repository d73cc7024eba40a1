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

/**
 * The instants every layer takes as written (DESIGN §3: nothing out of range reaches the
 * database): years 0001–9999 in UTC. PostgreSQL has no year 0 in ISO text, and JavaScript writes
 * years past 9999 as `+010000-…`, which PostgreSQL does not read.
 */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00.000Z');
export const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** True when `d` is a real date within years 0001–9999 UTC. */
export function storableInstant(d: Date): boolean {
  const t = d.getTime();
  return t >= FIRST_INSTANT && t <= LAST_INSTANT;
}

/** PostgreSQL refuses UTC offsets beyond ±15:59. */
const OFFSET = /([+-])(\d{2}):?(\d{2})$/;

/**
 * A `date-time` value (already RFC 3339 by format) that the database can hold: its offset at most
 * ±15:59, and the instant, once in UTC, within years 0001–9999 (which also refuses a leap second,
 * which JavaScript cannot represent).
 */
export function storableDateTime(value: string): boolean {
  const offset = OFFSET.exec(value);
  if (offset && Number(offset[2]) > 15) return false;
  return storableInstant(new Date(value));
}
