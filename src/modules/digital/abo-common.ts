/**
 * What the lifecycle steps share: the abo's public shape, its events (ordered per subscription),
 * and the order a paid period creates (with the commission hook: affiliate and payment number).
 */
import { sql } from 'drizzle-orm';
import { channelScope } from '../../platform/auth/channel-scope.js';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { lockOwned } from '../../platform/db/lock.js';
import { query, type TxCtx } from '../../platform/db/tx.js';
import { newId } from '../../platform/ids.js';
import { taxFromGross } from '../../platform/money.js';
import { productSql } from '../catalog/index.js';
import { channelSql } from '../channels/index.js';
import { consumerDigitalTax } from '../checkout/index.js';
import { createOrder, type OrderRow } from '../orders/index.js';
import { exemptionText, type TaxCategory } from '../tax/index.js';
import { emitEvent } from '../webhooks/index.js';
import { intervalText } from './billing.js';
import { type AboEventType, type AboRow, aboEvents, abos } from './digital.tables.js';

/** The amount of the period starting at `start`: the intro price while it lasts, then the price. */
export function amountFor(abo: AboRow, start: Date): number {
  if (abo.introPriceCents !== null && abo.introUntil && start < abo.introUntil) return abo.introPriceCents;
  return abo.priceCents;
}

