/**
 * Customer account credentials (docs/ARCHITECTURE.md): e-mail verification, which guest purchases an account
 * sees, password reset and change. Guest orders and subscriptions of an e-mail belong to the
 * account of that e-mail only once its owner proved the address (a verification or reset link);
 * purchases made while signed in belong to the account at once.
 */

import { randomBytes } from 'node:crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { queueEmail } from '../../adapters/mail/index.js';
import { type Config, normalizeOrigin } from '../../config.js';
import type { Ctx } from '../../platform/auth/types.js';
import { hashPassword, verifyPassword } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/client.js';
import { one, query, type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import { runHook } from '../../platform/hooks.js';
import { clientKey } from '../../platform/http/client-key.js';
import { consume } from '../../platform/http/rate-limit.js';
import { shopName } from '../shops/index.js';
import { findAccountToken, issueAccountToken, tokenInvalid, useAccountToken } from './account-tokens.js';
import { customers } from './identity.tables.js';
import { throttledVerify } from './login-throttle.js';
import { createSession, revokeSessionsOf } from './sessions.js';

type CustomerRow = typeof customers.$inferSelect;

/**
 * Per-address limit of the credential routes that need no password check (register, verify,
 * reset request and confirm, accept): generous, because a headless storefront's server calls them
 * for all its shoppers from one address; the bounded hashing queue is the defence against exhaustion.
 * An IPv6 client counts by its /64 (`clientKey`).
 */
export async function limitAccountCalls(ctx: Ctx, ip: string): Promise<void> {
  await consume(ctx.db, {
    bucket: `account:ip:${clientKey(ip)}`,
    max: ctx.config.accountIpLimitPerMinute,
    windowSeconds: 60,
  });
}

/**
 * The account a completed purchase belongs to: the signed-in buyer, else the account of the
 * e-mail if (and only if) its e-mail is verified; else none (a guest purchase, claimed when the
 * account is verified). The row lock makes a concurrent verification wait for this purchase.
 */
export async function accountForPurchase(
  tx: Db,
  shopId: string,
  signedInCustomerId: string | null,
  email: string,
): Promise<string | null> {
  if (signedInCustomerId) return signedInCustomerId;
  const [row] = await query<{ id: string; email_verified: boolean }>(
    tx,
    sql`SELECT id, email_verified FROM customers WHERE shop_id = ${shopId} AND lower(email) = lower(${email}) FOR SHARE`,
  );
  return row?.email_verified ? row.id : null;
}

/**
 * The signed-in buyer of a storefront checkout or abo session (AuthSpec.signedInCustomer), or
 * null for a guest. The purchase carries the account's e-mail: a body e-mail that differs (case
 * aside) is refused with 409 customer_email_mismatch rather than silently replaced, so an order's
 * receipts never go where the shopper did not expect (docs/decisions.md).
 */
export async function signedInBuyer(
  ctx: Ctx,
  bodyEmail: string,
  path: string,
): Promise<{ customerId: string; email: string } | null> {
  const actor = ctx.actor;
  const customerId =
    actor?.kind === 'publishable' ? actor.customer?.customerId : actor?.kind === 'customer' ? actor.customerId : null;
  if (!customerId) return null;
  const [row] = await ctx.db
    .select({ id: customers.id, email: customers.email })
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.shopId, ctx.shopId)));
  if (!row) {
    throw new AppError('customer_session_invalid', 'The customer session names no account of this shop');
  }
  if (row.email.toLowerCase() !== bodyEmail.toLowerCase()) {
    throw new AppError(
      'customer_email_mismatch',
      "A signed-in purchase uses the account's e-mail; send that address or buy as a guest",
      [{ path, message: "differs from the signed-in account's e-mail" }],
    );
  }
  return { customerId: row.id, email: row.email };
}

