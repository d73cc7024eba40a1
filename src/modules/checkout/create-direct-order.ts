/** The direct flow of a checkout request: an unpaid order at once (create-checkout-session.ts). */
import type { Ctx } from '../../platform/auth/types.js';
import { withTx } from '../../platform/db/tx.js';
import { enqueue } from '../../platform/jobs/queue.js';
import { reserveMany } from '../catalog/index.js';
import type { ResolvedChannel } from '../channels/index.js';
import { type CheckoutSessionRow, checkoutSessions } from './checkout.tables.js';
import { completeInTx } from './complete-session.js';
import { EXPIRE_ORDER_JOB } from './expire-session.js';
import { type NewSession, outOfStock, type TrackedLine } from './resolve-cart.js';

/**
 * The direct flow: the session and an unpaid order (e.g. invoice or bank transfer) in one
 * transaction; the order keeps the stock until paid or expired.
 */
export async function createDirectOrder(
  ctx: Ctx,
  channel: ResolvedChannel,
  values: NewSession,
  tracked: TrackedLine[],
) {
  const now = values.createdAt;
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const [session] = (await tx.insert(checkoutSessions).values(values).returning()) as [CheckoutSessionRow];
    const failed = await reserveMany(
      t,
      tracked.map(({ line }) => line),
    );
    if (failed.length > 0) throw outOfStock(failed.map((k) => tracked[k]?.i ?? k));
    const order = await completeInTx(t, session, {
      now,
      status: 'pending_payment',
      autoConfirm: channel.auto_confirm_orders,
      paymentRef: null,
      orderExpiresAt: values.expiresAt,
    });
    await enqueue(
      tx,
      EXPIRE_ORDER_JOB,
      { shop_id: ctx.shopId, order_id: order.id },
      { now, runAt: values.expiresAt, shopId: ctx.shopId },
    );
    return { session: { ...session, status: 'complete' as const, orderId: order.id }, url: null as string | null };
  });
}
