/**
 * Subscription checkout (docs/digital.md): `POST /api/store/abo-sessions` creates a
 * hosted session of kind `abo`; the test provider's page `/pay/:id` collects billing details and
 * the card, and its completion creates the subscription (and, for a paid plan, the first order).
 */
import { Type } from '@sinclair/typebox';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import { queueEmail } from '../../adapters/mail/index.js';
import { paymentProviderFor } from '../../adapters/payment/index.js';
import { testCardOutcome } from '../../adapters/payment/test-provider.js';
import type { Ctx } from '../../platform/auth/types.js';
import { sha256 } from '../../platform/crypto.js';
import { type TxCtx, withTx } from '../../platform/db/tx.js';
import type { ErrorCode } from '../../platform/error-codes.js';
import { AppError, type FieldError, notFound } from '../../platform/errors.js';
import { Body, Email } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { newId, newSecret } from '../../platform/ids.js';
import { enqueue } from '../../platform/jobs/queue.js';
import type { AppDeps } from '../../platform/module.js';
import { taxFromGross } from '../../platform/money.js';
import { productSql } from '../catalog/index.js';
import {
  type AboSessionTax,
  type AboTax,
  AddressSchema,
  aboTax,
  assertSessionTransition,
  type CheckoutSessionRow,
  channelFor,
  checkReturnUrl,
  completeAboSessionRow,
  consumerDigitalTax,
  EXPIRE_JOB,
  esc,
  type FormValues,
  insertAboSession,
  limitSessionCreation,
  lockSession,
  money,
  normalizeVatId,
  type PricedLine,
  page,
  registerHostedPage,
  returnTo,
  setSessionProviderRef,
  type VatIdCheck,
} from '../checkout/index.js';
import { accountForPurchase, signedInBuyer } from '../identity/index.js';
import type { Address } from '../orders/index.js';
import { chargedPrice, type TaxDecision } from '../tax/index.js';
import { emitEvent } from '../webhooks/index.js';
import { createAboOrder, emitAbo } from './abo-common.js';
import { transition } from './abo-states.js';
import { addDays, addInterval, addMonths, firstCharge, intervalText, introPrice } from './billing.js';
import { type AboRow, aboPlans, abos, type PlanRow } from './digital.tables.js';
import { scheduleDue } from './renewals.js';

const SESSION_TTL_HOURS = 24;

export const AboSessionCreate = Body({
  plan_id: Type.String({ minLength: 1, maxLength: 64 }),
  return_url: Type.String({ minLength: 1, maxLength: 2000, description: "On the publishable key's origin allowlist" }),
  customer_email: Email,
  affiliate_code: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  // A business buyer (docs/finance.md): the one-time checkout's billing_address fields, flat (rule 4
  // refuses the nested address prefill). They decide the tax row before the provider's page.
  company: Type.Optional({
    ...AddressSchema.properties.company,
    description: 'Business buyer: company name (shown on the hosted page and the invoice)',
  }),
  vat_id: Type.Optional({
    ...AddressSchema.properties.vat_id,
    description: 'Business buyer: EU VAT ID, checked by format and against VIES (needs billing_country)',
  }),
  billing_country: Type.Optional({
    ...AddressSchema.properties.country,
    description: 'ISO country of the billing address; decides the tax row (default: the channel’s default country)',
  }),
  channel_id: Type.Optional(
    Type.String({ maxLength: 64, description: 'Ignored: the channel is resolved from the request (rule 6)' }),
  ),
  // Rule 4: named here only to refuse them with a clear 400 (billing details are collected on the hosted page)
  customer: Type.Optional(Type.Unknown({ description: 'Refused: no customer or address prefill' })),
  billing_address: Type.Optional(Type.Unknown({ description: 'Refused: no address prefill' })),
  shipping_address: Type.Optional(Type.Unknown({ description: 'Refused: no address prefill' })),
  discount_code: Type.Optional(Type.Unknown({ description: 'Refused: no discount codes' })),
  express: Type.Optional(Type.Unknown({ description: 'Refused: no express shortcut' })),
  express_checkout: Type.Optional(Type.Unknown({ description: 'Refused: no express shortcut' })),
  flow: Type.Optional(Type.Unknown({ description: 'Only "hosted": subscriptions always use the hosted flow' })),
});

