/**
 * What other modules change of the digital add-on's tables, as functions of its own
 * (docs/ARCHITECTURE.md, "Cross-module table reads").
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { query, type TxCtx } from '../../platform/db/tx.js';

/**
 * Gives a verified customer account its e-mail's guest subscriptions (identity's
 * `customer.verified` hook, in the verifying transaction).
 */
export async function claimGuestAbos(ctx: TxCtx, e: { shopId: string; customerId: string; email: string }) {
  await ctx.db.execute(
    sql`UPDATE abos SET customer_id = ${e.customerId}
        WHERE shop_id = ${e.shopId} AND customer_id IS NULL AND lower(customer_email) = lower(${e.email})`,
  );
}

export interface OfferedPlan {
  id: string;
  product_id: string;
  name: string;
  price_cents: number;
  currency: string;
  interval_unit: string;
  interval_count: number;
  trial_days: number;
}

/**
 * The plans of the shop among `ids` (a storefront's offered plans, in the order given), for the
 * storefront's settings; `activeOnly` leaves out plans switched off since.
 */
export async function plansOfShop(
  ctx: { db: Db; shopId: string },
  ids: string[],
  activeOnly: boolean,
): Promise<OfferedPlan[]> {
  if (ids.length === 0) return [];
  const rows = await query<OfferedPlan>(
    ctx.db,
    sql`SELECT id, product_id, name, price_cents, currency, interval_unit, interval_count, trial_days
        FROM abo_plans
        WHERE shop_id = ${ctx.shopId} AND id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) ${activeOnly ? sql`AND is_active` : sql``}`,
  );
  const byId = new Map(rows.map((r) => [r.id, { ...r, price_cents: Number(r.price_cents) }]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
