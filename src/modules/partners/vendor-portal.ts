/**
 * The vendor portal (vendor session): the vendor's own data only. Orders are shown with the
 * vendor's lines alone — never another vendor's lines, never the whole order's totals — and
 * an order without a line of the vendor does not exist for it (404).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { query } from '../../platform/db/tx.js';
import { AppError, notFound } from '../../platform/errors.js';
import { pageOf } from '../../platform/http/schemas.js';
import { countVendorProducts, vendorProducts } from '../catalog/index.js';
import { lineItemOut, orderSoldBy, ordersSoldBy } from '../orders/index.js';
import { ledgerOf } from './ledger.js';
import { vendors } from './partners.tables.js';
import { monthOf } from './vendor-analytics.js';
import { balancesByVendor, parseRange, type VendorRow, vendorOut } from './vendors.service.js';

/** The signed-in vendor; one that is not `active` (suspended meanwhile) is 403 vendor_inactive. */
export async function portalVendor(ctx: Ctx): Promise<VendorRow> {
  const actor = ctx.actor;
  if (actor?.kind !== 'vendor') throw new AppError('credential_denied', 'A vendor session is required');
  const [vendor] = await ctx.db
    .select()
    .from(vendors)
    .where(and(eq(vendors.id, actor.vendorId), eq(vendors.shopId, ctx.shopId)));
  if (vendor?.status !== 'active') throw new AppError('vendor_inactive', 'This vendor account is not active');
  return vendor;
}

export async function me(ctx: Ctx) {
  const v = await portalVendor(ctx);
  const bal = await balancesByVendor(ctx, [v.id]);
  return { ...vendorOut(v), balances: bal.get(v.id) ?? [] };
}

// ---- orders ----

type VendorOrder = NonNullable<Awaited<ReturnType<typeof orderSoldBy>>>;

/** An order as the vendor sees it: its own lines and their total only. */
function vendorOrderOut(o: VendorOrder) {
  return {
    id: o.id,
    number: o.number,
    status: o.status,
    created_at: iso(o.createdAt),
    paid_at: isoOrNull(o.paidAt),
    currency: o.currency,
    requires_shipping: o.requiresShipping,
    shipping_address: o.shippingAddress ?? null,
    lines: o.lines.map((l) => ({
      id: l.id,
      position: l.position,
      ...lineItemOut(l),
      is_digital: l.isDigital,
    })),
    vendor_total_cents: o.lines.reduce((s, l) => s + l.lineTotalCents, 0),
  };
}

/** A page of the orders with a line of the vendor, each with only those lines (portal and admin). */
export async function orderPage(ctx: Ctx, vendorId: string, limit: number, offset: number) {
  const page = await ordersSoldBy(ctx, vendorId, limit, offset);
  return { orders: page.orders.map(vendorOrderOut), count: page.count };
}

export async function listOrders(ctx: Ctx, limit: number, offset: number) {
  const v = await portalVendor(ctx);
  return orderPage(ctx, v.id, limit, offset);
}

export async function getOrder(ctx: Ctx, id: string) {
  const v = await portalVendor(ctx);
  const order = await orderSoldBy(ctx, v.id, id);
  if (!order) throw notFound('Order');
  return vendorOrderOut(order);
}

// ---- products ----

export async function listProducts(ctx: Ctx, limit: number, offset: number) {
  const v = await portalVendor(ctx);
  return productPage(ctx, v.id, limit, offset);
}

/** A page of the vendor's products (portal and admin). */
export async function productPage(ctx: Ctx, vendorId: string, limit: number, offset: number) {
  const { rows, count } = await vendorProducts(ctx, vendorId, limit, offset);
  return {
    products: rows.map((p) => ({
      id: p.id,
      name: p.name,
      slug: p.slug,
      sku: p.sku,
      status: p.status,
      base_price_cents: p.basePriceCents,
      is_digital: p.isDigital,
      stock: p.stock === null ? null : Number(p.stock),
      created_at: iso(p.createdAt),
      updated_at: iso(p.updatedAt),
    })),
    count,
  };
}

