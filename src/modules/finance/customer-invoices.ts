/**
 * The signed-in customer's invoices (docs/storefront.md, "Customer account area"): the final
 * invoices of the account's own orders — the orders `GET /api/customer/orders` lists — and each
 * one's PDF, as the invoice e-mail attaches it. Drafts, other customers' invoices and unclaimed
 * guest orders of the same e-mail are 404 / not listed. Customer session only.
 */
import { type Static, Type } from '@sinclair/typebox';
import { and, inArray, ne, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { customerSession } from '../../platform/auth/presets.js';
import type { Ctx } from '../../platform/auth/types.js';
import { notFound } from '../../platform/errors.js';
import { PageMeta, Pagination, pageOf } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { customerOrderIdsSql } from '../orders/index.js';
import * as del from './delivery.service.js';
import { listDocuments } from './documents.js';
import { binary } from './finance.schemas.js';
import { invoices } from './finance.tables.js';
import { getInvoice, type InvoiceRow } from './invoices.service.js';

const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

const CustomerInvoice = Type.Object({
  id: Type.String(),
  number: Type.String(),
  order_id: Type.String(),
  order_number: Type.String(),
  issue_date: DateOnly,
  status: Type.Union(
    ['final', 'partially_credited', 'credited'].map((s) => Type.Literal(s)),
    {
      description: 'final; partially_credited / credited: a credit note stands against it',
    },
  ),
  currency: Type.String(),
  total_cents: Type.Integer(),
  credited_cents: Type.Integer(),
});

const CustomerInvoiceQuery = Type.Object(
  {
    order_id: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        maxItems: 100,
        description: 'Only the invoices of these orders (repeat the parameter: the orders a page shows)',
      }),
    ),
    ...Pagination,
  },
  { additionalProperties: false },
);

const customerId = (ctx: Ctx): string => (ctx.actor as { customerId: string }).customerId;

/** The conditions that make an invoice the signed-in customer's to see: final, of an own order. */
const ownFinal = (ctx: Ctx) => [
  ne(invoices.status, 'draft'),
  sql`${invoices.orderId} IN ${customerOrderIdsSql(ctx.shopId, customerId(ctx))}`,
];

function customerInvoiceOut(row: InvoiceRow): Static<typeof CustomerInvoice> {
  return {
    id: row.id,
    number: row.number ?? '',
    order_id: row.orderId,
    order_number: row.orderNumber,
    issue_date: row.issueDate ?? '',
    status: row.status as 'final' | 'partially_credited' | 'credited',
    currency: row.currency,
    total_cents: row.totalCents,
    credited_cents: row.creditedCents,
  };
}

/** The customer's own final invoice, else 404 (a draft, another customer's or unknown alike). */
async function ownInvoice(ctx: Ctx, id: string): Promise<InvoiceRow> {
  const [found] = await ctx.db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(sql`${invoices.shopId} = ${ctx.shopId}`, sql`${invoices.id} = ${id}`, ...ownFinal(ctx)));
  if (!found) throw notFound('Invoice');
  return getInvoice(ctx, found.id);
}

function sendPdf(reply: FastifyReply, file: del.RenderedFile) {
  return reply
    .type(file.contentType)
    .header('content-disposition', `attachment; filename="${file.filename}"`)
    .header('cache-control', 'private, no-store')
    .send(file.body);
}

export function customerInvoiceRoutes(app: TypedApp): void {
  const tags = ['customer'];
  app.get(
    '/api/customer/invoices',
    {
      config: customerSession,
      schema: {
        tags,
        summary: "The signed-in customer's final invoices (of the account's orders), newest first",
        querystring: CustomerInvoiceQuery,
        response: { 200: Type.Object({ invoices: Type.Array(CustomerInvoice), ...PageMeta }) },
      },
    },
    async (request) => {
      const { ctx } = request;
      const { limit, offset } = pageOf(request.query);
      const ids = request.query.order_id;
      const more = [...ownFinal(ctx), ...(ids?.length ? [inArray(invoices.orderId, ids)] : [])];
      const { rows, count } = await listDocuments(ctx, invoices, { limit, offset }, more);
      return { invoices: rows.map(customerInvoiceOut), count, limit, offset };
    },
  );

  app.get(
    '/api/customer/invoices/:id/pdf',
    {
      config: customerSession,
      schema: {
        tags,
        summary:
          "An own final invoice's PDF, as the invoice e-mail attaches it (Factur-X for a business buyer); another customer's is 404",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: binary('application/pdf', 'PDF') },
      },
    },
    async (request, reply) => {
      const row = await ownInvoice(request.ctx, request.params.id);
      return sendPdf(reply, await del.invoicePdf(request.ctx, row.id, row.isBusiness ? 'zugferd' : 'pdf'));
    },
  );
}
