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

import { eq } from 'drizzle-orm';
import { type PaymentProvider, paymentProviderOf, renewalBillingOf } from '../../adapters/payment/index.js';
import type { Config } from '../../config.js';
import { type Ctx, systemCtx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { type TxCtx, withTx } from '../../platform/db/tx.js';
import { enqueue } from '../../platform/jobs/queue.js';
import type { JobHandler } from '../../platform/jobs/worker.js';
import { amountFor, createAboOrder, emitAbo, lockAbo } from './abo-common.js';
import { DUNNING_RETRY_DAYS, transition } from './abo-states.js';
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
  const [row] = await ctx.db
    .update(abos)
    .set({ ...patch, updatedAt: now })
    .where(eq(abos.id, id))
    .returning();
  return row as AboRow;
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
    if (a.status === 'unpaid' || (a.cancelAtPeriodEnd && a.currentPeriodEnd <= now)) {
      const status = transition(a.status, 'period_end_reached');
      const ended = await save(
        t,
        a.id,
        { status, endetAm: a.endetAm ?? a.currentPeriodEnd, nextRetryAt: null, cancelAtPeriodEnd: false },
        now,
      );
      await emitAbo(t, ended, 'abo.beendet', now);
      return 'ended';
    }

    const provider = paymentProviderOf(ctx.config, a.provider);
    if (a.status === 'trialing' || a.status === 'active') {
      // the period (or trial) is over: the next period starts and is charged
      const index = a.periodIndex + 1;
      const { start, end } = periodBounds(a.billingAnchor, a.intervalUnit, a.intervalCount, index);
      const amount = amountFor(a, start);
      const period = { periodIndex: index, currentPeriodStart: start, currentPeriodEnd: end };
      const result = await charge(provider, a, amount);
      if (result.ok) {
        const renewed = await save(
          t,
          a.id,
          { ...period, status: transition(a.status, 'charge_succeeded'), paymentsCount: a.paymentsCount + 1 },
          now,
        );
        const order = await createAboOrder(t, renewed, {
          amountCents: amount,
          paymentNumber: renewed.paymentsCount,
          now,
          paymentRef: result.paymentRef,
        });
        if (a.status === 'trialing') await emitAbo(t, renewed, 'abo.aktiv', now);
        await emitAbo(t, renewed, 'abo.bezahlt', now, {
          order_id: order.id,
          amount_cents: amount,
          currency: renewed.currency,
          payment_number: renewed.paymentsCount,
        });
        await scheduleDue(t, renewed, now);
        return 'renewed';
      }
      const nextRetryAt = addDays(start, DUNNING_RETRY_DAYS[0]);
      const failed = await save(
        t,
        a.id,
        {
          ...period,
          status: transition(a.status, 'charge_failed'),
          failedAttempts: 1,
          pastDueSince: start,
          nextRetryAt,
        },
        now,
      );
      await emitAbo(t, failed, 'abo.zahlung_fehlgeschlagen', now, {
        attempt: 1,
        amount_cents: amount,
        currency: failed.currency,
        next_retry_at: iso(nextRetryAt),
        final: false,
      });
      await scheduleDue(t, failed, now);
      return 'failed';
    }

    // past_due: a dunning retry of the open period
    const amount = amountFor(a, a.currentPeriodStart);
    const result = await charge(provider, a, amount);
    if (result.ok) {
      const paid = await save(
        t,
        a.id,
        {
          status: transition(a.status, 'charge_succeeded'),
          paymentsCount: a.paymentsCount + 1,
          failedAttempts: 0,
          pastDueSince: null,
          nextRetryAt: null,
        },
        now,
      );
      const order = await createAboOrder(t, paid, {
        amountCents: amount,
        paymentNumber: paid.paymentsCount,
        now,
        paymentRef: result.paymentRef,
      });
      await emitAbo(t, paid, 'abo.aktiv', now);
      await emitAbo(t, paid, 'abo.bezahlt', now, {
        order_id: order.id,
        amount_cents: amount,
        currency: paid.currency,
        payment_number: paid.paymentsCount,
      });
      await scheduleDue(t, paid, now);
      return 'renewed';
    }
    const attempt = a.failedAttempts + 1;
    const retryDays = DUNNING_RETRY_DAYS[attempt - 1];
    if (retryDays !== undefined) {
      const nextRetryAt = addDays(a.pastDueSince ?? a.currentPeriodStart, retryDays);
      const failed = await save(
        t,
        a.id,
        { status: transition(a.status, 'charge_failed'), failedAttempts: attempt, nextRetryAt },
        now,
      );
      await emitAbo(t, failed, 'abo.zahlung_fehlgeschlagen', now, {
        attempt,
        amount_cents: amount,
        currency: failed.currency,
        next_retry_at: iso(nextRetryAt),
        final: false,
      });
      await scheduleDue(t, failed, now);
      return 'failed';
    }
    const endetAm = a.currentPeriodEnd > now ? a.currentPeriodEnd : now;
    const unpaid = await save(
      t,
      a.id,
      { status: transition(a.status, 'retries_exhausted'), failedAttempts: attempt, nextRetryAt: null, endetAm },
      now,
    );
    await emitAbo(t, unpaid, 'abo.zahlung_fehlgeschlagen', now, {
      attempt,
      amount_cents: amount,
      currency: unpaid.currency,
      next_retry_at: null,
      final: true,
    });
    await scheduleDue(t, unpaid, now);
    return 'unpaid';
  });
}

/** The worker's handler of DUE_JOB (the configuration picks the provider instances). */
export function dueJob(config: Config): JobHandler {
  return {
    async run(payload, { db, clock, log }) {
      await processDue(systemCtx({ db, clock, config }, String(payload.shop_id), log), String(payload.abo_id));
    },
  };
}
