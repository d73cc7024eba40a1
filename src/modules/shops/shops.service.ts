/** Shops (tenants): created by the platform operator together with their owner and a storefront key. */
import { count, desc, eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import type { Db } from '../../platform/db/client.js';
import { withTx } from '../../platform/db/tx.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { createDefaultChannel } from '../channels/index.js';
import { createEmployee, createPublishableKey } from '../identity/index.js';
import { shops } from './shops.tables.js';

export type ShopRow = typeof shops.$inferSelect;

export const platformShopOut = (s: ShopRow) => ({
  id: s.id,
  name: s.name,
  digital_allowed: s.digitalAllowed,
  digital_active: s.digitalActive,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});

export interface CreateShopInput {
  name: string;
  owner_email: string;
  owner_password: string;
  owner_name?: string;
  digital_allowed?: boolean;
  storefront_origins?: string[];
  /** The default channel's currency (EUR when absent) and country (DE). */
  currency?: string;
  country?: string;
}

/**
 * Creates the shop, its owner (Argon2id), a first publishable key and its default channel
 * (docs/ARCHITECTURE.md), all or nothing.
 */
export async function createShop(ctx: Ctx, input: CreateShopInput) {
  return withTx(ctx.db, async (tx) => {
    const [shop] = (await tx
      .insert(shops)
      .values({ id: newId('shop'), name: input.name, digitalAllowed: input.digital_allowed ?? false })
      .returning()) as [ShopRow];
    const shopCtx: Ctx = { ...ctx, shopId: shop.id, db: tx };
    const owner = await createEmployee(
      shopCtx,
      { email: input.owner_email, password: input.owner_password, name: input.owner_name, role: 'owner' },
      tx,
    );
    const key = await createPublishableKey(
      shopCtx,
      { name: 'Default storefront', allowed_origins: input.storefront_origins ?? [] },
      tx,
    );
    const channel = await createDefaultChannel(shopCtx, {
      name: input.name,
      currency: input.currency ?? 'EUR',
      default_country: input.country ?? 'DE',
    });
    return { shop, owner, key, channel };
  });
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
