/**
 * Subscription events from the payment provider's webhook (normalized by the adapter,
 * docs/payments.md), applied inside the transaction that records the event. The provider bills and retries
 * (its own dunning); its events drive the same transitions (abo-states.ts) and events as the test
 * provider's engine:
 *
 * | event            | here                                                                      |
 * | ---------------- | ------------------------------------------------------------------------- |
 * | session.paid (subscription) | the subscription (trialing/active); paid first invoice → order 1, abo.bezahlt; ended at the provider meanwhile with its first invoice paid → created, order 1, then canceled (abo.beendet) |
 * | invoice.paid     | one order per invoice (deduplicated by invoice id), period from the line, abo.bezahlt (abo.aktiv from trialing/past_due) |
 * | invoice.failed   | past_due, abo.zahlung_fehlgeschlagen (attempt, next retry); nothing for an invoice already paid |
 * | subscription.updated | Stripe's current subscription (the adapter retrieves it: events arrive in any order): cancel_at_period_end scheduled/withdrawn (abo.gekuendigt/abo.fortgesetzt), status unpaid, period |
 * | subscription.deleted | canceled, abo.beendet                                                 |
 */

import { and, eq, sql } from 'drizzle-orm';
import type { PaymentEvent, ProviderSubscription } from '../../adapters/payment/port.js';
import type { Ctx } from '../../platform/auth/types.js';
import { isoOrNull } from '../../platform/dates.js';
import { one, query, type Tx, type TxCtx } from '../../platform/db/tx.js';
import { type EventContext, type EventOutcome, eventCtx, type HookLists } from '../../platform/hooks.js';
import { productSql } from '../catalog/index.js';
import { type AboSessionTax, consumerDigitalTax, lockedAboSessionSql } from '../checkout/index.js';
import { subscriptionPaymentRecorded } from '../orders/index.js';
import type { TaxDecision, VatIdStatus } from '../tax/index.js';
import { createAboOrder, emitAbo } from './abo-common.js';
import { aboStates } from './abo-states.js';
import { completeAboSession } from './complete-abo-session.js';
import { type AboRow, type AboStatus, abos } from './digital.tables.js';

/** The subscription of a provider reference, whatever its shop, locked in `tx`. */
async function lockByRef(tx: Tx, provider: string, ref: string): Promise<AboRow | null> {
  const [row] = await tx
    .select()
    .from(abos)
    .where(and(eq(abos.provider, provider), eq(abos.providerRef, ref)))
    .for('update');
  return row ?? null;
}

async function update(ctx: TxCtx, id: string, patch: Partial<AboRow>, now: Date): Promise<AboRow> {
  return one(
    await ctx.db
      .update(abos)
      .set({ ...patch, updatedAt: now })
      .where(and(eq(abos.shopId, ctx.shopId), eq(abos.id, id)))
      .returning(),
  );
}

/**
 * The tax determination of a subscription paid at Stripe. The session's row fixed the recurring
 * price Stripe charges; Stripe's page then collects the billing address. A business row (the VAT
 * ID the API took, checked then) stays when Stripe's billing country is the one given; otherwise
 * the row is the consumer's of Stripe's billing country (the amount stays what Stripe charges,
 * docs/decisions.md).
 */
async function stripeAboTax(
  ctx: Ctx,
  cs: { channel_id: string; tax_class: string; abo_tax: AboSessionTax | null },
  billingCountry: string | null,
): Promise<{
  decision: TaxDecision | null;
  vatId: { status: VatIdStatus | null; checkedAt: Date | null } | null;
  business: { company?: string; vat_id?: string } | null;
}> {
  const st = cs.abo_tax;
  const sameCountry = st?.given && (billingCountry === null || billingCountry === st.country);
  if (st && sameCountry) {
    return {
      decision: st.decision,
      vatId: st.vat_id_status
        ? { status: st.vat_id_status, checkedAt: st.vat_id_checked_at ? new Date(st.vat_id_checked_at) : null }
        : null,
      business: {
        ...(st.company ? { company: st.company } : {}),
        ...(st.vat_id ? { vat_id: st.vat_id } : {}),
      },
    };
  }
  const country = billingCountry ?? st?.country ?? null;
  const decision = country ? await consumerDigitalTax(ctx, cs.channel_id, country, cs.tax_class) : null;
  return { decision: decision ?? st?.decision ?? null, vatId: null, business: null };
}