/** Marks the e-mail verified and claims its guest purchases; locks the row first (see accountForPurchase). */
async function markVerified(ctx: TxCtx, row: CustomerRow): Promise<CustomerRow> {
  const updated = one(
    await ctx.db
      .update(customers)
      .set({ emailVerified: true, updatedAt: new Date() })
      .where(and(eq(customers.id, row.id), eq(customers.shopId, ctx.shopId)))
      .returning(),
  );
  // orders and digital give the account the e-mail's guest orders and subscriptions
  await runHook(ctx, 'customer.verified', { shopId: ctx.shopId, customerId: row.id, email: row.email });
  return updated;
}

async function shopNameOr(ctx: Ctx): Promise<string> {
  return (await shopName(ctx)) ?? 'Ihr Shop';
}

/** The storefront origin of the calling publishable key: e-mailed links point there. */
const storefrontBase = (ctx: Ctx): string =>
  ctx.actor?.kind === 'publishable' ? ctx.actor.origin : ctx.config.publicUrl;

/**
 * The page of an e-mailed customer link (verification, reset, a subscription's management link):
 * on the service's own origin (PUBLIC_URL) the built-in storefront's account area
 * (`/shop/konto/…`, docs/storefront.md); on a headless storefront's origin (`origin`: the calling
 * publishable key's, or the origin the abo was bought on) the documented `/account/…` path there.
 */
export function customerPageLink(
  config: Pick<Config, 'publicUrl' | 'storefront'>,
  origin: string,
  page: 'verify-email' | 'reset-password' | 'abo',
): string {
  const base = origin.replace(/\/+$/, '');
  return normalizeOrigin(base) === normalizeOrigin(config.publicUrl) && config.storefront
    ? `${base}/shop/konto/${page}`
    : `${base}/account/${page}`;
}

function accountLink(ctx: Ctx, page: 'verify-email' | 'reset-password'): string {
  return customerPageLink(ctx.config, storefrontBase(ctx), page);
}

/**
 * Issues a one-use account token for `purpose` and queues its e-mail in the caller's transaction
 * (a new link ends the earlier one). `lines` builds the text from the shop's name and the token.
 */
async function mailAccountToken(
  ctx: TxCtx,
  row: CustomerRow,
  purpose: 'verify_email' | 'password_reset',
  mail: { kind: string; subject: (shop: string) => string; lines: (shop: string, token: string) => string[] },
): Promise<void> {
  const token = await issueAccountToken(ctx, { shopId: ctx.shopId, subject: 'customer', subjectId: row.id, purpose });
  const name = await shopNameOr(ctx);
  await queueEmail(
    { db: ctx.db, shopId: ctx.shopId, config: ctx.config },
    {
      kind: mail.kind,
      to: row.email,
      subject: mail.subject(name),
      text: mail.lines(name, token).join('\n'),
      secrets: [token],
      now: ctx.clock.now(),
    },
  );
}

/** Queues the verification e-mail of a customer in the caller's transaction (a new link ends the earlier one). */
export async function sendVerificationEmail(ctx: TxCtx, row: CustomerRow): Promise<void> {
  await mailAccountToken(ctx, row, 'verify_email', {
    kind: 'customer_verify_email',
    subject: (name) => `Bitte bestätigen Sie Ihre E-Mail-Adresse bei ${name}`,
    lines: (name, token) => [
      `Willkommen bei ${name}!`,
      '',
      'Bitte bestätigen Sie Ihre E-Mail-Adresse über diesen Link (mit dem Passwort, das Sie bei der Registrierung gewählt haben):',
      '',
      `${accountLink(ctx, 'verify-email')}?token=${encodeURIComponent(token)}`,
      '',
      `Der Link ist 72 Stunden gültig. Token: ${token}`,
      '',
      'Wenn Sie sich nicht selbst registriert haben, öffnen Sie den Link nicht und ignorieren Sie diese E-Mail.',
    ],
  });
}

/**
 * Queues the e-mail to the owner of an existing account whose address someone tried to register
 * again (the registration itself answers as for a new address). It carries no token: the owner
 * signs in, or sets a new password through the reset (which also verifies the address).
 */
