/** Orders: created by checkout completion (and subscription renewals), read and moved by admins. */

import type { Static } from '@sinclair/typebox';
import { and, asc, desc, eq, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import { channelScope } from '../../platform/auth/channel-scope.js';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import type { Db } from '../../platform/db/client.js';
import { lockOwned } from '../../platform/db/lock.js';
import { likeAnywhere, one, query, type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError, notFound } from '../../platform/errors.js';
import { runHook } from '../../platform/hooks.js';
import type { Paged } from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import { refsTrackingStock, releaseStock } from '../catalog/index.js';
import { exemptionText, pricingTaxOut, type TaxCategory, type VatIdStatus } from '../tax/index.js';
import { type OrderStatus, orderStates } from './order-states.js';
import type { OrderListQuery } from './orders.schemas.js';
import { type Address, orderLines, orders, type PricedLine } from './orders.tables.js';

export type OrderRow = typeof orders.$inferSelect;
export type OrderLineRow = typeof orderLines.$inferSelect;

/** Next value of a counter of `ctx.shopId`, taken in the caller's transaction (gapless when it commits). */
export async function nextCounter(ctx: Pick<TxCtx, 'db' | 'shopId'>, name: string, start = 1): Promise<number> {
  const rows = await query<{ value: number }>(
    ctx.db,
    sql`INSERT INTO shop_counters (shop_id, name, value) VALUES (${ctx.shopId}, ${name}, ${start})
        ON CONFLICT (shop_id, name) DO UPDATE SET value = shop_counters.value + 1
        RETURNING value`,
  );
  return Number(rows[0]?.value);
}

/** The value `nextCounter` would take now (nothing is reserved; a caller in between takes it first). */
export async function peekCounter(ctx: { db: Db; shopId: string }, name: string, start = 1): Promise<number> {
  const rows = await query<{ value: number }>(
    ctx.db,
    sql`SELECT value FROM shop_counters WHERE shop_id = ${ctx.shopId} AND name = ${name}`,
  );
  return rows[0] ? Number(rows[0].value) + 1 : start;
}

export interface NewOrder {
  channelId: string;
  checkoutSessionId: string | null;
  customerId: string | null;
  customerEmail: string;
  billingAddress: Address | null;
  shippingAddress: Address | null;
  shippingMethodId: string | null;
  status: OrderStatus;
  autoConfirm: boolean;
  currency: string;
  lines: PricedLine[];
  subtotalCents: number;
  shippingCents: number;
  shippingTaxCents: number;
  /** The shipping's rate and VAT category; the buyer's VAT ID check (docs/finance.md). */
  shippingTaxRate?: number | null;
  shippingTaxCategory?: string | null;
  vatIdStatus?: VatIdStatus | null;
  vatIdCheckedAt?: Date | null;
  taxCents: number;
  totalCents: number;
  requiresShipping: boolean;
  widerrufVerzicht: boolean;
  widerrufVerzichtAt: Date | null;
  affiliateCode: string | null;
  subscriptionId?: string | null;
  subscriptionPaymentNumber?: number | null;
  /** A subscription payment's billed period (start inclusive, end exclusive). */
  servicePeriod?: { start: Date; end: Date } | null;
  isTest: boolean;
  paymentProvider: string | null;
  paymentRef: string | null;
  expiresAt?: Date | null;
  now: Date;
}

/** Writes an order of `ctx.shopId` with its lines and a new number, inside the completing transaction. */
export async function createOrder(ctx: TxCtx, o: NewOrder): Promise<OrderRow> {
  const { db: tx, shopId } = ctx;
  const number = await nextCounter(ctx, 'order_number', 1001);
  const id = newId('order');
  const row = one(
    await tx
      .insert(orders)
      .values({
        id,
        shopId,
        number: String(number),
        channelId: o.channelId,
        checkoutSessionId: o.checkoutSessionId,
        customerId: o.customerId,
        customerEmail: o.customerEmail,
        billingAddress: o.billingAddress,
        shippingAddress: o.shippingAddress,
        shippingMethodId: o.shippingMethodId,
        status: o.status,
        confirmedAt: o.autoConfirm ? o.now : null,
        currency: o.currency,
        subtotalCents: o.subtotalCents,
        shippingCents: o.shippingCents,
        shippingTaxCents: o.shippingTaxCents,
        shippingTaxRate: o.shippingTaxRate ?? null,
        shippingTaxCategory: o.shippingTaxCategory ?? null,
        vatIdStatus: o.vatIdStatus ?? null,
        vatIdCheckedAt: o.vatIdCheckedAt ?? null,
        taxCents: o.taxCents,
        totalCents: o.totalCents,
        requiresShipping: o.requiresShipping,
        widerrufVerzicht: o.widerrufVerzicht,
        widerrufVerzichtAt: o.widerrufVerzichtAt,
        affiliateCode: o.affiliateCode,
        subscriptionId: o.subscriptionId ?? null,
        subscriptionPaymentNumber: o.subscriptionPaymentNumber ?? null,
        servicePeriodStart: o.servicePeriod?.start ?? null,
        servicePeriodEnd: o.servicePeriod?.end ?? null,
        isTest: o.isTest,
        paymentProvider: o.paymentProvider,
        paymentRef: o.paymentRef,
        paidAt: o.status === 'paid' ? o.now : null,
        expiresAt: o.expiresAt ?? null,
        createdAt: o.now,
        updatedAt: o.now,
      })
      .returning(),
  );
  if (o.lines.length > 0) {
    await tx.insert(orderLines).values(
      o.lines.map((l, i) => ({
        id: `${id}_l${i + 1}`,
        shopId,
        orderId: id,
        position: i + 1,
        productId: l.product_id,
        variantId: l.variant_id,
        name: l.name,
        sku: l.sku,
        quantity: l.quantity,
        unitPriceCents: l.unit_price_cents,
        lineTotalCents: l.line_total_cents,
        taxRate: l.tax_rate,
        taxCents: l.tax_cents,
        netCents: l.net_cents,
        taxCategory: l.tax_category ?? 'S',
        taxClass: l.tax_class,
        isDigital: l.is_digital,
        vendorId: l.vendor_id,
      })),
    );
  }
  // a paid order earns its vendors and affiliate in the same transaction
  if (o.status === 'paid') await runHook(ctx, 'order.paid', { shopId, orderId: id, now: o.now });
  return row;
}

/** A stored line's item, prices and tax, as `lineItemFields` (orders.schemas.ts) names them. */
export const lineItemOut = (
  l: Pick<
    OrderLineRow,
    | 'productId'
    | 'variantId'
    | 'name'
    | 'sku'
    | 'quantity'
    | 'unitPriceCents'
    | 'lineTotalCents'
    | 'taxRate'
    | 'taxCents'
    | 'netCents'
  >,
) => ({
  product_id: l.productId,
  variant_id: l.variantId,
  name: l.name,
  sku: l.sku,
  quantity: l.quantity,
  unit_price_cents: l.unitPriceCents,
  line_total_cents: l.lineTotalCents,
  tax_rate: l.taxRate,
  tax_cents: l.taxCents,
  net_cents: l.netCents,
});

export const lineOut = (l: OrderLineRow) => ({
  id: l.id,
  ...lineItemOut(l),
  tax_category: l.taxCategory as TaxCategory,
  tax_exemption_reason: exemptionText(l.taxCategory as TaxCategory),
  tax_class: l.taxClass,
  is_digital: l.isDigital,
});

export function orderOut(o: OrderRow) {
  return {
    id: o.id,
    number: o.number,
    status: o.status,
    channel_id: o.channelId,
    checkout_session_id: o.checkoutSessionId,
    customer_id: o.customerId,
    customer_email: o.customerEmail,
    billing_address: o.billingAddress ?? null,
    shipping_address: o.shippingAddress ?? null,
    shipping_method_id: o.shippingMethodId,
    currency: o.currency,
    subtotal_cents: o.subtotalCents,
    shipping_cents: o.shippingCents,
    ...pricingTaxOut(o),
    tax_cents: o.taxCents,
    total_cents: o.totalCents,
    requires_shipping: o.requiresShipping,
    widerruf_verzicht: o.widerrufVerzicht,
    widerruf_verzicht_at: isoOrNull(o.widerrufVerzichtAt),
    affiliate_code: o.affiliateCode,
    subscription_id: o.subscriptionId,
    service_period_start: isoOrNull(o.servicePeriodStart),
    service_period_end: isoOrNull(o.servicePeriodEnd),
    is_test: o.isTest,
    payment_provider: o.paymentProvider,
    confirmed_at: isoOrNull(o.confirmedAt),
    paid_at: isoOrNull(o.paidAt),
    expires_at: isoOrNull(o.expiresAt),
    created_at: iso(o.createdAt),
    updated_at: iso(o.updatedAt),
  };
}

/** An order with its lines and what they entitle (the order detail). */
export function orderDetailOut(o: OrderRow, lines: OrderLineRow[]) {
  return {
    ...orderOut(o),
    lines: lines.map(lineOut),
    // the service stores no file and enforces no access (docs/ARCHITECTURE.md): the order only says what it entitles
    entitlements: lines
      .filter((l) => l.isDigital)
      .map((l) => ({ product_id: l.productId, variant_id: l.variantId, quantity: l.quantity })),
  };
}

/** The admin list's query, and what the customer's own list adds: the customer. */
export type OrderFilters = Paged<Static<typeof OrderListQuery>> & {
  customer_id?: string;
};

/**
 * What the admin list's `q` searches besides the number: the customer e-mail and the billing name,
 * lowered, as one text. The trigram index `orders_shop_search_idx` (shop_id first, btree_gin) is
 * on exactly this expression: a change here needs a migration of that index.
 */
export const orderSearchText = sql`lower(${orders.customerEmail} || ' ' || coalesce(${orders.billingAddress}->>'name', ''))`;

const ORDER_SORT_SQL: Record<NonNullable<OrderFilters['sort']>, SQL[]> = {
  '-created_at': [desc(orders.createdAt), desc(orders.id)],
  created_at: [asc(orders.createdAt), asc(orders.id)],
  '-total_cents': [desc(orders.totalCents), desc(orders.id)],
  total_cents: [asc(orders.totalCents), asc(orders.id)],
  // numbers are decimal counters: shorter is smaller (orders_shop_number_idx)
  '-number': [sql`length(${orders.number}) DESC`, desc(orders.number)],
  number: [sql`length(${orders.number})`, asc(orders.number)],
};

/** A list bound: a date is midnight UTC of that day. */
const boundOf = (v: string) => (/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);

/**
 * Lists orders (newest first unless `sort` says otherwise) with exact count; a channel-restricted
 * employee sees only orders of their channels (channelScope, inside the query).
 */
export async function listOrders(ctx: Pick<Ctx, 'db' | 'shopId' | 'actor'>, f: OrderFilters) {
  if (f.created_from && f.created_to && Date.parse(boundOf(f.created_from)) > Date.parse(boundOf(f.created_to))) {
    throw new AppError('validation_failed', 'created_to must not be before created_from', [
      { path: '/query/created_to', message: 'must not be before created_from' },
    ]);
  }
  const conds: SQL[] = [eq(orders.shopId, ctx.shopId), channelScope(ctx, orders.channelId)];
  if (f.status) conds.push(eq(orders.status, f.status));
  if (f.channel_id) conds.push(eq(orders.channelId, f.channel_id));
  if (f.customer_id) conds.push(eq(orders.customerId, f.customer_id));
  if (f.email) conds.push(sql`lower(${orders.customerEmail}) = lower(${f.email})`);
  if (f.created_from) conds.push(sql`${orders.createdAt} >= ${boundOf(f.created_from)}::timestamptz`);
  if (f.created_to) conds.push(sql`${orders.createdAt} < ${boundOf(f.created_to)}::timestamptz`);
  if (f.paid !== undefined) conds.push(f.paid ? isNotNull(orders.paidAt) : isNull(orders.paidAt));
  if (f.q) {
    const q = f.q.trim();
    const number = q.replace(/^#/, '');
    const like = likeAnywhere(q);
    conds.push(sql`(${orders.number} = ${number} OR ${orderSearchText} LIKE lower(${like}))`);
  }
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(orders)
      .where(where)
      .orderBy(...ORDER_SORT_SQL[f.sort ?? '-created_at'])
      .limit(f.limit)
      .offset(f.offset),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(where),
  ]);
  return { rows, count: Number(total[0]?.n ?? 0) };
}

