/**
 * Subscription checkout (docs/digital.md): `POST /api/store/abo-sessions` creates a hosted session
 * of kind `abo`; its completion (the test provider's page, abo-sessions.page.ts, or a Stripe event)
 * creates the subscription and, for a paid plan, the first order.
 */
import type { Static } from '@sinclair/typebox';
import { and, eq, sql } from 'drizzle-orm';
import { queueEmail } from '../../adapters/mail/index.js';
import { paymentProviderFor } from '../../adapters/payment/index.js';
import type { PaymentProvider } from '../../adapters/payment/port.js';
import type { Config } from '../../config.js';
import type { Ctx } from '../../platform/auth/types.js';
import { sha256 } from '../../platform/crypto.js';
import { isoDay, isoOrNull } from '../../platform/dates.js';
import { one, type Tx, type TxCtx, withTx } from '../../platform/db/tx.js';
import type { ErrorCode } from '../../platform/error-codes.js';
import { AppError, type FieldError, notFound, viaProvider } from '../../platform/errors.js';
import { newId, newSecret } from '../../platform/ids.js';
import { enqueue } from '../../platform/jobs/queue.js';
import type { AppDeps } from '../../platform/module.js';
import { taxFromGross } from '../../platform/money.js';
import { productSql } from '../catalog/index.js';
import {
  type NewAboSession as AboSessionRow,
  type AboSessionTax,
  aboTax,
  type CheckoutSessionRow,
  checkReturnUrl,
  completeAboSessionRow,
  consumerDigitalTax,
  EXPIRE_JOB,
  insertAboSession,
  lockSession,
  money,
  normalizeVatId,
  type PricedLine,
  sessionStates,
  setSessionProviderRef,
  type VatIdCheck,
} from '../checkout/index.js';
import { accountForPurchase, customerPageLink, signedInBuyer } from '../identity/index.js';
import type { Address } from '../orders/index.js';
import { chargedPrice, type TaxDecision, type VatIdStatus } from '../tax/index.js';
import { emitEvent } from '../webhooks/index.js';
import { createAboOrder, emitAbo } from './abo-common.js';
import type { AboSessionCreate } from './abo-sessions.schemas.js';
import { aboStates } from './abo-states.js';
import { addDays, addInterval, addMonths, firstCharge, intervalText, introPrice } from './billing.js';
import { type AboRow, aboPlans, aboProviderCoupons, aboProviderPrices, abos, type PlanRow } from './digital.tables.js';
import { scheduleDue } from './renewals.js';

const SESSION_TTL_HOURS = 24;

export type AboSessionInput = Static<typeof AboSessionCreate>;

/** Rule 4: no nested customer/address prefill, no discount code, no express shortcut. */
function refuseShortcuts(input: AboSessionInput): void {
  const refused: [keyof AboSessionInput, ErrorCode, string][] = [
    ['customer', 'prefill_unsupported', 'customer details and addresses are collected in the hosted checkout'],
    ['billing_address', 'prefill_unsupported', 'addresses are collected in the hosted checkout'],
    [
      'shipping_address',
      'prefill_unsupported',
      'subscriptions ship nothing; addresses are collected in the hosted checkout',
    ],
    ['discount_code', 'discount_unsupported', 'discount codes are not accepted for subscriptions'],
    ['express', 'express_unsupported', 'subscriptions always use the hosted flow'],
    ['express_checkout', 'express_unsupported', 'subscriptions always use the hosted flow'],
  ];
  const errors: FieldError[] = [];
  let code: ErrorCode | undefined;
  for (const [field, c, message] of refused) {
    if (input[field] !== undefined) {
      errors.push({ path: `/body/${field}`, message });
      code ||= c;
    }
  }
  if (input.flow !== undefined && input.flow !== 'hosted') {
    errors.push({ path: '/body/flow', message: 'subscriptions always use the hosted flow' });
    code ||= 'express_unsupported';
  }
  if (code) {
    throw new AppError(code, `Not accepted for subscriptions: ${errors.map((e) => e.path).join(', ')}`, errors);
  }
}

/** Rule 1: the plan exists in the shop (else 404), is active and its digital product published (else 400). */
async function sellablePlan(ctx: Ctx, planId: string) {
  const [row] = await ctx.db
    .select({
      plan: aboPlans,
      productName: sql<string>`p.name`,
      productStatus: sql<string>`p.status`,
      productDeleted: sql<boolean>`p.deleted_at IS NOT NULL`,
      taxClass: sql<string>`p.tax_class`,
    })
    .from(aboPlans)
    .innerJoin(sql`LATERAL ${productSql(sql`abo_plans.product_id`, sql`abo_plans.shop_id`)} p`, sql`true`)
    .where(and(eq(aboPlans.id, planId), eq(aboPlans.shopId, ctx.shopId)));
  if (!row) throw new AppError('plan_not_found', 'Plan not found');
  if (!row.plan.isActive) {
    throw new AppError('plan_inactive', 'This plan is not sold any more', [
      { path: '/body/plan_id', message: 'is not active' },
    ]);
  }
  if (row.productStatus !== 'published' || row.productDeleted) {
    throw new AppError('product_unavailable', "The plan's product is not published", [
      { path: '/body/plan_id', message: 'its product is not published' },
    ]);
  }
  return row;
}