/** A paid (or trial-starting) hosted subscription checkout creates the subscription. */
async function onSessionPaid(tx: Tx, event: PaymentEvent, c: EventContext): Promise<EventOutcome | null> {
  if (event.kind !== 'session.paid' || !event.sessionId) return null;
  const [cs] = await query<{
    shop_id: string;
    channel_id: string;
    tax_class: string;
    kind: string;
    status: string;
    provider: string;
    provider_ref: string | null;
    currency: string;
    subscription_id: string | null;
    abo_tax: AboSessionTax | null;
  }>(
    tx,
    sql`SELECT s.shop_id, s.channel_id, s.kind, s.status, s.provider, s.provider_ref, s.currency, s.subscription_id,
               s.abo_tax, p.tax_class
        FROM ${lockedAboSessionSql(event.sessionId)} s
        JOIN abo_plans pl ON pl.shop_id = s.shop_id AND pl.id = s.plan_id
        JOIN LATERAL ${productSql(sql`pl.product_id`, sql`pl.shop_id`)} p ON true`,
  );
  if (!cs) return null;
  const base = {
    shopId: cs.shop_id,
    checkoutSessionId: event.sessionId,
    providerSessionId: event.providerSessionId,
    amountCents: event.amountCents,
    currency: event.currency,
  };
  if (cs.provider !== c.provider.name || cs.provider_ref !== event.providerSessionId) {
    return { ...base, status: 'rejected', reason: 'provider_session_mismatch' };
  }
  if (event.currency !== null && event.currency !== cs.currency) {
    return {
      ...base,
      status: 'rejected',
      reason: `currency_mismatch: paid ${event.currency}, expected ${cs.currency}`,
    };
  }
  if (cs.status === 'complete') return { ...base, status: 'ignored', reason: 'already_complete' };
  const sub = event.subscription;
  if (!sub) return { ...base, status: 'rejected', reason: 'no_subscription' };
  const invoice = sub.latestInvoice;
  // ended at the provider before this completion arrived (a subscription leaving `incomplete`
  // delivered after its cancellation) with its first invoice paid: the money gets its order, as
  // an invoice paid after the end does; the subscription is created ended (DESIGN §6a)
  const endedPaid = sub.status === 'canceled' && invoice?.status === 'paid' && invoice.amountPaidCents > 0;
  // incomplete: the provider completes it (a later event) or lets it expire
  if (sub.status !== 'trialing' && sub.status !== 'active' && !endedPaid) {
    return { ...base, status: 'ignored', reason: `subscription_${sub.status}` };
  }
  const ctx = eventCtx(tx, c, cs.shop_id);
  const tax = await stripeAboTax(ctx, cs, event.billing?.country ?? null);
  const { abo } = await completeAboSession(ctx, event.sessionId, {
    now: c.now,
    billing: tax.business && event.billing ? { ...event.billing, ...tax.business } : event.billing,
    taxRate: tax.decision?.tax_rate ?? 0,
    ...(tax.decision ? { taxDecision: tax.decision } : {}),
    // Stripe charges the price made from the session's row
    priceDecision: cs.abo_tax?.decision ?? null,
    vatId: tax.vatId,
    card: null,
    provider: c.provider.name,
    providerRef: sub.ref,
    paymentRef: invoice?.id ?? null,
    // a subscription the buyer paid for is created even when our session expired meanwhile:
    // no stock is involved, and the money must not stay without a subscription
    allowExpired: true,
    stripe: {
      status: sub.status === 'trialing' ? 'trialing' : 'active',
      periodStart: sub.periodStart ?? c.now,
      periodEnd: sub.periodEnd ?? c.now,
      trialEnd: sub.trialEnd,
      paidAmount: (sub.status === 'active' || endedPaid) && invoice?.status === 'paid' ? invoice.amountPaidCents : null,
    },
    publicUrl: c.deps.config.publicUrl,
  });
  if (endedPaid && abo) {
    const ended = await update(
      ctx,
      abo.id,
      {
        status: aboStates.fire(abo.status, 'period_end_reached'),
        endetAm: sub.endedAt ?? c.now,
        cancelAtPeriodEnd: false,
        nextRetryAt: null,
      },
      c.now,
    );
    await emitAbo(ctx, ended, 'abo.beendet', c.now);
    return { ...base, status: 'processed', reason: `subscription_created_ended ${abo.id}` };
  }
  return { ...base, status: 'processed', reason: `subscription_created ${abo?.id ?? ''}`.trim() };
}

