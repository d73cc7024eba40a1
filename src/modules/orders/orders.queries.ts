/**
 * What other modules read (or claim) of the orders' tables, as functions of their own
 * (docs/ARCHITECTURE.md, "Cross-module table reads").
 */
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { channelScope, isChannelRestricted } from '../../platform/auth/channel-scope.js';
import type { Ctx } from '../../platform/auth/types.js';
import type { TxCtx } from '../../platform/db/tx.js';
import { query } from '../../platform/db/tx.js';
import { orderLines, orders, refunds } from './orders.tables.js';

type ShopCtx = Pick<Ctx, 'db' | 'shopId'>;

/**
 * Whether the caller may reach the order under its channel restriction (channelScope): an order
 * of another channel, or none, is false. The authorization hook's check of `/api/admin/orders/:id…`.
 */
export async function orderInScope(ctx: Pick<Ctx, 'db' | 'shopId' | 'actor'>, orderId: string): Promise<boolean> {
  const rows = await query(
    ctx.db,
    sql`SELECT 1 FROM orders WHERE shop_id = ${ctx.shopId} AND id = ${orderId}
        AND ${channelScope(ctx, orders.channelId)} LIMIT 1`,
  );
  return rows.length > 0;
}

/**
 * The channel restriction of a record that belongs to an order (invoices, credit notes, refunds,
 * payment events, sync states: `orderId` its order-id column), as one condition for the reader's
 * own statement: TRUE when the caller is not restricted, else the order's channel (a scalar
 * subquery by primary key) is one of theirs. A record of no order is outside every restriction.
 */
export function orderChannelScope(ctx: Pick<Ctx, 'shopId' | 'actor'>, orderId: SQLWrapper): SQL {
  if (!isChannelRestricted(ctx)) return sql`true`;
  return channelScope(ctx, orderChannelSql(ctx.shopId, orderId));
}

/** The channel of the order `orderId` (a column of the caller's row) as a scalar subquery; NULL when there is none. */
export const orderChannelSql = (shopId: string, orderId: SQLWrapper): SQL =>
  sql`(SELECT o.channel_id FROM orders o WHERE o.id = ${orderId} AND o.shop_id = ${shopId})`;

/**
 * The ids of the shop's orders in the caller's channels, as an uncorrelated subquery for
 * `x IN (…)` (a channel-scoped read of another table; on Citus runnable on its own, where a
 * correlated subquery from a coordinator-local table is refused).
 */
export const ordersInScopeSql = (ctx: Pick<Ctx, 'shopId' | 'actor'>): SQL =>
  sql`(SELECT o.id FROM orders o WHERE o.shop_id = ${ctx.shopId} AND ${channelScope(ctx, sql`o.channel_id`)})`;

/** What partners' earnings need of an order, or null. */
export async function orderForEarnings(ctx: ShopCtx, orderId: string) {
  const [row] = await ctx.db
    .select({
      id: orders.id,
      currency: orders.currency,
      status: orders.status,
      paidAt: orders.paidAt,
      totalCents: orders.totalCents,
      affiliateCode: orders.affiliateCode,
      subscriptionId: orders.subscriptionId,
      subscriptionPaymentNumber: orders.subscriptionPaymentNumber,
    })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.shopId, ctx.shopId)));
  return row ?? null;
}

/** What partners' earnings need of an order's lines, by position. */
export function orderLinesForEarnings(ctx: ShopCtx, orderId: string) {
  return ctx.db
    .select({
      id: orderLines.id,
      position: orderLines.position,
      productId: orderLines.productId,
      vendorId: orderLines.vendorId,
      lineTotalCents: orderLines.lineTotalCents,
      netCents: orderLines.netCents,
    })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), eq(orderLines.shopId, ctx.shopId)))
    .orderBy(orderLines.position);
}

/** Number and dates of the given orders of the shop (unknown ids are left out). */
export async function orderNumbers(ctx: ShopCtx, orderIds: string[]) {
  const ids = [...new Set(orderIds)];
  if (ids.length === 0) return [];
  return ctx.db
    .select({ id: orders.id, number: orders.number, paidAt: orders.paidAt, createdAt: orders.createdAt })
    .from(orders)
    .where(and(eq(orders.shopId, ctx.shopId), inArray(orders.id, ids)));
}

/**
 * The order number of `orderId` in `shopId` as a scalar subquery (null when there is none), for
 * report queries that show it beside their own rows. Pass qualified references, e.g. sql`t.order_id`.
 */
export const orderNumberSql = (orderId: SQL, shopId: SQL): SQL<string | null> =>
  sql<string | null>`(SELECT o.number FROM orders o WHERE o.id = ${orderId} AND o.shop_id = ${shopId})`;

// ---- a vendor's orders (the vendor portal) ----

const vendorOrderColumns = {
  id: orders.id,
  number: orders.number,
  status: orders.status,
  createdAt: orders.createdAt,
  paidAt: orders.paidAt,
  currency: orders.currency,
  requiresShipping: orders.requiresShipping,
  shippingAddress: orders.shippingAddress,
};

