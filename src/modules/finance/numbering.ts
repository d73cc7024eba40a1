/**
 * Document numbers (docs/finance.md): `RE-{YYYY}-{NNNNN}` by default. Tokens: `{YYYY}`, `{YY}`, `{MM}`
 * and one run of N (`{NNNNN}` = the sequence, zero-padded to five digits). The sequence is a
 * per-shop counter taken in the finalizing transaction, so a rolled-back finalization frees its
 * number again: numbers are gapless. A format with a year restarts the sequence every year.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { query, type TxCtx } from '../../platform/db/tx.js';
import { nextCounter, peekCounter } from '../orders/index.js';

const TOKEN = /\{(YYYY|YY|MM|N{1,12})\}/g;
const ALLOWED = /^[A-Za-z0-9\-_/.#{}]+$/;

/** Why a format is unusable, or null when it is fine. */
export function formatProblem(format: string): string | null {
  if (format.length < 3 || format.length > 40) return 'must be 3 to 40 characters';
  if (!ALLOWED.test(format)) return 'may contain letters, digits, - _ / . # and the tokens {YYYY} {YY} {MM} {NNNNN}';
  const tokens = [...format.matchAll(TOKEN)].map((m) => m[1] as string);
  const rest = format.replace(TOKEN, '');
  if (/[{}]/.test(rest)) return 'has an unknown token; use {YYYY}, {YY}, {MM} or {NNNNN}';
  const seq = tokens.filter((t) => t.startsWith('N'));
  if (seq.length !== 1) return 'needs exactly one sequence token such as {NNNNN}';
  if (tokens.includes('MM') && !tokens.includes('YYYY') && !tokens.includes('YY')) return '{MM} needs a year token';
  return null;
}

/** The counter a format draws from: per year when the format shows the year (and month). */
function counterName(kind: 'invoice' | 'credit_note', format: string, date: string): string {
  const year = /\{YYYY\}|\{YY\}/.test(format) ? `:${date.slice(0, 4)}` : '';
  const month = year && /\{MM\}/.test(format) ? `-${date.slice(5, 7)}` : '';
  return `${kind}_number${year}${month}`;
}

export function renderNumber(format: string, date: string, seq: number): string {
  return format.replace(TOKEN, (_m, token: string) => {
    if (token === 'YYYY') return date.slice(0, 4);
    if (token === 'YY') return date.slice(2, 4);
    if (token === 'MM') return date.slice(5, 7);
    return String(seq).padStart(token.length, '0');
  });
}

/** Whether an invoice or a credit note of the shop already carries `number`. */
async function numberTaken(ctx: { db: Db; shopId: string }, number: string): Promise<boolean> {
  const rows = await query(
    ctx.db,
    sql`SELECT 1 FROM invoices WHERE shop_id = ${ctx.shopId} AND number = ${number}
        UNION ALL SELECT 1 FROM credit_notes WHERE shop_id = ${ctx.shopId} AND number = ${number} LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * Takes the next number for a document issued on `date` (YYYY-MM-DD), in the caller's transaction.
 * A number some document already carries is passed over: a format changed to one that draws from
 * another counter but renders the same numbers (the year written out instead of `{YYYY}`) continues
 * after them instead of repeating one (which the unique index refused with a 500 at every try).
 */
export async function nextDocumentNumber(
  ctx: TxCtx,
  kind: 'invoice' | 'credit_note',
  format: string,
  date: string,
): Promise<string> {
  for (;;) {
    const seq = await nextCounter(ctx, counterName(kind, format, date));
    const number = renderNumber(format, date, seq);
    if (!(await numberTaken(ctx, number))) return number;
  }
}

/** The calendar date of `now` in a time zone, as YYYY-MM-DD. */
export function localDate(now: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/**
 * The number `nextDocumentNumber` would take now for a document issued on `date`, without taking
 * it (the finalize dialog shows it). Another finalization in between takes it first: then the
 * document gets the next one, as the dialog says.
 */
export async function peekDocumentNumber(
  ctx: { db: Db; shopId: string },
  kind: 'invoice' | 'credit_note',
  format: string,
  date: string,
): Promise<string> {
  let seq = await peekCounter(ctx, counterName(kind, format, date));
  for (;;) {
    const number = renderNumber(format, date, seq);
    if (!(await numberTaken(ctx, number))) return number;
    seq += 1;
  }
}
