/**
 * The refund state machine, in one screen (docs/payments.md). A refund is `pending` from its claim
 * until the provider's outcome is applied: `succeeded` or `failed`. Two later steps are named,
 * because only the provider's word makes them: `reconciled` (a refund we failed without the
 * provider's answer that the provider reports as succeeded) and `reversed` (a succeeded refund
 * the provider failed since; the order takes the `refund_reversed` step with it).
 */
import { AppError } from '../../platform/errors.js';
import { stateMachine } from '../../platform/state-machine.js';

export const REFUND_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

export const refundStates = stateMachine<RefundStatus, 'reconciled' | 'reversed'>({
  states: REFUND_STATUSES,
  transitions: {
    pending: ['succeeded', 'failed'],
    succeeded: [],
    failed: [],
  },
  named: {
    reconciled: { failed: ['succeeded'] },
    reversed: { succeeded: ['failed'] },
  },
  rejected: (from, to) => new AppError('invalid_state', `A refund in state ${from} cannot become ${to}`),
});
