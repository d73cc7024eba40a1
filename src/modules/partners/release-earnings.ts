/** Releasing pending earnings to available (the release job, an admin's release; earnings.ts). */

import { and, asc, eq, inArray, lt, type SQL } from 'drizzle-orm';
import { one, type TxCtx } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import { reversedSoFar } from './claw-back-earnings.js';
import { earningStates } from './earning-states.js';
import { move, post } from './ledger.js';
import { type EarningRow, type PartnerType, partnerEarnings } from './partners.tables.js';

export interface ReleaseSelection {
  /** Release exactly these pending earnings (hold period ignored). */
  earningIds?: string[];
  /** Only this partner's pending earnings. */
  partnerId?: string;
  /** Without ids: release pending earnings earned before this time (now − hold days). */
  earnedBefore?: Date;
}

/**
 * Moves pending earnings (their amount net of clawbacks) to available: one `release` ledger
 * entry per earning, status `released`. Locks the earnings; returns the released rows. With
 * `earningIds`, every id must be a pending earning of this type, else 409 `not_releasable`.
 */
export async function releaseEarnings(
  ctx: TxCtx,
  partnerType: PartnerType,
  sel: ReleaseSelection,
  now: Date,
): Promise<EarningRow[]> {
  const { db: tx, shopId } = ctx;
  const conds: SQL[] = [
    eq(partnerEarnings.shopId, shopId),
    eq(partnerEarnings.partnerType, partnerType),
    eq(partnerEarnings.status, 'pending'),
  ];
  if (sel.partnerId) conds.push(eq(partnerEarnings.partnerId, sel.partnerId));
  if (sel.earningIds) {
    if (sel.earningIds.length === 0) return [];
    conds.push(inArray(partnerEarnings.id, sel.earningIds));
  } else if (sel.earnedBefore) {
    conds.push(lt(partnerEarnings.earnedAt, sel.earnedBefore));
  }
  const rows = await tx
    .select()
    .from(partnerEarnings)
    .where(and(...conds))
    .orderBy(asc(partnerEarnings.id))
    .for('update');
  if (sel.earningIds) {
    const found = new Set(rows.map((r) => r.id));
    const missing = [...new Set(sel.earningIds)].filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new AppError(
        'not_releasable',
        `Not pending earnings of this shop: ${missing.slice(0, 20).join(', ')}`,
        missing.slice(0, 20).map((id) => ({
          path: `/body/earning_ids/${sel.earningIds?.indexOf(id)}`,
          message: 'is not a pending earning',
        })),
      );
    }
  }
  if (rows.length === 0) return [];
  const reversed = await reversedSoFar(
    ctx,
    rows.map((r) => r.id),
  );
  const out: EarningRow[] = [];
  for (const r of rows) {
    const amount = r.amountCents - (reversed.get(r.id) ?? 0);
    if (amount > 0) {
      await post(ctx, {
        partnerType,
        partnerId: r.partnerId,
        currency: r.currency,
        kind: 'release',
        idemKey: `release:${r.id}`,
        earningId: r.id,
        orderId: r.orderId,
        occurredAt: now,
        postings: move('pending', 'available', amount),
      });
    }
    earningStates.assert(r.status, 'released', undefined, r.id);
    const updated = one(
      await tx
        .update(partnerEarnings)
        .set({ status: 'released', releasedAt: now })
        .where(and(eq(partnerEarnings.shopId, r.shopId), eq(partnerEarnings.id, r.id)))
        .returning(),
    );
    out.push(updated);
  }
  return out;
}
