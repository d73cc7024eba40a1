/**
 * Subscriptions with PAYMENT_PROVIDER=stripe. Stripe bills and retries (its own dunning); its
 * webhooks drive the same transitions (abo-states.ts) and events as the test provider's engine:
 *
 * | Stripe event                                   | here                                                        |
 * | ---------------------------------------------- | ----------------------------------------------------------- |
 * | checkout.session.completed (mode subscription) | the subscription (trialing/active); paid first invoice → order 1, abo.bezahlt |
 * | invoice.paid                                   | one order per invoice (deduplicated by invoice id), period from the line, abo.bezahlt (abo.aktiv from trialing/past_due) |
 * | invoice.payment_failed                         | past_due, abo.zahlung_fehlgeschlagen (attempt, next retry)  |
 * | customer.subscription.updated                  | cancel_at_period_end scheduled/withdrawn (abo.gekuendigt/abo.fortgesetzt), status unpaid, period |
 * | customer.subscription.deleted                  | canceled, abo.beendet                                        |
 *
 * Admin and customer cancellation call Stripe first (cancel_at_period_end, or cancel now), then
 * apply the same change here; the webhook that follows finds nothing left to change.
 * Endpoint: POST /api/webhooks/stripe/abos, signed with STRIPE_ABO_WEBHOOK_SECRET
 * (default STRIPE_WEBHOOK_SECRET).
 */

import { Type } from '@sinclair/typebox';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { stripeClient } from '../../adapters/payment/stripe-provider.js';
import type { AppDeps } from '../../app.js';
import type { Config } from '../../config.js';
import type { Ctx } from '../../platform/auth/types.js';
import type { Db } from '../../platform/db/client.js';
import { query, withTx } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import { channelCountry } from '../channels/index.js';
import { rateFor } from '../checkout/pricing.js';
import type { Address } from '../orders/orders.tables.js';
import { createAboOrder, emitAbo } from './abo-common.js';
import { completeAboSession } from './abo-sessions.js';
import { transition } from './abo-states.js';
import { introPrice } from './billing.js';
import { type AboRow, type AboStatus, aboPlans, abos, type PlanRow } from './digital.tables.js';

function client(config: Config): Stripe {
  if (!config.stripeSecretKey) throw new AppError('not_found', 404, 'The Stripe provider is not configured');
  return stripeClient({ secretKey: config.stripeSecretKey, apiBase: config.stripeApiBase });
}

const toDate = (unix: number | null | undefined) => (unix ? new Date(unix * 1000) : null);

/** The plan's Stripe Price; a new one after a price or interval change (PATCH clears it). */
async function stripePrice(db: Db, stripe: Stripe, plan: PlanRow, productName: string): Promise<string> {
  if (plan.stripePriceId) return plan.stripePriceId;
  const price = await stripe.prices.create(
    {
      currency: plan.currency.toLowerCase(),
      unit_amount: plan.priceCents,
      recurring: { interval: plan.intervalUnit, interval_count: plan.intervalCount },
      product_data: { name: `${productName} (${plan.name})`, metadata: { plan_id: plan.id } },
      metadata: { plan_id: plan.id, shop_id: plan.shopId },
    },
    { idempotencyKey: `plan-price-${plan.id}-${plan.updatedAt.getTime()}` },
  );
  await db
    .update(aboPlans)
    .set({ stripePriceId: price.id })
    .where(and(eq(aboPlans.id, plan.id), sql`${aboPlans.stripePriceId} IS NULL`));
  return price.id;
}

