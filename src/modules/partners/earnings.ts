/**
 * Earnings: what paid orders earn vendors and affiliates, booked into the ledger (ledger.ts).
 *
 * - Vendor: each order line of a vendor's product earns its net amount (gross − VAT) minus the
 *   platform commission of the vendor's rule in force when the order was paid (the newest rule
 *   with effective_from ≤ paid_at; a rule for the product's category wins over the general
 *   one; no rule = no commission): commission = round-half-up(net × percent / 100) + fixed cents
 *   per line, at most the net.
 * - Affiliate: an order whose affiliate_code matches an active affiliate of the shop
 *   (case-insensitive) earns round-half-up(Σ line net × percent / 100) — net of tax and
 *   shipping. Subscription orders follow the shop's abo_provision: erste = the first paid order
 *   only, monate = the first abo_provision_monate paid orders, immer = every paid order.
 * - Clawbacks: a final credit note reverses the share of each earning it credits (per order line
 *   for vendors, of the order's item net for affiliates; amount credits proportionally); a
 *   refund without a credit note (the order had no final invoice) reverses the refunded share of
 *   what was paid (refunded ÷ order total, on every earning alike); an order cancelled or fully
 *   refunded after payment reverses everything. The target is cumulative, so several partial
 *   credit notes or refunds end exactly at the full earning.
 *
 * Everything runs in the caller's transaction and is idempotent: an earning per source
 * (`vendor:<order_line_id>`, `affiliate:<order_id>`) and a ledger entry per cause.
 */