export async function getOrder(ctx: Pick<Ctx, 'db' | 'shopId'>, id: string) {
  const [row] = await ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.shopId, ctx.shopId)));
  if (!row) throw notFound('Order');
  const lines = await ctx.db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.shopId, ctx.shopId), eq(orderLines.orderId, id)))
    .orderBy(asc(orderLines.position));
  return { order: row, lines };
}

/** Moves an order along its state machine; cancelling an unpaid order gives its stock back. */
export async function transitionOrder(ctx: Ctx, id: string, to: OrderStatus) {
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const row = await lockOwned(tx, orders, ctx.shopId, id, 'Order');
    orderStates.assert(row.status, to);
    const now = ctx.clock.now();
    if (to === 'cancelled' && row.status === 'pending_payment') await releaseOrderStock(t, row);
    const updated = one(
      await tx
        .update(orders)
        .set({
          status: to,
          updatedAt: now,
          ...(to === 'paid' ? { paidAt: now, expiresAt: null } : {}),
          ...(to === 'fulfilled' ? { fulfilledAt: now } : {}),
          ...(to === 'cancelled' ? { cancelledAt: now } : {}),
        })
        .where(and(eq(orders.shopId, ctx.shopId), eq(orders.id, id)))
        .returning(),
    );
    if (to === 'paid') await runHook(t, 'order.paid', { shopId: ctx.shopId, orderId: id, now });
    if ((to === 'cancelled' || to === 'refunded') && row.status !== 'pending_payment') {
      await runHook(t, 'order.reversed', { shopId: ctx.shopId, orderId: id, now });
    }
    // never paid: a final invoice of it is credited in full (finance); a paid order keeps its
    // invoice while the money is held, and its refund's credit note corrects it
    if (to === 'cancelled' && row.paidAt === null) {
      await runHook(t, 'order.cancelledUnpaid', { shopId: ctx.shopId, orderId: id, now });
    }
    return updated;
  });
}

