/**
 * The admin's customers (docs/customers.md): accounts (identity) and guest buyers (orders' e-mails
 * without an account) in one list, an account's detail with its orders, subscriptions and
 * invoices, and its data export. This module owns no table: it composes what identity, orders,
 * digital and finance lend (docs/ARCHITECTURE.md "Cross-module table reads").
 *
 * Channel restriction (DESIGN §2): a restricted employee sees a customer only when the customer
 * has an order in one of their channels, and of that customer only the orders, subscriptions and
 * invoices of those channels; another customer is answered like a missing one (404).
 */
import type { Static } from '@sinclair/typebox';
import { type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { likeAnywhere, query } from '../../platform/db/tx.js';
import { notFound } from '../../platform/errors.js';
import type { Paged } from '../../platform/http/schemas.js';
import { buyerAbos } from '../digital/index.js';
import { invoicesOfOrders } from '../finance/index.js';
import { customerAccount, customerAccountOut, customerAccountsSql } from '../identity/index.js';
import {
  type Address,
  type BuyerRef,
  buyerOrderIdsSql,
  buyerOrders,
  linesOfOrders,
  orderBuyersSql,
  orderDetailOut,
  orderOut,
} from '../orders/index.js';
import type { CustomerListQuery } from './customers.schemas.js';

/** The channels of a restricted employee (null: every channel). */
export function restrictedChannels(ctx: Ctx): string[] | null {
  const a = ctx.actor;
  return a?.kind === 'admin' && a.channelRestricted ? a.channelIds : null;
}

export const ordersHref = (email: string) => `/api/admin/orders?email=${encodeURIComponent(email)}`;

const SORT: Record<NonNullable<Static<typeof CustomerListQuery>['sort']>, SQL> = {
  last_order_desc: sql`last_order_at DESC NULLS LAST, created_at DESC, email_key ASC`,
  created_desc: sql`created_at DESC, email_key ASC`,
  created_asc: sql`created_at ASC, email_key ASC`,
  email_asc: sql`email_key ASC, kind ASC`,
  email_desc: sql`email_key DESC, kind ASC`,
  orders_desc: sql`order_count DESC, last_order_at DESC NULLS LAST, email_key ASC`,
};

interface ListRow {
  kind: 'account' | 'guest';
  id: string | null;
  email: string;
  name: string | null;
  email_verified: boolean;
  suspended: boolean;
  created_at: string;
  order_count: number;
  last_order_at: string | null;
}

/**
 * GET /api/admin/customers: accounts and guest buyers (order e-mails without an account), one
 * page with the exact count. Filters: q (e-mail or name), verified, kind; sort.
 */
export async function listCustomers(ctx: Ctx, f: Paged<Static<typeof CustomerListQuery>>) {
  const restricted = restrictedChannels(ctx);
  const buyers = orderBuyersSql(ctx.shopId, restricted);
  const accounts = customerAccountsSql(ctx.shopId);
  const conds: SQL[] = [sql`true`];
  if (f.q) {
    const like = likeAnywhere(f.q);
    conds.push(sql`(email ILIKE ${like} OR name ILIKE ${like})`);
  }
  if (f.verified !== undefined) conds.push(sql`email_verified = ${f.verified}`);
  if (f.kind) conds.push(sql`kind = ${f.kind}`);
  const where = sql.join(conds, sql` AND `);
  // a restricted employee sees the accounts with an order in their channels; guests exist only by orders
  const rows = sql`WITH b AS ${buyers}, a AS ${accounts}, r AS (
      SELECT 'account' AS kind, a.id, a.email, lower(a.email) AS email_key, coalesce(a.name, b.name) AS name,
             a.email_verified, a.suspended_at IS NOT NULL AS suspended, a.created_at,
             coalesce(b.order_count, 0) AS order_count, b.last_order_at
      FROM a LEFT JOIN b ON b.email_key = lower(a.email)
      WHERE ${restricted === null ? sql`true` : sql`b.email_key IS NOT NULL`}
      UNION ALL
      SELECT 'guest', NULL, b.email, b.email_key, b.name, false, false, b.first_order_at, b.order_count, b.last_order_at
      FROM b WHERE NOT EXISTS (SELECT 1 FROM a WHERE lower(a.email) = b.email_key))`;
  const [page, total] = await Promise.all([
    query<ListRow>(
      ctx.db,
      sql`${rows} SELECT kind, id, email, name, email_verified, suspended, created_at, order_count, last_order_at
          FROM r WHERE ${where} ORDER BY ${SORT[f.sort ?? 'last_order_desc']} LIMIT ${f.limit} OFFSET ${f.offset}`,
    ),
    query<{ n: number }>(ctx.db, sql`${rows} SELECT count(*)::int AS n FROM r WHERE ${where}`),
  ]);
  return {
    customers: page.map((r) => ({
      kind: r.kind,
      id: r.id,
      email: r.email,
      name: r.name,
      email_verified: r.email_verified === true,
      suspended: r.suspended === true,
      created_at: iso(r.created_at),
      order_count: Number(r.order_count),
      last_order_at: isoOrNull(r.last_order_at),
      orders_href: ordersHref(r.email),
    })),
    count: Number(total[0]?.n ?? 0),
    limit: f.limit,
    offset: f.offset,
  };
}

/** The account `id` and whose purchases are its (404 when a restricted employee cannot see it). */
export async function visibleAccount(ctx: Ctx, id: string) {
  const row = await customerAccount(ctx, id);
  const buyer: BuyerRef = { customerId: row.id, email: row.email, restricted: restrictedChannels(ctx) };
  if (buyer.restricted !== null) {
    const { count } = await buyerOrders(ctx, buyer, { limit: 1, offset: 0 });
    if (count === 0) throw notFound('Customer');
  }
  return { row, buyer };
}

const FIRST_PAGE = { limit: 10, offset: 0 };

/** GET /api/admin/customers/:id: the account and the newest 10 of its orders, subscriptions and invoices. */
export async function customerDetail(ctx: Ctx, id: string) {
  const { row, buyer } = await visibleAccount(ctx, id);
  const [orders, subscriptions, invoices] = await Promise.all([
    buyerOrders(ctx, buyer, FIRST_PAGE),
    buyerAbos(ctx, buyer, FIRST_PAGE),
    invoicesOfOrders(ctx, buyerOrderIdsSql(ctx.shopId, buyer), FIRST_PAGE),
  ]);
  const email = encodeURIComponent(row.email);
  return {
    customer: customerAccountOut(row),
    orders: { items: orders.rows.map((o) => orderOut(o)), count: orders.count, href: ordersHref(row.email) },
    subscriptions: {
      items: subscriptions.rows,
      count: subscriptions.count,
      href: `/api/admin/digital/abos?q=${email}`,
    },
    invoices: { items: invoices.rows, count: invoices.count, href: `/api/admin/invoices?q=${email}` },
  };
}

/** The most of each kind an export holds (a larger history is exported by the operator from the database). */
export const EXPORT_MAX = 10_000;

const addressKey = (a: Address) =>
  JSON.stringify([
    a.name,
    a.company ?? null,
    a.vat_id ?? null,
    a.line1,
    a.line2 ?? null,
    a.postal_code,
    a.city,
    a.country,
  ]);

/**
 * GET /api/admin/customers/:id/export (GDPR Art. 15): the account, the addresses it used, its
 * orders with lines, subscriptions, invoice metadata and the withdrawal waivers it gave. No
 * password hash, session, token or payment reference is part of it.
 */
export async function customerExport(ctx: Ctx, id: string) {
  const { row, buyer } = await visibleAccount(ctx, id);
  const all = { limit: EXPORT_MAX, offset: 0 };
  const [orders, subscriptions, invoices] = await Promise.all([
    buyerOrders(ctx, buyer, all),
    buyerAbos(ctx, buyer, all),
    invoicesOfOrders(ctx, buyerOrderIdsSql(ctx.shopId, buyer), all),
  ]);
  const lines = await linesOfOrders(
    ctx,
    orders.rows.map((o) => o.id),
  );
  const byOrder = new Map<string, typeof lines>();
  for (const l of lines) byOrder.set(l.orderId, [...(byOrder.get(l.orderId) ?? []), l]);
  const addresses = new Map<string, Address>();
  for (const a of [
    ...orders.rows.flatMap((o) => [o.billingAddress, o.shippingAddress]),
    ...subscriptions.billingAddresses,
  ]) {
    if (a) addresses.set(addressKey(a), a);
  }
  return {
    exported_at: iso(ctx.clock.now()),
    scope: { channel_restricted: buyer.restricted !== null, channel_ids: buyer.restricted },
    account: customerAccountOut(row),
    addresses: [...addresses.values()],
    orders: orders.rows.map((o) => orderDetailOut(o, byOrder.get(o.id) ?? [])),
    subscriptions: subscriptions.rows,
    invoices: invoices.rows,
    consents: orders.rows
      .filter((o) => o.widerrufVerzicht)
      .map((o) => ({
        order_id: o.id,
        order_number: o.number,
        widerruf_verzicht: o.widerrufVerzicht,
        widerruf_verzicht_at: isoOrNull(o.widerrufVerzichtAt),
      })),
  };
}
