/** Invoices: a draft from an order, finalization with a gapless number, reads, and deletion of drafts. */

import type { Static } from '@sinclair/typebox';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { likeAnywhere, one, type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError, conflict, type FieldError } from '../../platform/errors.js';
import type { Paged } from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import { taxFromGross } from '../../platform/money.js';
import { channelCountry } from '../channels/index.js';
import { getOrder, lockOrderStatus } from '../orders/index.js';
import type { TaxCategory } from '../tax/index.js';
import { scheduleAccountingSync } from './accounting.service.js';
import { assertInvoiceAction, invoiceStates } from './document-states.js';
import {
  contentHash,
  documentBody,
  documentBodyOut,
  getDocument,
  line,
  listDocuments,
  lockDocument,
  sums,
  taxGroups,
} from './documents.js';
import { assertEinvoiceReady, type EinvoiceProblem, einvoiceProblems, sellerProblems } from './einvoice.js';
import type * as Schemas from './finance.schemas.js';
import { type BuyerData, type DocLine, invoices } from './finance.tables.js';
import { addDays, localDate, nextDocumentNumber, peekDocumentNumber } from './numbering.js';
import { assertSellerComplete, loadSettings, sellerSnapshot } from './settings.service.js';

export type InvoiceRow = typeof invoices.$inferSelect;

/**
 * Orders that may be invoiced: a partially refunded order too (a business buyer is owed its
 * invoice), for the whole order, its earlier refunds credited at finalization (corrections.ts).
 * A refunded or cancelled order is not: nothing of the sale stands (docs/decisions.md).
 */
const INVOICEABLE = ['pending_payment', 'paid', 'fulfilled', 'partially_refunded'];