async function onInvoicePaid(tx: Tx, event: PaymentEvent, c: EventContext): Promise<EventOutcome | null> {
  if (event.kind !== 'invoice.paid' || !event.invoice.subscriptionRef) return null;
  const inv = event.invoice;
  const a = await lockByRef(tx, c.provider.name, inv.subscriptionRef as string);
  if (!a) return { status: 'ignored', reason: 'first_invoice_recorded_by_checkout' };
  const ctx = eventCtx(tx, c, a.shopId);
  const out = { shopId: a.shopId, amountCents: inv.amountPaidCents, currency: a.currency };
  if (await subscriptionPaymentRecorded(ctx, a.id, inv.id))
    return { ...out, status: 'ignored', reason: 'invoice_already_recorded' };
  const start = inv.periodStart ?? a.currentPeriodStart;
  const end = inv.periodEnd ?? a.currentPeriodEnd;
  // the $0 invoice Stripe makes (and reports paid) for the trial period itself is no payment
  if (a.status === 'trialing' && inv.amountPaidCents === 0 && start <= a.currentPeriodStart) {
    return { ...out, status: 'ignored', reason: 'trial_invoice' };
  }
  // an ended subscription stays ended: an invoice of it paid late (or reported after the end)
  // still gets its order, so the money is never kept without one
  const ended = a.status === 'canceled';
  const paid = await update(
    ctx,
    a.id,
    ended
      ? { paymentsCount: a.paymentsCount + 1 }
      : {
          status: aboStates.fire(a.status, 'charge_succeeded'),
          paymentsCount: a.paymentsCount + 1,
          failedAttempts: 0,
          nextRetryAt: null,
          pastDueSince: null,
          currentPeriodStart: start,
          currentPeriodEnd: end,
          periodIndex: a.periodIndex + (start > a.currentPeriodStart ? 1 : 0),
          // unpaid → active (Stripe reactivates it): the end set when it became unpaid is gone
          ...(a.status === 'unpaid' ? { endetAm: a.cancelAtPeriodEnd ? end : null } : {}),
        },
    c.now,
  );
  const order = await createAboOrder(ctx, paid, {
    amountCents: inv.amountPaidCents,
    paymentNumber: paid.paymentsCount,
    now: c.now,
    paymentRef: inv.id,
    // the invoice line's period (the abo's when Stripe sent none): an ended abo keeps its last period
    period: { start, end },
  });
  if (a.status !== 'active' && !ended) await emitAbo(ctx, paid, 'abo.aktiv', c.now);
  await emitAbo(ctx, paid, 'abo.bezahlt', c.now, {
    order_id: order.id,
    amount_cents: inv.amountPaidCents,
    currency: paid.currency,
    payment_number: paid.paymentsCount,
  });
  return { ...out, status: 'processed', reason: ended ? 'paid_after_end' : 'renewal_order', orderId: order.id };
}

async function onInvoiceFailed(tx: Tx, event: PaymentEvent, c: EventContext): Promise<EventOutcome | null> {
  if (event.kind !== 'invoice.failed' || !event.invoice.subscriptionRef) return null;
  const inv = event.invoice;
  const a = await lockByRef(tx, c.provider.name, inv.subscriptionRef as string);
  if (!a) return null;
  const ctx = eventCtx(tx, c, a.shopId);
  const out = { shopId: a.shopId, amountCents: inv.amountDueCents, currency: a.currency };
  if (a.status === 'canceled' || a.status === 'unpaid') return { ...out, status: 'ignored', reason: `abo_${a.status}` };
  if (a.failedAttempts >= inv.attempt) return { ...out, status: 'ignored', reason: 'attempt_already_recorded' };
  // a failed attempt delivered after a later attempt paid the invoice (Stripe does not deliver in order)
  if (await subscriptionPaymentRecorded(ctx, a.id, inv.id))
    return { ...out, status: 'ignored', reason: 'invoice_already_paid' };
  const failed = await update(
    ctx,
    a.id,
    {
      status: aboStates.fire(a.status, 'charge_failed'),
      failedAttempts: inv.attempt,
      nextRetryAt: inv.nextAttemptAt,
      pastDueSince: a.pastDueSince ?? c.now,
    },
    c.now,
  );
  await emitAbo(ctx, failed, 'abo.zahlung_fehlgeschlagen', c.now, {
    attempt: inv.attempt,
    amount_cents: inv.amountDueCents,
    currency: failed.currency,
    next_retry_at: isoOrNull(inv.nextAttemptAt),
    final: inv.nextAttemptAt === null,
  });
  return { ...out, status: 'processed', reason: 'past_due' };
}

