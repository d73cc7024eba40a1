/**
 * The completion of an abo session (docs/digital.md): the test provider's page
 * (abo-sessions.page.ts) or a Stripe event (abo-payment-events.ts) creates the subscription and,
 * for a paid plan, the first order.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { sha256 } from '../../platform/crypto.js';
import { one, type Tx, type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError, notFound } from '../../platform/errors.js';
import { newId, newSecret } from '../../platform/ids.js';
import { productSql } from '../catalog/index.js';
import { type CheckoutSessionRow, completeAboSessionRow, lockSession, sessionStates } from '../checkout/index.js';
import { accountForPurchase } from '../identity/index.js';
import type { Address } from '../orders/index.js';
import { chargedPrice, type TaxDecision, type VatIdStatus } from '../tax/index.js';
import { emitEvent } from '../webhooks/index.js';
import { createAboOrder, emitAbo } from './abo-common.js';
import { aboStates } from './abo-states.js';
import { addDays, addInterval, addMonths, introPrice } from './billing.js';
import { type AboRow, aboPlans, abos, type PlanRow } from './digital.tables.js';
import { scheduleDue } from './renewals.js';
import { sendWelcomeMail } from './send-welcome-mail.js';

export interface AboCompletion {
  now: Date;
  billing: Address | null;
  taxRate: number;
  /** The tax table's row for the billing address (docs/finance.md), stored on the abo for every payment. */
  taxDecision?: TaxDecision;
  /**
   * The row whose amounts are charged, when the provider fixed them before the billing address
   * was known (Stripe: the session's row); default `taxDecision`. A 0 % row charges net prices.
   */
  priceDecision?: TaxDecision | null;
  /** The VIES check of the buyer's VAT ID when it decided the tax. */
  vatId?: { status: VatIdStatus | null; checkedAt: Date | null } | null;
  card: { last4: string; failsLater: boolean } | null;
  provider: 'test' | 'stripe';
  providerRef?: string | null;
  /** A payment the provider confirmed after our session expired still creates the subscription. */
  allowExpired?: boolean;
  /** The provider's reference of the first payment (Stripe: the invoice id). */
  paymentRef?: string | null;
  /** Stripe decides status and period; the test provider computes them. */
  stripe?: {
    status: 'trialing' | 'active';
    periodStart: Date;
    periodEnd: Date;
    trialEnd: Date | null;
    paidAmount: number | null;
  };
  publicUrl: string;
}

/**
 * Completes an open abo session of `ctx.shopId` exactly once: the subscription, the first order of
 * a paid plan, the e-mail with the management link, checkout.completed and abo.* events — one
 * transaction (a savepoint when `ctx.db` is one).
 */
export async function completeAboSession(
  ctx: Ctx,
  sessionId: string,
  c: AboCompletion,
): Promise<{ abo: AboRow | null; alreadyComplete: boolean; session: CheckoutSessionRow }> {
  return withTx(ctx, async (t) => {
    const session = await lockAboSession(t, sessionId);
    if (session.status === 'complete') return { abo: null, alreadyComplete: true, session };
    if (!c.allowExpired && (session.status !== 'open' || session.expiresAt <= c.now)) {
      throw new AppError('session_expired', 'This checkout session has expired');
    }
    const { plan, taxClass } = await planOf(t.db, session.shopId, session.planId as string);
    const terms = aboTerms(plan, c);
    const token = newSecret('abolink');
    const abo = await insertAbo(t, session, plan, taxClass, terms, token, c);
    const payment = await firstPayment(t, abo, session, terms, c);
    await markComplete(t, session, abo.id, payment.orderId, c);
    await emitCompletion(t, session, abo, payment, c.now);
    await sendWelcomeMail(t, abo, plan, token, session.returnUrl, c);
    await scheduleDue(t, abo, c.now);
    return { abo, alreadyComplete: false, session };
  });
}

/** The abo session of the shop, locked; 404 for any other session. */
async function lockAboSession(ctx: TxCtx, sessionId: string): Promise<CheckoutSessionRow> {
  const session = await lockSession(ctx, sessionId);
  if (session?.kind !== 'abo' || !session.planId) throw notFound('Checkout session');
  return session;
}

/** The session's plan and its product's tax class, in one statement. */
async function planOf(tx: Tx, shopId: string, planId: string): Promise<{ plan: PlanRow; taxClass: string }> {
  const [row] = await tx
    .select({
      plan: aboPlans,
      taxClass: sql<
        string | null
      >`(SELECT p.tax_class FROM ${productSql(sql`abo_plans.product_id`, sql`abo_plans.shop_id`)} p)`,
    })
    .from(aboPlans)
    .where(and(eq(aboPlans.shopId, shopId), eq(aboPlans.id, planId)));
  if (!row) throw notFound('Plan');
  return { plan: row.plan, taxClass: row.taxClass ?? 'standard' };
}

/**
 * The subscription's first period and prices: Stripe's status and period when it decided them,
 * else a trial of the plan's days or a first interval from now.
 */
