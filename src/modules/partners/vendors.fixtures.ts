/** Test helpers of the vendor tests: invited and accepted vendors, their products, paid orders, time. */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { call, PLATFORM_TOKEN, type TestApp } from '../../../test/helpers/app.js';
import { query } from '../../platform/db/tx.js';
import type { FinanceShop } from '../finance/finance.fixtures.js';
import { acceptInvite } from './partners.fixtures.js';

export interface TestVendor {
  id: string;
  email: string;
  name: string;
  /** Portal session (vsess_…). */
  token: string;
}

const rand = () => Math.random().toString(36).slice(2, 8);

/** Invites a vendor and accepts the invitation from the e-mail: an active vendor with a session. */
export async function newVendor(t: TestApp, f: FinanceShop, name: string): Promise<TestVendor> {
  const email = `${name.toLowerCase().replace(/[^a-z]+/g, '')}-${rand()}@vendor.test`;
  const res = await call(t.app, 'POST', '/api/admin/vendors/invite', { token: f.owner, body: { email, name } });
  if (res.statusCode !== 201) throw new Error(`invite failed: ${res.statusCode} ${res.body}`);
  const token = await acceptInvite(t, 'vendor', email);
  return { id: res.data.id, email, name, token };
}

/** A published product of the vendor, listed in the shop's channel. */
export async function vendorProduct(
  t: TestApp,
  f: FinanceShop,
  vendorId: string | null,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await call(t.app, 'POST', '/api/products', {
    token: f.owner,
    body: {
      name: `Ware ${rand()}`,
      status: 'published',
      is_digital: true,
      base_price_cents: 2500,
      ...(vendorId ? { vendor_id: vendorId } : {}),
      ...body,
    },
  });
  if (res.statusCode !== 201) throw new Error(`product failed: ${res.statusCode} ${res.body}`);
  const listed = await call(t.app, 'PATCH', `/api/products/${res.data.id}/channels/${f.channel}`, {
    token: f.owner,
    body: { is_published: true },
  });
  if (listed.statusCode !== 200) throw new Error(`listing failed: ${listed.body}`);
  return res.data.id;
}

export interface Line {
  id: string;
  product_id: string;
  line_total_cents: number;
  net_cents: number;
  [k: string]: unknown;
}

/** The lines of an order as the admin API shows them. */
export async function orderLines(t: TestApp, f: FinanceShop, orderId: string): Promise<Line[]> {
  const res = await call(t.app, 'GET', `/api/admin/orders/${orderId}`, { token: f.owner });
  expect(res.statusCode).toBe(200);
  return res.data.order.lines;
}

/** Advances the simulated clock (and runs the jobs that came due). */
export async function advance(t: TestApp, seconds: number): Promise<Date> {
  const res = await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds } });
  expect(res.statusCode).toBe(200);
  return new Date(res.data.now);
}

export const DAY = 86_400;

/** round-half-up(cents × percent / 100), as earnings.ts computes a commission. */
export const pct = (cents: number, percent: number) => Math.floor((cents * Math.round(percent * 100) + 5000) / 10000);

/**
 * The ledger invariant for one vendor: postings summed per account and currency equal the
 * balances the API shows, and all accounts together sum to zero.
 */
export async function expectLedgerMatches(t: TestApp, f: FinanceShop, vendorId: string): Promise<void> {
  const rows = await query<{ currency: string; account: string; total: number | string }>(
    t.app.deps.database.db,
    sql`SELECT currency, account, sum(amount_cents)::bigint AS total FROM ledger_postings
        WHERE shop_id = ${f.shop.shopId} AND partner_type = 'vendor' AND partner_id = ${vendorId}
        GROUP BY currency, account`,
  );
  const detail = await call(t.app, 'GET', `/api/admin/vendors/${vendorId}`, { token: f.owner });
  expect(detail.statusCode).toBe(200);
  const currencies = new Set(rows.map((r) => r.currency));
  expect(detail.data.balances.map((b: { currency: string }) => b.currency).sort()).toEqual([...currencies].sort());
  for (const currency of currencies) {
    const sum = (account: string) =>
      Number(rows.find((r) => r.currency === currency && r.account === account)?.total ?? 0);
    const b = detail.data.balances.find((x: { currency: string }) => x.currency === currency);
    expect(b).toEqual({
      currency,
      pending_cents: sum('pending'),
      available_cents: sum('available'),
      in_payout_cents: sum('in_payout'),
      paid_out_cents: sum('paid_out'),
      // 0 − x, not −x: the API's JSON has no −0 once everything was clawed back
      earned_cents: 0 - sum('expense'),
      owed_cents: sum('pending') + sum('available') + sum('in_payout'),
    });
    const all = rows.filter((r) => r.currency === currency).reduce((s, r) => s + Number(r.total), 0);
    expect(all).toBe(0);
  }
}
