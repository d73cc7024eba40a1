/**
 * Monthly vendor statements, computed from the ledger only. The period is a calendar month in
 * the shop's time zone (company settings). Opening balance = what the shop owed the vendor
 * (pending + available + in_payout) before the period; entries = the vendor's ledger
 * transactions in the period that change that amount (earnings +, clawbacks −, paid payouts −;
 * releases, payout requests and cancellations only move money between owed accounts), each with
 * a running balance; closing = opening + Σ entries, checked against the ledger's owed balance at
 * the period end. A draft is recomputed on every create and on finalization; a final statement
 * is numbered (VS-<year>-0001 from a per-shop counter), hashed and never written again (a
 * database trigger refuses any change).
 */

import { createHash } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { lockOwned } from '../../platform/db/lock.js';
import { one, pgDate, query, withTx } from '../../platform/db/tx.js';
import { badRequest, conflict, notFound } from '../../platform/errors.js';
import type { Paged } from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import { creditNoteNumberSql, loadSettings } from '../finance/index.js';
import { nextCounter, orderNumberSql } from '../orders/index.js';
import { balances } from './ledger.js';
import { type StatementEntry, type StatementTotals, vendorStatements, vendors } from './partners.tables.js';
import type { StatementCreate as StatementCreateBody, StatementQuery } from './payouts.schemas.js';
import { defaultCurrency } from './payouts.service.js';
import { statementStates } from './statement-states.js';

export type StatementRow = typeof vendorStatements.$inferSelect;

/** A stored entry: the table's entry plus the calendar date in the shop's time zone. */
export interface Entry extends StatementEntry {
  date: string;
}

// ---- time zone helpers ----

/** Milliseconds the zone is ahead of UTC at `at`. */
function zoneOffset(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second'));
  return local - (at.getTime() - at.getUTCMilliseconds());
}

/** The instant local midnight starts the 1st of `month` (1–12; 13 = January of the next year). */
export function monthStart(year: number, month: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, 1);
  let t = wall - zoneOffset(new Date(wall), timeZone);
  t = wall - zoneOffset(new Date(t), timeZone);
  return new Date(t);
}

/** The calendar date of an instant in a time zone (YYYY-MM-DD). */
export function localDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

/** [start, end) of a `YYYY-MM` period in the zone. */
export function periodBounds(period: string, timeZone: string): { start: Date; end: Date } {
  const [y, m] = period.split('-').map(Number) as [number, number];
  return { start: monthStart(y, m, timeZone), end: monthStart(y, m + 1, timeZone) };
}

// ---- canonical content ----

function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value ?? null);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** What the content hash of a final statement covers. */
export function statementContent(row: StatementRow) {
  return {
    type: 'vendor_statement' as const,
    number: row.number,
    vendor_id: row.vendorId,
    vendor: row.vendorSnapshot,
    period: row.period,
    period_start: iso(row.periodStart),
    period_end: iso(row.periodEnd),
    currency: row.currency,
    opening_balance_cents: row.openingBalanceCents,
    closing_balance_cents: row.closingBalanceCents,
    totals: row.totals,
    entries: row.entries,
  };
}

export const statementHash = (row: StatementRow): string =>
  `sha256:${createHash('sha256')
    .update(canonicalJson(statementContent(row)))
    .digest('hex')}`;

// ---- output ----

function entriesOf(row: StatementRow): Entry[] {
  return (row.entries as Entry[]).map((e) => ({ ...e, date: e.date ?? e.occurred_at.slice(0, 10) }));
}