function aboTerms(plan: PlanRow, c: AboCompletion) {
  const now = c.now;
  const trial = c.stripe ? c.stripe.status === 'trialing' : plan.trialDays > 0;
  const trialEnd = c.stripe ? c.stripe.trialEnd : trial ? addDays(now, plan.trialDays) : null;
  const anchor = trial ? (trialEnd as Date) : now;
  const periodStart = c.stripe?.periodStart ?? now;
  const periodEnd =
    c.stripe?.periodEnd ?? (trial ? (trialEnd as Date) : addInterval(now, plan.intervalUnit, plan.intervalCount));
  // in a 0 % row (a buyer outside the EU) every payment is the net of the plan's gross prices
  const priced = c.priceDecision === undefined ? c.taxDecision : c.priceDecision;
  const price = (gross: number) => (priced ? chargedPrice(gross, priced) : gross);
  const introGross = introPrice(plan.priceCents, plan.introDiscountPercent);
  const intro = introGross === null ? null : price(introGross);
  return { trial, trialEnd, anchor, periodStart, periodEnd, priceCents: price(plan.priceCents), intro };
}

type AboTerms = ReturnType<typeof aboTerms>;

async function insertAbo(
  ctx: TxCtx,
  session: CheckoutSessionRow,
  plan: PlanRow,
  taxClass: string,
  t: AboTerms,
  token: string,
  c: AboCompletion,
): Promise<AboRow> {
  const now = c.now;
  const created = one(
    await ctx.db
      .insert(abos)
      .values({
        id: newId('abo'),
        shopId: ctx.shopId,
        planId: plan.id,
        productId: plan.productId,
        channelId: session.channelId,
        checkoutSessionId: session.id,
        customerId: await accountForPurchase(ctx.db, ctx.shopId, session.customerId, session.customerEmail),
        customerEmail: session.customerEmail,
        billingAddress: c.billing,
        status: aboStates.fire('new', t.trial ? 'checkout_trial' : 'checkout_paid'),
        trialEnd: t.trialEnd,
        billingAnchor: t.anchor,
        periodIndex: t.trial ? 0 : 1,
        currentPeriodStart: t.periodStart,
        currentPeriodEnd: t.periodEnd,
        priceCents: t.priceCents,
        currency: plan.currency,
        intervalUnit: plan.intervalUnit,
        intervalCount: plan.intervalCount,
        introDiscountPercent: plan.introDiscountPercent,
        introPriceCents: t.intro,
        introUntil: t.intro !== null && plan.introDiscountMonths ? addMonths(t.anchor, plan.introDiscountMonths) : null,
        taxClass,
        taxRate: c.taxRate,
        taxCategory: c.taxDecision?.tax_category ?? null,
        taxExemptionReason: c.taxDecision?.tax_exemption_reason ?? null,
        vatIdStatus: c.vatId?.status ?? null,
        vatIdCheckedAt: c.vatId?.checkedAt ?? null,
        paymentsCount: t.trial ? 0 : 1,
        affiliateCode: session.affiliateCode,
        isTest: session.isTest,
        provider: c.provider,
        providerRef: c.providerRef ?? null,
        cardLast4: c.card?.last4 ?? null,
        cardFailsLater: c.card?.failsLater ?? false,
        manageTokenHash: sha256(token),
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
  return created;
}

/** A paid plan's first payment becomes its first order; a trial pays nothing yet. */
async function firstPayment(
  ctx: TxCtx,
  abo: AboRow,
  session: CheckoutSessionRow,
  t: AboTerms,
  c: AboCompletion,
): Promise<{ orderId: string | null; amount: number }> {
  if (t.trial) return { orderId: null, amount: 0 };
  const amount = c.stripe?.paidAmount ?? t.intro ?? t.priceCents;
  const order = await createAboOrder(ctx, abo, {
    amountCents: amount,
    paymentNumber: 1,
    now: c.now,
    checkoutSessionId: session.id,
    paymentRef: c.paymentRef ?? `test_${c.card?.last4 ?? '0000'}_${abo.id}_1`,
  });
  return { orderId: order.id, amount };
}

async function markComplete(
  ctx: TxCtx,
  session: CheckoutSessionRow,
  aboId: string,
  orderId: string | null,
  c: AboCompletion,
): Promise<void> {
  sessionStates.assert(session.status, 'complete');
  await completeAboSessionRow(ctx, session.id, {
    subscriptionId: aboId,
    orderId,
    completedAt: c.now,
    billingAddress: c.billing ?? null,
  });
}

/** checkout.completed, abo.aktiv and, for a first payment, abo.bezahlt. */
async function emitCompletion(
  ctx: TxCtx,
  session: CheckoutSessionRow,
  abo: AboRow,
  { orderId, amount }: { orderId: string | null; amount: number },
  now: Date,
): Promise<void> {
  await emitEvent(ctx, {
    type: 'checkout.completed',
    isTest: session.isTest,
    orderingKey: `abo:${abo.id}`,
    now,
    data: {
      checkout_session_id: session.id,
      subscription_id: abo.id,
      ...(orderId ? { order_id: orderId } : {}),
      customer_email: session.customerEmail,
      amount_cents: amount,
      currency: abo.currency,
      is_test: session.isTest,
    },
  });
  await emitAbo(ctx, abo, 'abo.aktiv', now);
  if (orderId) {
    await emitAbo(ctx, abo, 'abo.bezahlt', now, {
      order_id: orderId,
      amount_cents: amount,
      currency: abo.currency,
      payment_number: 1,
    });
  }
}
