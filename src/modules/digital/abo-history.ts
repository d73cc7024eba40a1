/**
 * The history of subscriptions (docs/digital.md "Verlauf"): each subscription's stored events
 * (`abo_events`, written by emitAbo) and the daily series the Statistik charts draw, computed from
 * the stored rows: MRR per day and currency, new / cancelled / churned per month, trial conversion.
 */
import type { Static } from '@sinclair/typebox';
import { and, asc, eq, gte, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoDay, LAST_INSTANT } from '../../platform/dates.js';
import { AppError, notFound } from '../../platform/errors.js';
import { amountFor } from './abo-common.js';
import type { VerlaufQuery } from './abos.schemas.js';
import { monthlyShare } from './billing.js';
import { type AboRow, aboEvents, abos } from './digital.tables.js';
import { shopCurrency } from './plans.service.js';

const DAY_MS = 86_400_000;
/** The longest range one request may ask for (days, both ends included). */
export const VERLAUF_MAX_DAYS = 400;

/** The channels a restricted employee may see (null: every channel). */
export function restrictedChannels(ctx: Ctx): string[] | null {
  const a = ctx.actor;
  return a?.kind === 'admin' && a.channelRestricted ? a.channelIds : null;
}

const inChannels = (restricted: string[] | null): SQL | undefined => {
  if (restricted === null) return undefined;
  if (restricted.length === 0) return sql`false`;
  return sql`${abos.channelId} IN (${sql.join(
    restricted.map((c) => sql`${c}`),
    sql`, `,
  )})`;
};

/** The stored events of a subscription, oldest first; 404 for another shop's or a channel out of reach. */
export async function aboEventsOf(ctx: Ctx, id: string) {
  const [abo] = await ctx.db
    .select({ id: abos.id })
    .from(abos)
    .where(and(eq(abos.id, id), eq(abos.shopId, ctx.shopId), inChannels(restrictedChannels(ctx))));
  if (!abo) throw notFound('Subscription');
  const rows = await ctx.db
    .select()
    .from(aboEvents)
    .where(and(eq(aboEvents.shopId, ctx.shopId), eq(aboEvents.aboId, id)))
    .orderBy(asc(aboEvents.createdAt), asc(aboEvents.id));
  return rows.map((e) => ({ id: e.id, type: e.type, status: e.status, data: e.data, created_at: iso(e.createdAt) }));
}

type Verlauf = Static<typeof VerlaufQuery>;

