/**
 * Cross-module hooks: how one module reacts, inside the caller's transaction, to what another
 * module did, without either importing the other. The module that acts runs a hook
 * (`runHook`, `callPort`, `hookList`); `app.ts` decides at startup who answers
 * (`installHooks`), so every cross-module reaction is listed in one place
 * (docs/ARCHITECTURE.md, "Cross-module hooks"). Nothing registers itself on import.
 *
 * Three shapes:
 * - events: any number of listeners, run in order, in the transaction of the event;
 * - ports: exactly one implementation that returns a value (unwired = a programming error);
 * - lists: contributions a module consults (channel dependencies, payment-event handlers).
 */

import type { FastifyBaseLogger } from 'fastify';
import type { PaymentEvent, PaymentEventKind, PaymentProvider } from '../adapters/payment/port.js';
import { type Ctx, systemCtx } from './auth/types.js';
import type { Tx, TxCtx } from './db/tx.js';
import type { AppDeps } from './module.js';

/** Events, by name: what the listener is told. Each runs in the transaction of the change (`ctx.db`). */
export interface HookEvents {
  /** orders: an order became paid (created paid, or moved to paid). */
  'order.paid': { shopId: string; orderId: string; now: Date };
  /** orders: a paid order was cancelled or fully refunded: everything it earned goes back. */
  'order.reversed': { shopId: string; orderId: string; now: Date };
  /**
   * orders: an order that was never paid was cancelled (by an admin, or its payment time ran
   * out): what an invoice of it bills is void (finance credits a final invoice in full).
   */
  'order.cancelledUnpaid': { shopId: string; orderId: string; now: Date };
  /** orders: a refund succeeded and no credit note was written (the order had no final invoice). */
  'refund.uncredited': { shopId: string; orderId: string; refundId: string; now: Date };
  /**
   * orders: a refund that had succeeded failed at the provider since (it is `failed` now, the
   * order's state recomputed): what it clawed back is restored.
   */
  'refund.failedAfterSuccess': { shopId: string; orderId: string; refundId: string; now: Date };
  /** finance: a credit note of the order was finalized. */
  'creditNote.finalized': { shopId: string; orderId: string; creditNoteId: string; now: Date };
  /** identity: a customer proved their e-mail; the e-mail's guest purchases become the account's. */
  'customer.verified': { shopId: string; customerId: string; email: string };
  /** channels: a channel is being deleted (its row goes at the end of this transaction). */
  'channel.deleted': { shopId: string; channelId: string };
}

export type HookListener<K extends keyof HookEvents> = (ctx: TxCtx, event: HookEvents[K]) => Promise<void>;

/** A refund that succeeded, as orders hands it to finance. */
export interface SucceededRefund {
  shopId: string;
  orderId: string;
  refundId: string;
  amountCents: number;
  reason: string;
  /** A refund by lines: the order lines (by position, = the invoice's) and quantities it gives back. */
  lines?: { position: number; quantity: number }[] | null;
}

/** Ports, by name: one implementation each. */
export interface HookPorts {
  /**
   * finance: the credit note for a succeeded refund, finalized at once, when the order has a final
   * invoice; its id, else null. `ctx.db` is the refund's transaction.
   */
  creditRefund(ctx: TxCtx, refund: SucceededRefund): Promise<string | null>;
  /**
   * partners: whether `vendorId` is a vendor of the shop (any status), locking its row against
   * deletion (`FOR KEY SHARE`) until the transaction `ctx.db` ends. Catalog asks it before a
   * product names a vendor.
   */
  vendorExists(ctx: TxCtx, vendorId: string): Promise<boolean>;
}

export type ChannelDependencyKind = 'commerce' | 'reference';

/** Something stored against a channel: it locks the currency (`commerce`) or blocks deletion (`reference`). */
export interface ChannelDependency {
  /** Plural noun for messages, e.g. "orders". */
  what: string;
  kinds: ChannelDependencyKind[];
  exists(ctx: Ctx, channelId: string): Promise<boolean>;
}

/** What applying a provider event did; stored on its payment_events row. */
export interface EventOutcome {
  status: 'processed' | 'ignored' | 'rejected' | 'refunded';
  reason: string;
  shopId?: string | null;
  checkoutSessionId?: string | null;
  providerSessionId?: string | null;
  orderId?: string | null;
  amountCents?: number | null;
  currency?: string | null;
}

export interface EventContext {
  provider: PaymentProvider;
  now: Date;
  deps: AppDeps;
  log: FastifyBaseLogger;
}

/**
 * Applies a provider event inside the recording transaction `tx`, or returns null when it is not
 * its business. The shop is known only once the handler found its record: `eventCtx` then gives
 * the context of the work for that shop.
 */
export type PaymentEventHandler = (tx: Tx, event: PaymentEvent, c: EventContext) => Promise<EventOutcome | null>;

/** The context of a provider event's work for `shopId`, in the recording transaction `tx`. */
export function eventCtx(tx: Tx, c: EventContext, shopId: string): TxCtx {
  return { ...systemCtx({ db: tx, clock: c.deps.clock, config: c.deps.config }, shopId, c.log), db: tx };
}

/** Lists, by name: contributions of several modules, consulted by the owner of the list. */
export interface HookLists {
  /** channels: consulted before a currency change or a deletion. */
  channelDependencies: ChannelDependency;
  /** checkout: the provider webhook offers each event to these in order; the first non-null outcome wins. */
  paymentEventHandlers: { kinds: PaymentEventKind[]; handle: PaymentEventHandler };
}

/** The whole wiring: what `app.ts` installs. */
export interface HookTable {
  events: { [K in keyof HookEvents]: HookListener<K>[] };
  ports: HookPorts;
  lists: { [K in keyof HookLists]: HookLists[K][] };
}

let table: HookTable | null = null;

/** Installs the wiring (app.ts, at startup). A later call replaces it: every app of the process wires the same. */
export function installHooks(t: HookTable): void {
  table = t;
}

function wired(): HookTable {
  if (!table) throw new Error('cross-module hooks are not installed (app.ts calls installHooks)');
  return table;
}

/** Runs the listeners of `name` in order, in the transaction `ctx.db`. */
export async function runHook<K extends keyof HookEvents>(ctx: TxCtx, name: K, event: HookEvents[K]): Promise<void> {
  for (const listener of wired().events[name]) await listener(ctx, event);
}

/** The one implementation of port `name`. */
export function callPort<K extends keyof HookPorts>(name: K): HookPorts[K] {
  return wired().ports[name];
}

/** The contributions to list `name`, in the order app.ts gave them. */
export function hookList<K extends keyof HookLists>(name: K): readonly HookLists[K][] {
  return wired().lists[name];
}