/** Gives the stock of an unpaid order of `ctx.shopId` back, in the caller's transaction. */
async function releaseOrderStock(ctx: TxCtx, order: OrderRow) {
  const tx = ctx.db;
  const lines = await tx.select().from(orderLines).where(eq(orderLines.orderId, order.id));
  const tracked = await refsTrackingStock(
    ctx,
    lines.map((l) => ({ product_id: l.productId, variant_id: l.variantId })),
  );
  for (const [i, l] of lines.entries()) {
    if (tracked[i]) await releaseStock(ctx, { product_id: l.productId, variant_id: l.variantId, quantity: l.quantity });
  }
}

/** Cancels an unpaid order of `ctx.shopId` whose payment time ran out (job). Idempotent. */
export async function expirePendingOrder(ctx: Ctx, orderId: string): Promise<boolean> {
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const [row] = await tx
      .select()
      .from(orders)
      .where(and(eq(orders.id, orderId), eq(orders.shopId, ctx.shopId)))
      .for('update');
    if (!row || row.status !== 'pending_payment' || !row.expiresAt || row.expiresAt > now) return false;
    orderStates.assert(row.status, 'cancelled');
    await releaseOrderStock(t, row);
    await tx
      .update(orders)
      .set({ status: 'cancelled', cancelledAt: now, updatedAt: now })
      .where(and(eq(orders.shopId, ctx.shopId), eq(orders.id, orderId)));
    await runHook(t, 'order.cancelledUnpaid', { shopId: ctx.shopId, orderId, now });
    return true;
  });
}
