/** The order state machine: which transitions exist, in one screen. */
import { AppError } from '../../platform/errors.js';

export const ORDER_STATUSES = [
  'pending_payment',
  'paid',
  'fulfilled',
  'cancelled',
  'partially_refunded',
  'refunded',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

const TRANSITIONS: Record<OrderStatus, OrderStatus[]> = {
  pending_payment: ['paid', 'cancelled'],
  paid: ['fulfilled', 'cancelled', 'partially_refunded', 'refunded'],
  fulfilled: ['partially_refunded', 'refunded'],
  cancelled: [],
  // a refund (docs/payments.md) of part of the money; further refunds keep it here until all is back
  partially_refunded: ['partially_refunded', 'refunded', 'fulfilled'],
  refunded: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

export function assertTransition(from: OrderStatus, to: OrderStatus): void {
  if (!canTransition(from, to)) {
    throw new AppError('invalid_state', `An order in state ${from} cannot become ${to}`);
  }
}
