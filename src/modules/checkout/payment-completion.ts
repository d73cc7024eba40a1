/**
 * Completion of one-time checkout sessions from provider webhooks (docs/payments.md): exact (the
 * provider's session id, amount and currency must equal ours, otherwise nothing is created and
 * the event is kept `rejected`), and safe for late payments (an expired session becomes an order
 * when its stock can still be reserved, and is refunded through the port otherwise).
 */
import { and, eq } from 'drizzle-orm';
import type { PaymentEvent, PaymentProvider, RefundInput, RefundResult } from '../../adapters/payment/port.js';
import { RefundRefusedError } from '../../adapters/payment/port.js';
import { type Tx, withTx } from '../../platform/db/tx.js';
import { eventCtx } from '../../platform/hooks.js';
import { reserveMany } from '../catalog/index.js';
import { channelAutoConfirmsOrders } from '../channels/index.js';
import { sessionShopOfEvent } from './checkout.queries.js';
import { checkoutSessions } from './checkout.tables.js';
import { completeInTx } from './complete-session.js';
import type { EventContext, EventOutcome } from './payment-webhook.js';

class OutOfStock extends Error {}

/** The handler of `session.paid` for sessions of kind `order`; other kinds are left to their module. */
export async function completeOrderFromEvent(
  tx: Tx,
  event: PaymentEvent,
  c: EventContext,
): Promise<EventOutcome | null> {
  if (event.kind !== 'session.paid') return null;
  const seen = {
    providerSessionId: event.providerSessionId,
    amountCents: event.amountCents,
    currency: event.currency,
  };
  if (!event.sessionId) return { status: 'rejected', reason: 'no_checkout_session_reference', ...seen };
  // the provider reference directory names the session's shop (routed to its shard)
  const shopId = await sessionShopOfEvent(tx, c.provider.name, event.providerSessionId, event.sessionId);
  const [session] = await tx
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.shopId, shopId), eq(checkoutSessions.id, event.sessionId)))
    .for('update');
  if (!session) return { status: 'rejected', reason: 'unknown_checkout_session', ...seen };
  if (session.kind !== 'order') return null;
  const base = { ...seen, shopId: session.shopId, checkoutSessionId: session.id };
  if (session.provider !== c.provider.name || session.providerRef !== event.providerSessionId) {
    return { ...base, status: 'rejected', reason: 'provider_session_mismatch' };
  }
  if (event.amountCents !== session.totalCents || event.currency !== session.currency) {
    return {
      ...base,
      status: 'rejected',
      reason: `amount_mismatch: paid ${event.amountCents ?? '?'} ${event.currency ?? '?'}, expected ${session.totalCents} ${session.currency}`,
    };
  }
  if (session.status === 'complete') {
    return { ...base, status: 'ignored', reason: 'already_complete', orderId: session.orderId };
  }
  const ctx = eventCtx(tx, c, session.shopId);
  const autoConfirm = await channelAutoConfirmsOrders(ctx, session.channelId);
  const paymentRef = event.paymentRef ?? event.providerSessionId;
  const complete = async (reason: string): Promise<EventOutcome> => {
    const order = await completeInTx(ctx, session, {
      now: c.now,
      status: 'paid',
      autoConfirm,
      paymentRef,
      ...(event.billing && !session.billingAddress ? { billingAddress: event.billing } : {}),
    });
    return { ...base, status: 'processed', reason, orderId: order.id };
  };
  if (session.status === 'open' && session.expiresAt > c.now) return complete('order_created');

  // A late payment (e.g. SEPA confirmed after the session expired). While the expiry job has not
  // run, the session still holds its stock; otherwise reserve it again, all or nothing.
  if (session.stockReserved) return complete('late_payment_order');
  const tracked = session.lines.filter((l) => l.track_stock);
  try {
    await withTx(ctx, async (sp) => {
      const failed = await reserveMany(sp, tracked);
      if (failed.length > 0) throw new OutOfStock();
    });
  } catch (err) {
    if (!(err instanceof OutOfStock)) throw err;
    // money must never stay captured without an order: give it back through the port, once
    // (lateRefund); while that is not known to be done, this throws, rolls back and the provider
    // redelivers the event
    const refund = await lateRefund(
      c.provider,
      {
        paymentRef,
        amountCents: session.totalCents,
        currency: session.currency,
        refundId: `late_${session.id}`,
        reason: 'Checkout session expired and the items are no longer in stock',
      },
      { eventCreatedAt: event.createdAt ?? null, now: c.now },
    );
    return {
      ...base,
      status: 'refunded',
      reason: `late_payment_out_of_stock: refunded in full (${refund.providerRef ?? 'provider refund'}, ${refund.status})`,
    };
  }
  return complete('late_payment_order');
}

/**
 * How long after an event a call it caused may still be repeated under the same idempotency key
 * (Stripe replays for 24 hours; a margin for clocks and delivery delays).
 */
const REPLAY_WINDOW_MS = 20 * 3600_000;

/**
 * The late payment's refund, made once however often the event is delivered (docs/payments.md):
 * - once the event is older than the provider replays requests, an earlier delivery may have
 *   made the refund with an answer that was lost; the provider is asked for it (by our refund id)
 *   first, and only a definitive "none" makes it, under the same idempotency key;
 * - an unclear answer (5xx, timeout, reset) is not a failure: the provider is asked whether the
 *   refund exists; when it cannot tell either, this throws and the event is delivered again;
 * - a definitive refusal throws (nothing was refunded; the redelivery tries again).
 */
async function lateRefund(
  provider: PaymentProvider,
  input: RefundInput,
  o: { eventCreatedAt: Date | null; now: Date },
): Promise<RefundResult> {
  const lookup = { paymentRef: input.paymentRef, refundId: input.refundId };
  const created = o.eventCreatedAt ?? o.now;
  if (o.now.getTime() - created.getTime() > REPLAY_WINDOW_MS) {
    const found = await provider.findRefund(lookup);
    if (found) return found;
  }
  try {
    return await provider.refund(input);
  } catch (err) {
    if (err instanceof RefundRefusedError) throw err;
    const found = await provider.findRefund(lookup).catch(() => null);
    if (found) return found;
    throw err;
  }
}
