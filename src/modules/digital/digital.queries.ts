/**
 * What other modules change of the digital add-on's tables, as functions of its own
 * (docs/ARCHITECTURE.md, "Cross-module table reads").
 */
import { and, desc, eq, or, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import type { Db } from '../../platform/db/client.js';
import { query, type TxCtx } from '../../platform/db/tx.js';
import { aboOut } from './abo-common.js';
import { abos } from './digital.tables.js';

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

/**
 * A page of the subscriptions of a customer (the account's, claimed or not: by id or e-mail) or
 * of a guest e-mail, in the channels `restricted` allows (null: all), newest first, with the count.
 */
export async function buyerAbos(
  ctx: Pick<Ctx, 'db' | 'shopId'>,
  b: { customerId: string | null; email: string; restricted: string[] | null },
  page: { limit: number; offset: number },
) {
  const byEmail = sql`lower(${abos.customerEmail}) = lower(${b.email})`;
  const channels: SQL | undefined =
    b.restricted === null
      ? undefined
      : b.restricted.length === 0
        ? sql`false`
        : sql`${abos.channelId} IN (${sql.join(
            b.restricted.map((c) => sql`${c}`),
            sql`, `,
          )})`;
  const where = and(
    eq(abos.shopId, ctx.shopId),
    b.customerId ? or(eq(abos.customerId, b.customerId), byEmail) : byEmail,
    channels,
  );
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(abos)
      .where(where)
      .orderBy(desc(abos.createdAt), desc(abos.id))
      .limit(page.limit)
      .offset(page.offset),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(abos).where(where),
  ]);
  return {
    rows: rows.map(aboOut),
    /** The billing addresses of the page's subscriptions (a data export lists them). */
    billingAddresses: rows.map((r) => r.billingAddress),
    count: Number(total[0]?.n ?? 0),
  };
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
