/**
 * What other modules read of finance's tables, as functions of its own (docs/ARCHITECTURE.md,
 * "Cross-module table reads").
 */
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { invoices } from './finance.tables.js';

/**
 * The number of credit note `creditNoteId` in `shopId` as a scalar subquery (null when there is
 * none), for report queries that show it beside their own rows. Pass qualified references, e.g.
 * sql`t.credit_note_id`.
 */
export const creditNoteNumberSql = (creditNoteId: SQL, shopId: SQL): SQL<string | null> =>
  sql<string | null>`(SELECT cn.number FROM credit_notes cn WHERE cn.id = ${creditNoteId} AND cn.shop_id = ${shopId})`;

/** What the admin's customer screens show of an invoice (its detail is GET /api/admin/invoices/:id). */
export const invoiceMetaOut = (row: typeof invoices.$inferSelect) => ({
  id: row.id,
  number: row.number,
  status: row.status,
  order_id: row.orderId,
  order_number: row.orderNumber,
  issue_date: row.issueDate,
  currency: row.currency,
  is_business: row.isBusiness,
  total_cents: row.totalCents,
  paid_cents: row.paidCents,
  credited_cents: row.creditedCents,
  finalized_at: isoOrNull(row.finalizedAt),
  created_at: iso(row.createdAt),
});

/**
 * A page of the invoices of some orders (`orderIds`: a subquery of order ids the caller's module
 * lends, e.g. orders' `buyerOrderIdsSql`), newest first, and how many there are.
 */
export async function invoicesOfOrders(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  orderIds: SQL,
  page: { limit: number; offset: number },
) {
  const where = and(eq(invoices.shopId, ctx.shopId), sql`${invoices.orderId} IN ${orderIds}`);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(invoices)
      .where(where)
      .orderBy(desc(invoices.createdAt), desc(invoices.id))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(invoices).where(where),
  ]);
  return { rows: rows.map(invoiceMetaOut), count: Number(total[0]?.n ?? 0) };
}
