/** Subscription plans (docs/digital.md; docs/decisions.md): constraints, currency, immutability, hinweis. */

import type { Static } from '@sinclair/typebox';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { lockOwned } from '../../platform/db/lock.js';
import { one, withTx } from '../../platform/db/tx.js';
import { AppError, type FieldError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { productIsDigital, productSql } from '../catalog/index.js';
import { defaultChannelCurrency } from '../channels/index.js';
import { RUNNING } from './abo-states.js';
import { firstCharge, intervalText, introPrice, MAX_INTERVAL_COUNT } from './billing.js';
import { aboPlans, type IntervalUnit, type PlanRow } from './digital.tables.js';
import type { PlanCreate, PlanPatch } from './plans.schemas.js';

export const HINWEIS =
  'Preis- und Intervalländerungen gelten nur für neue Abos; bestehende Abos behalten ihren Preis und ihr Intervall.';

export function planOut(p: PlanRow) {
  return {
    id: p.id,
    product_id: p.productId,
    name: p.name,
    price_cents: p.priceCents,
    currency: p.currency,
    interval_unit: p.intervalUnit,
    interval_count: p.intervalCount,
    interval_text: intervalText(p.intervalUnit, p.intervalCount),
    trial_days: p.trialDays,
    intro_discount_percent: p.introDiscountPercent,
    intro_discount_months: p.introDiscountMonths,
    intro_price_cents: introPrice(p.priceCents, p.introDiscountPercent),
    first_charge_cents: firstCharge(p),
    is_active: p.isActive,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
  };
}

/** A plan's fields as PATCH takes them; POST requires some of them (PlanCreateInput). */
export type PlanInput = Static<typeof PlanPatch>;
export type PlanCreateInput = Static<typeof PlanCreate>;

/** The constraints a schema cannot express: interval maximum per unit, and the intro pair rule. */
function checkPlan(input: PlanInput, merged: { unit: IntervalUnit; count: number }): void {
  const errors: FieldError[] = [];
  const max = MAX_INTERVAL_COUNT[merged.unit];
  if (merged.count > max) {
    errors.push({ path: '/body/interval_count', message: `must be at most ${max} for interval_unit ${merged.unit}` });
  }
  const hasPercent = input.intro_discount_percent !== undefined;
  const hasMonths = input.intro_discount_months !== undefined;
  if (hasPercent !== hasMonths) {
    const missing = hasPercent ? 'intro_discount_months' : 'intro_discount_percent';
    const given = hasPercent ? 'intro_discount_percent' : 'intro_discount_months';
    errors.push({ path: `/body/${missing}`, message: `must be supplied together with ${given}` });
  } else if (hasPercent && (input.intro_discount_percent === null) !== (input.intro_discount_months === null)) {
    errors.push({
      path: '/body/intro_discount_months',
      message: 'intro_discount_percent and intro_discount_months are set together or both cleared with null',
    });
  }
  if (errors.length > 0) {
    throw new AppError('validation_failed', errors.map((e) => `${e.path}: ${e.message}`).join('; '), errors);
  }
}

/** An existing, not deleted, digital product of the shop. */
async function checkProduct(ctx: Ctx, productId: string): Promise<void> {
  const digital = await productIsDigital(ctx, productId);
  if (!digital) {
    throw new AppError(
      'product_invalid',
      digital === false ? 'The product is not a digital product' : 'The product does not exist in this shop',
      [{ path: '/body/product_id', message: 'must be an existing digital product of this shop' }],
    );
  }
}

/** The currency of the shop's default channel; EUR when there is none (docs/decisions.md). */
export async function shopCurrency(ctx: Ctx): Promise<string> {
  return (await defaultChannelCurrency(ctx, { orOldest: false })) ?? 'EUR';
}

export async function createPlan(ctx: Ctx, input: PlanCreateInput) {
  const unit = input.interval_unit as IntervalUnit;
  checkPlan(input, { unit, count: input.interval_count ?? 1 });
  await checkProduct(ctx, input.product_id);
  const now = ctx.clock.now();
  return one(
    await ctx.db
      .insert(aboPlans)
      .values({
        id: newId('plan'),
        shopId: ctx.shopId,
        productId: input.product_id,
        name: input.name,
        priceCents: input.price_cents as number,
        currency: await shopCurrency(ctx),
        intervalUnit: unit,
        intervalCount: input.interval_count ?? 1,
        trialDays: input.trial_days ?? 0,
        introDiscountPercent: input.intro_discount_percent ?? null,
        introDiscountMonths: input.intro_discount_months ?? null,
        isActive: input.is_active ?? true,
        createdAt: now,
        updatedAt: now,
      })
      .returning(),
  );
}

export async function getPlan(ctx: Ctx, id: string): Promise<PlanRow> {
  const [row] = await ctx.db
    .select()
    .from(aboPlans)
    .where(and(eq(aboPlans.id, id), eq(aboPlans.shopId, ctx.shopId)));
  if (!row) throw notFound('Plan');
  return row;
}

/**
 * Changes a plan. The product cannot change (400). A new price or interval applies to new
 * subscriptions only — subscriptions copy price and interval when they start — so the response
 * carries `hinweis`; with Stripe the next checkout uses a Price of the new terms (made once and
 * stored, docs/payments.md "Stripe calls").
 */
export async function updatePlan(ctx: Ctx, id: string, input: PlanInput): Promise<{ plan: PlanRow; hinweis?: string }> {
  return withTx(ctx.db, async (tx) => {
    const current = await lockOwned(tx, aboPlans, ctx.shopId, id, 'Plan');
    if (input.product_id !== undefined && input.product_id !== current.productId) {
      throw new AppError('product_immutable', 'The product of a plan cannot be changed; create a new plan', [
        { path: '/body/product_id', message: 'cannot be changed' },
      ]);
    }
    const unit = input.interval_unit ?? current.intervalUnit;
    const count = input.interval_count ?? current.intervalCount;
    checkPlan(input, { unit, count });
    const priceChanged = input.price_cents !== undefined && input.price_cents !== current.priceCents;
    const intervalChanged = unit !== current.intervalUnit || count !== current.intervalCount;
    const row = one(
      await tx
        .update(aboPlans)
        .set({
          ...(input.name !== undefined ? { name: input.name } : {}),
          ...(input.price_cents !== undefined ? { priceCents: input.price_cents } : {}),
          intervalUnit: unit,
          intervalCount: count,
          ...(input.trial_days !== undefined ? { trialDays: input.trial_days } : {}),
          ...(input.intro_discount_percent !== undefined
            ? { introDiscountPercent: input.intro_discount_percent, introDiscountMonths: input.intro_discount_months }
            : {}),
          ...(input.is_active !== undefined ? { isActive: input.is_active } : {}),
          updatedAt: ctx.clock.now(),
        })
        .where(and(eq(aboPlans.shopId, ctx.shopId), eq(aboPlans.id, id)))
        .returning(),
    );
    return { plan: row, ...(priceChanged || intervalChanged ? { hinweis: HINWEIS } : {}) };
  });
}

/** Plans newest first with their product's name and how many subscriptions are running. */
export async function listPlans(ctx: Ctx) {
  const rows = await ctx.db
    .select({
      plan: aboPlans,
      productName: sql<string>`(SELECT p.name FROM ${productSql(sql`abo_plans.product_id`, sql`abo_plans.shop_id`)} p)`,
      activeCount: sql<number>`(SELECT count(*)::int FROM abos a
        WHERE a.shop_id = abo_plans.shop_id AND a.plan_id = abo_plans.id
          AND a.status IN (${sql.join(
            RUNNING.map((s) => sql`${s}`),
            sql`, `,
          )}))`,
    })
    .from(aboPlans)
    .where(eq(aboPlans.shopId, ctx.shopId))
    .orderBy(desc(aboPlans.createdAt), desc(aboPlans.id));
  return rows.map((r) => ({ ...planOut(r.plan), product_name: r.productName, active_count: Number(r.activeCount) }));
}
