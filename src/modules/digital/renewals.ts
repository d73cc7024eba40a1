/**
 * The lifecycle engine of subscriptions whose renewals we charge (the provider's `renewalBilling`
 * is `charged_by_us`: the test provider): one job per subscription at its next due time
 * (period end, trial end, dunning retry, end of an unpaid period). A run locks the subscription,
 * does what is due at the clock's now — at most one step — and schedules the next run, all in
 * one transaction with the order and the events. Running a job twice (two workers, a process
 * that died before marking the job done, duplicate jobs) finds nothing due the second time; the
 * unique (subscription, payment number) of orders makes a double charge impossible besides.
 * Charges go through the payment port (`chargeRenewal`): this file knows no provider and no card.
 * Provider-managed subscriptions (Stripe) are driven by the provider's webhooks instead
 * (stripe-abos.ts).
 */

import { and, eq } from 'drizzle-orm';
import { type PaymentProvider, paymentProviderOf, renewalBillingOf } from '../../adapters/payment/index.js';
import type { Config } from '../../config.js';
import { type Ctx, systemCtx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { one, type TxCtx, withTx } from '../../platform/db/tx.js';
import { enqueue } from '../../platform/jobs/queue.js';
import type { JobHandler } from '../../platform/jobs/worker.js';
import { amountFor, createAboOrder, emitAbo, lockAbo } from './abo-common.js';
import { aboStates, DUNNING_RETRY_DAYS } from './abo-states.js';
import { addDays, periodBounds } from './billing.js';
import { type AboRow, abos } from './digital.tables.js';

export const DUE_JOB = 'digital.abo_due';

/** When the subscription next needs the engine; null when it has ended or the provider drives it. */
export function nextDueAt(a: AboRow): Date | null {
  if (renewalBillingOf(a.provider) !== 'charged_by_us') return null;
  switch (a.status) {
    case 'trialing':
    case 'active':
      return a.currentPeriodEnd;
    case 'past_due': {
      const retry = a.nextRetryAt ?? a.currentPeriodEnd;
      return a.cancelAtPeriodEnd && a.currentPeriodEnd < retry ? a.currentPeriodEnd : retry;
    }
    case 'unpaid':
      return a.endetAm ?? a.currentPeriodEnd;
    case 'canceled':
      return null;
  }
}

/** Schedules the next run of the engine for the subscription, in the caller's transaction. */
export async function scheduleDue(ctx: TxCtx, a: AboRow, now: Date): Promise<void> {
  const at = nextDueAt(a);
  if (!at) return;
  await enqueue(ctx.db, DUE_JOB, { shop_id: ctx.shopId, abo_id: a.id }, { now, runAt: at, shopId: ctx.shopId });
}

/** Charges the next payment of the subscription with the payment method its provider stored. */
function charge(provider: PaymentProvider, a: AboRow, amountCents: number) {
  return provider.chargeRenewal({
    subscriptionId: a.id,
    paymentNumber: a.paymentsCount + 1,
    amountCents,
    currency: a.currency,
    paymentMethod: { last4: a.cardLast4, failsLater: a.cardFailsLater },
  });
}

async function save(ctx: TxCtx, id: string, patch: Partial<AboRow>, now: Date): Promise<AboRow> {
  return one(
    await ctx.db
      .update(abos)
      .set({ ...patch, updatedAt: now })
      .where(and(eq(abos.shopId, ctx.shopId), eq(abos.id, id)))
      .returning(),
  );
}

export type DueOutcome = 'none' | 'ended' | 'renewed' | 'failed' | 'unpaid';

/**
 * Does what is due for one subscription of `ctx.shopId` at the clock's now. Idempotent: a second
 * run finds nothing due. The charge runs under the subscription's lock; only in-process providers
 * (`charged_by_us`) are ever called here.
 */
export async function processDue(ctx: Ctx, aboId: string): Promise<DueOutcome> {
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    let a: AboRow;
    try {
      a = await lockAbo(t, aboId);
    } catch {
      return 'none';
    }
    const due = nextDueAt(a);
    if (!due || due > now) return 'none';
    // a scheduled cancellation, or an unpaid subscription, ends at the period end
    if (a.status === 'unpaid' || (a.cancelAtPeriodEnd && a.currentPeriodEnd <= now)) return endAtPeriodEnd(t, a, now);
    const provider = paymentProviderOf(ctx.config, a.provider);
    if (a.status === 'trialing' || a.status === 'active') return renew(t, provider, a, now);
    return retryPastDue(t, provider, a, now);
  });
}

async function endAtPeriodEnd(t: TxCtx, a: AboRow, now: Date): Promise<DueOutcome> {
  const status = aboStates.fire(a.status, 'period_end_reached');
  const ended = await save(
    t,
    a.id,
    { status, endetAm: a.endetAm ?? a.currentPeriodEnd, nextRetryAt: null, cancelAtPeriodEnd: false },
    now,
  );
  await emitAbo(t, ended, 'abo.beendet', now);
  return 'ended';
}

