/**
 * One-use e-mailed tokens of customers, vendors and affiliates: e-mail verification and password
 * reset. Random (256 bits), stored only as SHA-256, ended when used or when a newer token of the
 * same purpose is issued. Expiry follows the database's wall clock (security time, not business time).
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { sha256 } from '../../platform/crypto.js';
import { credentialEntry, dropCredentials, registerCredential } from '../../platform/db/directory.js';
import type { TxCtx } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import { newId, newSecret } from '../../platform/ids.js';
import { accountTokens } from './identity.tables.js';

export type TokenSubject = 'customer' | 'vendor' | 'affiliate';
export type TokenPurpose = 'verify_email' | 'password_reset';

/** How long a link works: reset 1 h (docs/ARCHITECTURE.md), verification 72 h. */
export const TOKEN_TTL_SECONDS: Record<TokenPurpose, number> = { password_reset: 3600, verify_email: 72 * 3600 };

const PREFIX: Record<TokenPurpose, string> = { password_reset: 'reset', verify_email: 'verify' };

/**
 * Issues a token in the caller's transaction and ends earlier unused tokens of the same subject
 * and purpose. `input.shopId` is the subject's shop (a partner's reset runs in no shop's context).
 */
export async function issueAccountToken(
  ctx: TxCtx,
  input: { shopId: string; subject: TokenSubject; subjectId: string; purpose: TokenPurpose },
): Promise<string> {
  const tx = ctx.db;
  const ended = await tx
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.shopId, input.shopId),
        eq(accountTokens.subjectKind, input.subject),
        eq(accountTokens.subjectId, input.subjectId),
        eq(accountTokens.purpose, input.purpose),
        isNull(accountTokens.usedAt),
      ),
    )
    .returning({ hash: accountTokens.tokenHash });
  await dropCredentials(
    tx,
    ended.map((r) => r.hash),
  );
  const token = newSecret(PREFIX[input.purpose]);
  const id = newId('accountToken');
  const tokenHash = sha256(token);
  await tx.insert(accountTokens).values({
    id,
    shopId: input.shopId,
    subjectKind: input.subject,
    subjectId: input.subjectId,
    purpose: input.purpose,
    tokenHash,
    expiresAt: sql`now() + make_interval(secs => ${TOKEN_TTL_SECONDS[input.purpose]}::int)` as unknown as Date,
  });
  await registerCredential(tx, { hash: tokenHash, kind: 'account_token', shopId: input.shopId, rowId: id });
  return token;
}

export const tokenInvalid = () =>
  new AppError('token_invalid', 'The link is unknown, used or expired', [
    { path: '/body/token', message: 'is unknown, used or expired' },
  ]);

/**
 * A live token (unused, unexpired), looked up by its hash: the cheap check that runs before any
 * hashing. The credential directory names its shop; the token is read in that shop only (and must
 * be of `shopId` when given).
 */
export async function findAccountToken(
  ctx: Ctx,
  subject: TokenSubject,
  purpose: TokenPurpose,
  token: string,
  shopId?: string,
) {
  const hash = sha256(token);
  const entry = await credentialEntry(ctx.db, 'account_token', hash);
  if (!entry || (shopId && entry.shopId !== shopId)) throw tokenInvalid();
  const [row] = await ctx.db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.shopId, entry.shopId),
        eq(accountTokens.tokenHash, hash),
        eq(accountTokens.subjectKind, subject),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    );
  if (!row) throw tokenInvalid();
  return row;
}

/**
 * Ends a token of `shopId` in the caller's transaction and forgets its directory row; exactly one
 * of several concurrent callers succeeds, the others get 400.
 */
export async function useAccountToken(ctx: TxCtx, id: string, shopId: string): Promise<void> {
  const rows = await ctx.db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.shopId, shopId),
        eq(accountTokens.id, id),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ hash: accountTokens.tokenHash });
  if (rows.length === 0) throw tokenInvalid();
  await dropCredentials(
    ctx.db,
    rows.map((r) => r.hash),
  );
}
