/**
 * What the back office (the Heute overview, the order timeline) reads of the orders' tables, as
 * functions of their own (docs/ARCHITECTURE.md, "Cross-module table reads"). Every read takes the
 * employee's channel restriction: `channels` null = every channel, an array = only those (empty:
 * none).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { query } from '../../platform/db/tx.js';
import type { RefundLine } from './orders.tables.js';

type ShopCtx = Pick<Ctx, 'db' | 'shopId'>;

/** `channels` as a condition on an orders alias (`o`): true without a restriction, false for an empty one. */
function inChannels(alias: string, channels: string[] | null): SQL {
  if (channels === null) return sql`true`;
  if (channels.length === 0) return sql`false`;
  return sql`${sql.raw(alias)}.channel_id IN (${sql.join(
    channels.map((c) => sql`${c}`),
    sql`, `,
  )})`;
}

/**
 * A condition that the order `orderId` (a qualified reference, e.g. sql`i.order_id`) of
 * `shopId` is in `channels` (other modules' lists and counts of records that hang off an order).
 */
export const orderInChannelsSql = (orderId: SQL, shopId: SQL, channels: string[] | null): SQL =>
  channels === null
    ? sql`true`
    : sql`EXISTS (SELECT 1 FROM orders o WHERE o.id = ${orderId} AND o.shop_id = ${shopId} AND ${inChannels('o', channels)})`;

/** Failed refunds stay on the overview this long (they need a decision: refund again, or settle otherwise). */
export const FAILED_REFUND_DAYS = 30;

/**
 * The overview's order counts, one statement of index-backed counts: paid and not fulfilled;
 * unpaid (pending_payment, the direct flow) whose payment time ends before `dueBefore`; refunds
 * pending, and failed within the last FAILED_REFUND_DAYS.
 */
export async function orderOverviewCounts(
  ctx: ShopCtx,
  o: { channels: string[] | null; now: Date; dueBefore: Date },
): Promise<{ paid_unfulfilled: number; unpaid_due_soon: number; refunds_pending: number; refunds_failed: number }> {
  const shop = ctx.shopId;
  const ch = inChannels('o', o.channels);
  const failedSince = new Date(o.now.getTime() - FAILED_REFUND_DAYS * 86_400_000).toISOString();
  const [row] = await query<Record<string, number | string>>(
    ctx.db,
    sql`SELECT
      (SELECT count(*) FROM orders o WHERE o.shop_id = ${shop} AND o.status = 'paid' AND ${ch}) AS paid_unfulfilled,
      (SELECT count(*) FROM orders o WHERE o.shop_id = ${shop} AND o.status = 'pending_payment'
          AND o.expires_at IS NOT NULL AND o.expires_at <= ${o.dueBefore.toISOString()}::timestamptz AND ${ch}) AS unpaid_due_soon,
      (SELECT count(*) FROM refunds r JOIN orders o ON o.shop_id = r.shop_id AND o.id = r.order_id
          WHERE r.shop_id = ${shop} AND r.status = 'pending' AND ${ch}) AS refunds_pending,
      (SELECT count(*) FROM refunds r JOIN orders o ON o.shop_id = r.shop_id AND o.id = r.order_id
          WHERE r.shop_id = ${shop} AND r.status = 'failed' AND r.created_at >= ${failedSince}::timestamptz AND ${ch}) AS refunds_failed`,
  );
  return {
    paid_unfulfilled: Number(row?.paid_unfulfilled ?? 0),
    unpaid_due_soon: Number(row?.unpaid_due_soon ?? 0),
    refunds_pending: Number(row?.refunds_pending ?? 0),
    refunds_failed: Number(row?.refunds_failed ?? 0),
  };
}

/** Revenue of one currency in a period, live or test (docs/decisions.md "Revenue on the overview"). */
export interface RevenueRow {
  currency: string;
  is_test: boolean;
  paid_cents: number;
  refunded_cents: number;
  net_cents: number;
}

/**
 * Revenue per currency since each of `since` (docs/decisions.md "Revenue on the overview"): the
 * totals of orders paid in the period (paid_at) less the succeeded refunds made in the period
 * (created_at), whenever their order was paid; test-mode orders apart (`is_test`). Statuses do not
 * matter: a paid order that was cancelled still had its money until it was refunded.
 */
export async function revenueSince(
  ctx: ShopCtx,
  o: { channels: string[] | null; since: Record<string, Date> },
): Promise<Record<string, RevenueRow[]>> {
  const shop = ctx.shopId;
  const ch = inChannels('o', o.channels);
  const out: Record<string, RevenueRow[]> = {};
  for (const [key, since] of Object.entries(o.since)) {
    const from = since.toISOString();
    const rows = await query<{ currency: string; is_test: boolean; paid: number | string; refunded: number | string }>(
      ctx.db,
      sql`SELECT currency, is_test, sum(paid)::bigint AS paid, sum(refunded)::bigint AS refunded FROM (
            SELECT o.currency, o.is_test, o.total_cents AS paid, 0 AS refunded FROM orders o
              WHERE o.shop_id = ${shop} AND o.paid_at IS NOT NULL AND o.paid_at >= ${from}::timestamptz AND ${ch}
            UNION ALL
            SELECT r.currency, o.is_test, 0, r.amount_cents FROM refunds r JOIN orders o ON o.shop_id = r.shop_id AND o.id = r.order_id
              WHERE r.shop_id = ${shop} AND r.status = 'succeeded' AND r.created_at >= ${from}::timestamptz AND ${ch}
          ) x GROUP BY currency, is_test ORDER BY is_test, currency`,
    );
    out[key] = rows.map((r) => ({
      currency: r.currency,
      is_test: r.is_test === true || String(r.is_test) === 't' || String(r.is_test) === 'true',
      paid_cents: Number(r.paid),
      refunded_cents: Number(r.refunded),
      net_cents: Number(r.paid) - Number(r.refunded),
    }));
  }
  return out;
}

/** The order's own dates and its refunds, for its timeline; null when the order is not the shop's. */
export async function orderTimelineFacts(ctx: ShopCtx, orderId: string) {
  const [order] = await query<{
    id: string;
    number: string;
    status: string;
    total_cents: number | string;
    currency: string;
    payment_provider: string | null;
    created_at: string;
    paid_at: string | null;
    fulfilled_at: string | null;
    cancelled_at: string | null;
  }>(
    ctx.db,
    sql`SELECT id, number, status, total_cents, currency, payment_provider, created_at, paid_at, fulfilled_at, cancelled_at
        FROM orders WHERE shop_id = ${ctx.shopId} AND id = ${orderId}`,
  );
  if (!order) return null;
  const refunds = await query<{
    id: string;
    amount_cents: number | string;
    currency: string;
    status: string;
    reason: string;
    provider: string;
    failure_reason: string | null;
    credit_note_id: string | null;
    lines: RefundLine[] | null;
    created_at: string;
    updated_at: string;
  }>(
    ctx.db,
    sql`SELECT id, amount_cents, currency, status, reason, provider, failure_reason, credit_note_id, lines, created_at, updated_at
        FROM refunds WHERE shop_id = ${ctx.shopId} AND order_id = ${orderId} ORDER BY created_at, id`,
  );
  return { order, refunds };
}
