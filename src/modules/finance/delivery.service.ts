/**
 * Rendering and sending documents: PDF (plain, or Factur-X/ZUGFeRD for business buyers), the
 * XRechnung XML, and the invoice e-mail through the mail outbox with the PDF attached.
 */

import type { Static } from '@sinclair/typebox';
import { queueEmail } from '../../adapters/mail/index.js';
import type { Ctx } from '../../platform/auth/types.js';
import { withTx } from '../../platform/db/tx.js';
import { AppError, conflict } from '../../platform/errors.js';
import { creditNoteContent, getCreditNote } from './credit-notes.service.js';
import { assertCreditNoteAction, assertInvoiceAction } from './document-states.js';
import { type DocumentRow, type DocumentTable, decimal } from './documents.js';
import { type DocContent, EInvoiceError, renderFacturX, renderXml } from './einvoice.js';
import type * as Schemas from './finance.schemas.js';
import { getInvoice, invoiceContent, markSent } from './invoices.service.js';
import { renderPdf } from './pdf.js';
import { loadSettings, sellerSnapshot } from './settings.service.js';

export type PdfFormat = 'pdf' | 'zugferd';
export type XmlSyntax = 'ubl' | 'cii';

export interface RenderedFile {
  body: Buffer;
  contentType: string;
  filename: string;
}

/** E-invoices (XRechnung, ZUGFeRD) are for business buyers; a consumer gets the plain PDF (409). */
function assertBusinessBuyer(isBusiness: boolean): void {
  if (isBusiness) return;
  throw conflict(
    'einvoice_not_applicable',
    'E-invoices (XRechnung, ZUGFeRD) are issued to business buyers (VAT ID or marked as business); this buyer is a consumer: use the plain PDF',
  );
}

function wrap(err: unknown): never {
  if (err instanceof EInvoiceError) throw new AppError('einvoice_failed', 'The e-invoice could not be generated');
  throw err;
}

/** A draft shows the current company data as a preview; a final document its frozen snapshot. */
async function withSeller(ctx: Ctx, doc: DocContent): Promise<DocContent> {
  if (!doc.seller) {
    const settings = await loadSettings(ctx);
    doc.seller = sellerSnapshot(settings);
    doc.footer = settings.invoiceFooter;
  }
  return doc;
}

/**
 * The PDF of an invoice or credit note (file names start with `prefix`), or its Factur-X hybrid:
 * the caller has checked that the document may have one.
 */
async function pdfFile(
  doc: DocContent,
  row: DocumentRow<DocumentTable>,
  prefix: string,
  format: PdfFormat,
): Promise<RenderedFile> {
  const pdf = await renderPdf({ doc, draft: row.status === 'draft', stamp: row.finalizedAt ?? row.updatedAt });
  const name = `${prefix}-${row.number ?? `Entwurf-${row.id}`}`;
  if (format === 'pdf') return { body: pdf, contentType: 'application/pdf', filename: `${name}.pdf` };
  const hybrid = await renderFacturX(doc, pdf).catch(wrap);
  return { body: hybrid, contentType: 'application/pdf', filename: `${name}-zugferd.pdf` };
}

/** The XRechnung XML of a final invoice or credit note: the caller has checked that it may have one. */
async function xmlFile(doc: DocContent, prefix: string, syntax: XmlSyntax): Promise<RenderedFile> {
  const xml = await renderXml(doc, `xrechnung-${syntax}`).catch(wrap);
  return {
    body: Buffer.from(xml, 'utf8'),
    contentType: 'application/xml; charset=utf-8',
    filename: `${prefix}-${doc.number}-xrechnung-${syntax}.xml`,
  };
}

export async function invoicePdf(ctx: Ctx, id: string, format: PdfFormat): Promise<RenderedFile> {
  const row = await getInvoice(ctx, id);
  const doc = await withSeller(ctx, invoiceContent(row) as DocContent);
  if (format === 'zugferd') {
    assertInvoiceAction(row.status, 'einvoice');
    assertBusinessBuyer(row.isBusiness);
  }
  return pdfFile(doc, row, 'Rechnung', format);
}

