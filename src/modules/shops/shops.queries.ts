/**
 * What other modules read (or lock) of the shop row, as functions of its owner
 * (docs/ARCHITECTURE.md, "Cross-module table reads").
 */
import { eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import type { TxCtx } from '../../platform/db/tx.js';
import { shops } from './shops.tables.js';

type ShopCtx = Pick<Ctx, 'db' | 'shopId'>;

/** The context's shop row, or null. */
export async function shopOf(ctx: ShopCtx): Promise<typeof shops.$inferSelect | null> {
  const [row] = await ctx.db.select().from(shops).where(eq(shops.id, ctx.shopId));
  return row ?? null;
}

/** The shop's name, or null. */
export async function shopName(ctx: ShopCtx): Promise<string | null> {
  const [row] = await ctx.db.select({ name: shops.name }).from(shops).where(eq(shops.id, ctx.shopId));
  return row?.name ?? null;
}

/** The digital add-on flags: available (the platform's) and active (the shop's); null for no shop. */
export async function shopDigitalFlags(ctx: ShopCtx): Promise<{ allowed: boolean; active: boolean } | null> {
  const [row] = await ctx.db
    .select({ allowed: shops.digitalAllowed, active: shops.digitalActive })
    .from(shops)
    .where(eq(shops.id, ctx.shopId));
  return row ?? null;
}

/** How affiliates earn on subscription orders (partners' earnings): `erste`, `monate` (with the count) or `immer`. */
export async function shopAboProvision(ctx: ShopCtx): Promise<{ provision: string; months: number | null } | null> {
  const [row] = await ctx.db
    .select({ provision: shops.aboProvision, months: shops.aboProvisionMonate })
    .from(shops)
    .where(eq(shops.id, ctx.shopId));
  return row ?? null;
}

/** Locks the shop row (`FOR UPDATE`) until the caller's transaction ends: serializes shop-wide changes. */
export async function lockShop(ctx: Pick<TxCtx, 'db' | 'shopId'>): Promise<void> {
  await ctx.db.select({ id: shops.id }).from(shops).where(eq(shops.id, ctx.shopId)).for('update');
}

/** The most units one checkout line may hold (checkout's settings), or null for no shop. */
export async function shopMaxLineQuantity(ctx: ShopCtx): Promise<number | null> {
  const [row] = await ctx.db.select({ max: shops.maxLineQuantity }).from(shops).where(eq(shops.id, ctx.shopId));
  return row?.max ?? null;
}

/** Sets checkout's `max_line_quantity` of the shop. */
export async function setShopMaxLineQuantity(ctx: ShopCtx, max: number, now: Date): Promise<void> {
  await ctx.db.update(shops).set({ maxLineQuantity: max, updatedAt: now }).where(eq(shops.id, ctx.shopId));
}

/** Sets the shop's side of the digital add-on settings (digital's settings); the updated row, or null. */
export async function setShopDigitalSettings(
  ctx: ShopCtx,
  s: { active?: boolean; aboProvision: string; aboProvisionMonths: number | null },
  now: Date,
): Promise<typeof shops.$inferSelect | null> {
  const [row] = await ctx.db
    .update(shops)
    .set({
      ...(s.active !== undefined ? { digitalActive: s.active } : {}),
      aboProvision: s.aboProvision,
      aboProvisionMonate: s.aboProvisionMonths,
      updatedAt: now,
    })
    .where(eq(shops.id, ctx.shopId))
    .returning();
  return row ?? null;
}