/** A hosted Stripe Checkout Session in subscription mode (trial and intro discount included). */
export async function createStripeAboCheckout(
  ctx: Ctx,
  deps: AppDeps,
  a: {
    sessionId: string;
    plan: PlanRow;
    productName: string;
    input: { customer_email: string; return_url: string };
    expiresAt: Date;
  },
): Promise<{ url: string; providerRef: string }> {
  const stripe = client(deps.config);
  const { plan } = a;
  const price = await stripePrice(ctx.db, stripe, plan, a.productName);
  let discounts: Stripe.Checkout.SessionCreateParams.Discount[] | undefined;
  if (introPrice(plan.priceCents, plan.introDiscountPercent) !== null && plan.introDiscountMonths) {
    const coupon = await stripe.coupons.create(
      {
        percent_off: plan.introDiscountPercent as number,
        duration: 'repeating',
        duration_in_months: plan.introDiscountMonths,
        metadata: { plan_id: plan.id },
      },
      { idempotencyKey: `plan-coupon-${plan.id}-${plan.introDiscountPercent}-${plan.introDiscountMonths}` },
    );
    discounts = [{ coupon: coupon.id }];
  }
  const success = new URL(a.input.return_url);
  success.searchParams.set('session_id', a.sessionId);
  const metadata = { checkout_session_id: a.sessionId, shop_id: ctx.shopId, plan_id: plan.id };
  const now = Date.now();
  const session = await stripe.checkout.sessions.create(
    {
      mode: 'subscription',
      customer_email: a.input.customer_email,
      line_items: [{ price, quantity: 1 }],
      success_url: success.toString(),
      cancel_url: a.input.return_url,
      client_reference_id: a.sessionId,
      billing_address_collection: 'required',
      metadata,
      subscription_data: { metadata, ...(plan.trialDays > 0 ? { trial_period_days: plan.trialDays } : {}) },
      ...(discounts ? { discounts } : {}),
      expires_at: Math.floor(
        Math.min(Math.max(a.expiresAt.getTime(), now + 31 * 60_000), now + 23.9 * 3600_000) / 1000,
      ),
    },
    { idempotencyKey: `abo-cs-create-${a.sessionId}` },
  );
  if (!session.url) throw new Error('Stripe returned a checkout session without a url');
  return { url: session.url, providerRef: session.id };
}

/** Cancels at Stripe before the local change (called under the subscription's row lock). */
export async function stripeCancel(config: Config, abo: AboRow, sofort: boolean): Promise<void> {
  if (abo.provider !== 'stripe' || !abo.providerRef) return;
  const stripe = client(config);
  try {
    if (sofort) await stripe.subscriptions.cancel(abo.providerRef);
    else await stripe.subscriptions.update(abo.providerRef, { cancel_at_period_end: true });
  } catch (err) {
    throw new AppError('provider_error', 502, `Stripe refused the cancellation: ${(err as Error).message}`);
  }
}

export async function stripeResume(config: Config, abo: AboRow): Promise<void> {
  if (abo.provider !== 'stripe' || !abo.providerRef) return;
  try {
    await client(config).subscriptions.update(abo.providerRef, { cancel_at_period_end: false });
  } catch (err) {
    throw new AppError('provider_error', 502, `Stripe refused to withdraw the cancellation: ${(err as Error).message}`);
  }
}

// ---- webhook handling ----

function subscriptionPeriod(sub: Stripe.Subscription): { start: Date; end: Date } | null {
  const item = sub.items?.data?.[0];
  const start = toDate(item?.current_period_start);
  const end = toDate(item?.current_period_end);
  return start && end ? { start, end } : null;
}

function invoiceSubscriptionId(inv: Stripe.Invoice): string | null {
  const s = inv.parent?.subscription_details?.subscription;
  if (!s) return null;
  return typeof s === 'string' ? s : s.id;
}

async function lockByRef(tx: Db, ref: string): Promise<AboRow | null> {
  const [row] = await tx
    .select()
    .from(abos)
    .where(and(eq(abos.provider, 'stripe'), eq(abos.providerRef, ref)))
    .for('update');
  return row ?? null;
}

async function update(tx: Db, id: string, patch: Partial<AboRow>, now: Date): Promise<AboRow> {
  const [row] = await tx
    .update(abos)
    .set({ ...patch, updatedAt: now })
    .where(eq(abos.id, id))
    .returning();
  return row as AboRow;
}

