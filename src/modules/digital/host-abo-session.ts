/** The provider's hosted page of a new abo session (create-abo-session.ts), with the price objects it reuses. */
import { and, eq } from 'drizzle-orm';
import type { PaymentProvider } from '../../adapters/payment/port.js';
import type { Ctx } from '../../platform/auth/types.js';
import { viaProvider } from '../../platform/errors.js';
import { type NewAboSession as AboSessionRow, type PricedLine, setSessionProviderRef } from '../checkout/index.js';
import { aboProviderCoupons, aboProviderPrices, type PlanRow } from './digital.tables.js';

/** What the page is made from: the session row create-abo-session.ts inserted. */
type NewAboSession = Pick<AboSessionRow, 'id' | 'customerEmail' | 'returnUrl' | 'lines' | 'expiresAt'> & {
  createdAt: Date;
};

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
export async function hostAboSession(
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
