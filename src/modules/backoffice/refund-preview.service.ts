/**
 * POST /api/admin/orders/:id/refunds/preview: what a refund would do, computed by the code that
 * does it — orders' refund plan (amount, provider, what is left, the order's state), finance's
 * credit note plan (the lines and tax of the credit note the refund writes) and partners'
 * clawback targets — without writing anything. The admin shows it before the refund is sent.
 */
import type { Static } from '@sinclair/typebox';
import { paymentProviderFor } from '../../adapters/payment/index.js';
import type { Ctx } from '../../platform/auth/types.js';
import { previewRefundCredit } from '../finance/index.js';
import { getOrder, planRefund } from '../orders/index.js';
import { previewRefundClawback } from '../partners/index.js';
import type { RefundPreview, RefundPreviewBody } from './backoffice.schemas.js';

export async function previewRefund(
  ctx: Ctx,
  orderId: string,
  body: Static<typeof RefundPreviewBody>,
): Promise<Static<typeof RefundPreview>> {
  const { order } = await getOrder(ctx, orderId);
  const provider = paymentProviderFor(ctx.config);
  const plan = await planRefund(ctx, order, body, provider.name);
  const refundLines = plan.lines?.map((l) => ({ position: l.position, quantity: l.quantity })) ?? null;
  const credit = await previewRefundCredit(ctx, order.id, {
    amountCents: plan.amountCents,
    lines: refundLines,
    reason: body.reason ?? '',
  });
  const clawback = await previewRefundClawback(ctx, order.id, {
    status: plan.resultingStatus,
    ...(credit ? { creditNote: credit } : { refundedCents: plan.amountCents }),
  });
  return {
    amount_cents: plan.amountCents,
    currency: plan.currency,
    provider: plan.provider as 'stripe' | 'test' | 'manual',
    refundable_before: plan.refundableBefore,
    refundable_after: plan.refundableAfter,
    resulting_status: plan.resultingStatus,
    lines: plan.lineState.map((l) => {
      const mine = plan.lines?.find((p) => p.line_id === l.line_id);
      return { ...l, refund_quantity: mine?.quantity ?? 0, amount_cents: mine?.amount_cents ?? 0 };
    }),
    credit_note: credit
      ? {
          lines: credit.lines.map((l) => ({
            name: l.name,
            quantity: l.quantity,
            net_cents: l.net_cents,
            tax_rate: l.tax_rate,
            tax_cents: l.tax_cents,
            gross_cents: l.line_total_cents,
            tax_category: l.tax_category ?? (l.tax_rate === 0 ? 'Z' : 'S'),
            tax_exemption_reason: l.tax_exemption_reason ?? null,
            invoice_position: l.invoice_position,
          })),
          net_cents: credit.lines.reduce((s, l) => s + l.net_cents, 0),
          tax_cents: credit.lines.reduce((s, l) => s + l.tax_cents, 0),
          total_cents: credit.lines.reduce((s, l) => s + l.line_total_cents, 0),
        }
      : null,
    partner_clawback: clawback,
  };
}
