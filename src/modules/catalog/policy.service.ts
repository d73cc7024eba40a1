/**
 * The shop's write policy for API tokens (docs/catalog.md: token product writes are policy-checked):
 * whether tokens may change prices and the status, and by how much one price may move.
 */

import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import type { Db } from '../../platform/db/client.js';
import type { TxCtx } from '../../platform/db/tx.js';
import { AppError, type FieldError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import type { WritePolicy, WritePolicyInput } from './catalog.schemas.js';
import { catalogPriceChanges, catalogSettings } from './catalog.tables.js';

export const DEFAULT_POLICY: WritePolicy = {
  allow_price_changes: true,
  allow_status_changes: true,
  max_price_change_percent: null,
  price_change_window_hours: 24,
  allow_vendor_tax_changes: false,
};

export async function getWritePolicy(ctx: Ctx, db: Db = ctx.db): Promise<WritePolicy> {
  const [row] = await db.select().from(catalogSettings).where(eq(catalogSettings.shopId, ctx.shopId));
  if (!row) return { ...DEFAULT_POLICY };
  return {
    allow_price_changes: row.allowPriceChanges,
    allow_status_changes: row.allowStatusChanges,
    max_price_change_percent: row.maxPriceChangePercent,
    price_change_window_hours: row.priceWindowHours,
    allow_vendor_tax_changes: row.allowVendorTaxChanges,
  };
}

/** Replaces the policy. */
export async function putWritePolicy(ctx: Ctx, input: WritePolicyInput): Promise<WritePolicy> {
  const values = {
    allowPriceChanges: input.allow_price_changes,
    allowStatusChanges: input.allow_status_changes,
    maxPriceChangePercent: input.max_price_change_percent,
    priceWindowHours: input.price_change_window_hours ?? DEFAULT_POLICY.price_change_window_hours,
    allowVendorTaxChanges: input.allow_vendor_tax_changes ?? DEFAULT_POLICY.allow_vendor_tax_changes,
    updatedAt: ctx.clock.now(),
  };
  await ctx.db
    .insert(catalogSettings)
    .values({ shopId: ctx.shopId, ...values })
    .onConflictDoUpdate({ target: catalogSettings.shopId, set: values });
  return getWritePolicy(ctx);
}

/**
 * One price a write touches: `before` is absent for a price that did not exist and replaces
 * nothing. `key` names the price in the history (`base`, `cost`, `variant:<id>:price|cost`);
 * `refKey` is the history of the price it is measured against when that is another one (a new
 * variant: the variant it replaces, or the product's base/cost price). `windowStart` is filled in
 * by `loadWindowStarts`.
 */
export interface PriceChange {
  path: string;
  key?: string;
  refKey?: string;
  before?: number | null;
  after: number | null;
  windowStart?: number | null;
}

/**
 * Fills in the price at the start of the policy window for each change: the `before` of the
 * earliest recorded change of that price inside the window, else the current price (`before`).
 */
export async function loadWindowStarts(
  ctx: TxCtx,
  productId: string,
  windowHours: number,
  prices: PriceChange[],
): Promise<void> {
  const keys = [...new Set(prices.map((p) => p.refKey ?? p.key).filter((k): k is string => !!k))];
  if (keys.length === 0) return;
  const since = new Date(ctx.clock.now().getTime() - windowHours * 3_600_000);
  const rows = await ctx.db
    .select({ key: catalogPriceChanges.priceKey, before: catalogPriceChanges.beforeCents })
    .from(catalogPriceChanges)
    .where(
      and(
        eq(catalogPriceChanges.shopId, ctx.shopId),
        eq(catalogPriceChanges.productId, productId),
        inArray(catalogPriceChanges.priceKey, keys),
        gt(catalogPriceChanges.changedAt, since),
      ),
    )
    .orderBy(asc(catalogPriceChanges.changedAt), asc(catalogPriceChanges.id));
  const first = new Map<string, number | null>();
  for (const r of rows) if (!first.has(r.key)) first.set(r.key, r.before);
  for (const p of prices) {
    const k = p.refKey ?? p.key;
    if (k && first.has(k)) p.windowStart = first.get(k) ?? null;
  }
}

/** Records the price changes of a write (same transaction as the write, every actor). */
export async function recordPriceChanges(ctx: TxCtx, productId: string, prices: PriceChange[]): Promise<void> {
  const now = ctx.clock.now();
  const rows = prices
    .filter((p): p is PriceChange & { key: string } => !!p.key)
    .map((p) => ({
      id: newId('priceChange'),
      shopId: ctx.shopId,
      productId,
      priceKey: p.key,
      beforeCents: p.windowStart !== undefined ? p.windowStart : (p.before ?? null),
      afterCents: p.after,
      changedAt: now,
    }));
  if (rows.length > 0) await ctx.db.insert(catalogPriceChanges).values(rows);
}

const denied = (detail: string, errors: FieldError[]) => new AppError('policy_denied', detail, errors);

/** True when the caller is an API token, the only credential the policy binds. */
export const boundByPolicy = (ctx: Ctx) => ctx.actor?.kind === 'token';

/**
 * Refuses a token write outside the policy. `status` is the path of a status change (or null);
 * `prices` are the prices the write sets or changes. Must run before anything is written.
 */
export function enforcePolicy(
  policy: WritePolicy,
  status: string | null,
  prices: PriceChange[],
  vendorTax: string[] = [],
): void {
  if (status && !policy.allow_status_changes) {
    throw denied('The shop does not let API tokens change the product status', [
      { path: status, message: 'status changes by API tokens are disabled' },
    ]);
  }
  if (vendorTax.length > 0 && !policy.allow_vendor_tax_changes) {
    throw denied(
      `The shop does not let API tokens change ${vendorTax.map((p) => p.replace('/body/', '')).join(' or ')}`,
      vendorTax.map((path) => ({
        path,
        message: `${path.replace('/body/', '')} changes by API tokens are disabled (a session may change it)`,
      })),
    );
  }
  if (prices.length === 0) return;
  if (!policy.allow_price_changes) {
    throw denied(
      'The shop does not let API tokens change prices',
      prices.map((p) => ({ path: p.path, message: 'price changes by API tokens are disabled' })),
    );
  }
  const max = policy.max_price_change_percent;
  if (max === null) return;
  const errors: FieldError[] = [];
  const over = (from: number, to: number) => {
    const percent = from === 0 ? Number.POSITIVE_INFINITY : (Math.abs(to - from) / from) * 100;
    return percent > max ? percent : null;
  };
  const describe = (percent: number) =>
    Number.isFinite(percent) ? `${percent.toFixed(1)}%` : 'more than any percentage';
  for (const p of prices) {
    // A cleared cost price, or a price with nothing before it, has nothing to measure against.
    if (p.after === null) continue;
    const current = p.before ?? null;
    const start = p.windowStart === undefined ? current : p.windowStart;
    const fromCurrent = current === null ? null : over(current, p.after);
    if (fromCurrent !== null) {
      errors.push({
        path: p.path,
        message: `changes the price by ${describe(fromCurrent)}; the limit is ${max}%`,
      });
      continue;
    }
    const fromStart = start === null ? null : over(start, p.after);
    if (fromStart !== null) {
      errors.push({
        path: p.path,
        message: `moves the price by ${describe(fromStart)} from ${start} at the start of the ${policy.price_change_window_hours} h window; the limit is ${max}%`,
      });
    }
  }
  if (errors.length > 0) {
    throw denied(`A price change exceeds the ${max}% limit the shop sets for API tokens`, errors);
  }
}