export async function sendRegistrationAttemptEmail(ctx: TxCtx, row: CustomerRow): Promise<void> {
  const name = await shopNameOr(ctx);
  await queueEmail(ctx, {
    kind: 'customer_register_attempt',
    to: row.email,
    subject: `Registrierung mit Ihrer E-Mail-Adresse bei ${name}`,
    text: [
      'Guten Tag,',
      '',
      `jemand hat versucht, mit Ihrer E-Mail-Adresse ein Kundenkonto bei ${name} anzulegen. Sie haben dort bereits ein Konto.`,
      '',
      'Waren Sie das, melden Sie sich mit Ihrem Passwort an. Haben Sie es vergessen, legen Sie ein neues fest:',
      accountLink(ctx, 'reset-password'),
      '',
      'Waren Sie es nicht, ignorieren Sie diese E-Mail: Ihr Konto bleibt unverändert.',
    ].join('\n'),
    now: ctx.clock.now(),
  });
}

/**
 * POST /api/customer/verify-email {token, password?}: the verifier proves the mailbox (token) and,
 * with `password`, the account's password, so an address someone else registered (with their
 * password) cannot be verified into their account by its owner's click. Without `password` the
 * mailbox owner verifies alone and the password chosen at registration is discarded (whoever chose
 * it may not own the mailbox): the account is then reachable only through the verifying browser's
 * session and a password reset. Either way: ends the token, marks the e-mail verified, claims guest
 * purchases, ends every earlier session of the account (none made before verification inherits
 * the guest history) and signs the verifying browser in with a new session.
 */
export async function verifyCustomerEmail(ctx: Ctx, ip: string, token: string, password: string | undefined) {
  const found = await findAccountToken(ctx, 'customer', 'verify_email', token, ctx.shopId);
  const [account] = await ctx.db
    .select()
    .from(customers)
    .where(and(eq(customers.id, found.subjectId), eq(customers.shopId, ctx.shopId)));
  if (!account) throw tokenInvalid();
  // the password, under the login throttle: a wrong one leaves the token usable
  const hash = account.passwordHash;
  const ok =
    password === undefined ||
    (await throttledVerify(ctx, `customer:${ctx.shopId}`, account.email, ip, async () =>
      hash ? verifyPassword(hash, password) : false,
    ));
  // verified by the mailbox alone: nobody keeps the password set at registration
  const unusable = password === undefined ? await hashPassword(randomBytes(32).toString('base64url')) : null;
  if (!ok) {
    throw AppError.withStatus('invalid_credentials', 400, 'The password is wrong', [
      { path: '/body/password', message: 'is wrong' },
    ]);
  }
  return withTx(ctx, async (t) => {
    await useAccountToken(t, found.id, found.shopId);
    const [row] = await t.db
      .select()
      .from(customers)
      .where(and(eq(customers.id, found.subjectId), eq(customers.shopId, ctx.shopId)))
      .for('update');
    // the password checked is still the account's (not changed by a reset meanwhile)
    if (!row || row.passwordHash !== hash) throw tokenInvalid();
    if (unusable !== null) {
      await t.db
        .update(customers)
        .set({ passwordHash: unusable, updatedAt: new Date() })
        .where(and(eq(customers.id, row.id), eq(customers.shopId, ctx.shopId)));
    }
    const customer = row.emailVerified ? row : await markVerified(t, row);
    await revokeSessionsOf(t, 'customer', row.id);
    const session = await createSession(t, { shopId: ctx.shopId, kind: 'customer', subjectId: row.id });
    return { customer, session };
  });
}

/** Reset e-mails per account and hour beyond which requests are answered alike but send nothing. */
const RESET_MAILS_PER_HOUR = 5;

/** Whether another reset e-mail may go to this account now (caps mail bombing; never refuses). */
export async function resetMailAllowed(ctx: Ctx, key: string): Promise<boolean> {
  try {
    await consume(ctx.db, { bucket: `reset-mail:${key}`, max: RESET_MAILS_PER_HOUR, windowSeconds: 3600 });
    return true;
  } catch (err) {
    if (err instanceof AppError && err.status === 429) return false;
    throw err;
  }
}

