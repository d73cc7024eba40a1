/** Business rules of identity: logins, employees, API tokens, publishable keys, customers. */

import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { normalizeOrigin } from '../../config.js';
import type { Ctx, EmployeeRole, Scope } from '../../platform/auth/types.js';
import { dummyPasswordHash, hashPassword, sha256, verifyPassword } from '../../platform/crypto.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import type { Db } from '../../platform/db/client.js';
import {
  dropCredentials,
  dropEmployeeEmail,
  employeeEmailEntry,
  registerCredential,
  registerEmployeeEmail,
} from '../../platform/db/directory.js';
import { isUniqueViolation, one, type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError, conflict, type FieldError, notFound } from '../../platform/errors.js';
import { newId, newSecret } from '../../platform/ids.js';
import { type ShopRow, shopOf } from '../shops/index.js';
import { resetMailAllowed, sendRegistrationAttemptEmail, sendVerificationEmail } from './customer-accounts.js';
import { assertNotSuspended } from './customer-admin.js';
import { apiTokens, customers, publishableKeys, users } from './identity.tables.js';
import { throttledVerify } from './login-throttle.js';
import { createSession, revokeSessionsOf } from './sessions.js';

type UserRow = typeof users.$inferSelect;

export const userOut = (u: UserRow) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  role: u.role as EmployeeRole,
  channel_ids: u.channelIds,
  channel_restricted: u.channelRestricted,
  suspended_at: isoOrNull(u.suspendedAt),
  created_at: iso(u.createdAt),
});

export const shopOut = (s: ShopRow) => ({
  id: s.id,
  name: s.name,
  digital_allowed: s.digitalAllowed,
  created_at: iso(s.createdAt),
});

export const INVALID_LOGIN = () => new AppError('invalid_credentials', 'E-mail or password is wrong');

/**
 * Checks e-mail and password the same way whether or not the account exists, under the login
 * throttle (failed attempts per account and address, and per address; login-throttle.ts).
 */
export async function checkPassword(
  ctx: Ctx,
  scope: string,
  ip: string,
  email: string,
  hash: string | null,
  password: string,
) {
  const ok = await throttledVerify(ctx, scope, email, ip, async () => {
    const matches = await verifyPassword(hash ?? (await dummyPasswordHash()), password);
    return matches && hash !== null;
  });
  if (!ok) throw INVALID_LOGIN();
}

/**
 * Admin login: `{token, user, shop}`; unknown e-mail and wrong password look the same. The
 * context has no shop yet: the employee e-mail directory names the employee and its shop, and the
 * employee is read in that shop only.
 */
export async function loginAdmin(ctx: Ctx, email: string, password: string, ip: string) {
  const entry = await employeeEmailEntry(ctx.db, email);
  const [user] = entry
    ? await ctx.db
        .select()
        .from(users)
        .where(and(eq(users.shopId, entry.shopId), eq(users.id, entry.userId)))
    : [];
  await checkPassword(ctx, 'admin', ip, email, user?.passwordHash ?? null, password);
  const shop = user ? await shopOf({ db: ctx.db, shopId: user.shopId }) : null;
  if (!user || !shop) throw INVALID_LOGIN();
  // a suspended employee is refused after the password check (only they learn it); the row is
  // read again under FOR SHARE so a suspension that commits first is seen, and one that waits
  // revokes this session too
  return withTx({ ...ctx, shopId: shop.id }, async (t) => {
    const [current] = await t.db
      .select()
      .from(users)
      .where(and(eq(users.shopId, shop.id), eq(users.id, user.id)))
      .for('share');
    if (!current) throw INVALID_LOGIN();
    if (current.suspendedAt) {
      throw new AppError('employee_suspended', "The shop's owner has suspended sign-in of this employee");
    }
    const session = await createSession(t, { shopId: shop.id, kind: 'admin', subjectId: current.id });
    return { session, user: current, shop };
  });
}

export async function getUserAndShop(ctx: Ctx, userId: string) {
  const [[user], shop] = await Promise.all([
    ctx.db
      .select()
      .from(users)
      .where(and(eq(users.id, userId), eq(users.shopId, ctx.shopId))),
    shopOf(ctx),
  ]);
  if (!user || !shop) throw notFound('User');
  return { user, shop };
}