function statementFields(row: StatementRow) {
  return {
    id: row.id,
    vendor_id: row.vendorId,
    period: row.period,
    period_start: iso(row.periodStart),
    period_end: iso(row.periodEnd),
    currency: row.currency,
    status: row.status,
    number: row.number,
    vendor: row.vendorSnapshot,
    opening_balance_cents: row.openingBalanceCents,
    closing_balance_cents: row.closingBalanceCents,
    totals: row.totals,
    content_hash: row.contentHash,
    finalized_at: isoOrNull(row.finalizedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export const statementOut = (row: StatementRow) => ({ ...statementFields(row), entries: entriesOf(row) });
export const statementSummaryOut = (row: StatementRow) => ({
  ...statementFields(row),
  entry_count: (row.entries ?? []).length,
});

// ---- computation ----

interface Computed {
  opening: number;
  closing: number;
  entries: Entry[];
  totals: StatementTotals;
}

function describe(r: {
  kind: string;
  order_number: string | null;
  credit_note_number: string | null;
  credit_note_id: string | null;
  payout_id: string | null;
  payout_reference: string | null;
  memo: string | null;
}): string {
  switch (r.kind) {
    case 'earning':
      return r.order_number ? `Earning, order ${r.order_number}` : (r.memo ?? 'Earning');
    case 'clawback':
      if (r.credit_note_number || r.credit_note_id) {
        return `Clawback, credit note ${r.credit_note_number ?? r.credit_note_id}`;
      }
      return r.order_number ? `Clawback, order ${r.order_number}` : (r.memo ?? 'Clawback');
    case 'payout_paid':
      return `Payout ${r.payout_id ?? ''}${r.payout_reference ? `, reference ${r.payout_reference}` : ''}`.trim();
    default:
      return r.memo ?? r.kind;
  }
}

/** Opening balance, entries with running balance, totals and closing balance from the ledger. */
export async function computeStatement(
  ctx: Ctx,
  vendorId: string,
  currency: string,
  start: Date,
  end: Date,
  timeZone: string,
): Promise<Computed> {
  const owedBefore = async (before: Date) =>
    (await balances(ctx, 'vendor', { partnerIds: [vendorId], currency, before }))[0]?.owed_cents ?? 0;
  const opening = await owedBefore(start);
  const rows = await query<{
    id: string;
    kind: string;
    occurred_at: string | Date;
    order_id: string | null;
    order_number: string | null;
    payout_id: string | null;
    payout_reference: string | null;
    credit_note_id: string | null;
    credit_note_number: string | null;
    memo: string | null;
    gross_cents: number | string | null;
    commission_cents: number | string | null;
    delta: number | string;
  }>(
    ctx.db,
    sql`SELECT t.id, t.kind, t.occurred_at, coalesce(t.order_id, e.order_id) AS order_id,
               ${orderNumberSql(sql`coalesce(t.order_id, e.order_id)`, sql`t.shop_id`)} AS order_number,
               t.payout_id, p.reference AS payout_reference, t.credit_note_id,
               ${creditNoteNumberSql(sql`t.credit_note_id`, sql`t.shop_id`)} AS credit_note_number,
               t.memo, e.gross_cents, e.commission_cents,
               coalesce((SELECT sum(lp.amount_cents) FROM ledger_postings lp
                         WHERE lp.shop_id = t.shop_id AND lp.transaction_id = t.id AND lp.account IN ('pending', 'available', 'in_payout')), 0)::bigint
                 AS delta
        FROM ledger_transactions t
        LEFT JOIN partner_earnings e ON e.id = t.earning_id AND e.shop_id = t.shop_id
        LEFT JOIN partner_payouts p ON p.id = t.payout_id AND p.shop_id = t.shop_id
        WHERE t.shop_id = ${ctx.shopId} AND t.partner_type = 'vendor' AND t.partner_id = ${vendorId}
          AND t.currency = ${currency}
          AND t.occurred_at >= ${start.toISOString()}::timestamptz AND t.occurred_at < ${end.toISOString()}::timestamptz
        ORDER BY t.occurred_at, t.id`,
  );
  const totals: StatementTotals = {
    earnings_cents: 0,
    clawbacks_cents: 0,
    payouts_cents: 0,
    gross_sales_cents: 0,
    commission_cents: 0,
  };
  const entries: Entry[] = [];
  let balance = opening;
  for (const r of rows) {
    const delta = Number(r.delta);
    const counted = r.kind === 'earning' || r.kind === 'clawback' || r.kind === 'payout_paid';
    if (!counted && delta === 0) continue;
    if (r.kind === 'earning') {
      totals.earnings_cents += delta;
      totals.gross_sales_cents += Number(r.gross_cents ?? 0);
      totals.commission_cents += Number(r.commission_cents ?? 0);
    } else if (r.kind === 'clawback') totals.clawbacks_cents -= delta;
    else if (r.kind === 'payout_paid') totals.payouts_cents -= delta;
    balance += delta;
    const at = pgDate(r.occurred_at);
    entries.push({
      transaction_id: r.id,
      occurred_at: iso(at),
      date: localDate(at, timeZone),
      kind: r.kind,
      description: describe(r),
      order_id: r.order_id,
      order_number: r.order_number,
      payout_id: r.payout_id,
      credit_note_id: r.credit_note_id,
      amount_cents: delta,
      balance_cents: balance,
    });
  }
  const ledgerClosing = await owedBefore(end);
  if (balance !== ledgerClosing) {
    throw new Error(
      `statement of ${vendorId} ${currency} ${iso(start)}: closing ${balance} != ledger owed ${ledgerClosing}`,
    );
  }
  return { opening, closing: balance, entries, totals };
}

/** The statement currency: asked for; else the only one the vendor has entries in before `end`; else the shop's. */
async function statementCurrency(ctx: Ctx, vendorId: string, end: Date, requested?: string) {
  if (requested) return requested;
  const all = await balances(ctx, 'vendor', { partnerIds: [vendorId], before: end });
  if (all.length === 1) return (all[0] as { currency: string }).currency;
  if (all.length > 1) {
    const list = all.map((b) => b.currency).join(', ');
    throw badRequest('currency_required', `The vendor has balances in ${list}; name the currency`, [
      { path: '/body/currency', message: `is required: one of ${list}` },
    ]);
  }
  return (await defaultCurrency(ctx)) ?? 'EUR';
}

export type StatementCreate = Static<typeof StatementCreateBody>;

/**
 * Creates the draft for a vendor, period and currency (created: true), or recomputes the
 * existing draft (created: false). A final statement for them: 409 statement_final.
 */
export async function createStatement(
  ctx: Ctx,
  body: StatementCreate,
): Promise<{ row: StatementRow; created: boolean }> {
  const now = ctx.clock.now();
  const { timeZone } = await loadSettings(ctx);
  const { start, end } = periodBounds(body.period, timeZone);
  if (now.getTime() < start.getTime()) {
    throw badRequest('period_not_started', `The period ${body.period} has not started yet`, [
      { path: '/body/period', message: 'has not started yet' },
    ]);
  }
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const vendor = await lockOwned(tx, vendors, ctx.shopId, body.vendor_id, 'Vendor');
    const currency = await statementCurrency(t, vendor.id, end, body.currency);
    const [existing] = await tx
      .select()
      .from(vendorStatements)
      .where(
        and(
          eq(vendorStatements.shopId, ctx.shopId),
          eq(vendorStatements.vendorId, vendor.id),
          eq(vendorStatements.period, body.period),
          eq(vendorStatements.currency, currency),
        ),
      )
      .for('update');
    if (existing) statementStates.fire(existing.status, 'recompute', existing);
    const c = await computeStatement(t, vendor.id, currency, start, end, timeZone);
    const content = {
      vendorSnapshot: { name: vendor.name, email: vendor.email },
      openingBalanceCents: c.opening,
      closingBalanceCents: c.closing,
      totals: c.totals,
      entries: c.entries,
      periodStart: start,
      periodEnd: end,
      updatedAt: now,
    };
    if (existing) {
      const row = one(
        await tx
          .update(vendorStatements)
          .set(content)
          .where(and(eq(vendorStatements.shopId, existing.shopId), eq(vendorStatements.id, existing.id)))
          .returning(),
      );
      return { row: row, created: false };
    }
    const row = one(
      await tx
        .insert(vendorStatements)
        .values({
          id: newId('statement'),
          shopId: ctx.shopId,
          vendorId: vendor.id,
          period: body.period,
          currency,
          status: 'draft',
          createdAt: now,
          ...content,
        })
        .returning(),
    );
    return { row: row, created: true };
  });
}

/**
 * Finalizes a draft once its period has ended (else 409 period_open): recomputed, numbered
 * VS-<year>-NNNN (the year of finalization in the shop's zone), hashed, frozen. Twice: 409.
 */
export async function finalizeStatement(ctx: Ctx, id: string): Promise<StatementRow> {
  const now = ctx.clock.now();
  const first = await getStatement(ctx, id);
  const { timeZone } = await loadSettings(ctx);
  return withTx(ctx, async (t) => {
    const tx = t.db;
    // same lock order as creating: the vendor, then the statement
    const vendor = await lockOwned(tx, vendors, ctx.shopId, first.vendorId, 'Vendor');
    const row = await lockOwned(tx, vendorStatements, ctx.shopId, id, 'Statement');
    const status = statementStates.fire(row.status, 'finalize', row);
    if (now.getTime() < row.periodEnd.getTime()) {
      throw conflict('period_open', `The period ${row.period} has not ended yet; finalize it after it ends`);
    }
    const c = await computeStatement(t, vendor.id, row.currency, row.periodStart, row.periodEnd, timeZone);
    const year = localDate(now, timeZone).slice(0, 4);
    const seq = await nextCounter({ ...ctx, db: tx }, `vendor_statement_number:${year}`);
    const frozen: StatementRow = {
      ...row,
      status,
      number: `VS-${year}-${String(seq).padStart(4, '0')}`,
      vendorSnapshot: { name: vendor.name, email: vendor.email },
      openingBalanceCents: c.opening,
      closingBalanceCents: c.closing,
      totals: c.totals,
      entries: c.entries,
      finalizedAt: now,
      updatedAt: now,
    };
    frozen.contentHash = statementHash(frozen);
    return one(
      await tx
        .update(vendorStatements)
        .set({
          status: frozen.status,
          number: frozen.number,
          vendorSnapshot: frozen.vendorSnapshot,
          openingBalanceCents: frozen.openingBalanceCents,
          closingBalanceCents: frozen.closingBalanceCents,
          totals: frozen.totals,
          entries: frozen.entries,
          contentHash: frozen.contentHash,
          finalizedAt: frozen.finalizedAt,
          updatedAt: frozen.updatedAt,
        })
        .where(and(eq(vendorStatements.id, row.id), eq(vendorStatements.status, 'draft')))
        .returning(),
    );
  });
}

// ---- reads ----

/** One statement; with `vendorId` only that vendor's final statements (others: 404). */
export async function getStatement(ctx: Ctx, id: string, portal?: { vendorId: string }): Promise<StatementRow> {
  const [row] = await ctx.db
    .select()
    .from(vendorStatements)
    .where(
      and(
        eq(vendorStatements.id, id),
        eq(vendorStatements.shopId, ctx.shopId),
        portal ? eq(vendorStatements.vendorId, portal.vendorId) : undefined,
        portal ? eq(vendorStatements.status, 'final') : undefined,
      ),
    );
  if (!row) throw notFound('Statement');
  return row;
}

export type StatementFilters = Paged<Static<typeof StatementQuery>>;

export async function listStatements(ctx: Ctx, f: StatementFilters) {
  const { db } = ctx;
  const conds: SQL[] = [eq(vendorStatements.shopId, ctx.shopId)];
  if (f.vendor_id) conds.push(eq(vendorStatements.vendorId, f.vendor_id));
  if (f.status) conds.push(eq(vendorStatements.status, f.status));
  if (f.period) conds.push(eq(vendorStatements.period, f.period));
  if (f.currency) conds.push(eq(vendorStatements.currency, f.currency));
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(vendorStatements)
      .where(where)
      .orderBy(desc(vendorStatements.createdAt), desc(vendorStatements.id))
      .limit(f.limit)
      .offset(f.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(vendorStatements).where(where),
  ]);
  return { rows, count: Number(total[0]?.n ?? 0) };
}