// ---- dashboard and ledger ----

/** Balances, sales of the last 30 days and of this month (per currency), counts, the last 5 orders. */
export async function dashboard(ctx: Ctx) {
  const v = await portalVendor(ctx);
  const now = ctx.clock.now();
  const d30 = new Date(now.getTime() - 30 * 86_400_000);
  const month = monthOf(now).from;
  const since = d30 < month ? d30 : month;
  const [bal, sales, productCount, pending, recent] = await Promise.all([
    balancesByVendor(ctx, [v.id]),
    query<{
      currency: string;
      g30: number | string | null;
      e30: number | string | null;
      o30: number | string;
      gm: number | string | null;
      em: number | string | null;
      om: number | string;
    }>(
      ctx.db,
      sql`SELECT currency,
                 sum(gross_cents) FILTER (WHERE earned_at >= ${d30.toISOString()}::timestamptz)::bigint AS g30,
                 sum(amount_cents) FILTER (WHERE earned_at >= ${d30.toISOString()}::timestamptz)::bigint AS e30,
                 count(DISTINCT order_id) FILTER (WHERE earned_at >= ${d30.toISOString()}::timestamptz)::int AS o30,
                 sum(gross_cents) FILTER (WHERE earned_at >= ${month.toISOString()}::timestamptz)::bigint AS gm,
                 sum(amount_cents) FILTER (WHERE earned_at >= ${month.toISOString()}::timestamptz)::bigint AS em,
                 count(DISTINCT order_id) FILTER (WHERE earned_at >= ${month.toISOString()}::timestamptz)::int AS om
          FROM partner_earnings
          WHERE shop_id = ${ctx.shopId} AND partner_type = 'vendor' AND partner_id = ${v.id}
            AND earned_at >= ${since.toISOString()}::timestamptz AND earned_at <= ${now.toISOString()}::timestamptz
          GROUP BY currency ORDER BY currency`,
    ),
    countVendorProducts(ctx, v.id),
    query<{ pending: number | string }>(
      ctx.db,
      sql`SELECT count(*)::int AS pending FROM partner_earnings
          WHERE shop_id = ${ctx.shopId} AND partner_type = 'vendor' AND partner_id = ${v.id} AND status = 'pending'`,
    ),
    orderPage(ctx, v.id, 5, 0),
  ]);
  const figures = (pick: 'last30' | 'month') =>
    sales
      .map((r) => ({
        currency: r.currency,
        gross_cents: Number((pick === 'last30' ? r.g30 : r.gm) ?? 0),
        earnings_cents: Number((pick === 'last30' ? r.e30 : r.em) ?? 0),
        orders: Number(pick === 'last30' ? r.o30 : r.om),
      }))
      .filter((f) => f.orders > 0);
  return {
    balances: bal.get(v.id) ?? [],
    sales_last_30_days: figures('last30'),
    sales_this_month: figures('month'),
    products: productCount,
    pending_earnings: Number(pending[0]?.pending ?? 0),
    recent_orders: recent.orders,
  };
}

type LedgerQuery = { currency?: string; from?: string; to?: string; limit?: number; offset?: number };

export async function ledger(ctx: Ctx, q: LedgerQuery) {
  const v = await portalVendor(ctx);
  return ledgerPage(ctx, v.id, q);
}

/** A page of the vendor's ledger entries with their postings, oldest first (portal and admin). */
export async function ledgerPage(ctx: Ctx, vendorId: string, q: LedgerQuery) {
  const { from, to } = parseRange(q);
  const { limit, offset } = pageOf(q);
  const { entries, count } = await ledgerOf(ctx, 'vendor', vendorId, {
    limit,
    offset,
    ...(q.currency ? { currency: q.currency } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  });
  return { entries, count, limit, offset };
}
