/**
 * What other modules read of finance's tables, as functions of its own (docs/ARCHITECTURE.md,
 * "Cross-module table reads").
 */
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { query } from '../../platform/db/tx.js';
import { orderInChannelsSql } from '../orders/index.js';
import { invoices } from './finance.tables.js';

/**
 * The number of credit note `creditNoteId` in `shopId` as a scalar subquery (null when there is
 * none), for report queries that show it beside their own rows. Pass qualified references, e.g.
 * sql`t.credit_note_id`.
 */
export const creditNoteNumberSql = (creditNoteId: SQL, shopId: SQL): SQL<string | null> =>
  sql<string | null>`(SELECT cn.number FROM credit_notes cn WHERE cn.id = ${creditNoteId} AND cn.shop_id = ${shopId})`;

/**
 * The overview's finance counts (one statement, index-backed): invoices still drafts, and orders
 * whose accounting sync failed; for orders of `channels` only when the employee is restricted.
 */
export async function financeOverviewCounts(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  channels: string[] | null,
): Promise<{ invoices_draft: number; accounting_failed: number }> {
  const shop = sql`${ctx.shopId}`;
  const [row] = await query<{ invoices_draft: number | string; accounting_failed: number | string }>(
    ctx.db,
    sql`SELECT
      (SELECT count(*) FROM invoices i WHERE i.shop_id = ${shop} AND i.status = 'draft'
          AND ${orderInChannelsSql(sql`i.order_id`, shop, channels)}) AS invoices_draft,
      (SELECT count(*) FROM accounting_syncs a WHERE a.shop_id = ${shop} AND a.status = 'failed'
          AND ${orderInChannelsSql(sql`a.order_id`, shop, channels)}) AS accounting_failed`,
  );
  return { invoices_draft: Number(row?.invoices_draft ?? 0), accounting_failed: Number(row?.accounting_failed ?? 0) };
}

/** The order's invoices, credit notes and accounting syncs, for its timeline (raw timestamps: `pgDate`). */
export async function financeTimelineFacts(ctx: Pick<Ctx, 'db' | 'shopId'>, orderId: string) {
  const [invoices, creditNotes, syncs] = await Promise.all([
    query<{
      id: string;
      number: string | null;
      status: string;
      total_cents: number | string;
      created_at: string;
      finalized_at: string | null;
      sent_at: string | null;
      sent_to: string | null;
    }>(
      ctx.db,
      sql`SELECT id, number, status, total_cents, created_at, finalized_at, sent_at, sent_to FROM invoices
          WHERE shop_id = ${ctx.shopId} AND order_id = ${orderId} ORDER BY created_at, id`,
    ),
    query<{
      id: string;
      number: string | null;
      status: string;
      total_cents: number | string;
      reason: string | null;
      created_at: string;
      finalized_at: string | null;
    }>(
      ctx.db,
      sql`SELECT id, number, status, total_cents, reason, created_at, finalized_at FROM credit_notes
          WHERE shop_id = ${ctx.shopId} AND order_id = ${orderId} ORDER BY created_at, id`,
    ),
    query<{
      provider: string;
      status: string;
      last_error: string | null;
      synced_at: string | null;
      updated_at: string;
    }>(
      ctx.db,
      sql`SELECT provider, status, last_error, synced_at, updated_at FROM accounting_syncs
          WHERE shop_id = ${ctx.shopId} AND order_id = ${orderId}`,
    ),
  ]);
  return { invoices, creditNotes, syncs };
}

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