/** POST /api/customer/password-reset: 202 whether or not the account exists. */
export async function requestCustomerReset(ctx: Ctx, email: string): Promise<void> {
  const [row] = await ctx.db
    .select()
    .from(customers)
    .where(
      and(
        eq(customers.shopId, ctx.shopId),
        sql`lower(${customers.email}) = lower(${email})`,
        isNotNull(customers.passwordHash),
      ),
    );
  if (!row || !(await resetMailAllowed(ctx, `customer:${row.id}`))) return;
  await withTx(ctx, (t) =>
    mailAccountToken(t, row, 'password_reset', {
      kind: 'customer_password_reset',
      subject: (name) => `Passwort zurücksetzen bei ${name}`,
      lines: (_name, token) => [
        'Sie haben ein neues Passwort angefordert. Legen Sie es über diesen Link fest:',
        '',
        `${accountLink(ctx, 'reset-password')}?token=${encodeURIComponent(token)}`,
        '',
        `Der Link ist 1 Stunde gültig und funktioniert einmal. Token: ${token}`,
        'Wenn Sie das nicht waren, ignorieren Sie diese E-Mail; Ihr Passwort bleibt unverändert.',
      ],
    }),
  );
}

/**
 * POST /api/customer/password-reset/confirm: token looked up before hashing; sets the password,
 * ends every session, and marks the e-mail verified (the link proved the mailbox).
 */
export async function confirmCustomerReset(ctx: Ctx, token: string, password: string): Promise<CustomerRow> {
  const found = await findAccountToken(ctx, 'customer', 'password_reset', token, ctx.shopId);
  const passwordHash = await hashPassword(password);
  return withTx(ctx, async (t) => {
    const tx = t.db;
    await useAccountToken(t, found.id, found.shopId);
    const [row] = await tx
      .select()
      .from(customers)
      .where(and(eq(customers.id, found.subjectId), eq(customers.shopId, ctx.shopId)))
      .for('update');
    if (!row) throw new AppError('token_invalid', 'The link is unknown, used or expired');
    await tx
      .update(customers)
      .set({ passwordHash, updatedAt: new Date() })
      .where(and(eq(customers.shopId, row.shopId), eq(customers.id, row.id)));
    await revokeSessionsOf(t, 'customer', row.id);
    const updated = row.emailVerified ? row : await markVerified(t, row);
    return { ...updated, passwordHash };
  });
}

/**
 * POST /api/customer/password: checks the current password (under the login throttle), sets the
 * new one, ends every session of the account and returns a fresh one for this client.
 */
export async function changeCustomerPassword(
  ctx: Ctx,
  ip: string,
  input: { current_password: string; new_password: string },
) {
  if (ctx.actor?.kind !== 'customer') throw new AppError('credential_denied', 'Customer session required');
  const customerId = ctx.actor.customerId;
  const [row] = await ctx.db
    .select()
    .from(customers)
    .where(and(eq(customers.id, customerId), eq(customers.shopId, ctx.shopId)));
  if (!row?.passwordHash) throw new AppError('not_found', 'Customer not found');
  const current = row.passwordHash;
  const ok = await throttledVerify(ctx, `customer:${ctx.shopId}`, row.email, ip, () =>
    verifyPassword(current, input.current_password),
  );
  if (!ok) {
    throw AppError.withStatus('invalid_credentials', 400, 'The current password is wrong', [
      { path: '/body/current_password', message: 'is wrong' },
    ]);
  }
  const passwordHash = await hashPassword(input.new_password);
  return withTx(ctx, async (t) => {
    await t.db
      .update(customers)
      .set({ passwordHash, updatedAt: new Date() })
      .where(and(eq(customers.shopId, row.shopId), eq(customers.id, row.id)));
    await revokeSessionsOf(t, 'customer', row.id);
    const session = await createSession(t, { shopId: ctx.shopId, kind: 'customer', subjectId: row.id });
    return { customer: row, session };
  });
}
