/**
 * What the admin's customer screens (modules/customers) need of customer accounts: the accounts
 * as a derived table for the list, one account, suspending and restoring sign-in, and the
 * verification e-mail sent again. No password hash ever leaves this file.
 */

import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { one, withTx } from '../../platform/db/tx.js';
import { AppError, notFound } from '../../platform/errors.js';
import { sendVerificationEmail } from './customer-accounts.js';
import { customers } from './identity.tables.js';
import { revokeSessionsOf } from './sessions.js';

type CustomerRow = typeof customers.$inferSelect;

/**
 * The shop's customer accounts as a derived table: id, email, name, email_verified,
 * suspended_at, created_at (never the password hash).
 */
export const customerAccountsSql = (shopId: string): SQL =>
  sql`(SELECT c.id, c.email, c.name, c.email_verified, c.suspended_at, c.created_at
       FROM customers c WHERE c.shop_id = ${shopId})`;

/** An account as the admin sees it. */
export const customerAccountOut = (c: CustomerRow) => ({
  id: c.id,
  email: c.email,
  name: c.name,
  email_verified: c.emailVerified,
  has_password: c.passwordHash !== null,
  suspended: c.suspendedAt !== null,
  suspended_at: isoOrNull(c.suspendedAt),
  created_at: iso(c.createdAt),
  updated_at: iso(c.updatedAt),
});

/** The account `id` of the shop, or 404. */
export async function customerAccount(ctx: Pick<Ctx, 'db' | 'shopId'>, id: string): Promise<CustomerRow> {
  const [row] = await ctx.db
    .select()
    .from(customers)
    .where(and(eq(customers.id, id), eq(customers.shopId, ctx.shopId)));
  if (!row) throw notFound('Customer');
  return row;
}

/**
 * Suspends sign-in: the account's sessions end and logins are refused with 403
 * account_suspended until it is restored. Suspending a suspended account keeps its date.
 * The row lock orders it with a concurrent login (loginCustomer re-reads the row under FOR SHARE).
 */
export async function suspendCustomer(ctx: Ctx, id: string): Promise<CustomerRow> {
  return withTx(ctx, async (t) => {
    const [row] = await t.db
      .select()
      .from(customers)
      .where(and(eq(customers.id, id), eq(customers.shopId, ctx.shopId)))
      .for('update');
    if (!row) throw notFound('Customer');
    const now = ctx.clock.now();
    const updated = row.suspendedAt
      ? row
      : one(
          await t.db
            .update(customers)
            .set({ suspendedAt: now, updatedAt: now })
            .where(and(eq(customers.shopId, row.shopId), eq(customers.id, row.id)))
            .returning(),
        );
    await revokeSessionsOf(t, 'customer', row.id);
    return updated;
  });
}

/** Lets a suspended account sign in again (a restored account is answered as it is). */
export async function restoreCustomer(ctx: Ctx, id: string): Promise<CustomerRow> {
  return withTx(ctx, async (t) => {
    const [row] = await t.db
      .select()
      .from(customers)
      .where(and(eq(customers.id, id), eq(customers.shopId, ctx.shopId)))
      .for('update');
    if (!row) throw notFound('Customer');
    if (!row.suspendedAt) return row;
    return one(
      await t.db
        .update(customers)
        .set({ suspendedAt: null, updatedAt: ctx.clock.now() })
        .where(and(eq(customers.shopId, row.shopId), eq(customers.id, row.id)))
        .returning(),
    );
  });
}

/** Sends the verification e-mail again (a new link ends the earlier one); 409 already_verified. */
export async function resendCustomerVerification(ctx: Ctx, id: string): Promise<CustomerRow> {
  return withTx(ctx, async (t) => {
    const [row] = await t.db
      .select()
      .from(customers)
      .where(and(eq(customers.id, id), eq(customers.shopId, ctx.shopId)))
      .for('update');
    if (!row) throw notFound('Customer');
    if (row.emailVerified) throw new AppError('already_verified', 'The e-mail of this account is verified already');
    await sendVerificationEmail(t, row);
    return row;
  });
}

/** Refuses the sign-in of a suspended account (called after the password check, in the session's transaction). */
export function assertNotSuspended(row: { suspendedAt: Date | null }): void {
  if (row.suspendedAt) {
    throw new AppError('account_suspended', 'The shop has suspended the sign-in of this customer account');
  }
}