async function onSubscriptionChanged(tx: Tx, event: PaymentEvent, c: EventContext): Promise<EventOutcome | null> {
  if (event.kind !== 'subscription.updated' && event.kind !== 'subscription.deleted') return null;
  const sub: ProviderSubscription = event.subscription;
  const now = c.now;
  const a = await lockByRef(tx, c.provider.name, sub.ref);
  if (!a) return null;
  const ctx = eventCtx(tx, c, a.shopId);
  const out = { shopId: a.shopId, currency: a.currency };
  if (a.status === 'canceled') return { ...out, status: 'ignored', reason: 'abo_canceled' };
  if (event.kind === 'subscription.deleted' || sub.status === 'canceled' || sub.status === 'incomplete_expired') {
    const ended = await update(
      ctx,
      a.id,
      {
        status: aboStates.fire(a.status, 'period_end_reached'),
        endetAm: sub.endedAt ?? now,
        cancelAtPeriodEnd: false,
        nextRetryAt: null,
      },
      now,
    );
    await emitAbo(ctx, ended, 'abo.beendet', now);
    return { ...out, status: 'processed', reason: 'abo_ended' };
  }
  let row = a;
  // an unpaid subscription ends anyway: a cancellation flag set or cleared at Stripe meanwhile is
  // not mirrored (a 409 here would make Stripe redeliver the event forever)
  if (sub.cancelAtPeriodEnd && !a.cancelAtPeriodEnd && aboStates.allows(a.status, 'cancel_scheduled')) {
    row = await update(
      ctx,
      a.id,
      {
        cancelAtPeriodEnd: true,
        endetAm: sub.periodEnd ?? a.currentPeriodEnd,
        canceledAt: now,
        canceledBy: 'provider',
      },
      now,
    );
    await emitAbo(ctx, row, 'abo.gekuendigt', now, { sofort: false, grund: null, canceled_by: 'provider' });
  } else if (!sub.cancelAtPeriodEnd && a.cancelAtPeriodEnd && aboStates.allows(a.status, 'cancel_withdrawn')) {
    row = await update(
      ctx,
      a.id,
      { cancelAtPeriodEnd: false, endetAm: null, canceledAt: null, cancelReason: null, canceledBy: null },
      now,
    );
    await emitAbo(ctx, row, 'abo.fortgesetzt', now);
  }
  const mapped = (['trialing', 'active', 'past_due', 'unpaid'] as string[]).includes(sub.status)
    ? (sub.status as AboStatus)
    : null;
  const patch: Partial<AboRow> = {};
  if (mapped === 'unpaid' && row.status === 'past_due') {
    patch.status = aboStates.fire(row.status, 'retries_exhausted');
    patch.nextRetryAt = null;
    patch.endetAm = row.endetAm ?? sub.periodEnd ?? row.currentPeriodEnd;
  }
  if (sub.periodEnd && sub.periodStart && sub.periodEnd > row.currentPeriodEnd && mapped !== 'past_due') {
    patch.currentPeriodStart = sub.periodStart;
    patch.currentPeriodEnd = sub.periodEnd;
  }
  if (Object.keys(patch).length > 0) row = await update(ctx, a.id, patch, now);
  return { ...out, status: 'processed', reason: 'abo_updated' };
}

/** The subscription events of the provider webhook, in the order app.ts offers them. */
export const aboPaymentEventHandlers: HookLists['paymentEventHandlers'][] = [
  { kinds: ['session.paid'], handle: onSessionPaid },
  { kinds: ['invoice.paid'], handle: onInvoicePaid },
  { kinds: ['invoice.failed'], handle: onInvoiceFailed },
  { kinds: ['subscription.updated', 'subscription.deleted'], handle: onSubscriptionChanged },
];