async function onCheckoutCompleted(deps: AppDeps, session: Stripe.Checkout.Session): Promise<void> {
  const ours = session.metadata?.checkout_session_id ?? session.client_reference_id;
  const subId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
  if (session.mode !== 'subscription' || !ours || !subId) return;
  const stripe = client(deps.config);
  const sub = await stripe.subscriptions.retrieve(subId, { expand: ['latest_invoice'] });
  if (sub.status !== 'trialing' && sub.status !== 'active') return; // incomplete: Stripe completes or expires it
  const period = subscriptionPeriod(sub);
  const now = deps.clock.now();
  const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
  const addr = session.customer_details?.address;
  const billing: Address | null = addr?.country
    ? {
        name: session.customer_details?.name ?? '',
        line1: addr.line1 ?? '',
        postal_code: addr.postal_code ?? '',
        city: addr.city ?? '',
        country: addr.country,
      }
    : null;
  const db = deps.database.db;
  const [cs] = await query<{ shop_id: string; channel_id: string; tax_class: string }>(
    db,
    sql`SELECT s.shop_id, s.channel_id, p.tax_class FROM checkout_sessions s
        JOIN abo_plans pl ON pl.id = s.plan_id JOIN products p ON p.id = pl.product_id
        WHERE s.id = ${ours}`,
  );
  if (!cs) return;
  const country = billing ? await channelCountry({ db, shopId: cs.shop_id }, cs.channel_id, billing.country) : null;
  await completeAboSession(db, ours, {
    now,
    billing,
    taxRate: country ? rateFor(country, cs.tax_class) : 0,
    card: null,
    provider: 'stripe',
    providerRef: sub.id,
    paymentRef: invoice?.id ?? null,
    stripe: {
      status: sub.status === 'trialing' ? 'trialing' : 'active',
      periodStart: period?.start ?? now,
      periodEnd: period?.end ?? now,
      trialEnd: toDate(sub.trial_end),
      paidAmount: sub.status === 'active' && invoice?.status === 'paid' ? invoice.amount_paid : null,
    },
    publicUrl: deps.config.publicUrl,
  });
}

async function onInvoicePaid(db: Db, inv: Stripe.Invoice, now: Date): Promise<void> {
  const ref = invoiceSubscriptionId(inv);
  if (!ref) return;
  await withTx(db, async (tx) => {
    const a = await lockByRef(tx, ref);
    if (!a) return; // the first invoice: the checkout completion records it
    const seen = await query(
      tx,
      sql`SELECT 1 FROM orders WHERE shop_id = ${a.shopId} AND subscription_id = ${a.id} AND payment_ref = ${inv.id}`,
    );
    if (seen.length > 0) return;
    const line = inv.lines?.data?.[0];
    const start = toDate(line?.period?.start) ?? a.currentPeriodStart;
    const end = toDate(line?.period?.end) ?? a.currentPeriodEnd;
    const status = transition(a.status, 'charge_succeeded');
    const paid = await update(
      tx,
      a.id,
      {
        status,
        paymentsCount: a.paymentsCount + 1,
        failedAttempts: 0,
        nextRetryAt: null,
        pastDueSince: null,
        currentPeriodStart: start,
        currentPeriodEnd: end,
        periodIndex: a.periodIndex + (start > a.currentPeriodStart ? 1 : 0),
      },
      now,
    );
    const order = await createAboOrder(tx, paid, {
      amountCents: inv.amount_paid,
      paymentNumber: paid.paymentsCount,
      now,
      paymentRef: inv.id as string,
    });
    if (a.status !== 'active') await emitAbo(tx, paid, 'abo.aktiv', now);
    await emitAbo(tx, paid, 'abo.bezahlt', now, {
      order_id: order.id,
      amount_cents: inv.amount_paid,
      currency: paid.currency,
      payment_number: paid.paymentsCount,
    });
  });
}

async function onInvoiceFailed(db: Db, inv: Stripe.Invoice, now: Date): Promise<void> {
  const ref = invoiceSubscriptionId(inv);
  if (!ref) return;
  await withTx(db, async (tx) => {
    const a = await lockByRef(tx, ref);
    if (!a || a.status === 'canceled' || a.status === 'unpaid') return;
    if (a.failedAttempts >= inv.attempt_count) return; // this attempt is already recorded
    const nextRetryAt = toDate(inv.next_payment_attempt);
    const failed = await update(
      tx,
      a.id,
      {
        status: transition(a.status, 'charge_failed'),
        failedAttempts: inv.attempt_count,
        nextRetryAt,
        pastDueSince: a.pastDueSince ?? now,
      },
      now,
    );
    await emitAbo(tx, failed, 'abo.zahlung_fehlgeschlagen', now, {
      attempt: inv.attempt_count,
      amount_cents: inv.amount_due,
      currency: failed.currency,
      next_retry_at: nextRetryAt?.toISOString() ?? null,
      final: nextRetryAt === null,
    });
  });
}

