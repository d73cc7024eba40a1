/**
 * What digital does with its abo sessions — checkout sessions of kind `abo` — as functions of
 * checkout, the owner of the table (docs/ARCHITECTURE.md, "Cross-module table reads").
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import type { Db } from '../../platform/db/client.js';
import { dropProviderRef, providerRefEntry, registerProviderRef } from '../../platform/db/directory.js';
import { query, type TxCtx, withTx } from '../../platform/db/tx.js';
import type { Address } from '../orders/index.js';
import { type CheckoutSessionRow, checkoutSessions } from './checkout.tables.js';

type ShopCtx = Pick<Ctx, 'db' | 'shopId'>;

/** An abo session's row as digital gives it: everything but the shop (the context's) and the kind. */
export type NewAboSession = Omit<typeof checkoutSessions.$inferInsert, 'shopId' | 'kind'>;

/** Creates an abo session of `ctx.shopId` in the caller's transaction. */
export async function insertAboSession(ctx: Pick<TxCtx, 'db' | 'shopId'>, row: NewAboSession): Promise<void> {
  await ctx.db.insert(checkoutSessions).values({ ...row, shopId: ctx.shopId, kind: 'abo' });
}

/**
 * Records the provider's reference of the session's hosted checkout, and in the same transaction
 * its provider reference directory row (an earlier reference of the session is dropped there).
 */
export async function setSessionProviderRef(ctx: ShopCtx, sessionId: string, providerRef: string): Promise<void> {
  await withTx(ctx.db, async (tx) => {
    const [earlier] = await tx
      .select({ provider: checkoutSessions.provider, ref: checkoutSessions.providerRef })
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.shopId, ctx.shopId), eq(checkoutSessions.id, sessionId)))
      .for('update');
    if (!earlier || earlier.ref === providerRef) return;
    await tx
      .update(checkoutSessions)
      .set({ providerRef })
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.shopId, ctx.shopId)));
    const row = { provider: earlier.provider, shopId: ctx.shopId, rowId: sessionId };
    if (earlier.ref) await dropProviderRef(tx, { ...row, ref: earlier.ref });
    await registerProviderRef(tx, { ...row, ref: providerRef, kind: 'checkout_session' });
  });
}

/**
 * The shop of the checkout session a provider event names. From the provider reference directory
 * when the event's provider session id maps to that very session; otherwise (a provider without
 * session references, such as the test provider, or a mismatch the caller then rejects) from one
 * unlocked read of the session by its id — on Citus the one statement that visits every shard,
 * because the event carries nothing else; locks are then taken by shop (a FOR UPDATE across
 * shards is refused). '' when no session has the id: the caller's locked read, pinned to it,
 * finds nothing.
 */
export async function sessionShopOfEvent(
  db: Db,
  provider: string,
  providerSessionId: string | null | undefined,
  sessionId: string,
): Promise<string> {
  if (providerSessionId) {
    const entry = await providerRefEntry(db, 'checkout_session', provider, providerSessionId);
    if (entry && entry.rowId === sessionId) return entry.shopId;
  }
  const [row] = await query<{ shop_id: string }>(
    db,
    sql`SELECT shop_id FROM checkout_sessions WHERE id = ${sessionId} LIMIT 1`,
  );
  return row?.shop_id ?? '';
}

/** The session of `ctx.shopId`, locked (`FOR UPDATE`) until the caller's transaction ends; null when there is none. */
export async function lockSession(
  ctx: Pick<TxCtx, 'db' | 'shopId'>,
  sessionId: string,
): Promise<CheckoutSessionRow | null> {
  const [row] = await ctx.db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.shopId, ctx.shopId)))
    .for('update');
  return row ?? null;
}

/** Marks an abo session complete with its subscription (and first order), in the caller's transaction. */
export async function completeAboSessionRow(
  ctx: Pick<TxCtx, 'db' | 'shopId'>,
  sessionId: string,
  c: { subscriptionId: string; orderId: string | null; completedAt: Date; billingAddress: Address | null },
): Promise<void> {
  await ctx.db
    .update(checkoutSessions)
    .set({
      status: 'complete',
      subscriptionId: c.subscriptionId,
      orderId: c.orderId,
      completedAt: c.completedAt,
      ...(c.billingAddress ? { billingAddress: c.billingAddress } : {}),
    })
    .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.shopId, ctx.shopId)));
}

/**
 * The abo session `sessionId` of `shopId` (from sessionShopOfEvent) as a derived table, locked `FOR UPDATE` by the statement
 * that reads it, with the columns a payment event needs (id, shop_id, channel_id, kind, status,
 * provider, provider_ref, currency, subscription_id, abo_tax, plan_id): the event's lookup joins
 * its plan and stays one statement, `FROM ${lockedAboSessionSql(id, shop)} s JOIN abo_plans pl ON pl.shop_id = s.shop_id AND pl.id = s.plan_id`.
 */
export const lockedAboSessionSql = (sessionId: string, shopId: string): SQL =>
  sql`(SELECT s.id, s.shop_id, s.channel_id, s.kind, s.status, s.provider, s.provider_ref, s.currency,
              s.subscription_id, s.abo_tax, s.plan_id
       FROM checkout_sessions s
       WHERE s.shop_id = ${shopId} AND s.id = ${sessionId} AND s.kind = 'abo' FOR UPDATE)`;

/** The provider events recorded for the order, oldest first (its timeline; raw timestamps: `pgDate`). */
export async function paymentEventsOfOrder(ctx: ShopCtx, orderId: string) {
  return query<{
    provider: string;
    event_id: string;
    type: string;
    status: string;
    reason: string | null;
    amount_cents: number | string | null;
    currency: string | null;
    received_at: string;
  }>(
    ctx.db,
    sql`SELECT provider, event_id, type, status, reason, amount_cents, currency, received_at FROM payment_events
        WHERE shop_id = ${ctx.shopId} AND order_id = ${orderId} ORDER BY received_at, event_id`,
  );
}
