/** Routes of invoices: drafts from orders, finalization, e-mail, PDF and XRechnung (docs/finance.md). */
import { manageMoney, readMoney } from '../../platform/auth/presets.js';
import { IdParams, pageOf } from '../../platform/http/schemas.js';
import { deleteByIdRoute, type TypedApp } from '../../platform/http/typed-app.js';
import { finalizeInvoice } from './corrections.js';
import * as del from './delivery.service.js';
import { optionalBody, sendFile } from './document-replies.js';
import * as S from './finance.schemas.js';
import * as inv from './invoices.service.js';

export function invoiceRoutes(app: TypedApp): void {
  const tags = ['invoices'];
  app.get(
    '/api/admin/invoices',
    {
      config: readMoney,
      schema: {
        tags,
        summary: 'List invoices, newest first (status, issue-date range, q)',
        querystring: S.InvoiceListQuery,
        response: { 200: S.InvoiceList },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      const { rows, count } = await inv.listInvoices(request.ctx, { ...q, limit, offset });
      return { invoices: rows.map(inv.invoiceOut), count, limit, offset };
    },
  );

  app.get(
    '/api/admin/invoices/:id',
    {
      config: readMoney,
      schema: { tags, summary: 'Read an invoice', params: IdParams, response: { 200: S.Invoice } },
    },
    async (request) => inv.invoiceOut(await inv.getInvoice(request.ctx, request.params.id)),
  );

  app.get(
    '/api/admin/invoices/:id/einvoice-check',
    {
      config: readMoney,
      schema: {
        tags,
        summary: 'Whether the invoice’s EN 16931 e-invoice would pass, and what it lacks (a draft: if finalized now)',
        params: IdParams,
        response: { 200: S.EinvoiceCheck },
      },
    },
    async (request) => inv.invoiceEinvoiceCheck(request.ctx, request.params.id),
  );

  app.post(
    '/api/admin/orders/:orderId/invoice',
    {
      config: manageMoney,
      preValidation: optionalBody,
      schema: {
        tags,
        summary: 'Create a draft invoice from an order (one open invoice per order: 409 invoice_exists)',
        params: S.OrderParams,
        body: S.InvoiceCreate,
        response: { 201: S.Invoice },
      },
    },
    async (request, reply) => {
      const { orderId } = request.params;
      const row = await inv.createInvoice(request.ctx, orderId, request.body ?? {});
      return reply.code(201).send(inv.invoiceOut(row));
    },
  );

  app.patch(
    '/api/admin/invoices/:id',
    {
      config: manageMoney,
      schema: {
        tags,
        summary: 'Change a draft (buyer, business flag, reference, note); a final invoice is immutable (409)',
        params: IdParams,
        body: S.InvoicePatch,
        response: { 200: S.Invoice },
      },
    },
    async (request) => inv.invoiceOut(await inv.updateDraft(request.ctx, request.params.id, request.body)),
  );

  deleteByIdRoute(
    app,
    '/api/admin/invoices/:id',
    { config: manageMoney, tags, summary: 'Delete a draft invoice; a final invoice is never deleted (409)' },
    inv.deleteDraft,
  );

  app.get(
    '/api/admin/invoices/:id/finalize-preview',
    {
      config: manageMoney,
      schema: {
        tags,
        summary: 'What finalizing the draft now would do: the number it would take, the dates, or why it is refused',
        params: IdParams,
        response: { 200: S.FinalizePreview },
      },
    },
    async (request) => inv.finalizePreview(request.ctx, request.params.id),
  );

  app.post(
    '/api/admin/invoices/:id/finalize',
    {
      config: manageMoney,
      schema: {
        tags,
        summary: "Finalize: next number of the shop's range (RE-{YYYY}-{NNNNN}), frozen content and hash",
        params: IdParams,
        response: { 200: S.Invoice },
      },
    },
    async (request) => inv.invoiceOut(await finalizeInvoice(request.ctx, request.params.id)),
  );

  app.post(
    '/api/admin/invoices/:id/send-email',
    {
      config: manageMoney,
      preValidation: optionalBody,
      schema: {
        tags,
        summary: 'E-mail a final invoice with its PDF attached (repeatable; records sent_at and recipient)',
        params: IdParams,
        body: S.SendEmail,
        response: { 200: S.SendEmailResponse },
      },
    },
    async (request) => {
      const r = await del.sendInvoiceEmail(request.ctx, request.params.id, request.body ?? {});
      return { ...r, invoice: inv.invoiceOut(r.invoice) };
    },
  );

  app.get(
    '/api/admin/invoices/:id/pdf',
    {
      config: readMoney,
      schema: {
        tags,
        summary: 'The invoice PDF (drafts marked); format=zugferd: Factur-X/ZUGFeRD EN 16931 for business buyers',
        params: IdParams,
        querystring: S.PdfQuery,
        response: { 200: S.binary('application/pdf', 'PDF') },
      },
    },
    async (request, reply) => {
      const { format, download } = request.query;
      return sendFile(reply, await del.invoicePdf(request.ctx, request.params.id, format ?? 'pdf'), download === true);
    },
  );

  app.get(
    '/api/admin/invoices/:id/xrechnung',
    {
      config: readMoney,
      schema: {
        tags,
        summary: 'XRechnung 3.0 XML (UBL, or CII with syntax=cii) of a final invoice to a business buyer',
        params: IdParams,
        querystring: S.XmlQuery,
        response: { 200: S.binary('application/xml', 'XRechnung XML') },
      },
    },
    async (request, reply) => {
      const { syntax } = request.query;
      return sendFile(reply, await del.invoiceXml(request.ctx, request.params.id, syntax ?? 'ubl'), true);
    },
  );
}
