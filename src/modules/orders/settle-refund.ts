/**
 * The outcome of a refund applied, once, under the order's lock (docs/payments.md): its status by
 * the refund table (refund-states.ts), the order's by the order table, the credit note, the
 * partner earnings and `order.refunded`. Shared by the refund's request and job
 * (refunds.service.ts) and the provider's events (refund-provider-events.ts).
 */
import { and, eq, sql } from 'drizzle-orm';
import { registerProviderRef } from '../../platform/db/directory.js';
import { lockOwned } from '../../platform/db/lock.js';
import { one, query, type TxCtx } from '../../platform/db/tx.js';
import { notFound } from '../../platform/errors.js';
import { callPort, runHook } from '../../platform/hooks.js';
import { emitEvent } from '../webhooks/index.js';
import { type OrderStatus, orderStates } from './order-states.js';
import { orders, type RefundRow, refunds } from './orders.tables.js';
import { type RefundStatus, refundStates } from './refund-states.js';

type OrderRow = typeof orders.$inferSelect;

/** A refund of `ctx.shopId` and its order, locked: the order first, then the refund (the lock order of creation). */
export async function lockRefund(ctx: TxCtx, refundId: string): Promise<{ order: OrderRow; refund: RefundRow }> {
  const tx = ctx.db;
  const [peek] = await tx
    .select()
    .from(refunds)
    .where(and(eq(refunds.id, refundId), eq(refunds.shopId, ctx.shopId)));
  if (!peek) throw notFound('Refund');
  const order = await lockOwned(tx, orders, ctx.shopId, peek.orderId, 'Order');
  const refund = one(
    await tx
      .select()
      .from(refunds)
      .where(and(eq(refunds.shopId, ctx.shopId), eq(refunds.id, refundId)))
      .for('update'),
  );
  return { order, refund };
}

/**
 * Applies a refund of `ctx.shopId`'s once (a later call with the same outcome changes nothing).
 * On success: order state, credit note, earnings, accounting sync and `order.refunded`.
 */
export async function settleRefund(ctx: TxCtx, refundId: string, o: SettleOutcome): Promise<RefundRow> {
  const row = await settle(ctx, refundId, o);
  await recordRefundProviderRef(ctx, row);
  return row;
}

/**
 * The provider's reference of a refund goes into the provider reference directory in the
 * transaction that stores it (platform/db/directory.ts), so its webhook finds the refund's shop
 * first. Setting the same reference again changes nothing.
 */
export async function recordRefundProviderRef(ctx: TxCtx, row: RefundRow): Promise<void> {
  if (!row.providerRef) return;
  await registerProviderRef(ctx.db, {
    provider: row.provider,
    ref: row.providerRef,
    kind: 'refund',
    shopId: row.shopId,
    rowId: row.id,
  });
}

interface SettleOutcome {
  status: RefundStatus;
  providerRef: string | null;
  failure: string | null;
  now: Date;
  /** A `succeeded` from the provider for a refund we failed without its answer: applied (reconciled). */
  reconcile?: boolean;
}

