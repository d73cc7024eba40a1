/** Refund routes (docs/payments.md): owner or admin session, never an API token; Idempotency-Key honoured. */
import { Type } from '@sinclair/typebox';
import { manageMoney } from '../../platform/auth/presets.js';
import { Body } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { RefundAmountIn, RefundLinesIn } from './orders.schemas.js';
import { createRefund, listRefunds, refundOut } from './refunds.service.js';

const tags = ['orders'];
const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const RefundCreate = Body(
  {
    amount_cents: RefundAmountIn,
    lines: RefundLinesIn,
    reason: Type.String({ minLength: 1, maxLength: 500 }),
  },
  {
    description:
      'amount_cents or lines (not both; neither: all that is still refundable). Lines: the amount is their gross, and the credit note credits those lines',
  },
);
const RefundOut = Type.Object({
  id: Type.String(),
  order_id: Type.String(),
  amount_cents: Type.Integer(),
  currency: Type.String(),
  status: Type.Union([Type.Literal('pending'), Type.Literal('succeeded'), Type.Literal('failed')]),
  reason: Type.String(),
  credit_note_id: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

export function refundRoutes(app: TypedApp): void {
  app.post(
    '/api/admin/orders/:id/refunds',
    {
      config: manageMoney,
      schema: {
        tags,
        summary:
          'Refund a paid order: all that is left, amount_cents of it, or order lines and quantities (409 refund_exceeds_paid, 409 invalid_state when never paid)',
        params: Params,
        body: RefundCreate,
        response: { 201: RefundOut },
      },
    },
    async (request, reply) => {
      const claim = request.idempotency;
      const key = claim ? `${claim.principal}|${claim.key}` : null;
      const refund = await createRefund(request.ctx, request.params.id, request.body, key);
      return reply.code(201).send(refundOut(refund));
    },
  );

  app.get(
    '/api/admin/orders/:id/refunds',
    {
      config: manageMoney,
      schema: {
        tags,
        summary: 'The refunds of an order, oldest first',
        params: Params,
        response: { 200: Type.Object({ refunds: Type.Array(RefundOut) }) },
      },
    },
    async (request) => ({
      refunds: (await listRefunds(request.ctx, request.params.id)).map(refundOut),
    }),
  );
}
