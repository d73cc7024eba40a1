/**
 * One shape for every state table (docs/ARCHITECTURE.md, "State machines"): a module writes its
 * states and their allowed steps as data, in its own `<thing>-states.ts`, and every status write
 * goes through the machine built from it. The machine is typed by the status union, which is
 * also the `$type` of the status column, so a misspelt status does not compile.
 *
 * Two forms of table, one machine:
 * - `stateMachine`: `from → [to, …]`, plus named transitions that only a named caller may take
 *   (e.g. the order's `refund_reversed`: a refund the provider took back moves a refunded order
 *   back; no route may ask for that step).
 * - `eventMachine`: `event → { from: [...], to }`, where the step is known by what caused it
 *   (subscriptions, documents); `fire(from, event)` is the status after it. Its `can`/`targets`
 *   are the steps the events allow.
 *
 * A step the table does not allow is the module's 409 problem (`rejected`, so codes and
 * messages stay those the module has always answered with). Where that message names the row
 * (a statement's number), the caller passes the row as the step's `subject` (typed `X`) and
 * `rejected` builds the message from it.
 */
import type { AppError } from './errors.js';

/** Every state with the states it may become. */
export type TransitionTable<S extends string> = { readonly [K in S]: readonly S[] };

export interface StateMachine<S extends string, N extends string = never, X = never> {
  readonly states: readonly S[];
  /** Whether `from → to` is a step of the table (or of the named transition `via`). */
  can(from: S, to: S, via?: N): boolean;
  /** Throws the module's 409 problem unless `from → to` is a step (of the table or of `via`). */
  assert(from: S, to: S, via?: N, subject?: X): void;
  /** The states `from` may become (by the table, and by `via` when named). */
  targets(from: S, via?: N): readonly S[];
  /** Whether a stored text is one of the states (narrows it). */
  is(value: string): value is S;
}

export function stateMachine<S extends string, N extends string = never, X = never>(def: {
  states: readonly S[];
  transitions: TransitionTable<S>;
  /** Steps only a caller naming them may take, added to the table's. */
  named?: { readonly [K in N]: Partial<TransitionTable<S>> };
  /** The refusal; `subject` is what the caller passed to `assert` (its message may name it). */
  rejected: (from: S, to: S, subject: X | undefined) => AppError;
}): StateMachine<S, N, X> {
  const known = new Set<string>(def.states);
  const targets = (from: S, via?: N): readonly S[] => {
    const base = def.transitions[from] ?? [];
    const extra = via === undefined ? undefined : def.named?.[via]?.[from];
    return extra ? [...base, ...extra.filter((s) => !base.includes(s))] : base;
  };
  const can = (from: S, to: S, via?: N) => targets(from, via).includes(to);
  return {
    states: def.states,
    can,
    assert(from, to, via, subject) {
      if (!can(from, to, via)) throw def.rejected(from, to, subject);
    },
    targets,
    is: (value: string): value is S => known.has(value),
  };
}

/** Event → the states it may happen in → the state after it (`same`: the status stays). */
export type EventTable<S extends string, E extends string, P extends string = never> = {
  readonly [K in E]: {
    readonly from: readonly (S | P)[];
    readonly to: S | 'same';
    /** What the step sends, where the module lists it beside the step. */
    readonly events?: readonly string[];
  };
};

export interface EventMachine<S extends string, E extends string, P extends string = never, X = never>
  extends StateMachine<S, never, X> {
  /** Whether `event` may happen in `from`. */
  allows(from: S | P, event: E): boolean;
  /** The state after `event` in `from`; the module's 409 problem when the table does not allow it. */
  fire(from: S | P, event: E, subject?: X): S;
}

/**
 * An event table's machine. `P` are states before the first (e.g. a subscription's `new`): an
 * event may start from them, nothing leads to them and no row holds them.
 */
export function eventMachine<S extends string, E extends string, P extends string = never, X = never>(def: {
  states: readonly S[];
  events: EventTable<S, E, P>;
  /** The refusal; `subject` is what the caller passed to `fire` or `assert`. */
  rejected: (from: S | P, event: E, subject: X | undefined) => AppError;
}): EventMachine<S, E, P, X> {
  const events = Object.keys(def.events) as E[];
  const transitions = Object.fromEntries(
    def.states.map((from) => [
      from,
      def.states.filter((to) =>
        events.some((e) => {
          const row = def.events[e];
          return row.from.includes(from) && (row.to === 'same' ? to === from : row.to === to);
        }),
      ),
    ]),
  ) as unknown as TransitionTable<S>;
  const machine = stateMachine<S, never, X>({
    states: def.states,
    transitions,
    // asked for a step rather than an event: refused in the words of an event that leads there
    rejected: (from, to, subject) =>
      def.rejected(from, events.find((e) => def.events[e].to === to) ?? (events[0] as E), subject),
  });
  const allows = (from: S | P, event: E) => def.events[event].from.includes(from);
  return {
    ...machine,
    allows,
    fire(from, event, subject) {
      if (!allows(from, event)) throw def.rejected(from, event, subject);
      const to = def.events[event].to;
      // `same` from a state before the first cannot occur in a well-formed table (nothing to keep)
      return to === 'same' ? (from as S) : to;
    },
  };
}
