/** Admin reads of subscriptions, and the cancellation operations every caller shares (docs/decisions.md). */

import type { Static } from '@sinclair/typebox';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import { paymentProviderFor } from '../../adapters/payment/index.js';
import type { Config } from '../../config.js';
import { channelScope } from '../../platform/auth/channel-scope.js';
import type { Ctx } from '../../platform/auth/types.js';
import { likeAnywhere, one, withTx } from '../../platform/db/tx.js';
import { AppError, notFound, viaProvider } from '../../platform/errors.js';
import { subscriptionOrders } from '../orders/index.js';
import { amountFor, emitAbo, lockAbo } from './abo-common.js';
import { aboStates, RUNNING } from './abo-states.js';
import type { AboListQuery, KuendigenBody, StatusFilter } from './abos.schemas.js';
import { monthlyShare } from './billing.js';
import { type AboRow, type AboStatus, abos } from './digital.tables.js';
import { shopCurrency } from './plans.service.js';
import { scheduleDue } from './renewals.js';

/** Tells the provider first when it bills the subscription (called under the row lock). */
async function providerCancel(config: Config, abo: AboRow, when: 'now' | 'period_end'): Promise<void> {
  const provider = paymentProviderFor(config);
  if (abo.provider !== provider.name || !abo.providerRef) return;
  const ref = abo.providerRef;
  await viaProvider('The payment provider refused the cancellation', () => provider.cancelSubscription(ref, when));
}

async function providerResume(config: Config, abo: AboRow): Promise<void> {
  const provider = paymentProviderFor(config);
  if (abo.provider !== provider.name || !abo.providerRef) return;
  const ref = abo.providerRef;
  await viaProvider('The payment provider refused to withdraw the cancellation', () =>
    provider.resumeSubscription(ref),
  );
}

export const LIST_CAP = 500;

const inStatuses = (list: AboStatus[]) =>
  sql`${abos.status} IN (${sql.join(
    list.map((s) => sql`${s}`),
    sql`, `,
  )})`;

/** docs/decisions.md: the list filter names and the statuses they mean. */
export function statusCondition(filter: StatusFilter): SQL | undefined {
  switch (filter) {
    case 'laufend':
      return inStatuses(RUNNING);
    case 'testzeit':
      return eq(abos.status, 'trialing');
    case 'zahlung_offen':
      return inStatuses(['past_due', 'unpaid']);
    case 'gekuendigt':
      return and(eq(abos.cancelAtPeriodEnd, true), sql`${abos.status} <> 'canceled'`);
    case 'beendet':
      return eq(abos.status, 'canceled');
    case 'alle':
      return undefined;
  }
}

export type AboFilters = Static<typeof AboListQuery>;

function testCondition(test: AboFilters['test']): SQL | undefined {
  if (test === 'ja') return eq(abos.isTest, true);
  if (test === 'nein') return eq(abos.isTest, false);
  return undefined;
}

/**
 * A page of at most 500 subscriptions (`offset` on), newest first, and how many match in all; a
 * channel-restricted employee sees only those sold in their channels (channelScope: a subscription
 * and its orders belong to its channel).
 */
export async function listAbos(ctx: Ctx, f: AboFilters): Promise<{ rows: AboRow[]; count: number }> {
  const conds: (SQL | undefined)[] = [
    eq(abos.shopId, ctx.shopId),
    channelScope(ctx, abos.channelId),
    f.plan_id ? eq(abos.planId, f.plan_id) : undefined,
    testCondition(f.test),
    statusCondition(f.status ?? 'alle'),
  ];
  if (f.q) {
    const like = likeAnywhere(f.q);
    conds.push(sql`(${abos.id} = ${f.q} OR ${abos.customerEmail} ILIKE ${like})`);
  }
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(abos)
      .where(where)
      .orderBy(desc(abos.createdAt), desc(abos.id))
      .limit(f.limit ?? LIST_CAP)
      .offset(f.offset ?? 0),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(abos).where(where),
  ]);
  return { rows, count: Number(total[0]?.n ?? 0) };
}

/** One subscription of the shop; another shop's or, for a restricted employee, another channel's: 404. */
export async function getAbo(ctx: Ctx, id: string): Promise<AboRow> {
  const [row] = await ctx.db
    .select()
    .from(abos)
    .where(and(eq(abos.id, id), eq(abos.shopId, ctx.shopId), channelScope(ctx, abos.channelId)));
  if (!row) throw notFound('Subscription');
  return row;
}

/** The subscription and its orders (bestellungen), first payment first. */
export async function aboDetail(ctx: Ctx, id: string) {
  const abo = await getAbo(ctx, id);
  const bestellungen = await subscriptionOrders(ctx, id);
  return { abo, bestellungen };
}

/**
 * Counts per list filter and the monthly recurring revenue of the paying subscriptions (active
 * and past_due; trials pay nothing yet): `mrr_cents` in the shop's currency, `mrr_by_currency` in
 * each currency subscriptions run in (the shop's first), each rounded once at the end.
 */
