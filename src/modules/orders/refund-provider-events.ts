/**
 * The provider's word on a refund, from its webhook (docs/payments.md): a pending refund settles;
 * a refund we failed without its answer that it reports as succeeded is reconciled; a succeeded
 * refund it fails since is undone (the refund's `reversed` and the order's `refund_reversed`).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { PaymentEvent } from '../../adapters/payment/port.js';
import { providerRefEntry } from '../../platform/db/directory.js';
import { query, type Tx, type TxCtx } from '../../platform/db/tx.js';
import { type EventContext, type EventOutcome, eventCtx, type HookLists, runHook } from '../../platform/hooks.js';
import { type OrderStatus, orderStates } from './order-states.js';
import { orders, refunds } from './orders.tables.js';
import { refundStates } from './refund-states.js';
import {
  failedWithoutProviderAnswer,
  lockRefund,
  recordRefundProviderRef,
  sendRefundEvent,
  settleRefund,
} from './settle-refund.js';

/**
 * The refund a provider event names. Its reference, once stored, is in the provider reference
 * directory: the refund is read in that shop only. A refund whose reference was never stored (its
 * request died before the provider answered) is found by our refund id, which the provider
 * carries in its metadata: the one lookup left without a shop (docs/decisions.md "Directory tables").
 */
async function refundOfEvent(tx: Tx, provider: string, refundId: string | null | undefined, ref: string) {
  const entry = await providerRefEntry(tx, 'refund', provider, ref);
  if (entry) {
    const [row] = await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.shopId, entry.shopId), eq(refunds.id, entry.rowId), eq(refunds.provider, provider)));
    if (row) return row;
  }
  if (!refundId) return undefined;
  const [row] = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.provider, provider), eq(refunds.id, refundId)));
  return row;
}

/** The provider's confirmation (or failure) of a refund that was pending. */
async function onRefundEvent(tx: Tx, event: PaymentEvent, c: EventContext): Promise<EventOutcome | null> {
  if (event.kind !== 'refund.succeeded' && event.kind !== 'refund.failed') return null;
  const row = await refundOfEvent(tx, c.provider.name, event.refund.refundId, event.refund.ref);
  if (!row) return null;
  const out = { shopId: row.shopId, orderId: row.orderId, amountCents: row.amountCents, currency: row.currency };
  const failure =
    event.kind === 'refund.failed'
      ? `the provider reported the refund as failed${event.refund.failureReason ? ` (${event.refund.failureReason})` : ''}`
      : null;
  // a refund that succeeded can still fail at the provider (e.g. the card was closed): the money
  // did not reach the customer, so the refund is undone (failed is final at the provider)
  if (row.status === 'succeeded' && event.kind === 'refund.failed') {
    const undone = await failSucceededRefund(eventCtx(tx, c, row.shopId), row.id, {
      providerRef: event.refund.ref,
      failure: failure as string,
      now: c.now,
    });
    return undone
      ? { ...out, status: 'processed', reason: 'refund_failed_after_success' }
      : { ...out, status: 'ignored', reason: 'refund_already_failed' };
  }
  // a refund we failed without the provider's answer (before issue 26 any error failed it) that
  // the provider reports as succeeded: the money went back, so it is settled now, once
  const reconcile = row.status === 'failed' && event.kind === 'refund.succeeded' && failedWithoutProviderAnswer(row);
  if (row.status !== 'pending' && !reconcile) {
    return { ...out, status: 'ignored', reason: `refund_already_${row.status}` };
  }
  const done = await settleRefund(eventCtx(tx, c, row.shopId), row.id, {
    status: event.kind === 'refund.succeeded' ? 'succeeded' : 'failed',
    providerRef: event.refund.ref,
    failure,
    now: c.now,
    reconcile,
  });
  return {
    ...out,
    status: 'processed',
    reason: reconcile && done.status === 'succeeded' ? 'refund_reconciled' : `refund_${done.status}`,
  };
}

/**
 * Undoes a refund that had succeeded and that the provider has failed since (docs/payments.md,
 * "A refund that fails after it succeeded"), once, under the order's lock: the refund becomes
 * `failed` with the provider's reason; the order's state follows the succeeded refunds that remain
 * (a cancelled order stays cancelled); the amount is refundable again; the partner earnings it
 * clawed back are restored (`refund.failedAfterSuccess`); `order.refund_failed` is sent and an
 * error logged for the merchant. Its final credit note stays (GoBD: a final document is never
 * changed or deleted); the merchant corrects it (docs/payments.md). False when already failed.
 */
async function failSucceededRefund(
  ctx: TxCtx,
  refundId: string,
  o: { providerRef: string | null; failure: string; now: Date },
): Promise<boolean> {
  const tx = ctx.db;
  const { order, refund } = await lockRefund(ctx, refundId);
  if (refund.status !== 'succeeded') return false;
  refundStates.assert(refund.status, 'failed', 'reversed');
  const [failed] = await tx
    .update(refunds)
    .set({
      status: 'failed',
      failureReason: o.failure,
      providerRef: refund.providerRef ?? o.providerRef,
      updatedAt: o.now,
    })
    .where(and(eq(refunds.shopId, ctx.shopId), eq(refunds.id, refundId)))
    .returning();
  if (failed) await recordRefundProviderRef(ctx, failed);
  const [left] = await query<{ total: string | number }>(
    tx,
    sql`SELECT coalesce(sum(amount_cents), 0) AS total FROM refunds
        WHERE shop_id = ${order.shopId} AND order_id = ${order.id} AND status = 'succeeded'`,
  );
  const refundedTotal = Number(left?.total ?? 0);
  // the order's `refund_reversed` step (order-states.ts): a fulfilled order stays fulfilled; an
  // order refunded or partially refunded before is partially refunded by what remains, or paid
  // again without any
  const status = order.status;
  const to: OrderStatus =
    status === 'cancelled'
      ? 'cancelled'
      : refundedTotal >= order.totalCents
        ? 'refunded'
        : status === 'fulfilled'
          ? 'fulfilled'
          : refundedTotal > 0
            ? 'partially_refunded'
            : 'paid';
  if (to !== status) {
    orderStates.assert(status, to, 'refund_reversed');
    await tx
      .update(orders)
      .set({ status: to, updatedAt: o.now })
      .where(and(eq(orders.shopId, order.shopId), eq(orders.id, order.id)));
  }
  // the clawback of the refund (directly, or through its credit note) is undone in the ledger
  await runHook(ctx, 'refund.failedAfterSuccess', {
    shopId: order.shopId,
    orderId: order.id,
    refundId: refund.id,
    now: o.now,
  });
  ctx.log.error(
    {
      order_id: order.id,
      order_number: order.number,
      refund_id: refund.id,
      amount_cents: refund.amountCents,
      credit_note_id: refund.creditNoteId,
      failure: o.failure,
    },
    refund.creditNoteId
      ? 'a refund that had succeeded failed at the provider: the customer did not get the money; its credit note stands, refund again or invoice the amount anew'
      : 'a refund that had succeeded failed at the provider: the customer did not get the money; refund again or settle it with the customer',
  );
  await sendRefundEvent(
    ctx,
    'order.refund_failed',
    { order, refund, refundedTotal, status: to, now: o.now },
    {
      failure_reason: o.failure,
      credit_note_id: refund.creditNoteId,
    },
  );
  return true;
}

/** The refund events of the provider webhook (wired in app.ts into checkout's webhook route). */
export const refundPaymentEventHandler: HookLists['paymentEventHandlers'] = {
  kinds: ['refund.succeeded', 'refund.failed'],
  handle: onRefundEvent,
};
