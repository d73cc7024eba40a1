/** Routes of credit notes: created from an invoice (with a preview), finalized, PDF and XRechnung (docs/finance.md). */
import { manageMoney, readMoney } from '../../platform/auth/presets.js';
import { IdParams, pageOf } from '../../platform/http/schemas.js';
import { deleteByIdRoute, type TypedApp } from '../../platform/http/typed-app.js';
import * as cn from './credit-notes.service.js';
import * as del from './delivery.service.js';
import { optionalBody, sendFile } from './document-replies.js';
import * as S from './finance.schemas.js';

export function creditNoteRoutes(app: TypedApp): void {
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
}