function planLine(plan: PlanRow, name: string, taxClass: string, amount: number, d: TaxDecision | null): PricedLine {
  const rate = d?.tax_rate ?? 0;
  const tax = taxFromGross(amount, rate);
  return {
    product_id: plan.productId,
    variant_id: null,
    name: `${name} (${plan.name})`,
    sku: null,
    quantity: 1,
    unit_price_cents: amount,
    line_total_cents: amount,
    tax_rate: rate,
    tax_cents: tax,
    net_cents: amount - tax,
    tax_category: d?.tax_category ?? 'Z',
    tax_exemption_reason: d?.tax_exemption_reason ?? null,
    tax_class: taxClass,
    is_digital: true,
    track_stock: false,
    vendor_id: null,
  };
}

/** The VAT ID check as stored on a session or abo. */
function vatIdFields(vatId: VatIdCheck | null) {
  return { vat_id_status: vatId?.status ?? null, vat_id_checked_at: isoOrNull(vatId?.checked_at) };
}

/**
 * The session's tax row: from the buyer fields when given (VAT ID checked like the one-time
 * checkout's), else the channel's default country as a consumer until the hosted page knows the
 * billing address. 400 billing_country_required, country_not_served, vat_id_invalid.
 */
async function sessionTaxOf(
  ctx: Ctx,
  channel: { id: string; default_country: string },
  input: AboSessionInput,
  taxClass: string,
): Promise<AboSessionTax> {
  const company = input.company?.trim() || null;
  const rawVatId = input.vat_id?.trim() || null;
  if ((company || rawVatId) && !input.billing_country) {
    throw new AppError('billing_country_required', 'company and vat_id need the billing_country', [
      { path: '/body/billing_country', message: 'is required with company or vat_id' },
    ]);
  }
  if (!input.billing_country) {
    const d = await consumerDigitalTax(ctx, channel.id, channel.default_country, taxClass);
    return {
      given: false,
      company: null,
      vat_id: null,
      country: channel.default_country,
      decision: d,
      ...vatIdFields(null),
    };
  }
  const t = await aboTax(ctx, channel.id, { country: input.billing_country, vat_id: rawVatId }, taxClass, {
    country: '/body/billing_country',
    vatId: '/body/vat_id',
  });
  return {
    given: true,
    company,
    vat_id: rawVatId ? normalizeVatId(rawVatId) : null,
    country: input.billing_country,
    decision: t.decision,
    ...vatIdFields(t.vatId),
  };
}

/** POST /api/store/abo-sessions: always hosted (rule 3); the channel comes from the request (rule 6). */
export async function createAboSession(
  ctx: Ctx,
  channel: { id: string; default_country: string },
  input: AboSessionInput,
  deps: AppDeps,
) {
  refuseShortcuts(input);
  checkReturnUrl(ctx, input.return_url);
  // a signed-in buyer's subscription belongs to the account at once (docs/ARCHITECTURE.md)
  const buyer = await signedInBuyer(ctx, input.customer_email, '/body/customer_email');
  const { plan, productName, taxClass } = await sellablePlan(ctx, input.plan_id);
  const sessionTax = await sessionTaxOf(ctx, channel, input, taxClass);
  const decision = sessionTax.decision;
  const amount = decision ? chargedPrice(firstCharge(plan), decision) : firstCharge(plan);
  // the recurring amount: the provider that keeps a price (Stripe) charges exactly this
  const recurring = decision ? chargedPrice(plan.priceCents, decision) : plan.priceCents;
  const line = planLine(plan, productName, taxClass, amount, decision);
  const provider = paymentProviderFor(deps.config);
  const session = aboSessionValues(ctx, channel.id, input, provider, buyer, plan, sessionTax, line);
  await insertWithExpiry(ctx, session);
  const url = await hostAboSession(ctx, provider, session, plan, recurring);
  return { id: session.id, url };
}

