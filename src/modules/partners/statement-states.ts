/**
 * The vendor statement's states, in one screen: a statement is created as a draft, recomputed
 * while it is one, and finalized once (numbered, hashed, frozen). A final statement is neither
 * recomputed nor finalized again.
 *
 * Refusals keep the problems the statement routes have always answered with, naming the
 * statement: recomputing a final one is 409 `statement_final` "The statement VS-… for <period>
 * is final and cannot be recomputed", finalizing it again 409 `invalid_state` "The statement is
 * already final (VS-…)". The caller passes the statement as the step's subject.
 */
import { AppError } from '../../platform/errors.js';
import { eventMachine } from '../../platform/state-machine.js';

export const STATEMENT_STATUSES = ['draft', 'final'] as const;
export type StatementStatus = (typeof STATEMENT_STATUSES)[number];

/** What a refusal names of the statement. */
export interface StatementSubject {
  number: string | null;
  period: string;
}

/** Every statement status write goes through it: `fire(status, 'finalize', statement)`. */
export const statementStates = eventMachine<StatementStatus, 'recompute' | 'finalize', never, StatementSubject>({
  states: STATEMENT_STATUSES,
  events: {
    recompute: { from: ['draft'], to: 'same' },
    finalize: { from: ['draft'], to: 'final' },
  },
  rejected: (_from, event, s) =>
    event === 'recompute'
      ? new AppError('statement_final', `The statement ${s?.number} for ${s?.period} is final and cannot be recomputed`)
      : new AppError('invalid_state', `The statement is already final (${s?.number})`),
});