import type { Static } from '@sinclair/typebox';
import { and, asc, desc, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import type { Db } from '../../platform/db/client.js';
import { one, query, type TxCtx } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import type { Paged } from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import { percentOf } from '../../platform/money.js';
import { productCategories } from '../catalog/index.js';
import { creditNoteLinesOfOrder, type DocLine } from '../finance/index.js';
import {
  creditNotesOfFailedRefunds,
  orderForEarnings,
  orderLinesForEarnings,
  refundedWithoutCreditNote,
} from '../orders/index.js';
import { shopAboProvision } from '../shops/index.js';
import { earningStates } from './earning-states.js';
import { move, post, type ShopTx } from './ledger.js';
import { type PartnerType, partnerEarnings, vendors } from './partners.tables.js';
import { partnerIdOut } from './payouts.service.js';
import type { PortalEarningQuery } from './vendors.schemas.js';

export type EarningRow = typeof partnerEarnings.$inferSelect;

/** Credits every vendor line and the attributed affiliate of a paid order. Idempotent. */
export async function creditOrderEarnings(ctx: ShopTx, orderId: string, now: Date): Promise<void> {
  const order = await orderForEarnings(ctx, orderId);
  if (!order || !['paid', 'fulfilled'].includes(order.status)) return;
  const paidAt = order.paidAt ?? now;
  const lines = await orderLinesForEarnings(ctx, orderId);
  const vendorLines = lines.filter((l) => l.vendorId !== null);
  // the product's category picks the rule; a line whose vendor is gone earns nothing
  const [categories, vendorIds] =
    vendorLines.length > 0
      ? await Promise.all([
          productCategories(
            ctx,
            vendorLines.map((l) => l.productId),
          ),
          existingVendors(
            ctx,
            vendorLines.map((l) => l.vendorId as string),
          ),
        ])
      : [new Map<string, string | null>(), new Set<string>()];
  const base = {
    orderId,
    subscriptionId: order.subscriptionId,
    subscriptionPaymentNumber: order.subscriptionPaymentNumber,
    currency: order.currency,
    earnedAt: paidAt,
  };

  for (const l of vendorLines) {
    const vendorId = l.vendorId as string;
    if (!vendorIds.has(vendorId)) continue;
    const rule = await ruleFor(ctx, vendorId, categories.get(l.productId) ?? null, paidAt);
    const net = Number(l.netCents);
    const commission = Math.min(Math.max(net, 0), rule ? percentOf(net, rule.percent) + Number(rule.fixed_cents) : 0);
    await book(ctx, {
      ...base,
      partnerType: 'vendor',
      partnerId: vendorId,
      sourceKey: `vendor:${l.id}`,
      orderLineId: l.id,
      grossCents: Number(l.lineTotalCents),
      netCents: net,
      commissionCents: commission,
      amountCents: net - commission,
      ratePercent: rule?.percent ?? 0,
      ruleId: rule?.id ?? null,
    });
  }

  if (order.affiliateCode) {
    const n = order.subscriptionPaymentNumber;
    const abo = order.subscriptionId ? await shopAboProvision(ctx) : null;
    const counts =
      !order.subscriptionId ||
      abo?.provision === 'immer' ||
      (abo?.provision === 'erste' && n === 1) ||
      (abo?.provision === 'monate' && n !== null && n <= (abo.months ?? 1));
    if (!counts) return;
    const [aff] = await query<{ id: string; commission_percent: number | string }>(
      ctx.db,
      sql`SELECT id, commission_percent FROM affiliates
          WHERE shop_id = ${ctx.shopId} AND lower(code) = lower(${order.affiliateCode}) AND status = 'active'`,
    );
    if (!aff) return;
    const percent = Number(aff.commission_percent);
    const gross = lines.reduce((s, l) => s + Number(l.lineTotalCents), 0);
    const net = lines.reduce((s, l) => s + Number(l.netCents), 0);
    await book(ctx, {
      ...base,
      partnerType: 'affiliate',
      partnerId: aff.id,
      sourceKey: `affiliate:${orderId}`,
      orderLineId: null,
      grossCents: gross,
      netCents: net,
      commissionCents: 0,
      amountCents: Math.max(0, percentOf(net, percent)),
      ratePercent: percent,
      ruleId: null,
    });
  }
}

/** Those of `ids` that are vendors of the shop (any status). */
async function existingVendors(ctx: ShopTx, ids: string[]): Promise<Set<string>> {
  const rows = await ctx.db
    .select({ id: vendors.id })
    .from(vendors)
    .where(and(eq(vendors.shopId, ctx.shopId), inArray(vendors.id, [...new Set(ids)])));
  return new Set(rows.map((r) => r.id));
}

interface Rule {
  id: string;
  percent: number;
  fixed_cents: number;
}

/** The vendor's rule in force at `at`: category-specific first, then the general one. */
async function ruleFor(ctx: ShopTx, vendorId: string, categoryId: string | null, at: Date) {
  const rows = await query<{ id: string; percent: number | string; fixed_cents: number | string }>(
    ctx.db,
    sql`SELECT id, percent, fixed_cents FROM vendor_commission_rules
        WHERE shop_id = ${ctx.shopId} AND vendor_id = ${vendorId}
          AND effective_from <= ${at.toISOString()}::timestamptz
          AND (category_id IS NULL OR category_id = ${categoryId})
        ORDER BY (category_id IS NULL), effective_from DESC, id DESC
        LIMIT 1`,
  );
  const r = rows[0];
  return r ? ({ id: r.id, percent: Number(r.percent), fixed_cents: Number(r.fixed_cents) } satisfies Rule) : null;
}

type NewEarning = Omit<typeof partnerEarnings.$inferInsert, 'id' | 'shopId' | 'status' | 'createdAt'>;

/** Inserts the earning once per source and books its ledger entry. */
async function book(ctx: ShopTx, e: NewEarning): Promise<void> {
  const id = newId('earning');
  const inserted = await ctx.db
    .insert(partnerEarnings)
    .values({ ...e, id, shopId: ctx.shopId, status: 'pending', createdAt: e.earnedAt })
    .onConflictDoNothing({ target: [partnerEarnings.shopId, partnerEarnings.sourceKey] })
    .returning({ id: partnerEarnings.id });
  if (inserted.length === 0 || e.amountCents <= 0) return;
  await post(ctx, {
    partnerType: e.partnerType,
    partnerId: e.partnerId,
    currency: e.currency,
    kind: 'earning',
    idemKey: `earning:${id}`,
    earningId: id,
    orderId: e.orderId,
    occurredAt: e.earnedAt,
    postings: move('expense', 'pending', e.amountCents),
  });
}

/**
 * Claws back what the order's final credit notes take back from its earnings, once credit note
 * `creditNoteId` of the order is final (finance's `creditNote.finalized` hook). Idempotent.
 */
export async function reverseCreditNoteEarnings(
  ctx: ShopTx,
  orderId: string,
  creditNoteId: string,
  now: Date,
): Promise<void> {
  await clawBack(ctx, orderId, creditNoteId, now);
}

/** Claws back every earning of an order that was cancelled or refunded after payment. Idempotent. */
export async function reverseOrderEarnings(ctx: ShopTx, orderId: string, now: Date): Promise<void> {
  await clawBack(ctx, orderId, null, now);
}

/**
 * Claws back the refunded share of the order's earnings after a succeeded refund without a
 * credit note (call it once the refund is `succeeded`, in the transaction that settles it).
 * Idempotent: the target is cumulative over all such refunds of the order.
 */
export async function reverseRefundedEarnings(
  ctx: ShopTx,
  orderId: string,
  refundId: string,
  now: Date,
): Promise<void> {
  await clawBack(ctx, orderId, null, now, refundId);
}

/**
 * Gives back what a refund that had succeeded and failed at the provider since clawed back (call
 * it once the refund is `failed` and the order's state recomputed, in that transaction): the
 * target no longer counts the refund, nor the credit note written for it, so every earning
 * clawed back above it is restored by one reverse `clawback` entry (expense −R, pending or
 * available +R). Idempotent: a second call finds every earning at its target.
 */
export async function restoreFailedRefundEarnings(
  ctx: ShopTx,
  orderId: string,
  refundId: string,
  now: Date,
): Promise<void> {
  await clawBack(ctx, orderId, null, now, refundId, true);
}

/**
 * Brings every earning of the order to its cumulative clawback target: the credited share (all
 * final credit notes of the order) plus the refunded share of what was paid (succeeded refunds
 * without a credit note), at most the earning; everything when the order was cancelled/refunded.
 */
async function clawBack(
  ctx: ShopTx,
  orderId: string,
  creditNoteId: string | null,
  now: Date,
  refundId: string | null = null,
  restore = false,
) {
  const { db: tx, shopId } = ctx;
  const earnings = await tx
    .select()
    .from(partnerEarnings)
    .where(and(eq(partnerEarnings.shopId, shopId), eq(partnerEarnings.orderId, orderId)))
    .orderBy(asc(partnerEarnings.id))
    .for('update');
  if (earnings.length === 0) return;
  const { order, targets } = await clawbackTargets(ctx, orderId, earnings);
  const reversed = await reversedSoFar(
    tx,
    earnings.map((e) => e.id),
  );
  for (const e of earnings) {
    if (e.amountCents <= 0) continue;
    const target = targets.get(e.id) as number;
    const claw = target - (reversed.get(e.id) ?? 0);
    const from = e.status === 'pending' ? 'pending' : 'available';
    if (restore && claw < 0) {
      // only a failed refund lowers the target: the earning gets back what it no longer owes
      await post(ctx, {
        partnerType: e.partnerType,
        partnerId: e.partnerId,
        currency: e.currency,
        kind: 'clawback',
        idemKey: `clawback:${e.id}:refund-failed:${refundId}:${target}`,
        earningId: e.id,
        orderId,
        creditNoteId: null,
        memo: `refund ${refundId} failed`,
        occurredAt: now,
        postings: move('expense', from, -claw),
      });
      continue;
    }
    if (claw <= 0) continue;
    const cause = creditNoteId ?? (refundId ? `refund:${refundId}` : 'order');
    await post(ctx, {
      partnerType: e.partnerType,
      partnerId: e.partnerId,
      currency: e.currency,
      kind: 'clawback',
      idemKey: `clawback:${e.id}:${cause}:${target}`,
      earningId: e.id,
      orderId,
      creditNoteId,
      memo: creditNoteId ? 'credit note' : refundId ? `refund ${refundId}` : `order ${order?.status ?? 'reversed'}`,
      occurredAt: now,
      postings: move(from, 'expense', claw),
    });
  }
}

/**
 * A change not made yet, for the refund preview: the order's state after it, and either a refund
 * without a credit note (`refundedCents`) or the lines of the credit note it writes.
 */
export interface ClawbackWhatIf {
  status: string;
  refundedCents?: number;
  creditNote?: { lines: DocLine[]; invoiceTotalCents: number } | null;
}

/**
 * Each earning's cumulative clawback target: the credited share (all final credit notes of the
 * order) plus the refunded share of what was paid (succeeded refunds without a credit note), at
 * most the earning; everything when the order was cancelled/refunded. `whatIf` adds a change not
 * made yet (the refund preview); the clawback itself and the preview compute with this one function.
 */
async function clawbackTargets(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  orderId: string,
  earnings: EarningRow[],
  whatIf?: ClawbackWhatIf,
) {
  const order = await orderForEarnings(ctx, orderId);
  const status = whatIf?.status ?? order?.status;
  const reversedAll = status ? ['cancelled', 'refunded'].includes(status) : false;
  const share = reversedAll ? null : await creditedShare(ctx, orderId, whatIf?.creditNote ?? null);
  const refunded = reversedAll ? null : (await refundedWithoutCreditNote(ctx, orderId)) + (whatIf?.refundedCents ?? 0);
  const paid = Number(order?.totalCents ?? 0);
  const targets = new Map<string, number>();
  for (const e of earnings) {
    let target = e.amountCents;
    if (share) {
      const fraction = e.orderLineId ? (share.byLine.get(e.orderLineId) ?? 0) : share.order;
      // integer product first: without credit notes the target is exactly
      // round(earning × refunded ÷ paid), and refunded = paid gives the whole earning
      const byRefunds = refunded && paid > 0 ? (e.amountCents * Math.min(refunded, paid)) / paid : 0;
      target = Math.min(e.amountCents, Math.round(e.amountCents * fraction + byRefunds));
    }
    targets.set(e.id, target);
  }
  return { order, targets };
}

/**
 * What a refund not made yet would claw back from each partner of the order (the refund
 * preview): per earning, its target with the change (`clawbackTargets`) less what was clawed back
 * so far, summed per partner. Reads only.
 */
export async function previewRefundClawback(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  orderId: string,
  whatIf: ClawbackWhatIf,
): Promise<{ partner_type: PartnerType; partner_id: string; name: string; amount_cents: number }[]> {
  const earnings = await ctx.db
    .select()
    .from(partnerEarnings)
    .where(and(eq(partnerEarnings.shopId, ctx.shopId), eq(partnerEarnings.orderId, orderId)))
    .orderBy(asc(partnerEarnings.id));
  if (earnings.length === 0) return [];
  const { targets } = await clawbackTargets(ctx, orderId, earnings, whatIf);
  const reversed = await reversedSoFar(
    ctx.db,
    earnings.map((e) => e.id),
  );
  const by = new Map<string, { partner_type: PartnerType; partner_id: string; amount_cents: number }>();
  for (const e of earnings) {
    if (e.amountCents <= 0) continue;
    const claw = (targets.get(e.id) as number) - (reversed.get(e.id) ?? 0);
    if (claw <= 0) continue;
    const key = `${e.partnerType}:${e.partnerId}`;
    const p = by.get(key) ?? { partner_type: e.partnerType as PartnerType, partner_id: e.partnerId, amount_cents: 0 };
    p.amount_cents += claw;
    by.set(key, p);
  }
  if (by.size === 0) return [];
  const names = await query<{ id: string; name: string }>(
    ctx.db,
    sql`SELECT id, name FROM vendors WHERE shop_id = ${ctx.shopId}
          AND id IN (${sql.join(
            [...by.values()].map((p) => sql`${p.partner_id}`),
            sql`, `,
          )})
        UNION ALL
        SELECT id, name FROM affiliates WHERE shop_id = ${ctx.shopId}
          AND id IN (${sql.join(
            [...by.values()].map((p) => sql`${p.partner_id}`),
            sql`, `,
          )})`,
  );
  const nameOf = new Map(names.map((n) => [n.id, n.name]));
  return [...by.values()].map((p) => ({ ...p, name: nameOf.get(p.partner_id) ?? p.partner_id }));
}

/** Clawed back so far per earning (the expense side of its clawback entries). */
async function reversedSoFar(db: Db, earningIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (earningIds.length === 0) return out;
  const rows = await query<{ earning_id: string; total: number | string }>(
    db,
    sql`SELECT t.earning_id, sum(p.amount_cents)::bigint AS total
        FROM ledger_transactions t JOIN ledger_postings p ON p.transaction_id = t.id
        WHERE t.kind = 'clawback' AND p.account = 'expense'
          AND t.earning_id IN (${sql.join(
            earningIds.map((id) => sql`${id}`),
            sql`, `,
          )})
        GROUP BY t.earning_id`,
  );
  for (const r of rows) out.set(r.earning_id, Number(r.total));
  return out;
}

/**
 * The credited share of each order line and of the order's item net, from all final credit
 * notes: line credits by invoice position (invoice item n = order line n), amount credits
 * spread over every line by the share of the invoice total they credit.
 */
async function creditedShare(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  orderId: string,
  extra: { lines: DocLine[]; invoiceTotalCents: number } | null = null,
) {
  const lines = await orderLinesForEarnings(ctx, orderId);
  // the credit note of a refund that failed after it succeeded takes nothing back (the shop kept the money)
  const voided = await creditNotesOfFailedRefunds(ctx, orderId);
  const notes = (await creditNoteLinesOfOrder(ctx, orderId)).filter((n) => !voided.has(n.id));
  // the refund preview: the credit note the refund would write, as if final
  if (extra) notes.push({ id: 'preview', lines: extra.lines, invoice_total: extra.invoiceTotalCents });
  const creditedNet = new Map<number, number>();
  let amountShare = 0;
  for (const n of notes) {
    for (const l of n.lines) {
      if (l.invoice_position === null) {
        const total = Number(n.invoice_total);
        if (total > 0) amountShare += l.line_total_cents / total;
      } else if (l.kind === 'item') {
        creditedNet.set(l.invoice_position, (creditedNet.get(l.invoice_position) ?? 0) + l.net_cents);
      }
    }
  }
  const byLine = new Map<string, number>();
  let orderNet = 0;
  let orderCredited = 0;
  for (const l of lines) {
    const net = Number(l.netCents);
    const credited = (creditedNet.get(l.position) ?? 0) + net * amountShare;
    const fraction = net > 0 ? Math.min(1, credited / net) : 0;
    byLine.set(l.id, fraction);
    orderNet += net;
    orderCredited += Math.min(net, credited);
  }
  return { byLine, order: orderNet > 0 ? Math.min(1, orderCredited / orderNet) : 0 };
}

export interface ReleaseSelection {
  /** Release exactly these pending earnings (hold period ignored). */
  earningIds?: string[];
  /** Only this partner's pending earnings. */
  partnerId?: string;
  /** Without ids: release pending earnings earned before this time (now − hold days). */
  earnedBefore?: Date;
}

/**
 * Moves pending earnings (their amount net of clawbacks) to available: one `release` ledger
 * entry per earning, status `released`. Locks the earnings; returns the released rows. With
 * `earningIds`, every id must be a pending earning of this type, else 409 `not_releasable`.
 */
export async function releaseEarnings(
  ctx: TxCtx,
  partnerType: PartnerType,
  sel: ReleaseSelection,
  now: Date,
): Promise<EarningRow[]> {
  const { db: tx, shopId } = ctx;
  const conds: SQL[] = [
    eq(partnerEarnings.shopId, shopId),
    eq(partnerEarnings.partnerType, partnerType),
    eq(partnerEarnings.status, 'pending'),
  ];
  if (sel.partnerId) conds.push(eq(partnerEarnings.partnerId, sel.partnerId));
  if (sel.earningIds) {
    if (sel.earningIds.length === 0) return [];
    conds.push(inArray(partnerEarnings.id, sel.earningIds));
  } else if (sel.earnedBefore) {
    conds.push(lt(partnerEarnings.earnedAt, sel.earnedBefore));
  }
  const rows = await tx
    .select()
    .from(partnerEarnings)
    .where(and(...conds))
    .orderBy(asc(partnerEarnings.id))
    .for('update');
  if (sel.earningIds) {
    const found = new Set(rows.map((r) => r.id));
    const missing = [...new Set(sel.earningIds)].filter((id) => !found.has(id));
    if (missing.length > 0) {
      throw new AppError(
        'not_releasable',
        `Not pending earnings of this shop: ${missing.slice(0, 20).join(', ')}`,
        missing.slice(0, 20).map((id) => ({
          path: `/body/earning_ids/${sel.earningIds?.indexOf(id)}`,
          message: 'is not a pending earning',
        })),
      );
    }
  }
  if (rows.length === 0) return [];
  const reversed = await reversedSoFar(
    tx,
    rows.map((r) => r.id),
  );
  const out: EarningRow[] = [];
  for (const r of rows) {
    const amount = r.amountCents - (reversed.get(r.id) ?? 0);
    if (amount > 0) {
      await post(ctx, {
        partnerType,
        partnerId: r.partnerId,
        currency: r.currency,
        kind: 'release',
        idemKey: `release:${r.id}`,
        earningId: r.id,
        orderId: r.orderId,
        occurredAt: now,
        postings: move('pending', 'available', amount),
      });
    }
    earningStates.assert(r.status, 'released', undefined, r.id);
    const updated = one(
      await tx
        .update(partnerEarnings)
        .set({ status: 'released', releasedAt: now })
        .where(eq(partnerEarnings.id, r.id))
        .returning(),
    );
    out.push(updated);
  }
  return out;
}

/** The earning list filters of both portals and admin lists, for one partner or all. */
export type EarningFilters = Paged<Static<typeof PortalEarningQuery> & { partner_id?: string }>;

export interface EarningView extends EarningRow {
  /** Clawed back so far (from the ledger). */
  reversedCents: number;
}

/** Lists earnings newest first, with what was clawed back, exact count. */
export async function listEarnings(
  ctx: Ctx,
  partnerType: PartnerType,
  f: EarningFilters,
): Promise<{ rows: EarningView[]; count: number }> {
  const { db } = ctx;
  const conds: SQL[] = [eq(partnerEarnings.shopId, ctx.shopId), eq(partnerEarnings.partnerType, partnerType)];
  if (f.partner_id) conds.push(eq(partnerEarnings.partnerId, f.partner_id));
  if (f.status) conds.push(eq(partnerEarnings.status, f.status));
  if (f.order_id) conds.push(eq(partnerEarnings.orderId, f.order_id));
  if (f.currency) conds.push(eq(partnerEarnings.currency, f.currency));
  if (f.from) conds.push(sql`${partnerEarnings.earnedAt} >= ${f.from}::timestamptz`);
  if (f.to) conds.push(sql`${partnerEarnings.earnedAt} < ${f.to}::timestamptz`);
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(partnerEarnings)
      .where(where)
      .orderBy(desc(partnerEarnings.earnedAt), desc(partnerEarnings.id))
      .limit(f.limit)
      .offset(f.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(partnerEarnings).where(where),
  ]);
  const reversed = await reversedSoFar(
    db,
    rows.map((r) => r.id),
  );
  return {
    rows: rows.map((r) => ({ ...r, reversedCents: reversed.get(r.id) ?? 0 })),
    count: Number(total[0]?.n ?? 0),
  };
}

/** API shape of an earning (vendor_id or affiliate_id by type). */
export function earningOut<K extends PartnerType>(kind: K, e: EarningView) {
  return {
    id: e.id,
    ...partnerIdOut(kind, e.partnerId),
    order_id: e.orderId,
    order_line_id: e.orderLineId,
    subscription_id: e.subscriptionId,
    subscription_payment_number: e.subscriptionPaymentNumber,
    currency: e.currency,
    gross_cents: e.grossCents,
    net_cents: e.netCents,
    commission_cents: e.commissionCents,
    amount_cents: e.amountCents,
    reversed_cents: e.reversedCents,
    rate_percent: e.ratePercent,
    status: e.status,
    earned_at: iso(e.earnedAt),
    released_at: isoOrNull(e.releasedAt),
  };
}