export const AboSessionOut = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'The hosted checkout: redirect the buyer here' }),
});

export interface AboSessionInput {
  plan_id: string;
  return_url: string;
  customer_email: string;
  affiliate_code?: string;
  company?: string | null;
  vat_id?: string | null;
  billing_country?: string;
  channel_id?: string;
  customer?: unknown;
  billing_address?: unknown;
  shipping_address?: unknown;
  discount_code?: unknown;
  express?: unknown;
  express_checkout?: unknown;
  flow?: unknown;
}

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
  return { vat_id_status: vatId?.status ?? null, vat_id_checked_at: vatId?.checked_at.toISOString() ?? null };
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
  const customerEmail = buyer?.email ?? input.customer_email;
  const { plan, productName, taxClass } = await sellablePlan(ctx, input.plan_id);
  const sessionTax = await sessionTaxOf(ctx, channel, input, taxClass);
  const decision = sessionTax.decision;
  const amount = decision ? chargedPrice(firstCharge(plan), decision) : firstCharge(plan);
  // the recurring amount: the provider that keeps a price (Stripe) charges exactly this
  const recurring = decision ? chargedPrice(plan.priceCents, decision) : plan.priceCents;
  const line = planLine(plan, productName, taxClass, amount, decision);
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_TTL_HOURS * 3600_000);
  const id = newId('checkoutSession');
  const provider = paymentProviderFor(deps.config);
  await withTx(ctx, async (t) => {
    await insertAboSession(t, {
      id,
      channelId: channel.id,
      flow: 'hosted',
      currency: plan.currency,
      customerEmail,
      customerId: buyer?.customerId ?? null,
      lines: [line],
      subtotalCents: amount,
      taxCents: line.tax_cents,
      totalCents: amount,
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
      expiresAt,
      createdAt: now,
    });
    await enqueue(
      t.db,
      EXPIRE_JOB,
      { shop_id: ctx.shopId, session_id: id },
      { now, runAt: expiresAt, shopId: ctx.shopId },
    );
  });
  const hosted = await provider.createSubscriptionCheckout({
    sessionId: id,
    shopId: ctx.shopId,
    customerEmail,
    returnUrl: input.return_url,
    expiresAt,
    plan: {
      id: plan.id,
      name: plan.name,
      productName,
      currency: plan.currency,
      priceCents: recurring,
      intervalUnit: plan.intervalUnit,
      intervalCount: plan.intervalCount,
      trialDays: plan.trialDays,
      introDiscountPercent: plan.introDiscountPercent,
      introDiscountMonths: plan.introDiscountMonths,
      // the plan's stored provider price is the gross one; a 0 % row gets a net price of its own
      providerPriceRef: recurring === plan.priceCents ? plan.stripePriceId : null,
      version: plan.updatedAt.getTime(),
    },
  });
  if (hosted.providerPriceRef && recurring === plan.priceCents && hosted.providerPriceRef !== plan.stripePriceId) {
    // the plan's provider price, made once per price/interval version (PATCH clears it)
    await ctx.db
      .update(aboPlans)
      .set({ stripePriceId: hosted.providerPriceRef })
      .where(and(eq(aboPlans.id, plan.id), sql`${aboPlans.stripePriceId} IS NULL`));
  }
  if (hosted.providerRef) {
    await setSessionProviderRef(ctx, id, hosted.providerRef);
  }
  return { id, url: hosted.url };
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
  vatId?: { status: string | null; checkedAt: Date | null } | null;
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

