/**
 * The subscription lifecycle in one screen: every transition, what triggers it and the events it
 * sends (docs/ARCHITECTURE.md; docs/decisions.md). Services call `aboStates.fire(from, trigger)`; a trigger that
 * the table does not allow from the current status is 409 invalid_state.
 *
 * Dunning rule: a failed renewal (or trial-end) charge makes the subscription `past_due` and is
 * retried 1, 3 and 5 days after that first failure. A successful retry makes it `active` again
 * (same period, one order). When the last retry fails the subscription becomes `unpaid` (no
 * further charges; access should end) and it ends — `canceled`, `abo.beendet` — at the end of the
 * period that was not paid (`endet_am` is set to it at that moment).
 */
import { AppError } from '../../platform/errors.js';
import { type EventTable, eventMachine } from '../../platform/state-machine.js';
import { ABO_STATUSES, type AboStatus } from './digital.tables.js';

export type Trigger =
  /** hosted checkout completed: a trial starts, or the first period is paid */
  | 'checkout_trial'
  | 'checkout_paid'
  /** the charge at a period end (or trial end) or a dunning retry succeeded */
  | 'charge_succeeded'
  /** that charge failed and retries are left */
  | 'charge_failed'
  /** the last dunning retry failed */
  | 'retries_exhausted'
  /** kuendigen with sofort: false, or a customer's cancellation: ends at the period end */
  | 'cancel_scheduled'
  /** fortsetzen: the scheduled cancellation is withdrawn */
  | 'cancel_withdrawn'
  /** kuendigen with sofort: true */
  | 'cancel_now'
  /** the period end of a scheduled cancellation, or of an unpaid subscription, has come */
  | 'period_end_reached'
  /** the provider (Stripe) reports the subscription's status */
  | 'provider_sync';

/** Trigger → the statuses it may happen in (`new`: before the subscription exists) → the status after it. */
export const TRANSITIONS = {
  checkout_trial: { from: ['new'], to: 'trialing', events: ['checkout.completed', 'abo.aktiv'] },
  checkout_paid: { from: ['new'], to: 'active', events: ['checkout.completed', 'abo.aktiv', 'abo.bezahlt'] },
  // from trialing or past_due this is also `abo.aktiv` (the status changes); a renewal only `abo.bezahlt`;
  // from unpaid only through the provider (Stripe: the customer pays the open invoice later)
  charge_succeeded: { from: ['trialing', 'active', 'past_due', 'unpaid'], to: 'active', events: ['abo.bezahlt'] },
  charge_failed: { from: ['trialing', 'active', 'past_due'], to: 'past_due', events: ['abo.zahlung_fehlgeschlagen'] },
  retries_exhausted: { from: ['past_due'], to: 'unpaid', events: ['abo.zahlung_fehlgeschlagen'] },
  cancel_scheduled: { from: ['trialing', 'active', 'past_due'], to: 'same', events: ['abo.gekuendigt'] },
  cancel_withdrawn: { from: ['trialing', 'active', 'past_due'], to: 'same', events: ['abo.fortgesetzt'] },
  cancel_now: {
    from: ['trialing', 'active', 'past_due', 'unpaid'],
    to: 'canceled',
    events: ['abo.gekuendigt', 'abo.beendet'],
  },
  period_end_reached: { from: ['trialing', 'active', 'past_due', 'unpaid'], to: 'canceled', events: ['abo.beendet'] },
  provider_sync: { from: ['trialing', 'active', 'past_due', 'unpaid'], to: 'same', events: [] },
} as const satisfies EventTable<AboStatus, Trigger, 'new'>;

/** Every subscription status write goes through `aboStates.fire(from, trigger)`. */
export const aboStates = eventMachine<AboStatus, Trigger, 'new'>({
  states: ABO_STATUSES,
  events: TRANSITIONS,
  rejected: (from, trigger) =>
    new AppError('invalid_state', `A subscription in status ${from} cannot do this (${trigger})`),
});

/** Not ended: the list filter `laufend` (docs/decisions.md). */
export const RUNNING: AboStatus[] = ['active', 'trialing', 'past_due'];

/** Retries after the first failed charge: 1, 3 and 5 days (docs/digital.md, dunning). */
export const DUNNING_RETRY_DAYS = [1, 3, 5] as const;
