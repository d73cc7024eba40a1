/** Clawbacks of earnings: credit notes, refunds, cancellations, and the refund preview (earnings.ts). */

import { and, asc, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import type { Db } from '../../platform/db/client.js';
import { query } from '../../platform/db/tx.js';
import { creditNoteLinesOfOrder, type DocLine } from '../finance/index.js';
import {
  creditNotesOfFailedRefunds,
  orderForEarnings,
  orderLinesForEarnings,
  refundedWithoutCreditNote,
} from '../orders/index.js';
import { move, post, type ShopTx } from './ledger.js';
import { type EarningRow, type PartnerType, partnerEarnings } from './partners.tables.js';

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
    ctx,
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
    ctx,
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
export async function reversedSoFar(
  ctx: { db: Db; shopId: string },
  earningIds: string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (earningIds.length === 0) return out;
  const rows = await query<{ earning_id: string; total: number | string }>(
    ctx.db,
    sql`SELECT t.earning_id, sum(p.amount_cents)::bigint AS total
        FROM ledger_transactions t JOIN ledger_postings p ON p.shop_id = t.shop_id AND p.transaction_id = t.id
        WHERE t.shop_id = ${ctx.shopId} AND t.kind = 'clawback' AND p.account = 'expense'
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
