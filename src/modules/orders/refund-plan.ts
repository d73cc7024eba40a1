/**
 * What a refund of an order would be (docs/payments.md "Refund by lines"): its amount (given, all
 * that is left, or the gross of order lines and quantities), what stays refundable, the provider
 * that moves the money and the order's state afterwards. `planRefundOf` is pure; the refund route
 * (claimRefund, under the order's lock) and the refund preview both plan with it, so the preview
 * shows what the refund does.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { AppError, type FieldError } from '../../platform/errors.js';
import type { OrderStatus } from './order-states.js';
import { orderLines, type orders, type RefundLine, refunds } from './orders.tables.js';

type OrderRow = typeof orders.$inferSelect;
type OrderLineRow = typeof orderLines.$inferSelect;

/** What a refund asks for: an amount, or order lines and quantities, or neither (all that is left). */
export interface RefundAsk {
  amount_cents?: number | undefined;
  lines?: { line_id: string; quantity: number }[] | undefined;
}

/** A refund of the order that still counts (pending or succeeded), as the plan needs it. */
export interface PriorRefund {
  amountCents: number;
  lines: RefundLine[] | null;
}

export interface RefundPlan {
  amountCents: number;
  currency: string;
  /** `manual`: money paid outside the provider goes back the same way (recorded as done by the merchant). */
  provider: string;
  lines: RefundLine[] | null;
  refundableBefore: number;
  refundableAfter: number;
  resultingStatus: OrderStatus;
  /** Per order line: what refunds by lines gave back so far, and what is left of it. */
  lineState: {
    line_id: string;
    position: number;
    name: string;
    quantity: number;
    refunded_quantity: number;
    refundable_quantity: number;
  }[];
}

/**
 * Orders whose money may have been taken: only these can be refunded, and only when they were paid
 * (`paid_at`); a paid order that was cancelled keeps its money until it is refunded.
 */
export const PAID_STATES: OrderStatus[] = ['paid', 'fulfilled', 'partially_refunded', 'refunded', 'cancelled'];

/** a × num ÷ den, rounded half up in integers (the share of a line's gross for some of its units). */
const share = (a: number, num: number, den: number) => Math.floor((2 * a * num + den) / (2 * den));

/**
 * Plans a refund of `order` (its lines, and the refunds that count against it) with the payment
 * provider `providerName`. Throws 400 (a line that is not the order's, listed twice, both an
 * amount and lines) and 409 (`refund_exceeds_paid`) at the field they concern.
 */
