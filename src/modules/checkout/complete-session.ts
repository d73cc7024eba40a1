/** A one-time session completes exactly once into an order (both providers, and the direct flow). */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError, notFound } from '../../platform/errors.js';
import { channelAutoConfirmsOrders } from '../channels/index.js';
import { accountForPurchase } from '../identity/index.js';
import { type Address, createOrder, type OrderRow } from '../orders/index.js';
import { emitEvent } from '../webhooks/index.js';
import { type CheckoutSessionRow, checkoutSessions, type PricedLine } from './checkout.tables.js';
import { sessionStates } from './session-states.js';

export interface Completion {
  now: Date;
  status: 'paid' | 'pending_payment';
  autoConfirm: boolean;
  paymentRef: string | null;
  billingAddress?: Address;
  lines?: PricedLine[];
  taxCents?: number;
  shippingTaxCents?: number;
  shippingTaxRate?: number | null;
  shippingTaxCategory?: string | null;
  widerrufVerzicht?: boolean;
  orderExpiresAt?: Date | null;
}

/**
 * Turns a locked open (or, paid late, expired) session of `ctx.shopId` into an order and emits
 * checkout.completed, in the caller's transaction.
 */
export async function completeInTx(ctx: TxCtx, session: CheckoutSessionRow, c: Completion): Promise<OrderRow> {
  const tx = ctx.db;
  sessionStates.assert(session.status, 'complete');
  const customerId = await accountForPurchase(tx, ctx.shopId, session.customerId, session.customerEmail);
  const waiver = c.widerrufVerzicht ?? session.widerrufVerzicht;
  const order = await createOrder(ctx, {
    channelId: session.channelId,
    checkoutSessionId: session.id,
    customerId,
    customerEmail: session.customerEmail,
    billingAddress: c.billingAddress ?? session.billingAddress ?? null,
    shippingAddress: session.shippingAddress ?? null,
    shippingMethodId: session.shippingMethodId,
    status: c.status,
    autoConfirm: c.autoConfirm,
    currency: session.currency,
    lines: c.lines ?? session.lines,
    subtotalCents: session.subtotalCents,
    shippingCents: session.shippingCents,
    shippingTaxCents: c.shippingTaxCents ?? session.shippingTaxCents,
    shippingTaxRate: c.shippingTaxRate !== undefined ? c.shippingTaxRate : session.shippingTaxRate,
    shippingTaxCategory: c.shippingTaxCategory !== undefined ? c.shippingTaxCategory : session.shippingTaxCategory,
    vatIdStatus: session.vatIdStatus,
    vatIdCheckedAt: session.vatIdCheckedAt,
    taxCents: c.taxCents ?? session.taxCents,
    totalCents: session.totalCents,
    requiresShipping: session.requiresShipping,
    widerrufVerzicht: waiver,
    widerrufVerzichtAt: waiver ? (session.widerrufVerzichtAt ?? c.now) : null,
    affiliateCode: session.affiliateCode,
    isTest: session.isTest,
    paymentProvider: session.provider,
    paymentRef: c.paymentRef,
    expiresAt: c.orderExpiresAt ?? null,
    now: c.now,
  });
  await tx
    .update(checkoutSessions)
    .set({
      status: 'complete',
      orderId: order.id,
      completedAt: c.now,
      stockReserved: false,
      ...(c.billingAddress ? { billingAddress: c.billingAddress } : {}),
    })
    .where(and(eq(checkoutSessions.shopId, session.shopId), eq(checkoutSessions.id, session.id)));
  await emitEvent(ctx, {
    type: 'checkout.completed',
    isTest: session.isTest,
    orderingKey: `order:${order.id}`,
    now: c.now,
    data: {
      checkout_session_id: session.id,
      order_id: order.id,
      order_number: order.number,
      customer_email: session.customerEmail,
      amount_cents: order.totalCents,
      currency: order.currency,
      is_test: session.isTest,
    },
  });
  return order;
}

/**
 * Completes a paid session of `ctx.shopId` exactly once (both providers call this). A session
 * already complete returns its order; an expired one is refused.
 */
export async function completePaidSession(
  ctx: Ctx,
  sessionId: string,
  c: Omit<Completion, 'status' | 'autoConfirm'>,
): Promise<{ order: OrderRow | null; alreadyComplete: boolean; session: CheckoutSessionRow }> {
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const [session] = await tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.shopId, ctx.shopId)))
      .for('update');
    if (!session) throw notFound('Checkout session');
    // subscription sessions (kind abo) complete through modules/digital, never into a one-time order
    if (session.kind !== 'order') return { order: null, alreadyComplete: session.status === 'complete', session };
    if (session.status === 'complete') return { order: null, alreadyComplete: true, session };
    if (session.status !== 'open' || session.expiresAt <= c.now) {
      throw new AppError('session_expired', 'This checkout session has expired');
    }
    const order = await completeInTx(t, session, {
      ...c,
      status: 'paid',
      autoConfirm: await channelAutoConfirmsOrders(t, session.channelId),
    });
    return { order, alreadyComplete: false, session };
  });
}