async function settle(ctx: TxCtx, refundId: string, o: SettleOutcome): Promise<RefundRow> {
  const tx = ctx.db;
  const { order, refund } = await lockRefund(ctx, refundId);
  const reconciling = o.reconcile === true && o.status === 'succeeded' && failedWithoutProviderAnswer(refund);
  if (refund.status !== 'pending' && !reconciling) return refund;
  if (reconciling) {
    ctx.log.warn(
      { refund_id: refund.id, order_id: order.id, amount_cents: refund.amountCents, failure: refund.failureReason },
      'the provider reports a refund held as failed as succeeded: it is settled now',
    );
  }
  if (o.status === 'pending') {
    return one(
      await tx
        .update(refunds)
        .set({ providerRef: o.providerRef ?? refund.providerRef, updatedAt: o.now })
        .where(and(eq(refunds.shopId, ctx.shopId), eq(refunds.id, refundId)))
        .returning(),
    );
  }
  if (o.status === 'failed') {
    refundStates.assert(refund.status, 'failed');
    return one(
      await tx
        .update(refunds)
        .set({
          status: 'failed',
          failureReason: o.failure,
          providerRef: o.providerRef ?? refund.providerRef,
          updatedAt: o.now,
        })
        .where(and(eq(refunds.shopId, ctx.shopId), eq(refunds.id, refundId)))
        .returning(),
    );
  }
  const [succeeded] = await query<{ total: string | number }>(
    tx,
    sql`SELECT coalesce(sum(amount_cents), 0) AS total FROM refunds
        WHERE shop_id = ${order.shopId} AND order_id = ${order.id} AND (status = 'succeeded' OR id = ${refundId})`,
  );
  const refundedTotal = Number(succeeded?.total ?? 0);
  // a cancelled order stays cancelled (cancelled after payment, or while its refund was pending);
  // a refunded one stays refunded (only a reconciled refund can come after all was refunded)
  const to: OrderStatus =
    order.status === 'cancelled' ? 'cancelled' : refundedTotal >= order.totalCents ? 'refunded' : 'partially_refunded';
  refundStates.assert(refund.status, 'succeeded', reconciling ? 'reconciled' : undefined);
  if (order.status !== 'cancelled' && order.status !== 'refunded') {
    orderStates.assert(order.status, to);
    await tx
      .update(orders)
      .set({ status: to, updatedAt: o.now })
      .where(and(eq(orders.shopId, order.shopId), eq(orders.id, order.id)));
  }
  if (refundedTotal > order.totalCents) {
    ctx.log.error(
      { order_id: order.id, order_number: order.number, refund_id: refund.id, refunded_cents: refundedTotal },
      'the refunds of this order exceed what was paid: the money went back more than once; settle the excess with the customer',
    );
  }
  // finance writes the credit note when the order has a final invoice (platform/hooks.ts, creditRefund)
  const creditNoteId = await callPort('creditRefund')(ctx, {
    shopId: order.shopId,
    orderId: order.id,
    refundId: refund.id,
    amountCents: refund.amountCents,
    reason: refund.reason,
    lines: refund.lines?.map((l) => ({ position: l.position, quantity: l.quantity })) ?? null,
  });
  const row = one(
    await tx
      .update(refunds)
      .set({
        status: 'succeeded',
        providerRef: o.providerRef ?? refund.providerRef,
        creditNoteId,
        failureReason: null,
        updatedAt: o.now,
      })
      .where(and(eq(refunds.shopId, ctx.shopId), eq(refunds.id, refundId)))
      .returning(),
  );
  // the credit note claws back the partner earnings it credits (finalizeCreditNote); without an
  // invoice there is none, and the refunded share of what was paid is clawed back here (all of
  // it once the order is refunded), counting this refund, now succeeded
  if (!creditNoteId) {
    await runHook(ctx, 'refund.uncredited', {
      shopId: order.shopId,
      orderId: order.id,
      refundId: refund.id,
      now: o.now,
    });
  }
  await sendRefundEvent(
    ctx,
    'order.refunded',
    { order, refund, refundedTotal, status: to, now: o.now },
    {
      credit_note_id: creditNoteId,
    },
  );
  return row;
}

/**
 * A refund failed by us, not by the provider: no provider reference was ever stored for it (the
 * provider's own failure, at creation or later by webhook, always stores its refund's reference).
 * Only such a refund can still turn out to have succeeded; a provider's failure is final.
 */
export function failedWithoutProviderAnswer(r: RefundRow): boolean {
  return r.status === 'failed' && r.providerRef === null && r.provider !== 'manual';
}

/**
 * `order.refunded` / `order.refund_failed` to the checkout webhook destination: the refund, the
 * order's state and what it has refunded in all, and `extra` (the credit note, the failure).
 */
export async function sendRefundEvent(
  ctx: TxCtx,
  type: 'order.refunded' | 'order.refund_failed',
  e: { order: OrderRow; refund: RefundRow; refundedTotal: number; status: OrderStatus; now: Date },
  extra: Record<string, string | null>,
) {
  const { order, refund } = e;
  await emitEvent(ctx, {
    type,
    isTest: order.isTest,
    orderingKey: `order:${order.id}`,
    now: e.now,
    data: {
      order_id: order.id,
      order_number: order.number,
      refund_id: refund.id,
      amount_cents: refund.amountCents,
      refunded_cents: e.refundedTotal,
      currency: refund.currency,
      status: e.status,
      reason: refund.reason,
      ...extra,
      is_test: order.isTest,
    },
  });
}