/** The management link e-mailed to the customer (docs/ARCHITECTURE.md "token in path"). */
export function manageLink(publicUrl: string, token: string): string {
  return `${publicUrl}/api/checkout/abo/${token}`;
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
    const tx = t.db;
    const session = await lockSession(t, sessionId);
    if (session?.kind !== 'abo' || !session.planId) throw notFound('Checkout session');
    if (session.status === 'complete') return { abo: null, alreadyComplete: true, session };
    if (!c.allowExpired && (session.status !== 'open' || session.expiresAt <= c.now)) {
      throw new AppError('session_expired', 'This checkout session has expired');
    }
    // the plan with its product's tax class, one statement
    const [row] = await tx
      .select({
        plan: aboPlans,
        taxClass: sql<
          string | null
        >`(SELECT p.tax_class FROM ${productSql(sql`abo_plans.product_id`, sql`abo_plans.shop_id`)} p)`,
      })
      .from(aboPlans)
      .where(eq(aboPlans.id, session.planId));
    if (!row) throw notFound('Plan');
    const plan = row.plan;
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
    const token = newSecret('abolink');
    const [created] = await tx
      .insert(abos)
      .values({
        id: newId('abo'),
        shopId: ctx.shopId,
        planId: plan.id,
        productId: plan.productId,
        channelId: session.channelId,
        checkoutSessionId: session.id,
        customerId: await accountForPurchase(tx, ctx.shopId, session.customerId, session.customerEmail),
        customerEmail: session.customerEmail,
        billingAddress: c.billing,
        status: transition('new', trial ? 'checkout_trial' : 'checkout_paid'),
        trialEnd,
        billingAnchor: anchor,
        periodIndex: trial ? 0 : 1,
        currentPeriodStart: periodStart,
        currentPeriodEnd: periodEnd,
        priceCents: price(plan.priceCents),
        currency: plan.currency,
        intervalUnit: plan.intervalUnit,
        intervalCount: plan.intervalCount,
        introDiscountPercent: plan.introDiscountPercent,
        introPriceCents: intro,
        introUntil: intro !== null && plan.introDiscountMonths ? addMonths(anchor, plan.introDiscountMonths) : null,
        taxClass: row.taxClass ?? 'standard',
        taxRate: c.taxRate,
        taxCategory: c.taxDecision?.tax_category ?? null,
        taxExemptionReason: c.taxDecision?.tax_exemption_reason ?? null,
        vatIdStatus: c.vatId?.status ?? null,
        vatIdCheckedAt: c.vatId?.checkedAt ?? null,
        paymentsCount: trial ? 0 : 1,
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
      .returning();
    const abo = created as AboRow;
    let orderId: string | null = null;
    let amount = 0;
    if (!trial) {
      amount = c.stripe?.paidAmount ?? intro ?? price(plan.priceCents);
      const order = await createAboOrder(t, abo, {
        amountCents: amount,
        paymentNumber: 1,
        now,
        checkoutSessionId: session.id,
        paymentRef: c.paymentRef ?? `test_${c.card?.last4 ?? '0000'}_${abo.id}_1`,
      });
      orderId = order.id;
    }
    assertSessionTransition(session.status, 'complete');
    await completeAboSessionRow(t, session.id, {
      subscriptionId: abo.id,
      orderId,
      completedAt: now,
      billingAddress: c.billing,
    });
    await emitEvent(t, {
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
    await emitAbo(t, abo, 'abo.aktiv', now);
    if (orderId) {
      await emitAbo(t, abo, 'abo.bezahlt', now, {
        order_id: orderId,
        amount_cents: amount,
        currency: abo.currency,
        payment_number: 1,
      });
    }
    await sendWelcomeMail(t, abo, plan, token, c.publicUrl, now);
    await scheduleDue(t, abo, now);
    return { abo, alreadyComplete: false, session };
  });
}

async function sendWelcomeMail(ctx: TxCtx, abo: AboRow, plan: PlanRow, token: string, publicUrl: string, now: Date) {
  const link = manageLink(publicUrl, token);
  const price = `${money(abo.priceCents, abo.currency)} ${intervalText(abo.intervalUnit, abo.intervalCount)}`;
  const lines = [
    'Hallo,',
    '',
    `vielen Dank für Ihr Abo „${plan.name}“ (${price}).`,
    abo.status === 'trialing' && abo.trialEnd
      ? `Ihre Testphase läuft bis ${abo.trialEnd.toISOString().slice(0, 10)}; vorher wird nichts berechnet.`
      : `Der aktuelle Zeitraum läuft bis ${abo.currentPeriodEnd.toISOString().slice(0, 10)}.`,
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
    now,
  });
}

// ---- the hosted page of the test provider ----

const countryOk = (c: string) => /^[A-Z]{2}$/.test(c);

async function pageData(ctx: Ctx, s: CheckoutSessionRow) {
  const [plan] = await ctx.db
    .select()
    .from(aboPlans)
    .where(eq(aboPlans.id, s.planId as string));
  return plan ?? null;
}

function renderAboPage(s: CheckoutSessionRow, plan: PlanRow, values: FormValues, error?: string): string {
  const billing = s.billingAddress;
  const v = (k: keyof FormValues, fallback?: string | null) => esc(values[k] ?? fallback ?? '');
  const intro = introPrice(plan.priceCents, plan.introDiscountPercent);
  const every = intervalText(plan.intervalUnit, plan.intervalCount);
  const terms = [
    plan.trialDays > 0 ? `<li>${esc(plan.trialDays)} Tage kostenlos testen, heute wird nichts berechnet</li>` : '',
    intro !== null
      ? `<li>${esc(money(intro, plan.currency))} ${esc(every)} für ${esc(plan.introDiscountMonths)} Monat(e), danach ${esc(money(plan.priceCents, plan.currency))} ${esc(every)}</li>`
      : `<li>${esc(money(plan.priceCents, plan.currency))} ${esc(every)}</li>`,
    '<li>Jederzeit zum Ende des Zeitraums kündbar</li>',
  ].join('');
  return `<!doctype html>
<html lang="de"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Abo abschließen</title>
<style>body{font:16px system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.6rem 0 .2rem}input[type=text],input[type=email]{width:100%;padding:.5rem;box-sizing:border-box}
.err{background:#fde2e2;color:#8a1010;padding:.7rem;border-radius:4px}
button{margin-top:1rem;padding:.7rem 1.4rem;font-size:1rem}.test{color:#666;font-size:.85rem}</style></head>
<body>
<h1>Abo abschließen</h1>
<p class="test">Test mode: 4242 4242 4242 4242 (success), 4000 0000 0000 0002 (declined), 4000 0000 0000 0341 (later charges fail).</p>
<h2 id="plan">${esc(s.lines[0]?.name ?? plan.name)}</h2>
<ul>${terms}</ul>
<p id="total"><strong>Heute fällig: ${esc(money(s.totalCents, plan.currency))}</strong></p>
${error ? `<p class="err" role="alert" id="error">${esc(error)}</p>` : ''}
<form method="post" action="/pay/${esc(s.id)}">
<label>E-Mail</label><input type="email" value="${esc(s.customerEmail)}" disabled>
<label for="name">Name</label><input type="text" id="name" name="name" required value="${v('name', billing?.name)}">
<label for="company">Firma (optional)</label><input type="text" id="company" name="company" value="${v('company', billing?.company ?? s.aboTax?.company)}">
<label for="vat_id">USt-IdNr. (optional, für Unternehmen)</label><input type="text" id="vat_id" name="vat_id" maxlength="40" value="${v('vat_id', billing?.vat_id ?? s.aboTax?.vat_id)}">
<label for="line1">Straße und Hausnummer</label><input type="text" id="line1" name="line1" required value="${v('line1', billing?.line1)}">
<label for="postal_code">PLZ</label><input type="text" id="postal_code" name="postal_code" required value="${v('postal_code', billing?.postal_code)}">
<label for="city">Ort</label><input type="text" id="city" name="city" required value="${v('city', billing?.city)}">
<label for="country">Land (ISO-Code)</label><input type="text" id="country" name="country" required maxlength="2" value="${v('country', billing?.country ?? (s.aboTax?.given ? s.aboTax.country : null))}">
<label for="card_number">Kartennummer</label><input type="text" id="card_number" name="card_number" required autocomplete="cc-number" value="">
<button type="submit" id="pay">${plan.trialDays > 0 ? 'Testphase starten' : 'Jetzt abonnieren'}</button>
</form></body></html>`;
}

const expiredPage = '<!doctype html><title>Abgelaufen</title><p id="error">Diese Bezahlsitzung ist abgelaufen.</p>';

export function registerAboHostedPage(deps: AppDeps): void {
  registerHostedPage('abo', {
    async get(s: CheckoutSessionRow, reply: FastifyReply) {
      if (s.status === 'complete') return reply.redirect(returnTo(s.returnUrl, s.id), 303);
      const plan = await pageData(reply.request.ctx, s);
      if (!plan || s.status !== 'open' || s.expiresAt <= deps.clock.now()) return page(reply, 410, expiredPage);
      return page(reply, 200, renderAboPage(s, plan, {}));
    },
    async post(s: CheckoutSessionRow, form: FormValues, reply: FastifyReply) {
      if (s.status === 'complete') return reply.redirect(returnTo(s.returnUrl, s.id), 303);
      const now = deps.clock.now();
      // the session's shop: the page is public, its id is the credential
      const ctx = { ...reply.request.ctx, shopId: s.shopId };
      const plan = await pageData(ctx, s);
      if (!plan || s.status !== 'open' || s.expiresAt <= now) return page(reply, 410, expiredPage);
      const fail = (status: number, message: string) => page(reply, status, renderAboPage(s, plan, form, message));
      const country = (form.country ?? '').trim().toUpperCase();
      if (
        !form.name?.trim() ||
        !form.line1?.trim() ||
        !form.postal_code?.trim() ||
        !form.city?.trim() ||
        !countryOk(country)
      ) {
        return fail(400, 'Bitte Name und vollständige Rechnungsadresse angeben (Land als ISO-Code, z. B. DE).');
      }
      const company = form.company?.trim() || null;
      const rawVatId = form.vat_id?.trim() || null;
      let tax: AboTax;
      try {
        // the same row and VAT ID check as the one-time checkout (docs/finance.md)
        tax = await aboTax(ctx, s.channelId, { country, vat_id: rawVatId }, s.lines[0]?.tax_class ?? 'standard', {
          country: '/body/country',
          vatId: '/body/vat_id',
        });
      } catch (err) {
        if (err instanceof AppError && err.code === 'vat_id_invalid') {
          return fail(400, `Die USt-IdNr. ${rawVatId ?? ''} hat kein gültiges Format.`);
        }
        if (err instanceof AppError && err.code === 'country_not_served') {
          return fail(400, `In dieses Land (${country}) verkaufen wir leider nicht.`);
        }
        throw err;
      }
      const card = testCardOutcome(form.card_number ?? '');
      if (!card.ok) return fail(402, card.message);
      const billing: Address = {
        name: form.name.trim(),
        ...(company ? { company } : {}),
        ...(rawVatId ? { vat_id: normalizeVatId(rawVatId) } : {}),
        line1: form.line1.trim(),
        postal_code: form.postal_code.trim(),
        city: form.city.trim(),
        country,
      };
      const decision = tax.decision;
      await completeAboSession(ctx, s.id, {
        now,
        billing,
        taxRate: decision.tax_rate,
        taxDecision: decision,
        vatId: tax.vatId ? { status: tax.vatId.status, checkedAt: tax.vatId.checked_at } : null,
        card: { last4: card.last4, failsLater: card.failsLater },
        provider: 'test',
        publicUrl: deps.config.publicUrl,
      });
      return reply.redirect(returnTo(s.returnUrl, s.id), 303);
    },
  });
}

export function aboSessionRoutes(app: TypedApp, deps: AppDeps): void {
  for (const prefix of ['', '/:prefix']) {
    app.post(
      `${prefix}/api/store/abo-sessions`,
      {
        config: { auth: { accepts: ['publishable'], gate: 'digital', signedInCustomer: true } },
        schema: {
          tags: ['digital'],
          summary: 'Create a hosted subscription checkout session for a plan (docs/digital.md)',
          ...(prefix ? { hide: true } : {}),
          body: AboSessionCreate,
          response: { 201: AboSessionOut },
        },
      },
      async (request, reply) => {
        await limitSessionCreation(request.ctx, request.ip);
        const channel = await channelFor(request);
        reply.header('x-channel-id', channel.id);
        const out = await createAboSession(request.ctx, channel, request.body, deps);
        return reply.code(201).send(out);
      },
    );
  }
}
