/**
 * Credit notes (Gutschriften / Rechnungskorrekturen): the only way to correct a final invoice.
 * Full by default, or partial by lines and quantities, or by a gross amount split over the
 * invoice's tax rates. What is credited (drafts and final credit notes together) never exceeds
 * the invoice — in total, per tax rate, and per line quantity — checked under the invoice's row
 * lock, and checked again at finalization.
 */

import type { Static } from '@sinclair/typebox';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { likeAnywhere, one, query, type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError, conflict, type FieldError } from '../../platform/errors.js';
import { runHook, type SucceededRefund } from '../../platform/hooks.js';
import type { Paged } from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import { scheduleAccountingSync } from './accounting.service.js';
import { assertCreditNoteAction, assertInvoiceAction, creditedState, creditNoteStates } from './document-states.js';
import {
  allocate,
  contentHash,
  documentBody,
  documentBodyOut,
  getDocument,
  line,
  listDocuments,
  lockDocument,
  mulDiv,
  percent,
  sums,
  taxGroups,
  taxKey,
} from './documents.js';
import { assertEinvoiceReady } from './einvoice.js';
import type * as Schemas from './finance.schemas.js';
import { creditNotes, type DocLine, invoices } from './finance.tables.js';
import { type InvoiceRow, lockInvoice, servicePeriodContent } from './invoices.service.js';
import { localDate, nextDocumentNumber } from './numbering.js';
import { assertSellerComplete, loadSettings, sellerSnapshot } from './settings.service.js';

export type CreditNoteRow = typeof creditNotes.$inferSelect;

