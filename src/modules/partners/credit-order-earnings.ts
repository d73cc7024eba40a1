/** Earnings of a paid order: every vendor line and the attributed affiliate (earnings.ts). */

import { and, eq, inArray, sql } from 'drizzle-orm';
import { query } from '../../platform/db/tx.js';
import { newId } from '../../platform/ids.js';
import { percentOf } from '../../platform/money.js';
import { productCategories } from '../catalog/index.js';
import { orderForEarnings, orderLinesForEarnings } from '../orders/index.js';
import { shopAboProvision } from '../shops/index.js';
import { move, post, type ShopTx } from './ledger.js';
import { partnerEarnings, vendors } from './partners.tables.js';

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
