/** The earning lists of both portals and the admin, and an earning's API shape (earnings.ts). */
import type { Static } from '@sinclair/typebox';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import type { Paged } from '../../platform/http/schemas.js';
import { reversedSoFar } from './claw-back-earnings.js';
import { type EarningRow, type PartnerType, partnerEarnings } from './partners.tables.js';
import { partnerIdOut } from './payouts.service.js';
import type { PortalEarningQuery } from './vendors.schemas.js';

/** The earning list filters of both portals and admin lists, for one partner or all. */
export type EarningFilters = Paged<Static<typeof PortalEarningQuery> & { partner_id?: string }>;

export interface EarningView extends EarningRow {
  /** Clawed back so far (from the ledger). */
  reversedCents: number;
}

/** Lists earnings newest first, with what was clawed back, exact count. */
export async function listEarnings(
  ctx: Ctx,
  partnerType: PartnerType,
  f: EarningFilters,
): Promise<{ rows: EarningView[]; count: number }> {
  const { db } = ctx;
  const conds: SQL[] = [eq(partnerEarnings.shopId, ctx.shopId), eq(partnerEarnings.partnerType, partnerType)];
  if (f.partner_id) conds.push(eq(partnerEarnings.partnerId, f.partner_id));
  if (f.status) conds.push(eq(partnerEarnings.status, f.status));
  if (f.order_id) conds.push(eq(partnerEarnings.orderId, f.order_id));
  if (f.currency) conds.push(eq(partnerEarnings.currency, f.currency));
  if (f.from) conds.push(sql`${partnerEarnings.earnedAt} >= ${f.from}::timestamptz`);
  if (f.to) conds.push(sql`${partnerEarnings.earnedAt} < ${f.to}::timestamptz`);
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(partnerEarnings)
      .where(where)
      .orderBy(desc(partnerEarnings.earnedAt), desc(partnerEarnings.id))
      .limit(f.limit)
      .offset(f.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(partnerEarnings).where(where),
  ]);
  const reversed = await reversedSoFar(
    ctx,
    rows.map((r) => r.id),
  );
  return {
    rows: rows.map((r) => ({ ...r, reversedCents: reversed.get(r.id) ?? 0 })),
    count: Number(total[0]?.n ?? 0),
  };
}

/** API shape of an earning (vendor_id or affiliate_id by type). */
export function earningOut<K extends PartnerType>(kind: K, e: EarningView) {
  return {
    id: e.id,
    ...partnerIdOut(kind, e.partnerId),
    order_id: e.orderId,
    order_line_id: e.orderLineId,
    subscription_id: e.subscriptionId,
    subscription_payment_number: e.subscriptionPaymentNumber,
    currency: e.currency,
    gross_cents: e.grossCents,
    net_cents: e.netCents,
    commission_cents: e.commissionCents,
    amount_cents: e.amountCents,
    reversed_cents: e.reversedCents,
    rate_percent: e.ratePercent,
    status: e.status,
    earned_at: iso(e.earnedAt),
    released_at: isoOrNull(e.releasedAt),
  };
}
