/**
 * What invoices and credit notes share. Document arithmetic (docs/finance.md): lines are gross, each
 * line's tax is round-half-up(gross × rate / (1 + rate)), net = gross − tax, and every total is a
 * sum of rounded lines, so a document always adds up to the cent. And the reads both kinds make
 * the same way (one row of the shop, a filtered page), parameterised by the kind's table.
 */
import { createHash } from 'node:crypto';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import type { TxCtx } from '../../platform/db/tx.js';
import { notFound } from '../../platform/errors.js';
import { taxFromGross } from '../../platform/money.js';
import { orderChannelScope } from '../orders/index.js';
import { exemptionText, type TaxCategory } from '../tax/index.js';
import type { creditNotes, DocLine, invoices, TaxGroup } from './finance.tables.js';

/** A line's or group's EN 16931 VAT category; documents made before tax determination: S, or Z at 0 %. */
export function categoryOf(x: { tax_rate: number; tax_category?: TaxCategory }): TaxCategory {
  const c = x.tax_category ?? 'S';
  return c === 'S' && x.tax_rate === 0 ? 'Z' : c;
}

/** The VAT breakdown key (BG-23): category and rate. */
export const taxKey = (x: { tax_rate: number; tax_category?: TaxCategory }): string => `${categoryOf(x)}|${x.tax_rate}`;

/** Per category and rate (BG-23), with the exemption text of a 0 % category. */
export function taxGroups(lines: DocLine[]): TaxGroup[] {
  const by = new Map<string, TaxGroup>();
  for (const l of lines) {
    const key = taxKey(l);
    const g = by.get(key) ?? {
      tax_rate: l.tax_rate,
      ...(l.tax_category ? { tax_category: l.tax_category, tax_exemption_reason: l.tax_exemption_reason ?? null } : {}),
      net_cents: 0,
      tax_cents: 0,
      gross_cents: 0,
    };
    g.net_cents += l.net_cents;
    g.tax_cents += l.tax_cents;
    g.gross_cents += l.line_total_cents;
    by.set(key, g);
  }
  return [...by.values()].sort((a, b) => b.tax_rate - a.tax_rate || taxKey(a).localeCompare(taxKey(b)));
}

export function sums(lines: DocLine[]) {
  return {
    net_cents: lines.reduce((s, l) => s + l.net_cents, 0),
    tax_cents: lines.reduce((s, l) => s + l.tax_cents, 0),
    total_cents: lines.reduce((s, l) => s + l.line_total_cents, 0),
  };
}

export function line(
  position: number,
  kind: DocLine['kind'],
  name: string,
  quantity: number,
  grossCents: number,
  rate: number,
  opts: {
    sku?: string | null;
    unitPriceCents?: number;
    taxCents?: number;
    invoicePosition?: number | null;
    /** The VAT category (docs/finance.md); its exemption text comes with it. */
    category?: TaxCategory;
  } = {},
): DocLine {
  const tax = opts.taxCents ?? taxFromGross(grossCents, rate);
  return {
    ...(opts.category ? { tax_category: opts.category, tax_exemption_reason: exemptionText(opts.category) } : {}),
    position,
    kind,
    name,
    sku: opts.sku ?? null,
    quantity,
    unit_price_cents: opts.unitPriceCents ?? Math.round(grossCents / quantity),
    line_total_cents: grossCents,
    tax_rate: rate,
    tax_cents: tax,
    net_cents: grossCents - tax,
    invoice_position: opts.invoicePosition ?? null,
  };
}

/** Lines or VAT groups as the API shows them: every one with its category and exemption text. */
export function withTaxCategory<
  T extends { tax_rate: number; tax_category?: TaxCategory; tax_exemption_reason?: string | null },
>(rows: T[]): (T & { tax_category: TaxCategory; tax_exemption_reason: string | null })[] {
  return rows.map((r) => {
    const category = categoryOf(r);
    return { ...r, tax_category: category, tax_exemption_reason: r.tax_exemption_reason ?? exemptionText(category) };
  });
}

/** The columns every document stores its parties, lines and totals in (`documentContent` in finance.tables.ts). */
type DocumentBodyRow = Pick<
  typeof invoices.$inferSelect,
  'seller' | 'buyer' | 'lines' | 'taxGroups' | 'netCents' | 'taxCents' | 'totalCents'
>;

/**
 * The parties, lines, VAT groups and totals of a document, as its hashed content names them (the
 * key order is part of the hash: callers spread this where these keys always stood).
 */
export function documentBody(row: DocumentBodyRow) {
  return {
    seller: row.seller,
    buyer: row.buyer,
    lines: row.lines,
    tax_breakdown: row.taxGroups,
    net_cents: row.netCents,
    tax_cents: row.taxCents,
    total_cents: row.totalCents,
  };
}

