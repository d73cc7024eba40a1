/**
 * Vendor analytics for a period: sales and commission from the earnings of orders paid in the
 * period (by payment time), clawbacks booked in the period from the ledger, and the current
 * balances. Three grouped queries plus the vendor names, whatever the number of vendors.
 */
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { query } from '../../platform/db/tx.js';
import { defaultChannelCurrency } from '../channels/index.js';
import { vendors } from './partners.tables.js';
import { balanceMap, loadVendor, parseRange } from './vendors.service.js';

/** The calendar month (UTC) containing `now`. */
export function monthOf(now: Date): { from: Date; to: Date } {
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));
  return { from, to };
}

interface Figures {
  gross_sales_cents: number;
  net_sales_cents: number;
  commission_cents: number;
  earnings_cents: number;
  clawbacks_cents: number;
  orders: number;
  lines: number;
}

const zero = (): Figures => ({
  gross_sales_cents: 0,
  net_sales_cents: 0,
  commission_cents: 0,
  earnings_cents: 0,
  clawbacks_cents: 0,
  orders: 0,
  lines: 0,
});

/**
 * One row per vendor and currency: a vendor appears in every currency it sold in during the
 * period or holds a balance in; a vendor with neither appears once, in the shop's default
 * currency, with zeros.
 */
export async function vendorAnalytics(ctx: Ctx, q: { from?: string; to?: string; vendor_id?: string }) {
  const range = parseRange(q);
  // a missing bound is that of the month of the other bound (of now, when both are missing)
  const from = range.from ?? monthOf(range.to ? new Date(range.to.getTime() - 1) : ctx.clock.now()).from;
  const to = range.to ?? monthOf(range.from ?? ctx.clock.now()).to;
  if (q.vendor_id !== undefined) await loadVendor(ctx, q.vendor_id);
  const fromIso = iso(from);
  const toIso = iso(to);
  const only = (column: SQL) => (q.vendor_id !== undefined ? sql` AND ${column} = ${q.vendor_id}` : sql``);

  const [list, sales, clawbacks, bal, defaults] = await Promise.all([
    ctx.db
      .select({ id: vendors.id, name: vendors.name })
      .from(vendors)
      .where(and(eq(vendors.shopId, ctx.shopId), q.vendor_id !== undefined ? eq(vendors.id, q.vendor_id) : undefined))
      .orderBy(asc(vendors.name), asc(vendors.id)),
    query<{
      partner_id: string;
      currency: string;
      gross: number | string;
      net: number | string;
      commission: number | string;
      earnings: number | string;
      orders: number | string;
      lines: number | string;
    }>(
      ctx.db,
      sql`SELECT partner_id, currency, sum(gross_cents)::bigint AS gross, sum(net_cents)::bigint AS net,
                 sum(commission_cents)::bigint AS commission, sum(amount_cents)::bigint AS earnings,
                 count(DISTINCT order_id)::int AS orders, count(*)::int AS lines
          FROM partner_earnings
          WHERE shop_id = ${ctx.shopId} AND partner_type = 'vendor'
            AND earned_at >= ${fromIso}::timestamptz AND earned_at < ${toIso}::timestamptz${only(sql`partner_id`)}
          GROUP BY partner_id, currency`,
    ),
    query<{ partner_id: string; currency: string; total: number | string }>(
      ctx.db,
      sql`SELECT p.partner_id, p.currency, sum(p.amount_cents)::bigint AS total
          FROM ledger_postings p JOIN ledger_transactions t ON t.shop_id = p.shop_id AND t.id = p.transaction_id
          WHERE p.shop_id = ${ctx.shopId} AND p.partner_type = 'vendor' AND p.account = 'expense'
            AND t.kind = 'clawback'
            AND p.occurred_at >= ${fromIso}::timestamptz AND p.occurred_at < ${toIso}::timestamptz${only(sql`p.partner_id`)}
          GROUP BY p.partner_id, p.currency`,
    ),
    balanceMap(ctx, q.vendor_id !== undefined ? [q.vendor_id] : undefined),
    defaultChannelCurrency(ctx),
  ]);

  const figures = new Map<string, Map<string, Figures>>();
  const at = (vendorId: string, currency: string): Figures => {
    const m = figures.get(vendorId) ?? new Map<string, Figures>();
    figures.set(vendorId, m);
    const f = m.get(currency) ?? zero();
    m.set(currency, f);
    return f;
  };
  for (const r of sales) {
    const f = at(r.partner_id, r.currency);
    f.gross_sales_cents = Number(r.gross);
    f.net_sales_cents = Number(r.net);
    f.commission_cents = Number(r.commission);
    f.earnings_cents = Number(r.earnings);
    f.orders = Number(r.orders);
    f.lines = Number(r.lines);
  }
  for (const r of clawbacks) at(r.partner_id, r.currency).clawbacks_cents = Number(r.total);
  for (const [vendorId, m] of bal) for (const currency of m.keys()) at(vendorId, currency);

  const fallback = defaults ?? 'EUR';
  const rows = list.flatMap((v) => {
    const m = figures.get(v.id) ?? new Map<string, Figures>([[fallback, zero()]]);
    return [...m.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([currency, f]) => {
        const b = bal.get(v.id)?.get(currency);
        return {
          vendor_id: v.id,
          name: v.name,
          currency,
          ...f,
          pending_cents: b?.pending_cents ?? 0,
          available_cents: b?.available_cents ?? 0,
          in_payout_cents: b?.in_payout_cents ?? 0,
          paid_out_cents: b?.paid_out_cents ?? 0,
        };
      });
  });
  return { from: fromIso, to: toIso, vendors: rows };
}