/** Changes the caller's password and ends every other session of theirs. */
/** Changes the signed-in employee's password; wrong current passwords count as failed sign-ins. */
export async function changeOwnPassword(ctx: Ctx, ip: string, current: string, next: string) {
  if (ctx.actor?.kind !== 'admin') throw new AppError('credential_denied', 'Admin session required');
  const actor = ctx.actor;
  const { user } = await getUserAndShop(ctx, actor.userId);
  const ok = await throttledVerify(ctx, 'admin', user.email, ip, () => verifyPassword(user.passwordHash, current));
  if (!ok) {
    throw AppError.withStatus('invalid_credentials', 400, 'The current password is wrong', [
      { path: '/body/current_password', message: 'is wrong' },
    ]);
  }
  const hash = await hashPassword(next);
  await withTx(ctx, async (t) => {
    await t.db
      .update(users)
      .set({ passwordHash: hash, updatedAt: new Date() })
      .where(and(eq(users.shopId, user.shopId), eq(users.id, user.id)));
    await revokeSessionsOf(t, 'admin', user.id, actor.sessionId);
  });
}

// ---- employees -------------------------------------------------------------------------------

export async function listEmployees(ctx: Ctx) {
  return ctx.db.select().from(users).where(eq(users.shopId, ctx.shopId)).orderBy(users.createdAt);
}

export async function createEmployee(
  ctx: Ctx,
  input: { email: string; password: string; name?: string; role: EmployeeRole; channel_ids?: string[] | null },
) {
  const passwordHash = await hashPassword(input.password);
  try {
    return await withTx(ctx, async (t) => {
      const row = one(
        await t.db
          .insert(users)
          .values({
            id: newId('user'),
            shopId: ctx.shopId,
            email: input.email,
            name: input.name ?? null,
            passwordHash,
            role: input.role,
            channelIds: input.channel_ids ?? [],
            // an explicit list, even an empty one, restricts; absent or null = every channel
            channelRestricted: Array.isArray(input.channel_ids),
          })
          .returning(),
      );
      // an employee e-mail is unique across every shop: the directory's key says so
      await registerEmployeeEmail(t.db, { email: row.email, shopId: row.shopId, userId: row.id });
      return row;
    });
  } catch (err) {
    // the directory's key (any shop) or the shop's own e-mail index: the same answer
    if (isUniqueViolation(err)) throw conflict('email_taken', 'An employee with this e-mail already exists');
    throw err;
  }
}

async function ownerCount(ctx: Ctx): Promise<number> {
  const rows = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.shopId, ctx.shopId), eq(users.role, 'owner')));
  return rows[0]?.n ?? 0;
}

/**
 * The employee `id` (404 when the shop has none), with the shop's owners locked first so two
 * concurrent demotions or removals cannot both pass the last-owner check.
 */
async function employeeOwnersLocked(t: TxCtx, id: string) {
  await t.db.execute(sql`SELECT id FROM users WHERE shop_id = ${t.shopId} AND role = 'owner' FOR UPDATE`);
  const [current] = await t.db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.shopId, t.shopId)));
  if (!current) throw notFound('Employee');
  return current;
}

/** Updates an employee; the last owner can never be demoted. A new password ends their sessions. */
export async function updateEmployee(
  ctx: Ctx,
  id: string,
  patch: { name?: string | null; role?: EmployeeRole; channel_ids?: string[] | null; password?: string },
) {
  const passwordHash = patch.password ? await hashPassword(patch.password) : undefined;
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const current = await employeeOwnersLocked(t, id);
    if (current.role === 'owner' && patch.role && patch.role !== 'owner' && (await ownerCount(t)) <= 1) {
      throw conflict('last_owner', 'The last owner cannot be demoted; make another employee owner first');
    }
    const row = one(
      await tx
        .update(users)
        .set({
          ...(patch.name !== undefined ? { name: patch.name } : {}),
          ...(patch.role ? { role: patch.role } : {}),
          // null lifts the restriction; a list (even empty) sets it
          ...(patch.channel_ids !== undefined
            ? { channelIds: patch.channel_ids ?? [], channelRestricted: patch.channel_ids !== null }
            : {}),
          ...(passwordHash ? { passwordHash } : {}),
          updatedAt: new Date(),
        })
        .where(and(eq(users.shopId, ctx.shopId), eq(users.id, id)))
        .returning(),
    );
    if (passwordHash) await revokeSessionsOf(t, 'admin', id);
    return row;
  });
}

