/**
 * The state machine of platform/state-machine.ts, on a small table of its own, and the module
 * tables built with it: their steps, and that a refused step is the module's problem (code and
 * message as before the tables shared one shape).
 */
import { describe, expect, it } from 'vitest';
import { sessionStates } from '../modules/checkout/session-states.js';
import { TRANSITIONS as ABO_TRIGGERS, aboStates } from '../modules/digital/abo-states.js';
import { ABO_STATUSES } from '../modules/digital/digital.tables.js';
import { creditedState, creditNoteStates, invoiceStates } from '../modules/finance/document-states.js';
import { orderStates } from '../modules/orders/order-states.js';
import { refundStates } from '../modules/orders/refund-states.js';
import { earningStates } from '../modules/partners/earning-states.js';
import { payoutStates } from '../modules/partners/payout-states.js';
import { statementStates } from '../modules/partners/statement-states.js';
import { AppError } from './errors.js';
import { eventMachine, type StateMachine, stateMachine } from './state-machine.js';

type Door = 'open' | 'closed' | 'locked';
const door = stateMachine<Door, 'break_in'>({
  states: ['open', 'closed', 'locked'],
  transitions: { open: ['closed'], closed: ['open', 'locked'], locked: ['closed'] },
  named: { break_in: { locked: ['open'] } },
  rejected: (from, to) => new AppError('invalid_state', `A door ${from} cannot become ${to}`),
});

/** The problem a refused step throws (fails the test when none is thrown). */
function refusal(step: () => unknown): AppError {
  try {
    step();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return err as AppError;
  }
  throw new Error('the step was not refused');
}

describe('stateMachine', () => {
  it('allows exactly the steps of the table', () => {
    expect(door.can('open', 'closed')).toBe(true);
    expect(door.can('closed', 'locked')).toBe(true);
    expect(door.can('open', 'locked')).toBe(false);
    expect(door.can('open', 'open')).toBe(false);
    expect(door.targets('closed')).toEqual(['open', 'locked']);
    expect(() => door.assert('locked', 'closed')).not.toThrow();
  });

  it('refuses any other step with the problem the table names', () => {
    const err = refusal(() => door.assert('open', 'locked'));
    expect(err.code).toBe('invalid_state');
    expect(err.status).toBe(409);
    expect(err.detail).toBe('A door open cannot become locked');
  });

  it('takes a named transition only when the caller names it', () => {
    expect(door.can('locked', 'open')).toBe(false);
    expect(() => door.assert('locked', 'open')).toThrow(AppError);
    expect(door.can('locked', 'open', 'break_in')).toBe(true);
    expect(() => door.assert('locked', 'open', 'break_in')).not.toThrow();
    // the named steps add to the table's, they do not replace them
    expect(door.targets('locked', 'break_in')).toEqual(['closed', 'open']);
    expect(door.can('closed', 'open', 'break_in')).toBe(true);
    expect(door.targets('open', 'break_in')).toEqual(['closed']);
  });

  it('builds the refusal from the subject the caller passes', () => {
    const named = stateMachine<Door, never, { name: string }>({
      states: ['open', 'closed', 'locked'],
      transitions: { open: ['closed'], closed: ['open', 'locked'], locked: ['closed'] },
      rejected: (from, to, s) => new AppError('invalid_state', `The door ${s?.name} is ${from}, not ${to}-able`),
    });
    expect(refusal(() => named.assert('open', 'locked', undefined, { name: 'front' })).detail).toBe(
      'The door front is open, not locked-able',
    );
    expect(() => named.assert('open', 'closed', undefined, { name: 'front' })).not.toThrow();
  });

  it('tells a stored text that is a state from one that is not', () => {
    expect(door.is('locked')).toBe(true);
    expect(door.is('ajar')).toBe(false);
  });
});

describe('eventMachine', () => {
  type Light = 'off' | 'on' | 'broken';
  const light = eventMachine<Light, 'switch_on' | 'switch_off' | 'dim' | 'install', 'new'>({
    states: ['off', 'on', 'broken'],
    events: {
      install: { from: ['new'], to: 'off' },
      switch_on: { from: ['off'], to: 'on' },
      switch_off: { from: ['on'], to: 'off' },
      dim: { from: ['on'], to: 'same' },
    },
    rejected: (from, event) => new AppError('invalid_state', `A light ${from} cannot ${event}`),
  });

  it('fires an event into the state after it; `same` keeps the state', () => {
    expect(light.fire('new', 'install')).toBe('off');
    expect(light.fire('off', 'switch_on')).toBe('on');
    expect(light.fire('on', 'dim')).toBe('on');
    expect(light.allows('off', 'dim')).toBe(false);
  });

  it('refuses an event the state does not allow, in the words of the event', () => {
    expect(refusal(() => light.fire('broken', 'switch_on')).detail).toBe('A light broken cannot switch_on');
    expect(refusal(() => light.fire('on', 'install')).detail).toBe('A light on cannot install');
  });

  it('derives the steps from the events: a state before the first is none of them', () => {
    expect(light.targets('off')).toEqual(['on']);
    expect(light.targets('on')).toEqual(['off', 'on']);
    expect(light.targets('broken')).toEqual([]);
    expect(light.can('off', 'on')).toBe(true);
    expect(light.can('broken', 'on')).toBe(false);
    expect(light.is('new')).toBe(false);
    // asked for a step, not an event: refused in the words of an event that leads there
    expect(refusal(() => light.assert('broken', 'off')).detail).toMatch(/^A light broken cannot (install|switch_off)$/);
  });
});