export function invoiceOut(row: InvoiceRow) {
  return {
    id: row.id,
    order_id: row.orderId,
    order_number: row.orderNumber,
    status: row.status,
    number: row.number,
    issue_date: row.issueDate,
    due_date: row.dueDate,
    service_date: row.serviceDate,
    service_period_start: row.servicePeriodStart,
    service_period_end: row.servicePeriodEnd,
    currency: row.currency,
    is_business: row.isBusiness,
    buyer_reference: row.buyerReference,
    note: row.note,
    ...documentBodyOut(row),
    paid_cents: row.paidCents,
    amount_due_cents: row.totalCents - row.paidCents,
    credited_cents: row.creditedCents,
    footer: row.footer,
    content_hash: row.contentHash,
    finalized_at: isoOrNull(row.finalizedAt),
    sent_at: isoOrNull(row.sentAt),
    sent_to: row.sentTo,
    send_count: row.sendCount,
    lexware_voucher_id: row.lexwareVoucherId,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/** The frozen content of a final invoice: what the content hash covers. */
export function invoiceContent(row: InvoiceRow) {
  return {
    type: 'invoice' as const,
    number: row.number,
    issue_date: row.issueDate,
    due_date: row.dueDate,
    service_date: row.serviceDate,
    ...servicePeriodContent(row),
    order_number: row.orderNumber,
    currency: row.currency,
    is_business: row.isBusiness,
    buyer_reference: row.buyerReference,
    note: row.note,
    ...documentBody(row),
    paid_cents: row.paidCents,
    footer: row.footer,
  };
}

/** The service period of a document's content, only when it has one (the content of others stays as it was). */
export function servicePeriodContent(row: { servicePeriodStart: string | null; servicePeriodEnd: string | null }) {
  return row.servicePeriodStart && row.servicePeriodEnd
    ? { service_period_start: row.servicePeriodStart, service_period_end: row.servicePeriodEnd }
    : {};
}

/**
 * A subscription payment's billed period as days in the shop's time zone, both inclusive: the
 * order's end is the next period's start, so the last day is the one before it.
 */
function servicePeriodDays(
  o: { servicePeriodStart: Date | null; servicePeriodEnd: Date | null },
  timeZone: string,
): { start: string; end: string } | null {
  if (!o.servicePeriodStart || !o.servicePeriodEnd) return null;
  const start = localDate(o.servicePeriodStart, timeZone);
  const endDay = localDate(o.servicePeriodEnd, timeZone);
  return { start, end: endDay > start ? addDays(endDay, -1) : start };
}

/** The shipping line's rate: the one that gives the stored shipping tax (the standard rate at checkout). */
async function shippingRate(ctx: Ctx, order: Awaited<ReturnType<typeof getOrder>>): Promise<number> {
  const { order: o, lines } = order;
  const candidates = lines.filter((l) => l.taxClass === 'standard').map((l) => l.taxRate);
  const country = o.shippingAddress?.country ?? o.billingAddress?.country;
  if (country) {
    const c = await channelCountry(ctx, o.channelId, country);
    if (c?.tax_rate != null) candidates.push(c.tax_rate);
  }
  candidates.push(...lines.map((l) => l.taxRate), 0.19, 0.2, 0.21, 0.1, 0.07, 0);
  const match = candidates.find((r) => taxFromGross(o.shippingCents, r) === o.shippingTaxCents);
  if (match !== undefined) return match;
  // no known rate reproduces it: the effective rate, rounded to a tenth of a percent
  const net = o.shippingCents - o.shippingTaxCents;
  return net > 0 ? Math.round((o.shippingTaxCents / net) * 1000) / 1000 : 0;
}

/** The body of the create-invoice route. */
export type InvoiceCreate = Static<typeof Schemas.InvoiceCreate>;

export async function createInvoice(ctx: Ctx, orderId: string, body: InvoiceCreate): Promise<InvoiceRow> {
  const order = await getOrder(ctx, orderId);
  const o = order.order;
  if (!INVOICEABLE.includes(o.status)) {
    throw conflict('order_not_invoiceable', `An order in state ${o.status} cannot be invoiced`);
  }
  // the rate and category the order was priced with (docs/finance.md "Which tax applies")
  const docLines: DocLine[] = order.lines.map((l, i) =>
    line(i + 1, 'item', l.name, l.quantity, l.lineTotalCents, l.taxRate, {
      sku: l.sku,
      unitPriceCents: l.unitPriceCents,
      taxCents: l.taxCents,
      category: l.taxCategory as TaxCategory,
    }),
  );
  if (o.shippingCents > 0) {
    const rate = o.shippingTaxRate ?? (await shippingRate(ctx, order));
    const category = (o.shippingTaxCategory ?? 'S') as TaxCategory;
    docLines.push(
      line(docLines.length + 1, 'shipping', 'Versand', 1, o.shippingCents, rate, {
        taxCents: o.shippingTaxCents,
        ...(o.shippingTaxRate !== null || rate > 0 ? { category } : {}),
      }),
    );
  }
  const address = o.billingAddress ?? o.shippingAddress;
  const buyer: BuyerData = {
    name: address?.name ?? '',
    company: address?.company ?? null,
    vat_id: address?.vat_id ? address.vat_id.replace(/\s+/g, '').toUpperCase() : null,
    line1: address?.line1 ?? '',
    line2: address?.line2 ?? null,
    postal_code: address?.postal_code ?? '',
    city: address?.city ?? '',
    country: address?.country ?? '',
    email: o.customerEmail,
    ...(o.shippingAddress
      ? {
          delivery_address: {
            line1: o.shippingAddress.line1,
            postal_code: o.shippingAddress.postal_code,
            city: o.shippingAddress.city,
            country: o.shippingAddress.country,
          },
        }
      : {}),
  };
  const totals = sums(docLines);
  const now = ctx.clock.now();
  const settings = await loadSettings(ctx);
  const period = servicePeriodDays(o, settings.timeZone);
  const id = newId('invoice');
  try {
    return one(
      await ctx.db
        .insert(invoices)
        .values({
          id,
          shopId: ctx.shopId,
          orderId: o.id,
          orderNumber: o.number,
          status: 'draft',
          serviceDate: localDate(o.paidAt ?? o.createdAt, settings.timeZone),
          servicePeriodStart: period?.start ?? null,
          servicePeriodEnd: period?.end ?? null,
          currency: o.currency,
          isBusiness: body.is_business ?? Boolean(buyer.vat_id || buyer.company),
          buyerReference: body.buyer_reference ?? null,
          note: body.note ?? null,
          buyer,
          lines: docLines,
          taxGroups: taxGroups(docLines),
          netCents: totals.net_cents,
          taxCents: totals.tax_cents,
          totalCents: totals.total_cents,
          paidCents: o.paidAt ? totals.total_cents : 0,
          createdAt: now,
          updatedAt: now,
        })
        .returning(),
    );
  } catch (err) {
    if (
      String((err as { cause?: { code?: string }; code?: string })?.cause?.code ?? (err as { code?: string }).code) ===
      '23505'
    ) {
      throw conflict('invoice_exists', 'This order already has an open invoice');
    }
    throw err;
  }
}

/** The invoice, locked until the caller's transaction ends; credit notes lock it too, before their own rows. */
export function lockInvoice(ctx: TxCtx, id: string): Promise<InvoiceRow> {
  return lockDocument(ctx, invoices, id, 'Invoice');
}

export function getInvoice(ctx: Pick<Ctx, 'db' | 'shopId' | 'actor'>, id: string): Promise<InvoiceRow> {
  return getDocument(ctx, invoices, id, 'Invoice');
}

export type InvoiceFilters = Paged<Static<typeof Schemas.InvoiceListQuery>>;

export async function listInvoices(ctx: Pick<Ctx, 'db' | 'shopId' | 'actor'>, f: InvoiceFilters) {
  const conds: SQL[] = [];
  if (f.created_from) conds.push(sql`${invoices.createdAt} >= ${f.created_from}::timestamptz`);
  if (f.created_to) conds.push(sql`${invoices.createdAt} < ${f.created_to}::timestamptz`);
  if (f.q) {
    const like = likeAnywhere(f.q);
    conds.push(
      sql`(${invoices.number} ILIKE ${like} OR ${invoices.orderNumber} = ${f.q}
           OR ${invoices.buyer}->>'email' ILIKE ${like} OR ${invoices.buyer}->>'name' ILIKE ${like}
           OR ${invoices.buyer}->>'company' ILIKE ${like})`,
    );
  }
  return listDocuments(ctx, invoices, f, conds);
}

/** The body of the draft-invoice patch route. */
export type InvoicePatch = Static<typeof Schemas.InvoicePatch>;

/** Changes a draft's buyer, business flag, buyer reference or note. A final invoice: 409. */
export async function updateDraft(ctx: Ctx, id: string, patch: InvoicePatch): Promise<InvoiceRow> {
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const row = await lockInvoice(t, id);
    assertInvoiceAction(row.status, 'edit');
    const buyer = { ...row.buyer, ...(patch.buyer ?? {}) };
    if (buyer.vat_id) buyer.vat_id = buyer.vat_id.replace(/\s+/g, '').toUpperCase();
    return one(
      await tx
        .update(invoices)
        .set({
          buyer,
          ...(patch.is_business !== undefined ? { isBusiness: patch.is_business } : {}),
          ...(patch.buyer_reference !== undefined ? { buyerReference: patch.buyer_reference } : {}),
          ...(patch.note !== undefined ? { note: patch.note } : {}),
          updatedAt: ctx.clock.now(),
        })
        .where(and(eq(invoices.shopId, ctx.shopId), eq(invoices.id, id)))
        .returning(),
    );
  });
}

