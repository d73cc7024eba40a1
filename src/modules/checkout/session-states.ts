/**
 * The checkout session state machine, in one screen: a session is open until it is paid
 * (complete) or its expiry job runs (expired). A payment confirmed after expiry (e.g. SEPA, or a
 * subscription the provider completed late) still completes the session, so money never stays
 * captured without an order (docs/payments.md). Complete is final.
 */
import { AppError } from '../../platform/errors.js';
import { stateMachine } from '../../platform/state-machine.js';

export const CHECKOUT_SESSION_STATUSES = ['open', 'complete', 'expired'] as const;
export type CheckoutSessionStatus = (typeof CHECKOUT_SESSION_STATUSES)[number];

/** Every session status write goes through `sessionStates.assert` (409 invalid_state naming both states). */
export const sessionStates = stateMachine<CheckoutSessionStatus>({
  states: CHECKOUT_SESSION_STATUSES,
  transitions: {
    open: ['complete', 'expired'],
    expired: ['complete'],
    complete: [],
  },
  rejected: (from, to) => new AppError('invalid_state', `A checkout session in state ${from} cannot become ${to}`),
});

/** order (a one-time purchase) | abo (a subscription) */
export const CHECKOUT_SESSION_KINDS = ['order', 'abo'] as const;
export type CheckoutSessionKind = (typeof CHECKOUT_SESSION_KINDS)[number];
