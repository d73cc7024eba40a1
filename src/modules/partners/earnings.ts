/**
 * Earnings: what paid orders earn vendors (their lines minus the platform commission) and
 * affiliates (a percent of the order's net item value), booked into the ledger; releases after
 * the hold period; clawbacks when a credit note or a refund takes money back.
 * (Being written; signatures are fixed.)
 */
import type { Db } from '../../platform/db/client.js';
import type { PartnerType, partnerEarnings } from './partners.tables.js';

export type EarningRow = typeof partnerEarnings.$inferSelect;

/** Credits every vendor line and the attributed affiliate of a paid order. Idempotent. */
export async function creditOrderEarnings(_tx: Db, _shopId: string, _orderId: string, _now: Date): Promise<void> {}

/** Claws back what a final credit note takes back from the order's earnings. Idempotent. */
export async function reverseCreditNoteEarnings(
  _tx: Db,
  _shopId: string,
  _creditNoteId: string,
  _now: Date,
): Promise<void> {}

/** Claws back every earning of an order that was cancelled or refunded after payment. Idempotent. */
export async function reverseOrderEarnings(_tx: Db, _shopId: string, _orderId: string, _now: Date): Promise<void> {}

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
 * entry per earning, status `released`. Locks the earnings; returns the released rows.
 */
export async function releaseEarnings(
  _tx: Db,
  _shopId: string,
  _partnerType: PartnerType,
  _sel: ReleaseSelection,
  _now: Date,
): Promise<EarningRow[]> {
  throw new Error('not yet');
}

export interface EarningFilters {
  partner_id?: string;
  status?: 'pending' | 'released';
  order_id?: string;
  currency?: string;
  from?: string;
  to?: string;
  limit: number;
  offset: number;
}

export interface EarningView extends EarningRow {
  /** Clawed back so far (from the ledger). */
  reversedCents: number;
}

/** Lists earnings newest first, with what was clawed back, exact count. */
export async function listEarnings(
  _db: Db,
  _shopId: string,
  _partnerType: PartnerType,
  _f: EarningFilters,
): Promise<{ rows: EarningView[]; count: number }> {
  throw new Error('not yet');
}

/** API shape of an earning (vendor_id or affiliate_id by type). */
export function earningOut(e: EarningView) {
  return {
    id: e.id,
    [e.partnerType === 'vendor' ? 'vendor_id' : 'affiliate_id']: e.partnerId,
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
    earned_at: e.earnedAt.toISOString(),
    released_at: e.releasedAt ? e.releasedAt.toISOString() : null,
  };
}
