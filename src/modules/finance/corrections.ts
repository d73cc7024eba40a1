/**
 * Invoices that must match the money (docs/finance.md, "Corrections"): an invoice finalized
 * after refunds is corrected by a credit note per refund in the same transaction, and the final
 * invoice of an order cancelled without ever being paid is credited in full (§ 14c UStG: VAT
 * shown is owed until it is corrected).
 */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import { setRefundCreditNote, succeededRefunds } from '../orders/index.js';
import { createCreditNote, finalInvoiceOfOrder, finalizeCreditNote } from './credit-notes.service.js';
import { creditNotes } from './finance.tables.js';
import { finalizeInvoiceIn, type InvoiceRow, lockInvoice } from './invoices.service.js';

/**
 * Finalizes a draft invoice (finalizeInvoiceIn) and, in the same transaction, credits every
 * refund of the order that succeeded before: one final credit note per refund, for its amount.
 * The invoice is for the whole order, so the invoice minus its credit notes is what the customer
 * kept paid. The order is locked from the start, so a refund settles either before (credited
 * here) or after (credited by its own credit note, `creditRefund`), never both.
 *
 * A refund without a credit note (the order had no final invoice when it settled) already clawed
 * back its share of the partner earnings; it is linked to its new credit note before that note
 * is finalized, so the clawback target moves from the refund to the credit note and nothing is
 * clawed back twice. A refund credited on an earlier, fully credited invoice keeps its credit note.
 */
export async function finalizeInvoice(ctx: Ctx, id: string): Promise<InvoiceRow> {
  return withTx(ctx, async (t) => {
    const invoice = await finalizeInvoiceIn(t, id);
    const now = t.clock.now();
    let left = invoice.totalCents;
    for (const refund of await succeededRefunds(t, invoice.orderId)) {
      const amount = Math.min(refund.amountCents, left);
      if (amount <= 0) break;
      const note = await createCreditNote(t, invoice.id, {
        amount_cents: amount,
        reason: `Erstattung ${refund.id} vor Rechnungsstellung: ${refund.reason}`,
      });
      if (refund.creditNoteId === null) await setRefundCreditNote(t, refund.id, note.id, now);
      await finalizeCreditNote(t, note.id);
      left -= amount;
    }
    // the invoice as it stands now (partially_credited, credited_cents)
    return lockInvoice(t, id);
  });
}

/**
 * The `order.cancelledUnpaid` listener: the order's final invoice (if any) is credited in full
 * by a final credit note, in the cancelling transaction. Unnumbered drafts of its credit notes
 * are deleted first: the cancellation credits all that final credit notes leave. When the company
 * data no longer allows finalizing (seller or e-invoice data missing), the credit note stays a
 * draft for the owner to finalize, as a refund's does; the cancellation is not held up. An invoice
 * of 0 cents gets none (there is nothing to credit; it was 409 fully_credited, cancel impossible).
 */
export async function creditCancelledOrder(ctx: TxCtx, e: { shopId: string; orderId: string }): Promise<void> {
  const found = await finalInvoiceOfOrder(ctx, e.shopId, e.orderId);
  if (!found) return;
  const invoice = await lockInvoice(ctx, found.id);
  // an invoice of 0 cents (a free order) has nothing to credit; a credit note of it is refused
  if (invoice.totalCents <= 0) return;
  await ctx.db
    .delete(creditNotes)
    .where(
      and(eq(creditNotes.shopId, e.shopId), eq(creditNotes.invoiceId, invoice.id), eq(creditNotes.status, 'draft')),
    );
  const note = await createCreditNote(ctx, invoice.id, { reason: 'Stornierung der Bestellung' });
  try {
    await finalizeCreditNote(ctx, note.id);
  } catch (err) {
    if (err instanceof AppError && (err.code === 'seller_data_missing' || err.code === 'einvoice_data_missing')) {
      ctx.log.warn(
        { credit_note_id: note.id, order_id: e.orderId, reason: err.detail },
        'the credit note of a cancelled order is left a draft',
      );
      return;
    }
    throw err;
  }
}
