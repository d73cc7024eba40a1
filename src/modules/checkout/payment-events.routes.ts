/** `GET /api/admin/payment-events`: what each provider webhook did (rejected and refunded ones above all). */
import { Type } from '@sinclair/typebox';
import { manageMoney } from '../../platform/auth/presets.js';
import { iso } from '../../platform/dates.js';
import { PageMeta, Pagination, pageOf } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { type PaymentEventRow, PAYMENT_EVENT_STATUSES as STATUSES } from './checkout.tables.js';
import { listPaymentEvents } from './list-payment-events.js';

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
  {
    status: Type.Optional(Type.Union(STATUSES.map((s) => Type.Literal(s)))),
    order_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The events of one order' })),
    ...Pagination,
  },
  { additionalProperties: false },
);

function paymentEventOut(r: PaymentEventRow) {
  return {
    provider: r.provider,
    event_id: r.eventId,
    type: r.type,
    status: r.status,
    reason: r.reason,
    checkout_session_id: r.checkoutSessionId,
    provider_session_id: r.providerSessionId,
    order_id: r.orderId,
    amount_cents: r.amountCents,
    currency: r.currency,
    received_at: iso(r.receivedAt),
  };
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
      const page = pageOf(request.query);
      const { rows, count } = await listPaymentEvents(request.ctx, request.query, page);
      return { payment_events: rows.map(paymentEventOut), count, ...page };
    },
  );
}