/** The same as the API shows it: the lines and groups with their categories, no seller as null. */
export function documentBodyOut(row: DocumentBodyRow) {
  return {
    ...documentBody(row),
    seller: row.seller ?? null,
    lines: withTaxCategory(row.lines),
    tax_breakdown: withTaxCategory(row.taxGroups),
  };
}

/** round-half-up(a × num / den) for non-negative integers. */
export function mulDiv(a: number, num: number, den: number): number {
  return Math.floor((2 * a * num + den) / (2 * den));
}

/**
 * Splits `amount` over buckets in proportion to their weights (largest remainder), so the parts
 * add up exactly and no part exceeds its bucket when amount ≤ the sum of the weights.
 */
export function allocate(amount: number, weights: number[]): number[] {
  const total = weights.reduce((s, w) => s + w, 0);
  if (total === 0) return weights.map(() => 0);
  const exact = weights.map((w) => (amount * w) / total);
  const parts = exact.map((x) => Math.floor(x));
  let left = amount - parts.reduce((s, p) => s + p, 0);
  const order = exact.map((x, i) => ({ i, r: x - Math.floor(x) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    parts[i] = (parts[i] as number) + 1;
    left--;
  }
  return parts;
}

/** JSON with sorted keys: the same data always gives the same text (and hash). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

export const contentHash = (doc: unknown): string =>
  `sha256:${createHash('sha256').update(canonicalJson(doc)).digest('hex')}`;

/** Formats cents as a decimal string with two places (for XML and the accounting API). */
export function decimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** A tax rate fraction (0.19) as a percent string ("19", "7", "5.5"). */
export function percent(rate: number): string {
  return String(Math.round(rate * 100_000) / 1000);
}

// ---- reads shared by invoices and credit notes ----

/**
 * The table of a document kind. Drizzle's `from()` does not take a generic table, so the helpers
 * pass it as this union and type the rows back as the kind's own.
 */
export type DocumentTable = typeof invoices | typeof creditNotes;
export type DocumentRow<T extends DocumentTable> = T['$inferSelect'];

/** What the document reads need of the context: the shop, and the caller for the channel restriction. */
type DocCtx = Pick<Ctx, 'db' | 'shopId' | 'actor'>;

/**
 * The query of one document of the shop by id; for a channel-restricted employee only one of an
 * order of their channels (orderChannelScope), so another channel's is not found (404).
 */
const documentById = (ctx: DocCtx, table: DocumentTable, id: string) =>
  ctx.db
    .select()
    .from(table)
    .where(and(eq(table.id, id), eq(table.shopId, ctx.shopId), orderChannelScope(ctx, table.orderId)));

/** One document of the shop; missing, another shop's or outside the caller's channels: 404 `${what} not found`. */
export async function getDocument<T extends DocumentTable>(
  ctx: DocCtx,
  table: T,
  id: string,
  what: string,
): Promise<DocumentRow<T>> {
  const [row] = await documentById(ctx, table, id);
  if (!row) throw notFound(what);
  return row as DocumentRow<T>;
}

/** As getDocument, the row locked (FOR UPDATE) until the caller's transaction ends. */
export async function lockDocument<T extends DocumentTable>(
  ctx: TxCtx,
  table: T,
  id: string,
  what: string,
): Promise<DocumentRow<T>> {
  const [row] = await documentById(ctx, table, id).for('update');
  if (!row) throw notFound(what);
  return row as DocumentRow<T>;
}

/** The filters every document list takes; a kind adds its own. */
export interface DocumentFilters {
  status?: string;
  order_id?: string;
  issued_from?: string;
  issued_to?: string;
  q?: string;
  limit: number;
  offset: number;
}

/**
 * A page of the shop's documents, newest first, and how many match in all: the common filters
 * (status, order, issue-date range), the kind's own conditions (`more`) and the caller's channel
 * restriction (only documents of orders of their channels; inside the query, so `count` is exact).
 */
export async function listDocuments<T extends DocumentTable>(
  ctx: DocCtx,
  table: T,
  f: DocumentFilters,
  more: SQL[],
): Promise<{ rows: DocumentRow<T>[]; count: number }> {
  const { db } = ctx;
  const conds: SQL[] = [eq(table.shopId, ctx.shopId), orderChannelScope(ctx, table.orderId)];
  // the two tables type their statuses apart; the filter is checked by the route's query schema
  if (f.status) conds.push(sql`${table.status} = ${f.status}`);
  if (f.order_id) conds.push(eq(table.orderId, f.order_id));
  if (f.issued_from) conds.push(sql`${table.issueDate} >= ${f.issued_from}`);
  if (f.issued_to) conds.push(sql`${table.issueDate} <= ${f.issued_to}`);
  const where = and(...conds, ...more);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(table as DocumentTable)
      .where(where)
      .orderBy(desc(table.createdAt), desc(table.id))
      .limit(f.limit)
      .offset(f.offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(table as DocumentTable)
      .where(where),
  ]);
  return { rows: rows as DocumentRow<T>[], count: Number(total[0]?.n ?? 0) };
}