/** The signed-in employee may neither remove nor suspend their own account (409 own_account). */
function assertNotSelf(ctx: Ctx, id: string, what: string): void {
  if (ctx.actor?.kind === 'admin' && ctx.actor.userId === id) {
    throw conflict('own_account', `An employee cannot ${what} their own account`);
  }
}

export async function deleteEmployee(ctx: Ctx, id: string) {
  await withTx(ctx, async (t) => {
    const tx = t.db;
    const current = await employeeOwnersLocked(t, id);
    assertNotSelf(ctx, id, 'remove');
    if (current.role === 'owner' && (await ownerCount(t)) <= 1) {
      throw conflict('last_owner', 'The last owner cannot be removed');
    }
    await revokeSessionsOf(t, 'admin', id);
    await tx.delete(users).where(and(eq(users.shopId, t.shopId), eq(users.id, id)));
    await dropEmployeeEmail(tx, t.shopId, id);
  });
}

/**
 * Suspends an employee's sign-in: their sessions end and logins are refused with 403
 * employee_suspended until restored. Not one's own account (so an active owner always remains);
 * suspending a suspended employee keeps its date. The row lock orders it with a concurrent login.
 */
export async function suspendEmployee(ctx: Ctx, id: string): Promise<UserRow> {
  return withTx(ctx, async (t) => {
    const [row] = await t.db
      .select()
      .from(users)
      .where(and(eq(users.id, id), eq(users.shopId, ctx.shopId)))
      .for('update');
    if (!row) throw notFound('Employee');
    assertNotSelf(ctx, id, 'suspend');
    const now = ctx.clock.now();
    const [updated] = row.suspendedAt
      ? [row]
      : await t.db
          .update(users)
          .set({ suspendedAt: now, updatedAt: now })
          .where(and(eq(users.shopId, ctx.shopId), eq(users.id, id)))
          .returning();
    await revokeSessionsOf(t, 'admin', id);
    return updated as UserRow;
  });
}

/** Lets a suspended employee sign in again (one not suspended is answered as it is). */
export async function restoreEmployee(ctx: Ctx, id: string): Promise<UserRow> {
  return withTx(ctx, async (t) => {
    const [row] = await t.db
      .select()
      .from(users)
      .where(and(eq(users.id, id), eq(users.shopId, ctx.shopId)))
      .for('update');
    if (!row) throw notFound('Employee');
    if (!row.suspendedAt) return row;
    const [updated] = await t.db
      .update(users)
      .set({ suspendedAt: null, updatedAt: ctx.clock.now() })
      .where(and(eq(users.shopId, ctx.shopId), eq(users.id, id)))
      .returning();
    return updated as UserRow;
  });
}

// ---- API tokens ------------------------------------------------------------------------------

type TokenRow = typeof apiTokens.$inferSelect;
export const tokenOut = (t: TokenRow) => ({
  id: t.id,
  name: t.name,
  prefix: t.prefix,
  scopes: t.scopes as Scope[],
  last_used_at: isoOrNull(t.lastUsedAt),
  created_by: t.createdBy,
  created_at: iso(t.createdAt),
});

export async function listApiTokens(ctx: Ctx) {
  return ctx.db
    .select()
    .from(apiTokens)
    .where(and(eq(apiTokens.shopId, ctx.shopId), isNull(apiTokens.revokedAt)))
    .orderBy(desc(apiTokens.createdAt));
}

export async function createApiToken(ctx: Ctx, input: { name: string; scopes: Scope[] }) {
  const token = newSecret('tok');
  const row = await withTx(ctx, async (t) => {
    const created = one(
      await t.db
        .insert(apiTokens)
        .values({
          id: newId('apiToken'),
          shopId: ctx.shopId,
          name: input.name,
          prefix: token.slice(0, 12),
          tokenHash: sha256(token),
          scopes: input.scopes,
          createdBy: ctx.actor?.kind === 'admin' ? ctx.actor.userId : null,
        })
        .returning(),
    );
    await registerCredential(t.db, {
      hash: created.tokenHash,
      kind: 'api_token',
      shopId: ctx.shopId,
      rowId: created.id,
    });
    return created;
  });
  return { row, token };
}

