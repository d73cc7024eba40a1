/** The end of an unpaid one-time session: its job expires it and gives back its stock. */
import { and, eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { withTx } from '../../platform/db/tx.js';
import { releaseStock } from '../catalog/index.js';
import { checkoutSessions } from './checkout.tables.js';
import { sessionStates } from './session-states.js';

export const EXPIRE_JOB = 'checkout.expire_session';
export const EXPIRE_ORDER_JOB = 'orders.expire_pending';

/** Expires an open session of `ctx.shopId` and gives back its stock (job at expires_at). Idempotent. */
export async function expireSession(ctx: Ctx, sessionId: string): Promise<boolean> {
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const [s] = await tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.shopId, ctx.shopId)))
      .for('update');
    if (!s || !sessionStates.can(s.status, 'expired') || s.expiresAt > now) return false;
    if (s.stockReserved) {
      for (const l of s.lines) if (l.track_stock) await releaseStock(t, l);
    }
    await tx
      .update(checkoutSessions)
      .set({ status: 'expired', stockReserved: false })
      .where(and(eq(checkoutSessions.shopId, ctx.shopId), eq(checkoutSessions.id, sessionId)));
    return true;
  });
}