export async function statistics(ctx: Ctx, test: AboFilters['test'] = 'alle') {
  const currency = await shopCurrency(ctx);
  const where = and(eq(abos.shopId, ctx.shopId), channelScope(ctx, abos.channelId), testCondition(test));
  const [counts] = await ctx.db
    .select({
      laufend: sql<number>`count(*) FILTER (WHERE ${statusCondition('laufend')})::int`,
      testzeit: sql<number>`count(*) FILTER (WHERE ${statusCondition('testzeit')})::int`,
      zahlung_offen: sql<number>`count(*) FILTER (WHERE ${statusCondition('zahlung_offen')})::int`,
      gekuendigt: sql<number>`count(*) FILTER (WHERE ${statusCondition('gekuendigt')})::int`,
      beendet: sql<number>`count(*) FILTER (WHERE ${statusCondition('beendet')})::int`,
    })
    .from(abos)
    .where(where);
  const paying = await ctx.db
    .select()
    .from(abos)
    .where(and(where, inStatuses(['active', 'past_due'])));
  // per currency (subscriptions keep the currency they were sold in; the shop's default channel
  // may have changed since), each rounded once at the end
  const perCurrency = new Map<string, number>([[currency, 0]]);
  for (const a of paying) {
    const share = monthlyShare(amountFor(a, a.currentPeriodStart), a.intervalUnit, a.intervalCount);
    perCurrency.set(a.currency, (perCurrency.get(a.currency) ?? 0) + share);
  }
  const byCurrency = [...perCurrency]
    .map(([c, m]) => ({ currency: c, mrr_cents: Math.floor(m + 0.5) }))
    .filter((r) => r.currency === currency || r.mrr_cents > 0)
    .sort((x, y) =>
      x.currency === currency ? -1 : y.currency === currency ? 1 : x.currency.localeCompare(y.currency),
    );
  return {
    laufend: Number(counts?.laufend ?? 0),
    testzeit: Number(counts?.testzeit ?? 0),
    zahlung_offen: Number(counts?.zahlung_offen ?? 0),
    gekuendigt: Number(counts?.gekuendigt ?? 0),
    beendet: Number(counts?.beendet ?? 0),
    mrr_cents: byCurrency[0]?.mrr_cents ?? 0,
    currency,
    mrr_by_currency: byCurrency,
  };
}

export type CanceledBy = 'admin' | 'customer' | 'token';

export type CancelInput = Static<typeof KuendigenBody>;

/**
 * kuendigen (docs/decisions.md) of a subscription of `ctx.shopId`. sofort: ends now (`canceled`,
 * endet_am = now; abo.gekuendigt then abo.beendet). Otherwise: cancel_at_period_end, endet_am =
 * current_period_end, abo.gekuendigt; already scheduled or ended → 409 invalid_state.
 */
export async function cancelAbo(ctx: Ctx, id: string, input: CancelInput, by: CanceledBy): Promise<AboRow> {
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const a = await lockAbo(t, id);
    const grund = input.grund ?? null;
    if (input.sofort) {
      const status = aboStates.fire(a.status, 'cancel_now');
      await providerCancel(ctx.config, a, 'now');
      const ended = one(
        await tx
          .update(abos)
          .set({
            status,
            endetAm: now,
            canceledAt: now,
            cancelReason: grund,
            canceledBy: by,
            cancelAtPeriodEnd: false,
            nextRetryAt: null,
            updatedAt: now,
          })
          .where(and(eq(abos.shopId, a.shopId), eq(abos.id, a.id)))
          .returning(),
      );
      const row = ended;
      await emitAbo(t, row, 'abo.gekuendigt', now, { sofort: true, grund, canceled_by: by });
      await emitAbo(t, row, 'abo.beendet', now);
      return row;
    }
    if (a.cancelAtPeriodEnd) {
      throw new AppError('invalid_state', 'The cancellation is already scheduled for the end of the period');
    }
    aboStates.fire(a.status, 'cancel_scheduled');
    await providerCancel(ctx.config, a, 'period_end');
    const scheduled = one(
      await tx
        .update(abos)
        .set({
          cancelAtPeriodEnd: true,
          endetAm: a.currentPeriodEnd,
          canceledAt: now,
          cancelReason: grund,
          canceledBy: by,
          updatedAt: now,
        })
        .where(and(eq(abos.shopId, a.shopId), eq(abos.id, a.id)))
        .returning(),
    );
    const row = scheduled;
    await emitAbo(t, row, 'abo.gekuendigt', now, { sofort: false, grund, canceled_by: by });
    // past_due waits for its next retry; the end of the period may now come first
    if (row.status === 'past_due') await scheduleDue(t, row, now);
    return row;
  });
}

/** fortsetzen: withdraws a scheduled cancellation; nothing scheduled → 409 invalid_state. */
export async function resumeAbo(ctx: Ctx, id: string): Promise<AboRow> {
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const a = await lockAbo(t, id);
    if (!a.cancelAtPeriodEnd) {
      throw new AppError('invalid_state', 'No cancellation is scheduled for this subscription');
    }
    aboStates.fire(a.status, 'cancel_withdrawn');
    await providerResume(ctx.config, a);
    const row = one(
      await tx
        .update(abos)
        .set({
          cancelAtPeriodEnd: false,
          endetAm: null,
          canceledAt: null,
          cancelReason: null,
          canceledBy: null,
          updatedAt: now,
        })
        .where(and(eq(abos.shopId, a.shopId), eq(abos.id, a.id)))
        .returning(),
    );
    await emitAbo(t, row, 'abo.fortgesetzt', now);
    return row;
  });
}

/** Subscriptions of a signed-in customer, newest first. */
export async function customerAbos(ctx: Ctx, customerId: string): Promise<AboRow[]> {
  return ctx.db
    .select()
    .from(abos)
    .where(and(eq(abos.shopId, ctx.shopId), eq(abos.customerId, customerId)))
    .orderBy(desc(abos.createdAt), desc(abos.id))
    .limit(LIST_CAP);
}