export async function deleteDraft(ctx: Ctx, id: string): Promise<void> {
  await withTx(ctx, async (t) => {
    const row = await lockInvoice(t, id);
    assertInvoiceAction(row.status, 'delete');
    await t.db.delete(invoices).where(and(eq(invoices.shopId, ctx.shopId), eq(invoices.id, id)));
  });
}

/**
 * What a document needs of its buyer; a business buyer needs a full address (EN 16931 BR-DE-8/9).
 * An intra-community supply (K) or a reverse-charge service (AE) names the buyer's VAT ID on any
 * invoice, e-invoice or not (§ 14a (1) and (3) UStG), whatever the business flag says.
 */
export function buyerProblems(buyer: BuyerData, business: boolean, lines: DocLine[] = []): FieldError[] {
  const errors: FieldError[] = [];
  const need = (field: keyof BuyerData, message = 'is required to finalize') => {
    if (!buyer[field]) errors.push({ path: `/buyer/${field}`, message });
  };
  if (!buyer.name && !buyer.company) need('name');
  need('country');
  if (business) {
    need('line1');
    need('postal_code');
    need('city');
    need('email');
  }
  if (lines.some((l) => l.tax_category === 'K' || l.tax_category === 'AE')) {
    need('vat_id', 'is required to finalize an intra-community supply or reverse charge (§ 14a UStG)');
  }
  return errors;
}