/** Every target of every state is a state of the table; a state without targets is final. */
function wellFormed<S extends string, N extends string>(m: StateMachine<S, N>, named: N[] = []) {
  for (const via of [undefined, ...named]) {
    for (const from of m.states) for (const to of m.targets(from, via)) expect(m.states).toContain(to);
  }
}

describe('the module tables', () => {
  it('are well formed', () => {
    wellFormed(orderStates, ['refund_reversed']);
    wellFormed(refundStates, ['reconciled', 'reversed']);
    wellFormed(sessionStates);
    wellFormed(payoutStates.vendor);
    wellFormed(payoutStates.affiliate);
    wellFormed(statementStates);
    wellFormed(earningStates);
    wellFormed(invoiceStates);
    wellFormed(creditNoteStates);
    wellFormed(aboStates);
    expect(aboStates.states).toEqual(ABO_STATUSES);
  });

  it('orders: a refund reversal is a step of its own, never one a route may take', () => {
    expect(orderStates.targets('refunded')).toEqual([]);
    expect(orderStates.targets('refunded', 'refund_reversed')).toEqual(['partially_refunded', 'paid']);
    expect(orderStates.can('partially_refunded', 'paid')).toBe(false);
    expect(orderStates.can('partially_refunded', 'paid', 'refund_reversed')).toBe(true);
    expect(orderStates.can('cancelled', 'paid', 'refund_reversed')).toBe(false);
    const err = refusal(() => orderStates.assert('refunded', 'paid'));
    expect([err.code, err.detail]).toEqual(['invalid_state', 'An order in state refunded cannot become paid']);
  });

  it('refunds: pending until the outcome; reconciled and reversed only by name', () => {
    expect(refundStates.targets('pending')).toEqual(['succeeded', 'failed']);
    expect(refundStates.can('failed', 'succeeded')).toBe(false);
    expect(refundStates.can('failed', 'succeeded', 'reconciled')).toBe(true);
    expect(refundStates.can('succeeded', 'failed')).toBe(false);
    expect(refundStates.can('succeeded', 'failed', 'reversed')).toBe(true);
    expect(refundStates.can('succeeded', 'failed', 'reconciled')).toBe(false);
    expect(refusal(() => refundStates.assert('succeeded', 'pending')).code).toBe('invalid_state');
  });

  it('checkout sessions and payouts keep their refusals', () => {
    expect(sessionStates.can('expired', 'complete')).toBe(true);
    expect(refusal(() => sessionStates.assert('complete', 'expired')).detail).toBe(
      'A checkout session in state complete cannot become expired',
    );
    expect(payoutStates.vendor.can('pending', 'paid')).toBe(false);
    expect(payoutStates.affiliate.can('pending', 'paid')).toBe(true);
    expect(refusal(() => payoutStates.vendor.assert('paid', 'cancelled')).detail).toBe(
      'A vendor payout in state paid cannot become cancelled',
    );
  });

  it('documents: finalizing twice is already_final, crediting a draft invalid_state', () => {
    expect(invoiceStates.fire('draft', 'finalize')).toBe('final');
    expect(refusal(() => invoiceStates.fire('final', 'finalize')).code).toBe('already_final');
    const err = refusal(() => invoiceStates.fire('draft', 'credit_fully'));
    expect([err.code, err.detail]).toEqual(['invalid_state', 'An invoice in state draft cannot credit fully']);
    expect(creditedState('final', 500, 1000)).toBe('partially_credited');
    expect(creditedState('partially_credited', 1000, 1000)).toBe('credited');
    expect(refusal(() => creditNoteStates.fire('final', 'finalize')).code).toBe('already_final');
  });

  it('subscriptions: a trigger fires from the statuses its row lists', () => {
    expect(aboStates.fire('new', 'checkout_trial')).toBe('trialing');
    expect(aboStates.fire('past_due', 'cancel_scheduled')).toBe('past_due');
    expect(aboStates.fire('unpaid', 'charge_succeeded')).toBe('active');
    for (const trigger of Object.keys(ABO_TRIGGERS) as (keyof typeof ABO_TRIGGERS)[]) {
      expect(aboStates.allows('canceled', trigger)).toBe(false);
    }
    const err = refusal(() => aboStates.fire('canceled', 'cancel_now'));
    expect([err.code, err.detail]).toEqual([
      'invalid_state',
      'A subscription in status canceled cannot do this (cancel_now)',
    ]);
  });

  it('vendor statements: recomputed and finalized as drafts, refusals name the statement', () => {
    const s = { number: 'VS-2026-0007', period: '2026-03' };
    expect(statementStates.fire('draft', 'recompute', s)).toBe('draft');
    expect(statementStates.fire('draft', 'finalize', s)).toBe('final');
    const again = refusal(() => statementStates.fire('final', 'finalize', s));
    expect([again.code, again.status, again.detail]).toEqual([
      'invalid_state',
      409,
      'The statement is already final (VS-2026-0007)',
    ]);
    const recompute = refusal(() => statementStates.fire('final', 'recompute', s));
    expect([recompute.code, recompute.status, recompute.detail]).toEqual([
      'statement_final',
      409,
      'The statement VS-2026-0007 for 2026-03 is final and cannot be recomputed',
    ]);
  });

  it('earnings: pending → released once, a second release is not_releasable naming the earning', () => {
    expect(earningStates.targets('pending')).toEqual(['released']);
    expect(earningStates.targets('released')).toEqual([]);
    const err = refusal(() => earningStates.assert('released', 'released', undefined, 'earn_1'));
    expect([err.code, err.status, err.detail]).toEqual([
      'not_releasable',
      409,
      'Not pending earnings of this shop: earn_1',
    ]);
  });
});
