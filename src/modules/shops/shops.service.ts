/** Shops (tenants): the rows every module's data hangs off; platform-admin creates them with their owner, key and channel. */
import { count, desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import type { TxCtx } from '../../platform/db/tx.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { shops } from './shops.tables.js';

export type ShopRow = typeof shops.$inferSelect;

export const platformShopOut = (s: ShopRow) => ({
  id: s.id,
  name: s.name,
  digital_allowed: s.digitalAllowed,
  digital_active: s.digitalActive,
  created_at: iso(s.createdAt),
  updated_at: iso(s.updatedAt),
});

/**
 * Inserts the shop row, in the caller's transaction (platform-admin's createShop adds the rest);
 * `ctx` is the platform's (no shop yet).
 */
export async function insertShop(ctx: TxCtx, input: { name: string; digitalAllowed: boolean }): Promise<ShopRow> {
  const [shop] = (await ctx.db
    .insert(shops)
    .values({ id: newId('shop'), name: input.name, digitalAllowed: input.digitalAllowed })
    .returning()) as [ShopRow];
  return shop;
}

/** Every shop, newest first (platform). */
export async function listShops(ctx: Ctx, limit: number, offset: number) {
  const { db } = ctx;
  const [rows, total] = await Promise.all([
    db.select().from(shops).orderBy(desc(shops.createdAt)).limit(limit).offset(offset),
    db.select({ n: count() }).from(shops),
  ]);
  return { rows, count: Number(total[0]?.n ?? 0) };
}

/** Changes the shop `id` (platform). */
export async function updateShop(ctx: Ctx, id: string, patch: { digital_allowed?: boolean; name?: string }) {
  const [row] = await ctx.db
    .update(shops)
    .set({
      ...(patch.digital_allowed !== undefined ? { digitalAllowed: patch.digital_allowed } : {}),
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      updatedAt: new Date(),
    })
    .where(eq(shops.id, id))
    .returning();
  if (!row) throw notFound('Shop');
  return row;
}

export async function getShop(ctx: Ctx, id: string) {
  const [row] = await ctx.db.select().from(shops).where(eq(shops.id, id));
  if (!row) throw notFound('Shop');
  return row;
}