export function aboOut(a: AboRow) {
  return {
    id: a.id,
    plan_id: a.planId,
    product_id: a.productId,
    channel_id: a.channelId,
    customer_id: a.customerId,
    customer_email: a.customerEmail,
    status: a.status,
    cancel_at_period_end: a.cancelAtPeriodEnd,
    current_period_start: iso(a.currentPeriodStart),
    current_period_end: iso(a.currentPeriodEnd),
    endet_am: isoOrNull(a.endetAm),
    trial_end: isoOrNull(a.trialEnd),
    canceled_at: isoOrNull(a.canceledAt),
    grund: a.cancelReason,
    price_cents: a.priceCents,
    currency: a.currency,
    interval_unit: a.intervalUnit,
    interval_count: a.intervalCount,
    interval_text: intervalText(a.intervalUnit, a.intervalCount),
    intro_price_cents: a.introPriceCents,
    intro_until: isoOrNull(a.introUntil),
    next_charge_cents: a.status === 'canceled' || a.status === 'unpaid' ? null : amountFor(a, a.currentPeriodEnd),
    payments_count: a.paymentsCount,
    failed_attempts: a.failedAttempts,
    next_retry_at: isoOrNull(a.nextRetryAt),
    affiliate_code: a.affiliateCode,
    is_test: a.isTest,
    provider: a.provider,
    card_last4: a.cardLast4,
    tax_rate: a.taxRate,
    tax_category: a.taxCategory,
    tax_exemption_reason: a.taxExemptionReason,
    vat_id_status: a.vatIdStatus,
    vat_id_checked_at: isoOrNull(a.vatIdCheckedAt),
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

/** docs/webhooks.md: what every subscription event carries in `data`. */
export function aboEventData(a: AboRow): Record<string, unknown> {
  return {
    subscription_id: a.id,
    plan_id: a.planId,
    product_id: a.productId,
    customer_email: a.customerEmail,
    status: a.status,
    current_period_start: iso(a.currentPeriodStart),
    current_period_end: iso(a.currentPeriodEnd),
    cancel_at_period_end: a.cancelAtPeriodEnd,
    endet_am: isoOrNull(a.endetAm),
    is_test: a.isTest,
  };
}

/** Emits an abo.* event in the caller's transaction, ordered with every other event of the subscription. */
export async function emitAbo(
  ctx: TxCtx,
  a: AboRow,
  type: AboEventType,
  now: Date,
  extra: Record<string, unknown> = {},
): Promise<void> {
  await emitEvent(ctx, {
    type,
    isTest: a.isTest,
    orderingKey: `abo:${a.id}`,
    now,
    data: { ...aboEventData(a), ...extra },
  });
  // the subscription's own history (GET /api/admin/digital/abos/:id/events), kept as long as it is
  await ctx.db.insert(aboEvents).values({
    id: newId('aboEvent'),
    shopId: a.shopId,
    aboId: a.id,
    type,
    status: a.status,
    data: extra,
    createdAt: now,
  });
}

/** The subscription locked; another shop's or, for a restricted employee, another channel's: 404. */
export function lockAbo(ctx: TxCtx, id: string): Promise<AboRow> {
  return lockOwned(ctx.db, abos, ctx.shopId, id, 'Subscription', channelScope(ctx, abos.channelId));
}

const isZeroRow = (c: string | null): c is 'K' | 'AE' | 'G' | 'O' => c === 'K' || c === 'AE' || c === 'G' || c === 'O';

/**
 * The tax of one payment from the subscription's determination (docs/finance.md, made at checkout; no
 * VIES check per payment): a 0 % row (AE/K for a business, O/G outside the EU) stays as it was
 * determined, so a renewal never turns into consumer pricing. In the S/Z rows the payment takes
 * the billing country's current rate (a rate change or the shop's OSS setting applies from the
 * next payment) unless that would leave the S/Z rows, which would change the amount charged.
 * A subscription from before the determination was stored (no category) follows the billing
 * country's consumer row, as it did.
 */
export async function paymentTax(ctx: Ctx, a: AboRow): Promise<{ rate: number; category: TaxCategory }> {
  const stored = a.taxCategory as TaxCategory | null;
  if (isZeroRow(stored)) return { rate: 0, category: stored };
  const current = a.billingAddress
    ? await consumerDigitalTax(ctx, a.channelId, a.billingAddress.country, a.taxClass)
    : null;
  if (current && (stored === null || !isZeroRow(current.tax_category))) {
    return { rate: current.tax_rate, category: current.tax_category };
  }
  const rate = a.taxRate;
  return { rate, category: stored ?? (rate > 0 ? 'S' : 'Z') };
}

/**
 * The paid order of one period. `paymentNumber` (1 = first) is unique per subscription
 * (orders_subscription_payment_uq), so a period can never be billed twice, whatever runs twice.
 * The order records the period it pays (`period`, else the abo's current period), which its
 * invoice states as the service period (docs/finance.md).
 */
export async function createAboOrder(
  ctx: TxCtx,
  a: AboRow,
  opts: {
    amountCents: number;
    paymentNumber: number;
    now: Date;
    checkoutSessionId?: string | null;
    paymentRef: string;
    period?: { start: Date; end: Date };
  },
): Promise<OrderRow> {
  const [info] = await query<{
    name: string;
    sku: string | null;
    vendor_id: string | null;
    plan_name: string;
    auto_confirm: boolean;
  }>(
    ctx.db,
    sql`SELECT p.name, p.sku, p.vendor_id, pl.name AS plan_name, c.auto_confirm_orders AS auto_confirm
        FROM abo_plans pl
        JOIN LATERAL ${productSql(sql`pl.product_id`, sql`pl.shop_id`)} p ON true
        JOIN LATERAL ${channelSql(sql`${a.channelId}`, sql`pl.shop_id`)} c ON true
        WHERE pl.id = ${a.planId} AND pl.shop_id = ${ctx.shopId}`,
  );
  const { rate, category } = await paymentTax(ctx, a);
  const tax = taxFromGross(opts.amountCents, rate);
  const name = info ? `${info.name} (${info.plan_name})` : 'Abo';
  const period = opts.period ?? { start: a.currentPeriodStart, end: a.currentPeriodEnd };
  return createOrder(ctx, {
    channelId: a.channelId,
    checkoutSessionId: opts.checkoutSessionId ?? null,
    customerId: a.customerId,
    customerEmail: a.customerEmail,
    billingAddress: a.billingAddress ?? null,
    shippingAddress: null,
    shippingMethodId: null,
    status: 'paid',
    autoConfirm: info?.auto_confirm ?? false,
    currency: a.currency,
    lines: [
      {
        product_id: a.productId,
        variant_id: null,
        name,
        sku: info?.sku ?? null,
        quantity: 1,
        unit_price_cents: opts.amountCents,
        line_total_cents: opts.amountCents,
        tax_rate: rate,
        tax_cents: tax,
        net_cents: opts.amountCents - tax,
        tax_category: category,
        tax_exemption_reason: exemptionText(category),
        tax_class: a.taxClass,
        is_digital: true,
        track_stock: false,
        vendor_id: info?.vendor_id ?? null,
      },
    ],
    subtotalCents: opts.amountCents,
    shippingCents: 0,
    shippingTaxCents: 0,
    vatIdStatus: a.vatIdStatus ?? null,
    vatIdCheckedAt: a.vatIdCheckedAt ?? null,
    taxCents: tax,
    totalCents: opts.amountCents,
    requiresShipping: false,
    widerrufVerzicht: false,
    widerrufVerzichtAt: null,
    affiliateCode: a.affiliateCode,
    subscriptionId: a.id,
    subscriptionPaymentNumber: opts.paymentNumber,
    servicePeriod: period.end > period.start ? period : null,
    isTest: a.isTest,
    paymentProvider: a.provider,
    paymentRef: opts.paymentRef,
    now: opts.now,
  });
}