export async function invoiceXml(ctx: Ctx, id: string, syntax: XmlSyntax): Promise<RenderedFile> {
  const row = await getInvoice(ctx, id);
  assertInvoiceAction(row.status, 'einvoice');
  assertBusinessBuyer(row.isBusiness);
  return xmlFile(invoiceContent(row) as DocContent, 'Rechnung', syntax);
}

async function creditNoteDoc(ctx: Ctx, id: string) {
  const cn = await getCreditNote(ctx, id);
  const inv = await getInvoice(ctx, cn.invoiceId);
  // the delivery date of the credited invoice (BT-72), from its stored data
  const doc = await withSeller(ctx, { ...creditNoteContent(cn, inv.orderNumber), service_date: inv.serviceDate });
  return { cn, doc };
}

export async function creditNotePdf(ctx: Ctx, id: string, format: PdfFormat): Promise<RenderedFile> {
  const { cn, doc } = await creditNoteDoc(ctx, id);
  if (format === 'zugferd') {
    assertCreditNoteAction(cn.status, 'einvoice');
    assertBusinessBuyer(cn.isBusiness);
  }
  return pdfFile(doc, cn, 'Gutschrift', format);
}

export async function creditNoteXml(ctx: Ctx, id: string, syntax: XmlSyntax): Promise<RenderedFile> {
  const { cn, doc } = await creditNoteDoc(ctx, id);
  assertCreditNoteAction(cn.status, 'einvoice');
  assertBusinessBuyer(cn.isBusiness);
  return xmlFile(doc, 'Gutschrift', syntax);
}

/** The body of the send-invoice route. */
export type SendBody = Static<typeof Schemas.SendEmail>;

const money = (cents: number, currency: string) => `${decimal(cents).replace('.', ',')} ${currency}`;

/**
 * Sends a final invoice by e-mail (repeatable): the e-mail goes to the outbox in the same
 * transaction that records `sent_at` and the recipient; the PDF (Factur-X for business buyers)
 * is stored with it as an attachment.
 */
export async function sendInvoiceEmail(ctx: Ctx, id: string, body: SendBody) {
  const row = await getInvoice(ctx, id);
  assertInvoiceAction(row.status, 'send');
  const to = body.to ?? row.buyer.email;
  if (!to) {
    throw new AppError('validation_failed', 'The invoice has no buyer e-mail; name a recipient', [
      { path: '/body/to', message: 'is required' },
    ]);
  }
  const file = await invoicePdf(ctx, id, row.isBusiness ? 'zugferd' : 'pdf');
  const seller = row.seller?.legal_name ?? '';
  const subject = body.subject ?? `Ihre Rechnung ${row.number}${seller ? ` von ${seller}` : ''}`;
  const text = [
    `Guten Tag ${row.buyer.name || row.buyer.company || ''},`.replace(/ ,$/, ','),
    '',
    body.message ??
      `anbei erhalten Sie die Rechnung ${row.number} vom ${row.issueDate} zu Ihrer Bestellung ${row.orderNumber} über ${money(row.totalCents, row.currency)}.`,
    '',
    `Anhang: ${file.filename}`,
    '',
    'Mit freundlichen Grüßen',
    seller,
  ].join('\n');
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    const emailId = await queueEmail(
      { db: t.db, shopId: ctx.shopId },
      {
        kind: 'invoice',
        to,
        subject,
        text,
        now,
        attachments: [{ filename: file.filename, contentType: file.contentType, content: file.body }],
      },
    );
    const updated = await markSent(t, row, to, now);
    return {
      invoice: updated,
      email_id: emailId,
      to,
      attachment: { filename: file.filename, size_bytes: file.body.length },
    };
  });
}