/** Orders the vendor sold in: paid (at some point) and holding at least one of its lines. */
const soldBy = (shopId: string, vendorId: string) =>
  and(
    eq(orders.shopId, shopId),
    isNotNull(orders.paidAt),
    inArray(
      orders.id,
      sql`(SELECT ${orderLines.orderId} FROM ${orderLines} WHERE ${orderLines.shopId} = ${shopId} AND ${orderLines.vendorId} = ${vendorId})`,
    ),
  );

type VendorOrderRow = {
  [K in keyof typeof vendorOrderColumns]: (typeof orders.$inferSelect)[K];
};

/** The orders with only the vendor's lines (never another vendor's), in the given order. */
async function withVendorLines(ctx: ShopCtx, vendorId: string, rows: VendorOrderRow[]) {
  if (rows.length === 0) return [];
  const lines = await ctx.db
    .select()
    .from(orderLines)
    .where(
      and(
        eq(orderLines.shopId, ctx.shopId),
        eq(orderLines.vendorId, vendorId),
        inArray(
          orderLines.orderId,
          rows.map((r) => r.id),
        ),
      ),
    )
    .orderBy(orderLines.orderId, orderLines.position);
  const byOrder = new Map<string, (typeof lines)[number][]>();
  for (const l of lines) byOrder.set(l.orderId, [...(byOrder.get(l.orderId) ?? []), l]);
  return rows.map((o) => ({ ...o, lines: byOrder.get(o.id) ?? [] }));
}

/** A page of the orders the vendor sold in, newest first, each with the vendor's lines alone; exact count. */
export async function ordersSoldBy(ctx: ShopCtx, vendorId: string, limit: number, offset: number) {
  const where = soldBy(ctx.shopId, vendorId);
  const [rows, total] = await Promise.all([
    ctx.db
      .select(vendorOrderColumns)
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(limit)
      .offset(offset),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(where),
  ]);
  return { orders: await withVendorLines(ctx, vendorId, rows), count: Number(total[0]?.n ?? 0) };
}

/** One order the vendor sold in, with the vendor's lines alone; null when it sold nothing in it. */
export async function orderSoldBy(ctx: ShopCtx, vendorId: string, orderId: string) {
  const rows = await ctx.db
    .select(vendorOrderColumns)
    .from(orders)
    .where(and(eq(orders.id, orderId), soldBy(ctx.shopId, vendorId)));
  const [order] = await withVendorLines(ctx, vendorId, rows);
  return order ?? null;
}

/**
 * Gives a verified customer account its e-mail's guest orders (identity's `customer.verified`
 * hook, in the verifying transaction).
 */
export async function claimGuestOrders(ctx: TxCtx, e: { shopId: string; customerId: string; email: string }) {
  await ctx.db.execute(
    sql`UPDATE orders SET customer_id = ${e.customerId}
        WHERE shop_id = ${e.shopId} AND customer_id IS NULL AND lower(customer_email) = lower(${e.email})`,
  );
}

// ---- a subscription's orders (digital) ----

/** The orders of the subscription, first payment first. */
export function subscriptionOrders(ctx: ShopCtx, subscriptionId: string) {
  return ctx.db
    .select()
    .from(orders)
    .where(and(eq(orders.shopId, ctx.shopId), eq(orders.subscriptionId, subscriptionId)))
    .orderBy(asc(orders.createdAt), asc(orders.id));
}

/** Whether an order of the subscription records the payment `paymentRef` (a provider invoice). */
export async function subscriptionPaymentRecorded(
  ctx: ShopCtx,
  subscriptionId: string,
  paymentRef: string,
): Promise<boolean> {
  const rows = await query(
    ctx.db,
    sql`SELECT 1 FROM orders WHERE shop_id = ${ctx.shopId} AND subscription_id = ${subscriptionId} AND payment_ref = ${paymentRef}`,
  );
  return rows.length > 0;
}

// ---- finance ----

/**
 * The order's status with the order row locked (FOR UPDATE) until the caller's transaction ends,
 * or null: finalizing an invoice holds it so a refund cannot settle in between (refunds lock the
 * order first too).
 */
export async function lockOrderStatus(ctx: TxCtx, orderId: string): Promise<string | null> {
  const [row] = await query<{ status: string }>(
    ctx.db,
    sql`SELECT status FROM orders WHERE shop_id = ${ctx.shopId} AND id = ${orderId} FOR UPDATE`,
  );
  return row?.status ?? null;
}

/**
 * The order's succeeded refunds, oldest first (finance credits those that settled before the
 * order's invoice was final when it finalizes it; call it with the order locked).
 */
export function succeededRefunds(ctx: ShopCtx, orderId: string) {
  return ctx.db
    .select({
      id: refunds.id,
      amountCents: refunds.amountCents,
      reason: refunds.reason,
      creditNoteId: refunds.creditNoteId,
    })
    .from(refunds)
    .where(and(eq(refunds.shopId, ctx.shopId), eq(refunds.orderId, orderId), eq(refunds.status, 'succeeded')))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
}