/** Revokes a live API token of the shop and forgets its directory row; 404 when there is none. */
export async function revokeApiToken(ctx: Ctx, id: string) {
  await withTx(ctx, async (t) => {
    const rows = await t.db
      .update(apiTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(apiTokens.id, id), eq(apiTokens.shopId, ctx.shopId), isNull(apiTokens.revokedAt)))
      .returning({ hash: apiTokens.tokenHash });
    if (rows.length === 0) throw notFound('API token');
    await dropCredentials(
      t.db,
      rows.map((r) => r.hash),
    );
  });
}

// ---- publishable keys ------------------------------------------------------------------------

type KeyRow = typeof publishableKeys.$inferSelect;
export const keyOut = (k: KeyRow) => ({
  id: k.id,
  name: k.name,
  key: k.key,
  allowed_origins: k.allowedOrigins,
  created_at: iso(k.createdAt),
});

/** Normalises origins (lowercase, default ports dropped); anything with a path is refused. */
export function normalizeOrigins(origins: string[], path = '/body/allowed_origins'): string[] {
  const errors: FieldError[] = [];
  const out: string[] = [];
  origins.forEach((raw, i) => {
    const n = normalizeOrigin(raw);
    let bare = false;
    try {
      const u = new URL(raw);
      bare = (u.pathname === '/' || u.pathname === '') && !u.search && !u.hash && !u.username;
    } catch {
      bare = false;
    }
    if (!n || !bare) errors.push({ path: `${path}/${i}`, message: 'must be an origin like https://shop.example' });
    else if (!out.includes(n)) out.push(n);
  });
  if (errors.length > 0) throw new AppError('validation_failed', 'allowed_origins holds an invalid origin', errors);
  return out;
}

export async function listPublishableKeys(ctx: Ctx) {
  return ctx.db
    .select()
    .from(publishableKeys)
    .where(and(eq(publishableKeys.shopId, ctx.shopId), isNull(publishableKeys.revokedAt)))
    .orderBy(desc(publishableKeys.createdAt));
}

export async function createPublishableKey(ctx: Ctx, input: { name: string; allowed_origins: string[] }) {
  const allowedOrigins = normalizeOrigins(input.allowed_origins);
  return withTx(ctx, async (t) => {
    const row = one(
      await t.db
        .insert(publishableKeys)
        .values({
          id: newId('publishableKey'),
          shopId: ctx.shopId,
          name: input.name,
          key: newSecret('pk'),
          allowedOrigins,
        })
        .returning(),
    );
    // the key is not secret, but the directory holds every credential by its SHA-256 alike
    await registerCredential(t.db, {
      hash: sha256(row.key),
      kind: 'publishable_key',
      shopId: ctx.shopId,
      rowId: row.id,
    });
    return row;
  });
}

export async function updatePublishableKey(ctx: Ctx, id: string, patch: { name?: string; allowed_origins?: string[] }) {
  const origins = patch.allowed_origins ? normalizeOrigins(patch.allowed_origins) : undefined;
  const rows = await ctx.db
    .update(publishableKeys)
    // id = id keeps the statement valid when the patch is empty (it then only checks existence)
    .set({
      id: sql`${publishableKeys.id}`,
      ...(patch.name ? { name: patch.name } : {}),
      ...(origins ? { allowedOrigins: origins } : {}),
    })
    .where(and(eq(publishableKeys.id, id), eq(publishableKeys.shopId, ctx.shopId), isNull(publishableKeys.revokedAt)))
    .returning();
  if (!rows[0]) throw notFound('Publishable key');
  return rows[0];
}

/** Revokes a live publishable key of the shop and forgets its directory row; 404 when there is none. */
export async function revokePublishableKey(ctx: Ctx, id: string) {
  await withTx(ctx, async (t) => {
    const rows = await t.db
      .update(publishableKeys)
      .set({ revokedAt: new Date() })
      .where(and(eq(publishableKeys.id, id), eq(publishableKeys.shopId, ctx.shopId), isNull(publishableKeys.revokedAt)))
      .returning({ key: publishableKeys.key });
    if (rows.length === 0) throw notFound('Publishable key');
    await dropCredentials(
      t.db,
      rows.map((r) => sha256(r.key)),
    );
  });
}

