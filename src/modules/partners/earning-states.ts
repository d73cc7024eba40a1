/**
 * The earning's states, in one screen: an earning is booked pending (on the order's payment)
 * and released once (the release job after the hold period, or an admin's release of chosen
 * earnings): pending → released. Released is final; a clawback changes the ledger, not the
 * status.
 *
 * A refused release is the release routes' 409 `not_releasable` "Not pending earnings of this
 * shop: <id>"; the caller passes the earning's id as the step's subject.
 */
import { AppError } from '../../platform/errors.js';
import { stateMachine } from '../../platform/state-machine.js';

export const EARNING_STATUSES = ['pending', 'released'] as const;
export type EarningStatus = (typeof EARNING_STATUSES)[number];

/** Every earning status write goes through it: `assert(status, 'released', undefined, id)`. */
export const earningStates = stateMachine<EarningStatus, never, string>({
  states: EARNING_STATUSES,
  transitions: { pending: ['released'], released: [] },
  rejected: (_from, _to, id) => new AppError('not_releasable', `Not pending earnings of this shop: ${id}`),
});