export function planRefundOf(
  order: OrderRow,
  lines: OrderLineRow[],
  prior: PriorRefund[],
  ask: RefundAsk,
  providerName: string,
): RefundPlan {
  if (!PAID_STATES.includes(order.status) || order.paidAt === null) {
    throw new AppError('invalid_state', `An order in state ${order.status} was never paid; nothing to refund`);
  }
  if (ask.amount_cents !== undefined && ask.lines !== undefined) {
    throw new AppError('validation_failed', 'Refund either lines or an amount, not both', [
      { path: '/body/lines', message: 'cannot be combined with amount_cents' },
    ]);
  }
  const before = order.totalCents - prior.reduce((s, r) => s + r.amountCents, 0);
  const done = new Map<string, { quantity: number; gross: number }>();
  for (const r of prior) {
    for (const l of r.lines ?? []) {
      const d = done.get(l.line_id) ?? { quantity: 0, gross: 0 };
      d.quantity += l.quantity;
      d.gross += l.amount_cents;
      done.set(l.line_id, d);
    }
  }
  let amount: number;
  let planned: RefundLine[] | null = null;
  if (ask.lines !== undefined) {
    const errors: FieldError[] = [];
    const seen = new Set<string>();
    ask.lines.forEach((w, i) => {
      if (seen.has(w.line_id)) errors.push({ path: `/body/lines/${i}/line_id`, message: 'is listed twice' });
      seen.add(w.line_id);
      if (!lines.some((l) => l.id === w.line_id)) {
        errors.push({ path: `/body/lines/${i}/line_id`, message: 'is not a line of the order' });
      }
    });
    if (errors.length > 0) throw new AppError('validation_failed', `${errors[0]?.path} ${errors[0]?.message}`, errors);
    planned = ask.lines.map((w, i) => {
      const l = lines.find((x) => x.id === w.line_id) as OrderLineRow;
      const d = done.get(l.id) ?? { quantity: 0, gross: 0 };
      const left = l.quantity - d.quantity;
      if (w.quantity > left) {
        throw new AppError(
          'refund_exceeds_paid',
          `Line ${l.position} has ${left} of ${l.quantity} left to refund (asked for ${w.quantity})`,
          [{ path: `/body/lines/${i}/quantity`, message: `at most ${left}` }],
        );
      }
      // the last units of a line take its exact remainder, as the credit note's lines do
      const gross = w.quantity === left ? l.lineTotalCents - d.gross : share(l.lineTotalCents, w.quantity, l.quantity);
      return { line_id: l.id, position: l.position, quantity: w.quantity, amount_cents: gross };
    });
    amount = planned.reduce((s, l) => s + l.amount_cents, 0);
    if (amount > before) {
      throw new AppError(
        'refund_exceeds_paid',
        `At most ${before} cents of this order are left to refund (the lines come to ${amount})`,
        [{ path: '/body/lines', message: `at most ${before} cents in all` }],
      );
    }
    if (amount <= 0) {
      throw new AppError('refund_exceeds_paid', 'These lines come to nothing to refund', [
        { path: '/body/lines', message: 'come to 0 cents' },
      ]);
    }
  } else {
    amount = ask.amount_cents ?? before;
    if (amount > before || amount <= 0) {
      throw new AppError(
        'refund_exceeds_paid',
        `At most ${before} cents of this order are left to refund (asked for ${amount})`,
        [{ path: '/body/amount_cents', message: `at most ${before}` }],
      );
    }
  }
  const after = before - amount;
  const viaProvider = order.paymentRef !== null && order.paymentProvider === providerName;
  return {
    amountCents: amount,
    currency: order.currency,
    provider: viaProvider ? providerName : 'manual',
    lines: planned,
    refundableBefore: before,
    refundableAfter: after,
    // as settleRefund moves the order once the refund (and those pending before it) succeeded
    resultingStatus: order.status === 'cancelled' ? 'cancelled' : after <= 0 ? 'refunded' : 'partially_refunded',
    lineState: lines.map((l) => {
      const d = done.get(l.id)?.quantity ?? 0;
      const now = planned?.find((p) => p.line_id === l.id)?.quantity ?? 0;
      return {
        line_id: l.id,
        position: l.position,
        name: l.name,
        quantity: l.quantity,
        refunded_quantity: d,
        refundable_quantity: l.quantity - d - now,
      };
    }),
  };
}

/** The order's lines and the refunds that count against it (pending, succeeded), read in `ctx.db` (the caller's transaction, if any). */
export async function refundPlanInputs(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  orderId: string,
): Promise<{ lines: OrderLineRow[]; prior: PriorRefund[] }> {
  const [lines, prior] = await Promise.all([
    ctx.db
      .select()
      .from(orderLines)
      .where(and(eq(orderLines.shopId, ctx.shopId), eq(orderLines.orderId, orderId)))
      .orderBy(asc(orderLines.position)),
    ctx.db
      .select({ amountCents: refunds.amountCents, lines: refunds.lines })
      .from(refunds)
      .where(
        and(
          eq(refunds.shopId, ctx.shopId),
          eq(refunds.orderId, orderId),
          inArray(refunds.status, ['pending', 'succeeded']),
        ),
      ),
  ]);
  return { lines, prior };
}

/** Plans a refund of an order read by the caller (see planRefundOf). */
export async function planRefund(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  order: OrderRow,
  ask: RefundAsk,
  providerName: string,
): Promise<RefundPlan> {
  const { lines, prior } = await refundPlanInputs(ctx, order.id);
  return planRefundOf(order, lines, prior, ask, providerName);
}