/**
 * Finalizes a draft in the caller's transaction `t`: checks seller and buyer data (and, for a
 * business buyer, every field an EN 16931 e-invoice needs) before a number is taken, then assigns
 * the next number, freezes the seller data and footer, and stores the content hash. The order
 * stays locked until `t` ends. The route's `finalizeInvoice` (corrections.ts) also credits the
 * refunds that settled before.
 */
export async function finalizeInvoiceIn(t: TxCtx, id: string): Promise<InvoiceRow> {
  const tx = t.db;
  // the order is locked before the invoice, as a refund's settlement does (it credits final invoices only)
  const peek = await getInvoice(t, id);
  const orderStatus = await lockOrderStatus(t, peek.orderId);
  const row = await lockInvoice(t, id);
  const to = invoiceStates.fire(row.status, 'finalize');
  if (orderStatus !== null && !INVOICEABLE.includes(orderStatus)) {
    // refunded in full or cancelled while this was a draft: nothing of the sale stands
    throw conflict(
      'order_not_invoiceable',
      `The order is ${orderStatus} now; it can no longer be invoiced. Delete this draft`,
    );
  }
  const settings = await loadSettings(t);
  assertSellerComplete(settings, row.isBusiness);
  const buyerErrors = buyerProblems(row.buyer, row.isBusiness, row.lines);
  if (buyerErrors.length > 0) {
    throw new AppError(
      'buyer_data_missing',
      `The buyer lacks ${buyerErrors.map((e) => e.path.split('/').pop()).join(', ')}; complete the draft with PATCH`,
      buyerErrors,
    );
  }
  const now = t.clock.now();
  const issueDate = localDate(now, settings.timeZone);
  const frozen: InvoiceRow = {
    ...row,
    status: to,
    issueDate,
    dueDate: row.paidCents >= row.totalCents ? null : addDays(issueDate, settings.paymentTermsDays),
    seller: sellerSnapshot(settings),
    footer: settings.invoiceFooter,
    number: 'RE-CHECK',
  };
  if (row.isBusiness) assertEinvoiceReady(invoiceContent(frozen));
  // every check passed: only now is a number taken
  frozen.number = await nextDocumentNumber(t, 'invoice', settings.invoiceNumberFormat, issueDate);
  const updated = one(
    await tx
      .update(invoices)
      .set({
        status: to,
        number: frozen.number,
        issueDate,
        dueDate: frozen.dueDate,
        seller: frozen.seller,
        footer: frozen.footer,
        contentHash: contentHash(invoiceContent(frozen)),
        finalizedAt: now,
        updatedAt: now,
      })
      .where(and(eq(invoices.shopId, t.shopId), eq(invoices.id, id)))
      .returning(),
  );
  await scheduleAccountingSync(t, row.orderId, now);
  return updated;
}

