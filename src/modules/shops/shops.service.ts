/** Shops (tenants): the rows every module's data hangs off; platform-admin creates them with their owner, key and channel. */
import { count, desc, eq } from 'drizzle-orm';
import { iso } from '../../platform/dates.js';
import type { Db } from '../../platform/db/client.js';
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

/** Inserts the shop row, in the caller's transaction (platform-admin's createShop adds the rest). */
export async function insertShop(tx: Db, input: { name: string; digitalAllowed: boolean }): Promise<ShopRow> {
  const [shop] = (await tx
    .insert(shops)
    .values({ id: newId('shop'), name: input.name, digitalAllowed: input.digitalAllowed })
    .returning()) as [ShopRow];
  return shop;
}

export async function listShops(db: Db, limit: number, offset: number) {
  const [rows, total] = await Promise.all([
    db.select().from(shops).orderBy(desc(shops.createdAt)).limit(limit).offset(offset),
    db.select({ n: count() }).from(shops),
  ]);
  return { rows, count: Number(total[0]?.n ?? 0) };
}

export async function updateShop(db: Db, id: string, patch: { digital_allowed?: boolean; name?: string }) {
  const [row] = await db
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

export async function getShop(db: Db, id: string) {
  const [row] = await db.select().from(shops).where(eq(shops.id, id));
  if (!row) throw notFound('Shop');
  return row;
}