// ---- customers -------------------------------------------------------------------------------

type CustomerRow = typeof customers.$inferSelect;
export const customerOut = (c: CustomerRow) => ({
  id: c.id,
  email: c.email,
  name: c.name,
  email_verified: c.emailVerified,
  created_at: iso(c.createdAt),
});

/**
 * Registers a customer (docs/decisions.md, "Registration answers alike"): a new address (or a
 * row without a password, e.g. from a purchase) gets an unverified account and the verification
 * e-mail; an address that has an account gets an e-mail telling its owner that someone tried,
 * and nothing else changes. The caller cannot tell the two apart: both answer 202 with no
 * session (an account signs in once its e-mail is verified), and both hash the password.
 */
export async function registerCustomer(ctx: Ctx, input: { email: string; password: string; name?: string }) {
  const passwordHash = await hashPassword(input.password);
  const existingOf = async (db: Db, lock: boolean) => {
    const q = db
      .select()
      .from(customers)
      .where(and(eq(customers.shopId, ctx.shopId), sql`lower(${customers.email}) = lower(${input.email})`));
    return (lock ? await q.for('update') : await q)[0];
  };
  const taken = await existingOf(ctx.db, false);
  if (taken?.passwordHash) {
    if (await resetMailAllowed(ctx, `register:customer:${taken.id}`)) {
      await withTx(ctx, (t) => sendRegistrationAttemptEmail(t, taken));
    }
    return;
  }
  await withTx(ctx, async (t) => {
    const tx = t.db;
    const existing = await existingOf(tx, true);
    if (existing?.passwordHash) {
      // registered concurrently: the other request mailed the owner
      return;
    }
    let row: CustomerRow;
    if (existing) {
      // A row without a password is claimed, but stays unverified: it proves nothing about the e-mail.
      [row] = (await tx
        .update(customers)
        .set({ passwordHash, name: input.name ?? null, emailVerified: false, updatedAt: new Date() })
        .where(and(eq(customers.shopId, existing.shopId), eq(customers.id, existing.id)))
        .returning()) as [CustomerRow];
    } else {
      const inserted = (await tx
        .insert(customers)
        .values({
          id: newId('customer'),
          shopId: ctx.shopId,
          email: input.email,
          name: input.name ?? null,
          passwordHash,
        })
        .onConflictDoNothing()
        .returning()) as CustomerRow[];
      // a concurrent registration of the address won: it sent the verification e-mail
      if (!inserted[0]) return;
      row = inserted[0];
    }
    await sendVerificationEmail(t, row);
  });
}

/**
 * Customer sign-in. An account whose e-mail is not verified yet cannot sign in, and is answered
 * exactly like a wrong password (the verification link signs it in): otherwise registering an
 * address and signing in with the chosen password would tell whether the address had an account.
 */
export async function loginCustomer(ctx: Ctx, email: string, password: string, ip: string) {
  const [row] = await ctx.db
    .select()
    .from(customers)
    .where(and(eq(customers.shopId, ctx.shopId), sql`lower(${customers.email}) = lower(${email})`));
  const hash = row?.emailVerified ? row.passwordHash : null;
  await checkPassword(ctx, `customer:${ctx.shopId}`, ip, email, hash, password);
  if (!row) throw INVALID_LOGIN();
  // a suspended account is refused after the password check (only its owner learns it); the row
  // is read again under FOR SHARE so a suspension that commits first is seen, and one that
  // waits revokes this session too
  return withTx(ctx, async (t) => {
    const [current] = await t.db
      .select()
      .from(customers)
      .where(and(eq(customers.id, row.id), eq(customers.shopId, ctx.shopId)))
      .for('share');
    if (!current) throw INVALID_LOGIN();
    assertNotSuspended(current);
    const session = await createSession(t, { shopId: ctx.shopId, kind: 'customer', subjectId: current.id });
    return { customer: current, session };
  });
}

export async function getCustomer(ctx: Ctx, id: string) {
  const [row] = await ctx.db
    .select()
    .from(customers)
    .where(and(eq(customers.id, id), eq(customers.shopId, ctx.shopId)));
  if (!row) throw notFound('Customer');
  return row;
}