const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`);

/** Checks the range at the query path (400 validation_failed) and returns it as instants. */
function rangeOf(q: Verlauf, now: Date): { from: number; toEnd: number; days: number } {
  const from = dayStart(q.from);
  const to = dayStart(q.to);
  const errors = [];
  if (Number.isNaN(from)) errors.push({ path: '/query/from', message: 'is not a date' });
  if (Number.isNaN(to)) errors.push({ path: '/query/to', message: 'is not a date' });
  if (errors.length === 0 && to < from) errors.push({ path: '/query/to', message: 'must not be before from' });
  const days = (to - from) / DAY_MS + 1;
  if (errors.length === 0 && days > VERLAUF_MAX_DAYS) {
    errors.push({ path: '/query/to', message: `must be at most ${VERLAUF_MAX_DAYS} days after from (both included)` });
  }
  if (errors.length > 0) throw new AppError('validation_failed', `${errors[0]?.path} ${errors[0]?.message}`, errors);
  // days after today have no history yet: the series ends today
  const today = dayStart(isoDay(now));
  return { from, toEnd: Math.min(to, today) + DAY_MS, days };
}

/**
 * When a subscription paid (or owed: past_due) recurring revenue, as [start, end): from its first
 * paid period (billing_anchor; a trial pays nothing) until it ended (endet_am) or, when unpaid now,
 * its last change (when dunning gave up). Earlier unpaid spells of a subscription that recovered
 * are not reconstructed (docs/digital.md).
 */
function payingSpan(a: AboRow): { start: number; end: number } {
  const start = a.billingAnchor.getTime();
  let end = Number.POSITIVE_INFINITY;
  if (a.status === 'canceled') end = (a.endetAm ?? a.updatedAt).getTime();
  else if (a.status === 'unpaid') end = a.updatedAt.getTime();
  return { start, end };
}

/** GET /api/admin/digital/abos/statistik/verlauf. */
export async function aboVerlauf(ctx: Ctx, q: Verlauf) {
  const now = ctx.clock.now();
  const { from, toEnd, days } = rangeOf(q, now);
  const currency = await shopCurrency(ctx);
  const restricted = restrictedChannels(ctx);
  const base = and(
    eq(abos.shopId, ctx.shopId),
    q.test === 'ja' ? eq(abos.isTest, true) : q.test === 'nein' ? eq(abos.isTest, false) : undefined,
    inChannels(restricted),
  );
  const fromDate = new Date(from);
  const toDate = new Date(toEnd);
  // the end of the range (exclusive); the last instant PostgreSQL takes (DESIGN §3) at most
  const lastDay = Math.min(dayStart(q.to) + DAY_MS, LAST_INSTANT);
  const [spanning, counted] = await Promise.all([
    // every subscription whose paying span can reach into the days shown
    ctx.db
      .select()
      .from(abos)
      .where(
        and(
          base,
          lt(abos.billingAnchor, toDate),
          or(
            sql`${abos.status} NOT IN ('canceled', 'unpaid')`,
            and(eq(abos.status, 'canceled'), gte(sql`coalesce(${abos.endetAm}, ${abos.updatedAt})`, fromDate)),
            and(eq(abos.status, 'unpaid'), gte(abos.updatedAt, fromDate)),
          ),
        ),
      ),
    // the monthly counts and the trials of the range (one pass over the range's subscriptions)
    ctx.db
      .select()
      .from(abos)
      .where(
        and(
          base,
          or(
            and(gte(abos.createdAt, fromDate), lt(abos.createdAt, new Date(lastDay))),
            and(gte(abos.canceledAt, fromDate), lt(abos.canceledAt, new Date(lastDay))),
            and(eq(abos.status, 'canceled'), gte(abos.endetAm, fromDate), lt(abos.endetAm, new Date(lastDay))),
          ),
        ),
      ),
  ]);

  // MRR: a difference array per currency (a share starts, changes at the intro's end, and stops)
  const shown = Math.max(0, Math.round((toEnd - from) / DAY_MS));
  const perCurrency = new Map<string, { mrr: number[]; paying: number[] }>([
    [currency, { mrr: new Array(shown + 1).fill(0), paying: new Array(shown + 1).fill(0) }],
  ]);
  // day i (from + i days) counts what pays at its last instant; idx(t): the first day whose last instant reaches t
  const idx = (t: number) => Math.min(shown, Math.max(0, Math.ceil((t - from + 1) / DAY_MS) - 1));
  for (const a of spanning) {
    const span = payingSpan(a);
    const a0 = idx(span.start);
    const a1 = Number.isFinite(span.end) ? idx(span.end) : shown;
    if (a0 >= a1) continue;
    let series = perCurrency.get(a.currency);
    if (!series) {
      series = { mrr: new Array(shown + 1).fill(0), paying: new Array(shown + 1).fill(0) };
      perCurrency.set(a.currency, series);
    }
    const add = (lo: number, hi: number, at: number) => {
      if (lo >= hi || !series) return;
      const share = monthlyShare(amountFor(a, new Date(at)), a.intervalUnit, a.intervalCount);
      series.mrr[lo] = (series.mrr[lo] ?? 0) + share;
      series.mrr[hi] = (series.mrr[hi] ?? 0) - share;
    };
    // the intro price until intro_until, then the price
    const sw = a.introUntil ? Math.max(a0, Math.min(a1, idx(a.introUntil.getTime()))) : a0;
    add(a0, sw, (a.introUntil?.getTime() ?? 0) - 1);
    add(sw, a1, Math.max(a.introUntil?.getTime() ?? 0, span.start));
    series.paying[a0] = (series.paying[a0] ?? 0) + 1;
    series.paying[a1] = (series.paying[a1] ?? 0) - 1;
  }
  const mrr = [...perCurrency]
    .sort(([x], [y]) => (x === currency ? -1 : y === currency ? 1 : x.localeCompare(y)))
    .map(([c, s]) => {
      let m = 0;
      let n = 0;
      const points = [];
      for (let i = 0; i < shown; i++) {
        m += s.mrr[i] ?? 0;
        n += s.paying[i] ?? 0;
        points.push({
          date: isoDay(new Date(from + i * DAY_MS)),
          mrr_cents: Math.max(0, Math.floor(m + 0.5)),
          paying: n,
        });
      }
      return { currency: c, days: points };
    });

  // months of the range: new (created), cancelled (a cancellation in effect was made), churned (ended)
  const months = new Map<string, { new: number; cancelled: number; churned: number }>();
  for (let t = from; t < lastDay; t = Date.UTC(new Date(t).getUTCFullYear(), new Date(t).getUTCMonth() + 1, 1)) {
    months.set(isoDay(new Date(t)).slice(0, 7), { new: 0, cancelled: 0, churned: 0 });
  }
  const inRange = (d: Date | null): d is Date => d !== null && d.getTime() >= from && d.getTime() < lastDay;
  const bump = (d: Date, key: 'new' | 'cancelled' | 'churned') => {
    const m = months.get(isoDay(d).slice(0, 7));
    if (m) m[key] += 1;
  };
  const trials = { started: 0, converted: 0, in_trial: 0, ended_without_payment: 0 };
  for (const a of counted) {
    if (inRange(a.createdAt)) {
      bump(a.createdAt, 'new');
      if (a.trialEnd && a.trialEnd > a.createdAt) {
        trials.started += 1;
        if (a.paymentsCount > 0) trials.converted += 1;
        else if (a.status === 'trialing') trials.in_trial += 1;
        else if (a.status === 'canceled') trials.ended_without_payment += 1;
      }
    }
    if (inRange(a.canceledAt)) bump(a.canceledAt, 'cancelled');
    if (a.status === 'canceled' && inRange(a.endetAm)) bump(a.endetAm, 'churned');
  }
  return {
    from: q.from,
    to: q.to,
    days,
    currency,
    mrr,
    months: [...months].map(([month, c]) => ({ month, ...c })),
    trials,
  };
}