/** The session row to insert: one plan line, the tax row it was priced with, a 24-hour expiry. */
function aboSessionValues(
  ctx: Ctx,
  channelId: string,
  input: AboSessionInput,
  provider: PaymentProvider,
  buyer: Awaited<ReturnType<typeof signedInBuyer>>,
  plan: PlanRow,
  sessionTax: AboSessionTax,
  line: PricedLine,
) {
  const now = ctx.clock.now();
  const values = {
    id: newId('checkoutSession'),
    channelId,
    flow: 'hosted',
    currency: plan.currency,
    customerEmail: buyer?.email ?? input.customer_email,
    customerId: buyer?.customerId ?? null,
    lines: [line],
    subtotalCents: line.line_total_cents,
    taxCents: line.tax_cents,
    totalCents: line.line_total_cents,
    vatIdStatus: sessionTax.vat_id_status,
    vatIdCheckedAt: sessionTax.vat_id_checked_at ? new Date(sessionTax.vat_id_checked_at) : null,
    aboTax: sessionTax,
    requiresShipping: false,
    hasDigital: true,
    returnUrl: input.return_url,
    affiliateCode: input.affiliate_code ?? null,
    planId: plan.id,
    provider: provider.name,
    isTest: provider.isTest,
    expiresAt: new Date(now.getTime() + SESSION_TTL_HOURS * 3600_000),
    createdAt: now,
  } satisfies AboSessionRow;
  return values;
}

type NewAboSession = ReturnType<typeof aboSessionValues>;

/** The session and its expiry job, in one transaction. */
async function insertWithExpiry(ctx: Ctx, session: NewAboSession): Promise<void> {
  await withTx(ctx, async (t) => {
    await insertAboSession(t, session);
    await enqueue(
      t.db,
      EXPIRE_JOB,
      { shop_id: ctx.shopId, session_id: session.id },
      { now: session.createdAt, runAt: session.expiresAt, shopId: ctx.shopId },
    );
  });
}

/** The recurring price terms of a session: what a provider's price object encodes. */
interface PriceTerms {
  currency: string;
  amountCents: number;
  intervalUnit: PlanRow['intervalUnit'];
  intervalCount: number;
  name: string;
}

/** The provider's price object made before for exactly these terms, if any. */
async function storedPriceRef(ctx: Ctx, provider: PaymentProvider, plan: PlanRow, terms: PriceTerms) {
  const [row] = await ctx.db
    .select({ ref: aboProviderPrices.ref })
    .from(aboProviderPrices)
    .where(
      and(
        eq(aboProviderPrices.planId, plan.id),
        eq(aboProviderPrices.shopId, ctx.shopId),
        eq(aboProviderPrices.provider, provider.name),
        eq(aboProviderPrices.isTest, provider.isTest),
        eq(aboProviderPrices.currency, terms.currency),
        eq(aboProviderPrices.amountCents, terms.amountCents),
        eq(aboProviderPrices.intervalUnit, terms.intervalUnit),
        eq(aboProviderPrices.intervalCount, terms.intervalCount),
        eq(aboProviderPrices.name, terms.name),
      ),
    );
  return row?.ref ?? null;
}

/** The provider's intro-discount coupon made before for the plan's discount terms, if any. */
async function storedCouponRef(ctx: Ctx, provider: PaymentProvider, plan: PlanRow) {
  if (!plan.introDiscountPercent || !plan.introDiscountMonths) return null;
  const [row] = await ctx.db
    .select({ ref: aboProviderCoupons.ref })
    .from(aboProviderCoupons)
    .where(
      and(
        eq(aboProviderCoupons.planId, plan.id),
        eq(aboProviderCoupons.shopId, ctx.shopId),
        eq(aboProviderCoupons.provider, provider.name),
        eq(aboProviderCoupons.isTest, provider.isTest),
        eq(aboProviderCoupons.percentOff, plan.introDiscountPercent),
        eq(aboProviderCoupons.durationMonths, plan.introDiscountMonths),
      ),
    );
  return row?.ref ?? null;
}

/**
 * Keeps the price object and coupon the provider made, for every later checkout with the same
 * terms (a concurrent checkout that made its own keeps the first one stored).
 */
async function storeProviderRefs(
  ctx: Ctx,
  provider: PaymentProvider,
  plan: PlanRow,
  terms: PriceTerms,
  made: { price: string | null; coupon: string | null },
): Promise<void> {
  const who = { shopId: ctx.shopId, planId: plan.id, provider: provider.name, isTest: provider.isTest };
  if (made.price) {
    await ctx.db
      .insert(aboProviderPrices)
      .values({ ...who, ...terms, ref: made.price, createdAt: ctx.clock.now() })
      .onConflictDoNothing();
  }
  if (made.coupon && plan.introDiscountPercent && plan.introDiscountMonths) {
    await ctx.db
      .insert(aboProviderCoupons)
      .values({
        ...who,
        percentOff: plan.introDiscountPercent,
        durationMonths: plan.introDiscountMonths,
        ref: made.coupon,
        createdAt: ctx.clock.now(),
      })
      .onConflictDoNothing();
  }
}

