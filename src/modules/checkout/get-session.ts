import { eq } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { type CheckoutSessionRow, checkoutSessions } from './checkout.tables.js';

/** A session by its id, whatever its shop (the pay page knows only the id). */
export async function getSession(ctx: Ctx, id: string): Promise<CheckoutSessionRow | null> {
  const [row] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
  return row ?? null;
}
