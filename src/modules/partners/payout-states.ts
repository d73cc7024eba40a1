/**
 * The payout state machines, in one screen. Vendor payouts are made by an admin:
 * pending → processing → paid, and cancelled from pending or processing. Affiliate payouts are
 * requested in the portal and paid directly: pending → paid (processing exists for symmetry but
 * no route uses it), cancelled from pending or processing. Paid and cancelled are final.
 *
 * Ledger entries of the steps (ledger.ts): creating/requesting books payout_requested
 * (available → in_payout), paid books payout_paid (in_payout → paid_out), cancelled books
 * payout_cancelled (in_payout → available).
 */
import { AppError } from '../../platform/errors.js';
import type { PartnerType } from './partners.tables.js';

export const PAYOUT_STATUSES = ['pending', 'processing', 'paid', 'cancelled'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** Payouts that still hold money in `in_payout`. */
export const OPEN_PAYOUT_STATUSES: PayoutStatus[] = ['pending', 'processing'];

const TRANSITIONS: Record<PartnerType, Record<PayoutStatus, PayoutStatus[]>> = {
  vendor: {
    pending: ['processing', 'cancelled'],
    processing: ['paid', 'cancelled'],
    paid: [],
    cancelled: [],
  },
  affiliate: {
    pending: ['paid', 'processing', 'cancelled'],
    processing: ['paid', 'cancelled'],
    paid: [],
    cancelled: [],
  },
};

export function canTransition(type: PartnerType, from: PayoutStatus, to: PayoutStatus): boolean {
  return TRANSITIONS[type][from]?.includes(to) ?? false;
}

/** 409 invalid_state naming both states when the step does not exist. */
export function assertPayoutTransition(type: PartnerType, from: PayoutStatus, to: PayoutStatus): void {
  if (!canTransition(type, from, to)) {
    throw new AppError('invalid_state', `A ${type} payout in state ${from} cannot become ${to}`);
  }
}