/**
 * The provider's hosted subscription checkout. Every parameter comes from stored data: the
 * session's line name and expiry, the recurring amount of its tax row, the plan's terms; the
 * provider's price object and coupon for these terms are stored and reused (docs/payments.md,
 * "Stripe calls"). Returns the page's URL.
 */
async function hostAboSession(
  ctx: Ctx,
  provider: PaymentProvider,
  session: NewAboSession,
  plan: PlanRow,
  recurring: number,
): Promise<string> {
  const terms: PriceTerms = {
    currency: plan.currency,
    amountCents: recurring,
    intervalUnit: plan.intervalUnit,
    intervalCount: plan.intervalCount,
    name: (session.lines[0] as PricedLine).name,
  };
  const priceRef = await storedPriceRef(ctx, provider, plan, terms);
  const couponRef = await storedCouponRef(ctx, provider, plan);
  // on a failure the session stays open without a page and expires; a new request makes a new one
  const hosted = await viaProvider('The payment provider is unavailable', () =>
    provider.createSubscriptionCheckout({
      sessionId: session.id,
      shopId: ctx.shopId,
      customerEmail: session.customerEmail,
      returnUrl: session.returnUrl,
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
      plan: {
        id: plan.id,
        priceName: terms.name,
        currency: terms.currency,
        priceCents: terms.amountCents,
        intervalUnit: terms.intervalUnit,
        intervalCount: terms.intervalCount,
        trialDays: plan.trialDays,
        introDiscountPercent: plan.introDiscountPercent,
        introDiscountMonths: plan.introDiscountMonths,
        providerPriceRef: priceRef,
        providerCouponRef: couponRef,
      },
    }),
  );
  await storeProviderRefs(ctx, provider, plan, terms, {
    price: hosted.providerPriceRef !== priceRef ? hosted.providerPriceRef : null,
    coupon: hosted.providerCouponRef !== couponRef ? hosted.providerCouponRef : null,
  });
  if (hosted.providerRef) {
    await setSessionProviderRef(ctx, session.id, hosted.providerRef);
  }
  return hosted.url;
}

// ---- completion ----

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
 * The management link e-mailed to the customer: the page that shows the subscription and offers
 * `kuendigen` / `fortsetzen` through `/api/checkout/abo/:token/…` — on the storefront the abo was
 * bought on (the origin of the session's return_url, on the key's allowlist): the built-in one's
 * `/shop/konto/abo?token=…` under PUBLIC_URL, a headless one's `/account/abo?token=…`.
 */
export function manageLink(config: Pick<Config, 'publicUrl' | 'storefront'>, returnUrl: string, token: string): string {
  let origin = config.publicUrl;
  try {
    origin = new URL(returnUrl).origin;
  } catch {
    // checked at creation (checkReturnUrl); PUBLIC_URL otherwise
  }
  return `${customerPageLink(config, origin, 'abo')}?token=${encodeURIComponent(token)}`;
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

async function sendWelcomeMail(
  ctx: TxCtx,
  abo: AboRow,
  plan: PlanRow,
  token: string,
  returnUrl: string,
  c: Pick<AboCompletion, 'publicUrl' | 'now'>,
) {
  const now = c.now;
  const link = manageLink({ publicUrl: c.publicUrl, storefront: ctx.config.storefront }, returnUrl, token);
  const price = `${money(abo.priceCents, abo.currency)} ${intervalText(abo.intervalUnit, abo.intervalCount)}`;
  const lines = [
    'Hallo,',
    '',
    `vielen Dank für Ihr Abo „${plan.name}“ (${price}).`,
    abo.status === 'trialing' && abo.trialEnd
      ? `Ihre Testphase läuft bis ${isoDay(abo.trialEnd)}; vorher wird nichts berechnet.`
      : `Der aktuelle Zeitraum läuft bis ${isoDay(abo.currentPeriodEnd)}.`,
    '',
    'Ihr Abo verwalten (Status ansehen, kündigen, Kündigung zurücknehmen):',
    link,
    '',
    'Bewahren Sie diesen Link vertraulich auf: Er erlaubt die Verwaltung dieses Abos ohne Anmeldung.',
    abo.isTest ? '\n(Testmodus: es wurde kein echtes Geld bewegt.)' : '',
  ];
  await queueEmail(ctx, {
    kind: 'abo.created',
    to: abo.customerEmail,
    subject: `Ihr Abo: ${plan.name}`,
    text: lines.join('\n'),
    // the management link works without sign-in: never stored or logged in clear
    secrets: [token],
    now,
  });
}