/** Records a sent e-mail (repeatable). */
export async function markSent(ctx: Ctx, row: InvoiceRow, to: string, now: Date): Promise<InvoiceRow> {
  return one(
    await ctx.db
      .update(invoices)
      .set({ sentAt: now, sentTo: to, sendCount: sql`${invoices.sendCount} + 1`, updatedAt: now })
      .where(and(eq(invoices.id, row.id), eq(invoices.shopId, ctx.shopId)))
      .returning(),
  );
}

/**
 * GET /api/admin/invoices/:id/einvoice-check: whether the invoice's EN 16931 e-invoice would pass,
 * from the checks finalization and the writer run. A final invoice is checked as frozen; a draft
 * as it would be finalized now (the current company data, the buyer's fields a business invoice
 * needs, then the e-invoice rules). An invoice to a consumer gets no e-invoice (`applicable`
 * false); its problems are those it would have as a business invoice.
 */
export async function invoiceEinvoiceCheck(ctx: Pick<Ctx, 'db' | 'shopId' | 'actor'>, id: string) {
  const row = await getInvoice(ctx, id);
  const problems: EinvoiceProblem[] = [];
  let doc = invoiceContent(row);
  if (row.status === 'draft') {
    const settings = await loadSettings(ctx);
    const seller = sellerSnapshot(settings);
    doc = { ...doc, seller };
    problems.push(...sellerProblems(seller, { invoice: true, eInvoice: true }));
    for (const e of buyerProblems(row.buyer, true, row.lines)) {
      problems.push({
        ...e,
        field: e.path.split('/').pop() ?? e.path,
        message_code: e.path === '/buyer/vat_id' ? 'required_for_reverse_charge' : 'required',
      });
    }
  }
  const seen = new Set<string>();
  const unique = [...problems, ...einvoiceProblems(doc, 'invoice')].filter((p) => {
    const key = `${p.path}|${p.message_code}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return {
    invoice_id: row.id,
    status: row.status,
    applicable: row.isBusiness,
    would_pass: row.isBusiness && unique.length === 0,
    problems: unique.map(({ field, path, message_code, message }) => ({ field, path, message_code, message })),
  };
}

/**
 * GET /api/admin/invoices/:id/finalize-preview: what finalizing the draft now would do — the
 * number it would take (not reserved: a finalization in between takes it first), the issue and
 * due dates — and, when finalization would be refused, the problem it would answer (the same
 * checks `finalizeInvoiceIn` runs before a number is taken). A final invoice is 409.
 */
export async function finalizePreview(ctx: Pick<Ctx, 'db' | 'shopId' | 'actor' | 'clock'>, id: string) {
  const row = await getInvoice(ctx, id);
  invoiceStates.fire(row.status, 'finalize');
  const settings = await loadSettings(ctx);
  const issueDate = localDate(ctx.clock.now(), settings.timeZone);
  const dueDate = row.paidCents >= row.totalCents ? null : addDays(issueDate, settings.paymentTermsDays);
  let blocker: { code: string; errors: FieldError[] } | null = null;
  try {
    assertSellerComplete(settings, row.isBusiness);
    const buyerErrors = buyerProblems(row.buyer, row.isBusiness, row.lines);
    if (buyerErrors.length > 0) throw new AppError('buyer_data_missing', 'buyer data missing', buyerErrors);
    if (row.isBusiness) {
      assertEinvoiceReady(
        invoiceContent({
          ...row,
          status: 'final',
          issueDate,
          dueDate,
          seller: sellerSnapshot(settings),
          footer: settings.invoiceFooter,
          number: 'RE-CHECK',
        }),
      );
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    blocker = { code: err.code, errors: err.errors ?? [] };
  }
  return {
    invoice_id: row.id,
    number: await peekDocumentNumber(ctx, 'invoice', settings.invoiceNumberFormat, issueDate),
    issue_date: issueDate,
    due_date: dueDate,
    total_cents: row.totalCents,
    currency: row.currency,
    can_finalize: blocker === null,
    blocker,
  };
}
