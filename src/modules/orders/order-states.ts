/** The order state machine: which transitions exist, in one screen. */
import { AppError } from '../../platform/errors.js';
import { stateMachine } from '../../platform/state-machine.js';

export const ORDER_STATUSES = [
  'pending_payment',
  'paid',
  'fulfilled',
  'cancelled',
  'partially_refunded',
  'refunded',
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const orderStates = stateMachine<OrderStatus, 'refund_reversed'>({
  states: ORDER_STATUSES,
  transitions: {
    pending_payment: ['paid', 'cancelled'],
    paid: ['fulfilled', 'cancelled', 'partially_refunded', 'refunded'],
    fulfilled: ['partially_refunded', 'refunded'],
    cancelled: [],
    // a refund (docs/payments.md) of part of the money; further refunds keep it here until all is back
    partially_refunded: ['partially_refunded', 'refunded', 'fulfilled'],
    refunded: [],
  },
  named: {
    // not a step anyone may ask for (a refunded order is final for the routes): the provider took
    // a succeeded refund back (refunds.service.ts, failSucceededRefund); the order follows the
    // succeeded refunds that remain, and is paid again without any
    refund_reversed: {
      refunded: ['partially_refunded', 'paid'],
      partially_refunded: ['paid'],
    },
  },
  rejected: (from, to) => new AppError('invalid_state', `An order in state ${from} cannot become ${to}`),
});
