/** `GET /api/admin/payment-events`: what each provider webhook did (rejected and refunded ones above all). */
import { Type } from '@sinclair/typebox';
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { channelScope, isChannelRestricted } from '../../platform/auth/channel-scope.js';
import { manageMoney } from '../../platform/auth/presets.js';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { PageMeta, Pagination, pageOf } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { orderChannelSql } from '../orders/index.js';
import { paymentEvents } from './checkout.tables.js';

const STATUSES = ['processed', 'ignored', 'rejected', 'refunded'] as const;

const PaymentEventOut = Type.Object({
  provider: Type.String(),
  event_id: Type.String(),
  type: Type.String(),
  status: Type.Union(STATUSES.map((s) => Type.Literal(s))),
  reason: Type.Union([Type.String(), Type.Null()]),
  checkout_session_id: Type.Union([Type.String(), Type.Null()]),
  provider_session_id: Type.Union([Type.String(), Type.Null()]),
  order_id: Type.Union([Type.String(), Type.Null()]),
  amount_cents: Type.Union([Type.Integer(), Type.Null()]),
  currency: Type.Union([Type.String(), Type.Null()]),
  received_at: Type.String({ format: 'date-time' }),
});

const ListQuery = Type.Object(
  { status: Type.Optional(Type.Union(STATUSES.map((s) => Type.Literal(s)))), ...Pagination },
  { additionalProperties: false },
);

/**
 * A channel-restricted employee sees the events of orders and checkout sessions of their channels
 * only (the order's channel, else the session's); an event tied to neither (an unknown session, a
 * subscription's provider event without an order) belongs to no channel and is shown to
 * unrestricted employees only (docs/decisions.md). Inside the query, so `count` stays exact.
 */
function paymentEventScope(ctx: Pick<Ctx, 'shopId' | 'actor'>): SQL | undefined {
  if (!isChannelRestricted(ctx)) return undefined;
  return channelScope(
    ctx,
    sql`COALESCE(${orderChannelSql(ctx.shopId, paymentEvents.orderId)},
          (SELECT s.channel_id FROM checkout_sessions s
            WHERE s.id = ${paymentEvents.checkoutSessionId} AND s.shop_id = ${ctx.shopId}))`,
  );
}

export function paymentEventRoutes(app: TypedApp): void {
  app.get(
    '/api/admin/payment-events',
    {
      config: manageMoney,
      schema: {
        tags: ['orders'],
        summary: 'List the payment provider events of this shop, newest first (status=rejected: paid but not applied)',
        querystring: ListQuery,
        response: { 200: Type.Object({ payment_events: Type.Array(PaymentEventOut), ...PageMeta }) },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      const db = request.ctx.db;
      const where: SQL | undefined = and(
        eq(paymentEvents.shopId, request.ctx.shopId),
        paymentEventScope(request.ctx),
        q.status ? eq(paymentEvents.status, q.status) : undefined,
      );
      const rows = await db
        .select()
        .from(paymentEvents)
        .where(where)
        .orderBy(desc(paymentEvents.receivedAt), desc(paymentEvents.eventId))
        .limit(limit)
        .offset(offset);
      const [total] = await db.select({ n: count() }).from(paymentEvents).where(where);
      return {
        payment_events: rows.map((r) => ({
          provider: r.provider,
          event_id: r.eventId,
          type: r.type,
          status: r.status as (typeof STATUSES)[number],
          reason: r.reason,
          checkout_session_id: r.checkoutSessionId,
          provider_session_id: r.providerSessionId,
          order_id: r.orderId,
          amount_cents: r.amountCents,
          currency: r.currency,
          received_at: iso(r.receivedAt),
        })),
        count: Number(total?.n ?? 0),
        limit,
        offset,
      };
    },
  );
}
