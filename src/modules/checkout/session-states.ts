/**
 * The checkout session state machine, in one screen: a session is open until it is paid
 * (complete) or its expiry job runs (expired). A payment confirmed after expiry (e.g. SEPA, or a
 * subscription the provider completed late) still completes the session, so money never stays
 * captured without an order (docs/payments.md). Complete is final.
 */
import { AppError } from '../../platform/errors.js';

export const CHECKOUT_SESSION_STATUSES = ['open', 'complete', 'expired'] as const;
export type CheckoutSessionStatus = (typeof CHECKOUT_SESSION_STATUSES)[number];

const TRANSITIONS: Record<CheckoutSessionStatus, CheckoutSessionStatus[]> = {
  open: ['complete', 'expired'],
  expired: ['complete'],
  complete: [],
};

export function canTransition(from: string, to: CheckoutSessionStatus): boolean {
  return TRANSITIONS[from as CheckoutSessionStatus]?.includes(to) ?? false;
}

/** 409 invalid_state naming both states when the step does not exist. */
export function assertSessionTransition(from: string, to: CheckoutSessionStatus): void {
  if (!canTransition(from, to)) {
    throw new AppError('invalid_state', `A checkout session in state ${from} cannot become ${to}`);
  }
}
