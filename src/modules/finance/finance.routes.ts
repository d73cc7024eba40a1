/**
 * Finance routes (docs/finance.md): company settings, invoices, credit notes, and the `lexware`
 * accounting integration. Reading needs an owner, admin or viewer session (`readMoney`: a viewer
 * sees finance but cannot change it); every change an owner or admin session (`manageMoney`).
 * Every API token is refused with 403 token_blocked (docs/ARCHITECTURE.md: finance:read included).
 */
import type { FastifyReply } from 'fastify';
import { manageMoney, readMoney } from '../../platform/auth/presets.js';
import { IdParams, pageOf } from '../../platform/http/schemas.js';
import { deleteByIdRoute, type TypedApp } from '../../platform/http/typed-app.js';
import * as acc from './accounting.service.js';
import { finalizeInvoice } from './corrections.js';
import * as cn from './credit-notes.service.js';
import * as del from './delivery.service.js';
import * as S from './finance.schemas.js';
import * as inv from './invoices.service.js';
import * as settings from './settings.service.js';

/** POSTs whose body is optional: no body means `{}`. */
const optionalBody = async (request: { body: unknown }) => {
  request.body ??= {};
};

function sendFile(reply: FastifyReply, file: del.RenderedFile, download = false) {
  return reply
    .type(file.contentType)
    .header('content-disposition', `${download ? 'attachment' : 'inline'}; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(file.body);
}

export function financeRoutes(app: TypedApp): void {
  // ---- company settings ----
  app.get(
    '/api/admin/settings/company',
    {
      config: readMoney,
      schema: {
        tags: ['finance'],
        summary: "The seller's company data printed on invoices, and the number formats",
        response: { 200: S.CompanySettings },
      },
    },
    async (request) => settings.settingsOut(await settings.loadSettings(request.ctx)),
  );

  app.put(
    '/api/admin/settings/company',
    {
      config: manageMoney,
      schema: {
        tags: ['finance'],
        summary: 'Set company data (legal name, address, VAT ID, tax number, bank, footer, number formats)',
        body: S.CompanySettingsPut,
        response: { 200: S.CompanySettings },
      },
    },
    async (request) => settings.settingsOut(await settings.putSettings(request.ctx, request.body)),
  );

  app.get(
    '/api/admin/settings/company/einvoice-readiness',
    {
      config: readMoney,
      schema: {
        tags: ['finance'],
        summary: 'What a valid e-invoice still lacks of the company data (the checks finalization and the writer run)',
        response: { 200: S.EinvoiceReadiness },
      },
    },
    async (request) => settings.einvoiceReadiness(await settings.loadSettings(request.ctx)),
  );

  // ---- invoices ----
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

  app.post(
    '/api/admin/invoices/:id/credit-note',
    {
      config: manageMoney,
      preValidation: optionalBody,
      schema: {
        tags: ['credit-notes'],
        summary: 'Create a draft credit note: full by default, or by lines/quantities, or by a gross amount',
        params: IdParams,
        body: S.CreditNoteCreate,
        response: { 201: S.CreditNote },
      },
    },
    async (request, reply) => {
      const row = await cn.createCreditNote(request.ctx, request.params.id, request.body ?? {});
      return reply.code(201).send(cn.creditNoteOut(row));
    },
  );

  app.post(
    '/api/admin/invoices/:id/credit-note-preview',
    {
      config: manageMoney,
      preValidation: optionalBody,
      schema: {
        tags: ['credit-notes'],
        summary:
          'The credit note the same body would create now (lines, VAT groups, totals, what is left); writes nothing',
        params: IdParams,
        body: S.CreditNoteCreate,
        response: { 200: S.CreditNotePreview },
      },
    },
    async (request) => cn.previewCreditNote(request.ctx, request.params.id, request.body ?? {}),
  );

  // ---- credit notes ----
  const cnTags = ['credit-notes'];
  app.get(
    '/api/admin/credit-notes',
    {
      config: readMoney,
      schema: {
        tags: cnTags,
        summary: 'List credit notes, newest first',
        querystring: S.CreditNoteListQuery,
        response: { 200: S.CreditNoteList },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      const { rows, count } = await cn.listCreditNotes(request.ctx, { ...q, limit, offset });
      return { credit_notes: rows.map(cn.creditNoteOut), count, limit, offset };
    },
  );

  app.get(
    '/api/admin/credit-notes/:id',
    {
      config: readMoney,
      schema: { tags: cnTags, summary: 'Read a credit note', params: IdParams, response: { 200: S.CreditNote } },
    },
    async (request) => cn.creditNoteOut(await cn.getCreditNote(request.ctx, request.params.id)),
  );

  deleteByIdRoute(
    app,
    '/api/admin/credit-notes/:id',
    {
      config: manageMoney,
      tags: cnTags,
      summary: 'Delete a draft credit note (frees its amount); a final one is immutable (409)',
    },
    cn.deleteCreditNoteDraft,
  );

  app.post(
    '/api/admin/credit-notes/:id/finalize',
    {
      config: manageMoney,
      schema: {
        tags: cnTags,
        summary: 'Finalize: next number of the credit-note range (GS-{YYYY}-{NNNNN}); the invoice is credited',
        params: IdParams,
        response: { 200: S.CreditNote },
      },
    },
    async (request) => cn.creditNoteOut(await cn.finalizeCreditNote(request.ctx, request.params.id)),
  );

  app.get(
    '/api/admin/credit-notes/:id/pdf',
    {
      config: readMoney,
      schema: {
        tags: cnTags,
        summary: 'The credit-note PDF referencing its invoice; format=zugferd for business buyers (type code 381)',
        params: IdParams,
        querystring: S.PdfQuery,
        response: { 200: S.binary('application/pdf', 'PDF') },
      },
    },
    async (request, reply) => {
      const { format, download } = request.query;
      return sendFile(
        reply,
        await del.creditNotePdf(request.ctx, request.params.id, format ?? 'pdf'),
        download === true,
      );
    },
  );

  app.get(
    '/api/admin/credit-notes/:id/xrechnung',
    {
      config: readMoney,
      schema: {
        tags: cnTags,
        summary: 'XRechnung 3.0 XML of a final credit note (UBL CreditNote, type code 381; or CII)',
        params: IdParams,
        querystring: S.XmlQuery,
        response: { 200: S.binary('application/xml', 'XRechnung XML') },
      },
    },
    async (request, reply) => {
      const { syntax } = request.query;
      return sendFile(reply, await del.creditNoteXml(request.ctx, request.params.id, syntax ?? 'ubl'), true);
    },
  );

  // ---- accounting integration (lexware) ----
  const accTags = ['accounting'];
  app.post(
    '/api/admin/credentials/lexware/connect',
    {
      config: manageMoney,
      schema: {
        tags: accTags,
        summary: 'Store the Lexware API key (encrypted with MASTER_KEY; never returned)',
        body: S.Connect,
        response: { 200: S.ConnectResponse },
      },
    },
    async (request) => acc.connect(request.ctx, request.body.api_key),
  );

  app.get(
    '/api/admin/credentials/lexware',
    {
      config: readMoney,
      schema: {
        tags: accTags,
        summary: 'Whether a Lexware API key is stored, and since when (the key is never returned)',
        response: { 200: S.ConnectionState },
      },
    },
    async (request) => acc.connectionState(request.ctx),
  );

  app.post(
    '/api/admin/credentials/test/lexware',
    {
      config: manageMoney,
      schema: {
        tags: accTags,
        summary: "Call Lexware with the stored key: ok, or the provider's error",
        response: { 200: S.TestResponse },
      },
    },
    async (request) => acc.testConnection(request.ctx),
  );

  app.get(
    '/api/admin/accounting/syncs',
    {
      config: readMoney,
      schema: {
        tags: accTags,
        summary: "Order syncs to Lexware, most recently changed first (status=failed: with the provider's message)",
        querystring: S.SyncListQuery,
        response: { 200: S.SyncList },
      },
    },
    async (request) => {
      const actor = request.ctx.actor;
      const restricted = actor?.kind === 'admin' && actor.channelRestricted ? actor.channelIds : null;
      return acc.listSyncs(request.ctx, { ...request.query, ...pageOf(request.query) }, restricted);
    },
  );

  /** The order's sync routes: an order id in, its sync state out. */
  const syncRoute = (summary: string, config = manageMoney) => ({
    config,
    schema: { tags: accTags, summary, params: IdParams, response: { 200: S.SyncState } },
  });
  app.get(
    '/api/admin/orders/:id/lexware',
    syncRoute("The order's Lexware sync state (none, pending, synced, failed, cancelled)", readMoney),
    async (request) => acc.getSync(request.ctx, request.params.id),
  );

  app.post(
    '/api/admin/orders/:id/lexware-retry',
    syncRoute('Retry a failed or cancelled sync (→ pending); any other state is 409'),
    async (request) => acc.retrySync(request.ctx, request.params.id),
  );

  app.post(
    '/api/admin/orders/:id/lexware-cancel',
    syncRoute('Stop a pending or failed sync (→ cancelled); any other state is 409'),
    async (request) => acc.cancelSync(request.ctx, request.params.id),
  );
}
