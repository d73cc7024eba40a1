/**
 * Subscription checkout (docs/digital.md): `POST /api/store/abo-sessions` creates a hosted session
 * of kind `abo` (its provider page: host-abo-session.ts); complete-abo-session.ts completes it.
 */
import type { Static } from '@sinclair/typebox';
import { and, eq, sql } from 'drizzle-orm';
import { paymentProviderFor } from '../../adapters/payment/index.js';
import type { PaymentProvider } from '../../adapters/payment/port.js';
import type { Ctx } from '../../platform/auth/types.js';
import { isoOrNull } from '../../platform/dates.js';
import { withTx } from '../../platform/db/tx.js';
import type { ErrorCode } from '../../platform/error-codes.js';
import { AppError, type FieldError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueue } from '../../platform/jobs/queue.js';
import type { AppDeps } from '../../platform/module.js';
import { taxFromGross } from '../../platform/money.js';
import { productSql } from '../catalog/index.js';
import {
  type NewAboSession as AboSessionRow,
  type AboSessionTax,
  aboTax,
  checkReturnUrl,
  consumerDigitalTax,
  EXPIRE_JOB,
  insertAboSession,
  normalizeVatId,
  type PricedLine,
  type VatIdCheck,
} from '../checkout/index.js';
import { signedInBuyer } from '../identity/index.js';
import { chargedPrice, type TaxDecision } from '../tax/index.js';
import type { AboSessionCreate } from './abo-sessions.schemas.js';
import { firstCharge } from './billing.js';
import { aboPlans, type PlanRow } from './digital.tables.js';
import { hostAboSession } from './host-abo-session.js';

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
