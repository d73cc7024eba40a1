/**
 * The shop's write policy for API tokens (spec §5: token product writes are policy-checked):
 * whether tokens may change prices and the status, and by how much one price may move.
 */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import type { Tx } from '../../platform/db/tx.js';
import { AppError, type FieldError } from '../../platform/errors.js';
import type { WritePolicy } from './catalog.schemas.js';
import { catalogSettings } from './catalog.tables.js';

export const DEFAULT_POLICY: WritePolicy = {
  allow_price_changes: true,
  allow_status_changes: true,
  max_price_change_percent: null,
};

export async function getWritePolicy(ctx: Ctx, db: Tx = ctx.db): Promise<WritePolicy> {
  const [row] = await db.select().from(catalogSettings).where(eq(catalogSettings.shopId, ctx.shopId));
  if (!row) return { ...DEFAULT_POLICY };
  return {
    allow_price_changes: row.allowPriceChanges,
    allow_status_changes: row.allowStatusChanges,
    max_price_change_percent: row.maxPriceChangePercent,
  };
}

/** Replaces the policy. */
export async function putWritePolicy(ctx: Ctx, input: WritePolicy): Promise<WritePolicy> {
  const values = {
    allowPriceChanges: input.allow_price_changes,
    allowStatusChanges: input.allow_status_changes,
    maxPriceChangePercent: input.max_price_change_percent,
    updatedAt: ctx.clock.now(),
  };
  await ctx.db
    .insert(catalogSettings)
    .values({ shopId: ctx.shopId, ...values })
    .onConflictDoUpdate({ target: catalogSettings.shopId, set: values });
  return getWritePolicy(ctx);
}

/** One price a write touches: `before` is absent for a price that did not exist (new variant). */
export interface PriceChange {
  path: string;
  before?: number | null;
  after: number | null;
}

const denied = (detail: string, errors: FieldError[]) => new AppError('policy_denied', 403, detail, errors);

/** True when the caller is an API token, the only credential the policy binds. */
export const boundByPolicy = (ctx: Ctx) => ctx.actor?.kind === 'token';

/**
 * Refuses a token write outside the policy. `status` is the path of a status change (or null);
 * `prices` are the prices the write sets or changes. Must run before anything is written.
 */
export function enforcePolicy(policy: WritePolicy, status: string | null, prices: PriceChange[]): void {
  if (status && !policy.allow_status_changes) {
    throw denied('The shop does not let API tokens change the product status', [
      { path: status, message: 'status changes by API tokens are disabled' },
    ]);
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
  for (const p of prices) {
    // A new price or a cleared cost price has no previous value to measure against.
    if (p.before === undefined || p.before === null || p.after === null) continue;
    const percent = p.before === 0 ? Number.POSITIVE_INFINITY : (Math.abs(p.after - p.before) / p.before) * 100;
    if (percent > max) {
      errors.push({
        path: p.path,
        message: `changes the price by ${Number.isFinite(percent) ? `${percent.toFixed(1)}%` : 'more than any percentage'}; the limit is ${max}%`,
      });
    }
  }
  if (errors.length > 0) {
    throw denied(`A price change exceeds the ${max}% limit the shop sets for API tokens`, errors);
  }
}
