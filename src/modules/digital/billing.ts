/**
 * Pure billing arithmetic of plans and subscriptions (docs/decisions.md): period boundaries from an
 * anchor (calendar months clamp to the month's last day, like Stripe's billing anchor), the
 * intro price, the first charge and the German interval text.
 */
import { percentOf } from '../../platform/money.js';
import type { IntervalUnit } from './digital.tables.js';

/** The provider's maximum interval_count per unit (Stripe: three years). */
export const MAX_INTERVAL_COUNT: Record<IntervalUnit, number> = { day: 1095, week: 156, month: 36, year: 3 };

const DAY_MS = 86_400_000;

/** `months` calendar months after `from` (UTC), keeping the anchor's day and time, clamped to the month end. */
export function addMonths(from: Date, months: number): Date {
  const y = from.getUTCFullYear();
  const m = from.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  const d = new Date(from.getTime());
  d.setUTCFullYear(y, m, Math.min(from.getUTCDate(), lastDay));
  return d;
}

export function addInterval(from: Date, unit: IntervalUnit, count: number): Date {
  switch (unit) {
    case 'day':
      return new Date(from.getTime() + count * DAY_MS);
    case 'week':
      return new Date(from.getTime() + count * 7 * DAY_MS);
    case 'month':
      return addMonths(from, count);
    case 'year':
      return addMonths(from, 12 * count);
  }
}

export const addDays = (from: Date, days: number): Date => new Date(from.getTime() + days * DAY_MS);

/** Start and end of paid period `index` (1 = first) counted from the anchor. */
export function periodBounds(
  anchor: Date,
  unit: IntervalUnit,
  count: number,
  index: number,
): { start: Date; end: Date } {
  return { start: addInterval(anchor, unit, count * (index - 1)), end: addInterval(anchor, unit, count * index) };
}

/** round-half-up(price × (100 − percent) / 100); null without a discount. */
export function introPrice(priceCents: number, percent: number | null): number | null {
  if (percent === null || percent === undefined) return null;
  return percentOf(priceCents, 100 - percent);
}

/** 0 with a trial, else the intro price, else the price. */
export function firstCharge(plan: {
  priceCents: number;
  trialDays: number;
  introDiscountPercent: number | null;
}): number {
  if (plan.trialDays > 0) return 0;
  return introPrice(plan.priceCents, plan.introDiscountPercent) ?? plan.priceCents;
}

const ONE: Record<IntervalUnit, string> = { day: 'täglich', week: 'wöchentlich', month: 'monatlich', year: 'jährlich' };
const MANY: Record<IntervalUnit, string> = { day: 'Tage', week: 'Wochen', month: 'Monate', year: 'Jahre' };

/** `monatlich`, `alle 3 Monate`, `alle 2 Wochen` … */
export function intervalText(unit: IntervalUnit, count: number): string {
  return count === 1 ? ONE[unit] : `alle ${count} ${MANY[unit]}`;
}

/**
 * Monthly recurring revenue of one subscription in cents (unrounded): its current charge spread
 * over a month (a year has 12 months, 52 weeks and 365 days).
 */
export function monthlyShare(amountCents: number, unit: IntervalUnit, count: number): number {
  const perMonth = { day: 365 / 12, week: 52 / 12, month: 1, year: 1 / 12 }[unit];
  return (amountCents * perMonth) / count;
}