async function onSubscriptionChanged(db: Db, sub: Stripe.Subscription, now: Date, deleted: boolean): Promise<void> {
  await withTx(db, async (tx) => {
    const a = await lockByRef(tx, sub.id);
    if (!a || a.status === 'canceled') return;
    if (deleted || sub.status === 'canceled' || sub.status === 'incomplete_expired') {
      const ended = await update(
        tx,
        a.id,
        {
          status: transition(a.status, 'period_end_reached'),
          endetAm: toDate(sub.ended_at) ?? now,
          cancelAtPeriodEnd: false,
          nextRetryAt: null,
        },
        now,
      );
      await emitAbo(tx, ended, 'abo.beendet', now);
      return;
    }
    const period = subscriptionPeriod(sub);
    let row = a;
    if (sub.cancel_at_period_end && !a.cancelAtPeriodEnd) {
      transition(a.status, 'cancel_scheduled');
      row = await update(
        tx,
        a.id,
        {
          cancelAtPeriodEnd: true,
          endetAm: period?.end ?? a.currentPeriodEnd,
          canceledAt: now,
          canceledBy: 'provider',
        },
        now,
      );
      await emitAbo(tx, row, 'abo.gekuendigt', now, { sofort: false, grund: null, canceled_by: 'provider' });
    } else if (!sub.cancel_at_period_end && a.cancelAtPeriodEnd) {
      transition(a.status, 'cancel_withdrawn');
      row = await update(
        tx,
        a.id,
        { cancelAtPeriodEnd: false, endetAm: null, canceledAt: null, cancelReason: null, canceledBy: null },
        now,
      );
      await emitAbo(tx, row, 'abo.fortgesetzt', now);
    }
    const mapped = (['trialing', 'active', 'past_due', 'unpaid'] as string[]).includes(sub.status)
      ? (sub.status as AboStatus)
      : null;
    const patch: Partial<AboRow> = {};
    if (mapped === 'unpaid' && row.status === 'past_due') {
      patch.status = transition(row.status, 'retries_exhausted');
      patch.nextRetryAt = null;
      patch.endetAm = row.endetAm ?? period?.end ?? row.currentPeriodEnd;
    }
    if (period && period.end > row.currentPeriodEnd && mapped !== 'past_due') {
      patch.currentPeriodStart = period.start;
      patch.currentPeriodEnd = period.end;
    }
    if (Object.keys(patch).length > 0) row = await update(tx, a.id, patch, now);
  });
}

export function stripeAboWebhookRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config } = deps;
  const db = deps.database.db;
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(
      '/api/webhooks/stripe/abos',
      {
        config: { auth: { accepts: 'public' } },
        schema: {
          tags: ['digital'],
          summary: 'Stripe webhook endpoint for subscription events (Stripe-Signature verified)',
          response: { 200: Type.Object({ received: Type.Boolean(), duplicate: Type.Boolean() }) },
        },
      },
      async (request) => {
        const secret = config.stripeAboWebhookSecret;
        if (config.paymentProvider !== 'stripe' || !config.stripeSecretKey || !secret) {
          throw new AppError('not_found', 404, 'The Stripe provider is not configured');
        }
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string')
          throw new AppError('signature_invalid', 400, 'Stripe-Signature header missing');
        let event: Stripe.Event;
        try {
          event = client(config).webhooks.constructEvent(request.body as Buffer, signature, secret);
        } catch {
          throw new AppError('signature_invalid', 400, 'The Stripe signature does not match');
        }
        const fresh = await query(
          db,
          sql`INSERT INTO payment_events (provider, event_id) VALUES ('stripe', ${event.id}) ON CONFLICT DO NOTHING RETURNING event_id`,
        );
        if (fresh.length === 0) return { received: true, duplicate: true };
        const now = deps.clock.now();
        try {
          switch (event.type) {
            case 'checkout.session.completed':
              await onCheckoutCompleted(deps, event.data.object);
              break;
            case 'invoice.paid':
              await onInvoicePaid(db, event.data.object, now);
              break;
            case 'invoice.payment_failed':
              await onInvoiceFailed(db, event.data.object, now);
              break;
            case 'customer.subscription.updated':
              await onSubscriptionChanged(db, event.data.object, now, false);
              break;
            case 'customer.subscription.deleted':
              await onSubscriptionChanged(db, event.data.object, now, true);
              break;
          }
        } catch (err) {
          // let Stripe retry: forget that we saw the event
          await db.execute(sql`DELETE FROM payment_events WHERE event_id = ${event.id}`);
          throw err;
        }
        return { received: true, duplicate: false };
      },
    );
  });
}
