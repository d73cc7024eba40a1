/**
 * What other modules read of the webhook tables, as functions of their own (docs/ARCHITECTURE.md,
 * "Cross-module table reads"): the back office's overview and order timeline.
 */
import { sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { query } from '../../platform/db/tx.js';

/** Deliveries that gave up (dead): they need the endpoint fixed and a redelivery. */
export async function deadDeliveryCount(ctx: Pick<Ctx, 'db' | 'shopId'>): Promise<number> {
  const [row] = await query<{ n: number | string }>(
    ctx.db,
    sql`SELECT count(*) AS n FROM webhook_deliveries WHERE shop_id = ${ctx.shopId} AND status = 'dead'`,
  );
  return Number(row?.n ?? 0);
}

/**
 * The events of the ordering keys (e.g. `order:<id>`, `lexware:<id>`) with their delivery, oldest
 * first (raw timestamps: `pgDate`); an event emitted without an endpoint has no delivery.
 */
export async function eventsOfOrderingKeys(ctx: Pick<Ctx, 'db' | 'shopId'>, keys: string[]) {
  if (keys.length === 0) return [];
  return query<{
    event_id: string;
    type: string;
    created_at: string;
    delivery_id: string | null;
    status: string | null;
    attempts: number | null;
    last_status_code: number | null;
    last_error: string | null;
    delivered_at: string | null;
    updated_at: string | null;
  }>(
    ctx.db,
    sql`SELECT e.id AS event_id, e.type, e.created_at, d.id AS delivery_id, d.status, d.attempts,
               d.last_status_code, d.last_error, d.delivered_at, d.updated_at
        FROM webhook_events e LEFT JOIN webhook_deliveries d ON d.shop_id = e.shop_id AND d.event_id = e.id
        WHERE e.shop_id = ${ctx.shopId} AND e.ordering_key IN (${sql.join(
          keys.map((k) => sql`${k}`),
          sql`, `,
        )})
        ORDER BY e.created_at, e.id`,
  );
}
