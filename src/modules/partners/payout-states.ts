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
import { type StateMachine, stateMachine } from '../../platform/state-machine.js';

/** vendor | affiliate: the partner_type of the partner tables (partners.tables.ts re-exports it). */
export type PartnerType = 'vendor' | 'affiliate';

export const PAYOUT_STATUSES = ['pending', 'processing', 'paid', 'cancelled'] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** Payouts that still hold money in `in_payout`. */
export const OPEN_PAYOUT_STATUSES: PayoutStatus[] = ['pending', 'processing'];

/** Every payout status write goes through the table of its partner type (409 invalid_state naming both states). */
export const payoutStates = {
  vendor: stateMachine<PayoutStatus>({
    states: PAYOUT_STATUSES,
    transitions: {
      pending: ['processing', 'cancelled'],
      processing: ['paid', 'cancelled'],
      paid: [],
      cancelled: [],
    },
    rejected: (from, to) => new AppError('invalid_state', `A vendor payout in state ${from} cannot become ${to}`),
  }),
  affiliate: stateMachine<PayoutStatus>({
    states: PAYOUT_STATUSES,
    transitions: {
      pending: ['paid', 'processing', 'cancelled'],
      processing: ['paid', 'cancelled'],
      paid: [],
      cancelled: [],
    },
    rejected: (from, to) => new AppError('invalid_state', `A affiliate payout in state ${from} cannot become ${to}`),
  }),
} satisfies Record<PartnerType, StateMachine<PayoutStatus>>;
