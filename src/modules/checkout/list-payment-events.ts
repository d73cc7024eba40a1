/** The payment-events list (`GET /api/admin/payment-events`): the shop's provider events, scoped to the caller's channels. */
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { channelScope, isChannelRestricted } from '../../platform/auth/channel-scope.js';
import type { Ctx } from '../../platform/auth/types.js';
import { ordersInScopeSql } from '../orders/index.js';
import { type PaymentEventRow, type PaymentEventStatus, paymentEvents } from './checkout.tables.js';

/**
 * A channel-restricted employee sees the events of orders and checkout sessions of their channels
 * only (the order's channel, else the session's); an event tied to neither (an unknown session, a
 * subscription's provider event without an order) belongs to no channel and is shown to
 * unrestricted employees only (docs/decisions.md). Inside the query, so `count` stays exact.
 * Written as uncorrelated `IN` subqueries: payment_events stays on the Citus coordinator (it holds
 * events of no shop), and Citus joins a local table with the shop's shard only through a subquery
 * it can run on its own (a correlated one is refused). Orders are never deleted, so "the order's
 * channel, else the session's" is "the order is in the channels, or there is no order and the
 * session is".
 */
function paymentEventScope(ctx: Pick<Ctx, 'shopId' | 'actor'>): SQL | undefined {
  if (!isChannelRestricted(ctx)) return undefined;
  const inChannels = (channel: SQL) => channelScope(ctx, channel);
  return sql`(${paymentEvents.orderId} IN ${ordersInScopeSql(ctx)}
              OR (${paymentEvents.orderId} IS NULL AND ${paymentEvents.checkoutSessionId} IN (
                 SELECT s.id FROM checkout_sessions s
                 WHERE s.shop_id = ${ctx.shopId} AND ${inChannels(sql`s.channel_id`)})))`;
}

/**
 * A page of the shop's payment events, newest first (`status` and `order_id` filter), and how many there are
 * in all: both read through the caller's channel scope.
 */
export async function listPaymentEvents(
  ctx: Pick<Ctx, 'db' | 'shopId' | 'actor'>,
  filter: { status?: PaymentEventStatus; order_id?: string },
  page: { limit: number; offset: number },
): Promise<{ rows: PaymentEventRow[]; count: number }> {
  const where: SQL | undefined = and(
    eq(paymentEvents.shopId, ctx.shopId),
    paymentEventScope(ctx),
    filter.status ? eq(paymentEvents.status, filter.status) : undefined,
    filter.order_id ? eq(paymentEvents.orderId, filter.order_id) : undefined,
  );
  const rows = await ctx.db
    .select()
    .from(paymentEvents)
    .where(where)
    .orderBy(desc(paymentEvents.receivedAt), desc(paymentEvents.eventId))
    .limit(page.limit)
    .offset(page.offset);
  const [total] = await ctx.db.select({ n: count() }).from(paymentEvents).where(where);
  return { rows, count: Number(total?.n ?? 0) };
}