export function creditNoteOut(row: CreditNoteRow) {
  return {
    id: row.id,
    invoice_id: row.invoiceId,
    invoice_number: row.invoiceNumber,
    order_id: row.orderId,
    status: row.status,
    number: row.number,
    issue_date: row.issueDate,
    service_period_start: row.servicePeriodStart,
    service_period_end: row.servicePeriodEnd,
    currency: row.currency,
    is_business: row.isBusiness,
    reason: row.reason,
    ...documentBodyOut(row),
    footer: row.footer,
    content_hash: row.contentHash,
    finalized_at: isoOrNull(row.finalizedAt),
    lexware_voucher_id: row.lexwareVoucherId,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function creditNoteContent(row: CreditNoteRow, orderNumber: string) {
  return {
    type: 'credit_note' as const,
    number: row.number,
    issue_date: row.issueDate,
    invoice_number: row.invoiceNumber,
    invoice_issue_date: row.invoiceIssueDate,
    ...servicePeriodContent(row),
    order_number: orderNumber,
    currency: row.currency,
    is_business: row.isBusiness,
    reason: row.reason,
    ...documentBody(row),
    footer: row.footer,
  };
}

/** The body of the create-credit-note route. */
export type CreditNoteCreate = Static<typeof Schemas.CreditNoteCreate>;

interface Credited {
  total: number;
  /** Per VAT category and rate (`taxKey`). */
  byRate: Map<string, { gross: number; tax: number }>;
  byPosition: Map<number, { quantity: number; gross: number; tax: number }>;
  amountBased: boolean;
}

function creditedSoFar(notes: CreditNoteRow[]): Credited {
  const c: Credited = { total: 0, byRate: new Map(), byPosition: new Map(), amountBased: false };
  for (const n of notes) {
    c.total += n.totalCents;
    for (const l of n.lines) {
      const r = c.byRate.get(taxKey(l)) ?? { gross: 0, tax: 0 };
      r.gross += l.line_total_cents;
      r.tax += l.tax_cents;
      c.byRate.set(taxKey(l), r);
      if (l.invoice_position === null) c.amountBased = true;
      else {
        const p = c.byPosition.get(l.invoice_position) ?? { quantity: 0, gross: 0, tax: 0 };
        p.quantity += l.quantity;
        p.gross += l.line_total_cents;
        p.tax += l.tax_cents;
        c.byPosition.set(l.invoice_position, p);
      }
    }
  }
  return c;
}

const exceeds = (detail: string) => new AppError('credit_exceeds_invoice', detail);

/** Credit lines for quantities of invoice lines; the last part of a line takes its exact remainder. */
function linesCredit(inv: InvoiceRow, credited: Credited, wanted: { position: number; quantity: number }[]): DocLine[] {
  const errors: FieldError[] = [];
  const seen = new Set<number>();
  wanted.forEach((w, i) => {
    if (seen.has(w.position)) errors.push({ path: `/body/lines/${i}/position`, message: 'is listed twice' });
    seen.add(w.position);
    if (!inv.lines.some((l) => l.position === w.position)) {
      errors.push({ path: `/body/lines/${i}/position`, message: 'is not a line of the invoice' });
    }
  });
  if (errors.length > 0) throw new AppError('validation_failed', `${errors[0]?.path} ${errors[0]?.message}`, errors);
  return wanted.map((w, i) => {
    const src = inv.lines.find((l) => l.position === w.position) as DocLine;
    const before = credited.byPosition.get(w.position) ?? { quantity: 0, gross: 0, tax: 0 };
    const left = src.quantity - before.quantity;
    if (w.quantity > left) {
      throw new AppError(
        'credit_exceeds_invoice',
        `Line ${w.position} has ${left} of ${src.quantity} left to credit (asked for ${w.quantity})`,
        [{ path: `/body/lines/${i}/quantity`, message: `at most ${left}` }],
      );
    }
    const rest = w.quantity === left;
    const gross = rest ? src.line_total_cents - before.gross : mulDiv(src.line_total_cents, w.quantity, src.quantity);
    return line(i + 1, src.kind, src.name, w.quantity, gross, src.tax_rate, {
      ...(src.tax_category ? { category: src.tax_category } : {}),
      sku: src.sku,
      unitPriceCents: src.unit_price_cents,
      invoicePosition: src.position,
      ...(rest ? { taxCents: src.tax_cents - before.tax } : {}),
    });
  });
}

/** A gross amount split over the invoice's tax rates in proportion to what is left at each. */
function amountCredit(inv: InvoiceRow, credited: Credited, amount: number): DocLine[] {
  const groups = inv.taxGroups.map((g) => {
    const done = credited.byRate.get(taxKey(g)) ?? { gross: 0, tax: 0 };
    return { ...g, leftGross: g.gross_cents - done.gross, leftTax: g.tax_cents - done.tax };
  });
  const parts = allocate(
    amount,
    groups.map((g) => Math.max(0, g.leftGross)),
  );
  const out: DocLine[] = [];
  groups.forEach((g, i) => {
    const part = parts[i] as number;
    if (part <= 0) return;
    const label = `Gutschrift zu Rechnung ${inv.number}${groups.length > 1 ? ` (${percent(g.tax_rate)} % USt.)` : ''}`;
    out.push(
      line(out.length + 1, 'adjustment', label, 1, part, g.tax_rate, {
        ...(g.tax_category ? { category: g.tax_category } : {}),
        invoicePosition: null,
        ...(part === g.leftGross ? { taxCents: g.leftTax } : {}),
      }),
    );
  });
  return out;
}

/**
 * The lines a credit note of `inv` would have, given the credit notes it has (`notes`, drafts and
 * final): by lines and quantities, by an amount split over the tax rates, or in full. Pure: the
 * create route, a refund's credit note and the refund preview all plan with it, so what the
 * preview shows is what is written. Throws the problems the create route answers.
 */
export function planCreditLines(inv: InvoiceRow, notes: CreditNoteRow[], body: CreditNoteCreate): DocLine[] {
  if (inv.status === 'credited') throw conflict('fully_credited', 'The invoice is already fully credited');
  assertInvoiceAction(inv.status, 'credit');
  const credited = creditedSoFar(notes);
  const left = inv.totalCents - credited.total;
  if (left <= 0) {
    throw conflict('fully_credited', 'Credit notes (final or draft) already cover the whole invoice');
  }
  let lines: DocLine[];
  if (body.lines !== undefined) {
    lines = linesCredit(inv, credited, body.lines);
  } else if (body.amount_cents !== undefined) {
    if (body.amount_cents > left) {
      throw new AppError(
        'credit_exceeds_invoice',
        `At most ${left} cents of the invoice are left to credit (asked for ${body.amount_cents})`,
        [{ path: '/body/amount_cents', message: `at most ${left}` }],
      );
    }
    lines = amountCredit(inv, credited, body.amount_cents);
  } else if (!credited.amountBased) {
    // full credit: every line's remaining quantity
    const rest = inv.lines
      .map((l) => ({
        position: l.position,
        quantity: l.quantity - (credited.byPosition.get(l.position)?.quantity ?? 0),
      }))
      .filter((w) => w.quantity > 0);
    lines = linesCredit(inv, credited, rest);
  } else {
    lines = amountCredit(inv, credited, left);
  }
  const totals = sums(lines);
  if (totals.total_cents <= 0) throw conflict('nothing_to_credit', 'The credit note would credit nothing');
  if (credited.total + totals.total_cents > inv.totalCents) {
    throw exceeds('The credit notes of this invoice would exceed its total');
  }
  for (const g of taxGroups(lines)) {
    const invGroup = inv.taxGroups.find((x) => taxKey(x) === taxKey(g));
    const done = credited.byRate.get(taxKey(g))?.gross ?? 0;
    if (!invGroup || done + g.gross_cents > invGroup.gross_cents) {
      throw exceeds(`The credit notes would exceed the invoice's amount at ${percent(g.tax_rate)} % VAT`);
    }
  }
  return lines;
}

function assertLinesOrAmount(body: CreditNoteCreate): void {
  if (body.lines !== undefined && body.amount_cents !== undefined) {
    throw new AppError('validation_failed', 'Credit either lines or an amount, not both', [
      { path: '/body/amount_cents', message: 'cannot be combined with lines' },
    ]);
  }
}

/**
 * POST /api/admin/invoices/:id/credit-note-preview: the credit note the same body would create
 * now (its lines, VAT groups and totals, planned by `planCreditLines` as the create route does),
 * what is left to credit before and after it, and per invoice line the quantity still creditable.
 * Writes nothing; answers the problems the create route would.
 */
export async function previewCreditNote(
  ctx: Pick<Ctx, 'db' | 'shopId' | 'actor'>,
  invoiceId: string,
  body: CreditNoteCreate,
) {
  assertLinesOrAmount(body);
  const inv = await getDocument(ctx, invoices, invoiceId, 'Invoice');
  const notes = await ctx.db
    .select()
    .from(creditNotes)
    .where(and(eq(creditNotes.shopId, ctx.shopId), eq(creditNotes.invoiceId, inv.id)));
  const credited = creditedSoFar(notes);
  const lines = planCreditLines(inv, notes, body);
  const totals = sums(lines);
  const left = inv.totalCents - credited.total;
  const planned = documentBodyOut({ ...inv, lines, taxGroups: taxGroups(lines), ...netTaxTotal(totals) });
  return {
    invoice_id: inv.id,
    invoice_number: inv.number,
    currency: inv.currency,
    lines: planned.lines,
    tax_breakdown: planned.tax_breakdown,
    net_cents: planned.net_cents,
    tax_cents: planned.tax_cents,
    total_cents: planned.total_cents,
    left_before_cents: left,
    left_after_cents: left - totals.total_cents,
    invoice_lines: inv.lines.map((l) => ({
      position: l.position,
      name: l.name,
      quantity: l.quantity,
      quantity_left: l.quantity - (credited.byPosition.get(l.position)?.quantity ?? 0),
      unit_price_cents: l.unit_price_cents,
    })),
  };
}

const netTaxTotal = (t: ReturnType<typeof sums>) => ({
  netCents: t.net_cents,
  taxCents: t.tax_cents,
  totalCents: t.total_cents,
});

export async function createCreditNote(ctx: Ctx, invoiceId: string, body: CreditNoteCreate): Promise<CreditNoteRow> {
  assertLinesOrAmount(body);
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const inv = await lockInvoice(t, invoiceId);
    const notes = await tx
      .select()
      .from(creditNotes)
      .where(and(eq(creditNotes.shopId, ctx.shopId), eq(creditNotes.invoiceId, inv.id)));
    const lines = planCreditLines(inv, notes, body);
    const totals = sums(lines);
    const now = ctx.clock.now();
    return one(
      await tx
        .insert(creditNotes)
        .values({
          id: newId('creditNote'),
          shopId: ctx.shopId,
          invoiceId: inv.id,
          orderId: inv.orderId,
          status: 'draft',
          invoiceNumber: inv.number as string,
          invoiceIssueDate: inv.issueDate as string,
          servicePeriodStart: inv.servicePeriodStart,
          servicePeriodEnd: inv.servicePeriodEnd,
          currency: inv.currency,
          isBusiness: inv.isBusiness,
          reason: body.reason ?? null,
          buyer: inv.buyer,
          lines,
          taxGroups: taxGroups(lines),
          netCents: totals.net_cents,
          taxCents: totals.tax_cents,
          totalCents: totals.total_cents,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
  });
}

export function getCreditNote(ctx: Pick<Ctx, 'db' | 'shopId' | 'actor'>, id: string): Promise<CreditNoteRow> {
  return getDocument(ctx, creditNotes, id, 'Credit note');
}

export type CreditNoteFilters = Paged<Static<typeof Schemas.CreditNoteListQuery>>;

export async function listCreditNotes(ctx: Pick<Ctx, 'db' | 'shopId' | 'actor'>, f: CreditNoteFilters) {
  const conds: SQL[] = [];
  if (f.invoice_id) conds.push(eq(creditNotes.invoiceId, f.invoice_id));
  if (f.q) {
    const like = likeAnywhere(f.q);
    conds.push(
      sql`(${creditNotes.number} ILIKE ${like} OR ${creditNotes.invoiceNumber} ILIKE ${like}
           OR ${creditNotes.buyer}->>'email' ILIKE ${like} OR ${creditNotes.buyer}->>'name' ILIKE ${like})`,
    );
  }
  return listDocuments(ctx, creditNotes, f, conds);
}

export async function deleteCreditNoteDraft(ctx: Ctx, id: string): Promise<void> {
  await withTx(ctx, async (t) => {
    const row = await lockDocument(t, creditNotes, id, 'Credit note');
    assertCreditNoteAction(row.status, 'delete');
    await t.db.delete(creditNotes).where(and(eq(creditNotes.shopId, ctx.shopId), eq(creditNotes.id, id)));
  });
}

/**
 * Finalizes a credit note: the invoice is locked first (the same order as creation), the total
 * of final credit notes is checked against the invoice, a number of the credit-note range is
 * taken in this transaction, and the invoice becomes partially_credited or credited.
 */
export async function finalizeCreditNote(ctx: Ctx, id: string): Promise<CreditNoteRow> {
  return withTx(ctx, async (t) => {
    const tx = t.db;
    // read without a lock first: the invoice is locked before the credit note, as creation does
    const peek = await getDocument(t, creditNotes, id, 'Credit note');
    const inv = await lockInvoice(t, peek.invoiceId);
    const cn = await lockDocument(t, creditNotes, id, 'Credit note');
    const to = creditNoteStates.fire(cn.status, 'finalize');
    const finals = await tx
      .select({ total: sql<number>`coalesce(sum(${creditNotes.totalCents}), 0)::bigint` })
      .from(creditNotes)
      .where(
        and(eq(creditNotes.shopId, ctx.shopId), eq(creditNotes.invoiceId, inv.id), eq(creditNotes.status, 'final')),
      );
    const creditedBefore = Number(finals[0]?.total ?? 0);
    if (creditedBefore + cn.totalCents > inv.totalCents) {
      throw exceeds('Final credit notes would exceed the invoice total');
    }
    const settings = await loadSettings(t);
    assertSellerComplete(settings, cn.isBusiness);
    const now = ctx.clock.now();
    const issueDate = localDate(now, settings.timeZone);
    const frozen: CreditNoteRow = {
      ...cn,
      status: to,
      issueDate,
      seller: sellerSnapshot(settings),
      footer: settings.invoiceFooter,
      number: 'GS-CHECK',
    };
    if (cn.isBusiness) assertEinvoiceReady(creditNoteContent(frozen, inv.orderNumber));
    frozen.number = await nextDocumentNumber(t, 'credit_note', settings.creditNoteNumberFormat, issueDate);
    const updated = one(
      await tx
        .update(creditNotes)
        .set({
          status: to,
          number: frozen.number,
          issueDate,
          seller: frozen.seller,
          footer: frozen.footer,
          contentHash: contentHash(creditNoteContent(frozen, inv.orderNumber)),
          finalizedAt: now,
          updatedAt: now,
        })
        .where(and(eq(creditNotes.shopId, ctx.shopId), eq(creditNotes.id, id)))
        .returning(),
    );
    const credited = creditedBefore + cn.totalCents;
    await tx
      .update(invoices)
      .set({ creditedCents: credited, status: creditedState(inv.status, credited, inv.totalCents), updatedAt: now })
      .where(and(eq(invoices.shopId, inv.shopId), eq(invoices.id, inv.id)));
    // the commissions this credit note takes back from vendors and the affiliate (partners, via app.ts)
    await runHook(t, 'creditNote.finalized', { shopId: ctx.shopId, orderId: inv.orderId, creditNoteId: id, now });
    await scheduleAccountingSync(t, inv.orderId, now);
    return updated;
  });
}

export { assertCreditNoteAction };

/** The lines of the order's credit notes that are not drafts, each with its invoice's total (partner clawbacks). */
export async function creditNoteLinesOfOrder(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  orderId: string,
): Promise<{ id: string; lines: DocLine[]; invoice_total: number | string }[]> {
  return query<{ id: string; lines: DocLine[]; invoice_total: number | string }>(
    ctx.db,
    sql`SELECT cn.id, cn.lines, i.total_cents AS invoice_total FROM credit_notes cn JOIN invoices i ON i.shop_id = cn.shop_id AND i.id = cn.invoice_id
        WHERE cn.shop_id = ${ctx.shopId} AND cn.order_id = ${orderId} AND cn.status <> 'draft'`,
  );
}

/** The order's final invoice that can still be credited (`final`, `partially_credited`), newest first; or null. */
export async function finalInvoiceOfOrder(
  ctx: Pick<Ctx, 'db'>,
  shopId: string,
  orderId: string,
): Promise<{ id: string } | null> {
  const [invoice] = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(
      and(
        eq(invoices.shopId, shopId),
        eq(invoices.orderId, orderId),
        inArray(invoices.status, ['final', 'partially_credited']),
      ),
    )
    .orderBy(desc(invoices.createdAt))
    .limit(1);
  return invoice ?? null;
}

/**
 * What the credit note of a refund credits (`refund`: its amount and, for a refund by lines, the
 * order lines = invoice positions and quantities), given the invoice and its credit notes; null
 * when they cover the invoice already. Lines when they can still be credited, else the amount
 * (at most what is left). Pure: `creditRefund` writes it, the refund preview shows it.
 */
export function planRefundCredit(
  inv: InvoiceRow,
  notes: CreditNoteRow[],
  refund: Pick<SucceededRefund, 'amountCents' | 'lines' | 'reason' | 'refundId'>,
): { body: CreditNoteCreate; lines: DocLine[] } | null {
  const left = inv.totalCents - creditedSoFar(notes).total;
  if (left <= 0) return null;
  const reason = `Erstattung ${refund.refundId}: ${refund.reason}`;
  if (refund.lines && refund.lines.length > 0) {
    const body = { lines: refund.lines.map((l) => ({ position: l.position, quantity: l.quantity })), reason };
    try {
      return { body, lines: planCreditLines(inv, notes, body) };
    } catch (err) {
      // credit notes made by hand took these lines already: the refund credits its amount instead
      if (!(err instanceof AppError)) throw err;
    }
  }
  const body = { amount_cents: Math.min(refund.amountCents, left), reason };
  return { body, lines: planCreditLines(inv, notes, body) };
}

/** The credit note a refund of the order would get now (the refund preview); null without a creditable final invoice. */
export async function previewRefundCredit(
  ctx: Pick<Ctx, 'db' | 'shopId' | 'actor'>,
  orderId: string,
  refund: Pick<SucceededRefund, 'amountCents' | 'lines' | 'reason'>,
): Promise<{ lines: DocLine[]; invoiceTotalCents: number } | null> {
  const invoice = await finalInvoiceOfOrder(ctx, ctx.shopId, orderId);
  if (!invoice) return null;
  const inv = await getDocument(ctx, invoices, invoice.id, 'Invoice');
  const notes = await ctx.db
    .select()
    .from(creditNotes)
    .where(and(eq(creditNotes.shopId, ctx.shopId), eq(creditNotes.invoiceId, inv.id)));
  const plan = planRefundCredit(inv, notes, { ...refund, refundId: 'preview' });
  return plan ? { lines: plan.lines, invoiceTotalCents: inv.totalCents } : null;
}

/**
 * The credit note for a succeeded refund, finalized at once, when the order has a final invoice
 * (the `creditRefund` port of orders' refunds); its id, else null. When the company data no longer
 * allows finalizing it (seller or e-invoice data missing), it stays a draft. `ctx.db` is the refund's transaction.
 */
export async function creditRefund(ctx: Ctx, refund: SucceededRefund): Promise<string | null> {
  const invoice = await finalInvoiceOfOrder(ctx, refund.shopId, refund.orderId);
  if (!invoice) return null;
  // the money is back already: credit notes made by hand (drafts included) may cover part or all
  // of the invoice, so the refund credits what they leave, and nothing when they cover it all
  const inv = await lockInvoice(ctx as TxCtx, invoice.id);
  const notes = await ctx.db
    .select()
    .from(creditNotes)
    .where(and(eq(creditNotes.shopId, refund.shopId), eq(creditNotes.invoiceId, inv.id)));
  const plan = planRefundCredit(inv, notes, refund);
  if (!plan) return null;
  const note = await createCreditNote(ctx, invoice.id, plan.body);
  try {
    const final = await finalizeCreditNote(ctx, note.id);
    return final.id;
  } catch (err) {
    // the money has moved: company data the credit note lacks (removed since the invoice) must not
    // keep the refund from settling; the draft holds the amount until the owner completes the
    // settings and finalizes it (its checks ran before any write, so nothing else is undone)
    if (err instanceof AppError && (err.code === 'seller_data_missing' || err.code === 'einvoice_data_missing')) {
      ctx.log.warn(
        { credit_note_id: note.id, refund_id: refund.refundId, reason: err.detail },
        'the refund credit note is left a draft',
      );
      return note.id;
    }
    throw err;
  }
}