/**
 * Records the credit note that credits a refund settled without one (the order had no final
 * invoice then): from now on the credit note, not the refund, claws back its share of the
 * partner earnings (`refundedWithoutCreditNote` no longer counts it). Only a refund without a
 * credit note is changed.
 */
export async function setRefundCreditNote(
  ctx: TxCtx,
  refundId: string,
  creditNoteId: string,
  now: Date,
): Promise<void> {
  await ctx.db
    .update(refunds)
    .set({ creditNoteId, updatedAt: now })
    .where(and(eq(refunds.shopId, ctx.shopId), eq(refunds.id, refundId), isNull(refunds.creditNoteId)));
}

// ---- customers (the admin's customer list, detail and export) ----

/** `channel_id IN (…)` of a channel-restricted employee (null: every channel; [] allows none). */
function channelCondition(column: SQL, restricted: string[] | null): SQL {
  if (restricted === null) return sql`true`;
  if (restricted.length === 0) return sql`false`;
  return sql`${column} IN (${sql.join(
    restricted.map((c) => sql`${c}`),
    sql`, `,
  )})`;
}

/**
 * The buyers of the shop's orders in the channels `restricted` allows, one row per e-mail (case
 * aside), as a derived table: email_key (lower case), email and name (of the newest order),
 * order_count, first_order_at, last_order_at. Accounts and guests alike: a signed-in or claimed
 * order carries its account's e-mail.
 */
export const orderBuyersSql = (shopId: string, restricted: string[] | null): SQL =>
  sql`(SELECT lower(o.customer_email) AS email_key,
              (array_agg(o.customer_email ORDER BY o.created_at DESC, o.id DESC))[1] AS email,
              (array_agg(o.billing_address->>'name' ORDER BY o.created_at DESC, o.id DESC))[1] AS name,
              count(*)::int AS order_count, min(o.created_at) AS first_order_at, max(o.created_at) AS last_order_at
       FROM orders o
       WHERE o.shop_id = ${shopId} AND ${channelCondition(sql`o.channel_id`, restricted)}
       GROUP BY lower(o.customer_email))`;

/** Whose orders: an account's (placed, claimed, or guest orders of its e-mail) or a guest e-mail's. */
export interface BuyerRef {
  customerId: string | null;
  email: string;
  restricted: string[] | null;
}

const buyerCondition = (b: BuyerRef): SQL =>
  and(
    b.customerId
      ? or(eq(orders.customerId, b.customerId), sql`lower(${orders.customerEmail}) = lower(${b.email})`)
      : sql`lower(${orders.customerEmail}) = lower(${b.email})`,
    channelCondition(sql`${orders.channelId}`, b.restricted),
  ) as SQL;

/** The ids of a buyer's orders as a subquery (`order_id IN ${…}`), for finance's documents of them. */
export const buyerOrderIdsSql = (shopId: string, b: BuyerRef): SQL =>
  sql`(SELECT ${orders.id} FROM ${orders} WHERE ${orders.shopId} = ${shopId} AND ${buyerCondition(b)})`;

/**
 * The ids of the orders of a customer account as a subquery (`order_id IN ${…}`): the orders
 * `GET /api/customer/orders` lists (placed signed in, or guest orders claimed at verification),
 * never unclaimed guest orders of the same e-mail. For finance's customer documents.
 */
export const customerOrderIdsSql = (shopId: string, customerId: string): SQL =>
  sql`(SELECT ${orders.id} FROM ${orders} WHERE ${orders.shopId} = ${shopId} AND ${orders.customerId} = ${customerId})`;

/** A page of a buyer's orders, newest first, and how many there are. */
export async function buyerOrders(ctx: ShopCtx, b: BuyerRef, page: { limit: number; offset: number }) {
  const where = and(eq(orders.shopId, ctx.shopId), buyerCondition(b));
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(orders)
      .where(where)
      .orderBy(desc(orders.createdAt), desc(orders.id))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(orders).where(where),
  ]);
  return { rows, count: Number(total[0]?.n ?? 0) };
}

/** Every line of the given orders of the shop, by order and position (a customer's data export). */
export function linesOfOrders(ctx: ShopCtx, orderIds: string[]) {
  if (orderIds.length === 0) return Promise.resolve([]);
  return ctx.db
    .select()
    .from(orderLines)
    .where(and(eq(orderLines.shopId, ctx.shopId), inArray(orderLines.orderId, orderIds)))
    .orderBy(asc(orderLines.orderId), asc(orderLines.position));
}

/**
 * The ids of the shop's orders in the channels `restricted` allows, as a subquery
 * (`order_id IN ${…}`), for another module's list a channel-restricted employee reads.
 */
export const orderIdsInChannelsSql = (shopId: string, restricted: string[]): SQL =>
  sql`(SELECT o.id FROM orders o WHERE o.shop_id = ${shopId} AND ${channelCondition(sql`o.channel_id`, restricted)})`;