/** Trial or period over: the next period starts and is charged; a refusal opens the dunning. */
async function renew(t: TxCtx, provider: PaymentProvider, a: AboRow, now: Date): Promise<DueOutcome> {
  const index = a.periodIndex + 1;
  const { start, end } = periodBounds(a.billingAnchor, a.intervalUnit, a.intervalCount, index);
  const amount = amountFor(a, start);
  const period = { periodIndex: index, currentPeriodStart: start, currentPeriodEnd: end };
  const result = await charge(provider, a, amount);
  if (result.ok) {
    const patch = {
      ...period,
      status: aboStates.fire(a.status, 'charge_succeeded'),
      paymentsCount: a.paymentsCount + 1,
    };
    return paid(t, a, patch, amount, result.paymentRef, a.status === 'trialing', now);
  }
  const nextRetryAt = addDays(start, DUNNING_RETRY_DAYS[0]);
  const patch = {
    ...period,
    status: aboStates.fire(a.status, 'charge_failed'),
    failedAttempts: 1,
    pastDueSince: start,
    nextRetryAt,
  };
  return failed(t, a, patch, 1, amount, now);
}

/** past_due: a dunning retry of the open period; the last refused retry leaves it unpaid. */
async function retryPastDue(t: TxCtx, provider: PaymentProvider, a: AboRow, now: Date): Promise<DueOutcome> {
  const amount = amountFor(a, a.currentPeriodStart);
  const result = await charge(provider, a, amount);
  if (result.ok) {
    const patch = {
      status: aboStates.fire(a.status, 'charge_succeeded'),
      paymentsCount: a.paymentsCount + 1,
      failedAttempts: 0,
      pastDueSince: null,
      nextRetryAt: null,
    };
    return paid(t, a, patch, amount, result.paymentRef, true, now);
  }
  const attempt = a.failedAttempts + 1;
  const retryDays = DUNNING_RETRY_DAYS[attempt - 1];
  if (retryDays !== undefined) {
    const nextRetryAt = addDays(a.pastDueSince ?? a.currentPeriodStart, retryDays);
    return failed(
      t,
      a,
      { status: aboStates.fire(a.status, 'charge_failed'), failedAttempts: attempt, nextRetryAt },
      attempt,
      amount,
      now,
    );
  }
  const endetAm = a.currentPeriodEnd > now ? a.currentPeriodEnd : now;
  const patch = {
    status: aboStates.fire(a.status, 'retries_exhausted'),
    failedAttempts: attempt,
    nextRetryAt: null,
    endetAm,
  };
  return failed(t, a, patch, attempt, amount, now);
}

/** A charge succeeded: the subscription saved, its order, abo.aktiv (when it becomes active) and abo.bezahlt. */
async function paid(
  t: TxCtx,
  a: AboRow,
  patch: Partial<AboRow>,
  amount: number,
  paymentRef: string,
  activated: boolean,
  now: Date,
): Promise<DueOutcome> {
  const saved = await save(t, a.id, patch, now);
  const order = await createAboOrder(t, saved, {
    amountCents: amount,
    paymentNumber: saved.paymentsCount,
    now,
    paymentRef,
  });
  if (activated) await emitAbo(t, saved, 'abo.aktiv', now);
  await emitAbo(t, saved, 'abo.bezahlt', now, {
    order_id: order.id,
    amount_cents: amount,
    currency: saved.currency,
    payment_number: saved.paymentsCount,
  });
  await scheduleDue(t, saved, now);
  return 'renewed';
}

/** A charge was refused: the subscription saved and abo.zahlung_fehlgeschlagen (final without a next retry). */
async function failed(
  t: TxCtx,
  a: AboRow,
  patch: Partial<AboRow> & { nextRetryAt: Date | null },
  attempt: number,
  amount: number,
  now: Date,
): Promise<DueOutcome> {
  const saved = await save(t, a.id, patch, now);
  const final = patch.nextRetryAt === null;
  await emitAbo(t, saved, 'abo.zahlung_fehlgeschlagen', now, {
    attempt,
    amount_cents: amount,
    currency: saved.currency,
    next_retry_at: final ? null : iso(patch.nextRetryAt as Date),
    final,
  });
  await scheduleDue(t, saved, now);
  return final ? 'unpaid' : 'failed';
}

/** The worker's handler of DUE_JOB (the configuration picks the provider instances). */
export function dueJob(config: Config): JobHandler {
  return {
    async run(payload, { db, clock, log }) {
      await processDue(systemCtx({ db, clock, config }, String(payload.shop_id), log), String(payload.abo_id));
    },
  };
}
