/**
 * One-use e-mailed tokens of customers, vendors and affiliates: e-mail verification and password
 * reset. Random (256 bits), stored only as SHA-256, ended when used or when a newer token of the
 * same purpose is issued. Expiry follows the database's wall clock (security time, not business time).
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { sha256 } from '../../platform/crypto.js';
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
  await tx
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
    );
  const token = newSecret(PREFIX[input.purpose]);
  await tx.insert(accountTokens).values({
    id: newId('accountToken'),
    shopId: input.shopId,
    subjectKind: input.subject,
    subjectId: input.subjectId,
    purpose: input.purpose,
    tokenHash: sha256(token),
    expiresAt: sql`now() + make_interval(secs => ${TOKEN_TTL_SECONDS[input.purpose]}::int)` as unknown as Date,
  });
  return token;
}

export const tokenInvalid = () =>
  new AppError('token_invalid', 'The link is unknown, used or expired', [
    { path: '/body/token', message: 'is unknown, used or expired' },
  ]);

/** A live token (unused, unexpired), looked up by its hash: the cheap check that runs before any hashing. */
export async function findAccountToken(
  ctx: Ctx,
  subject: TokenSubject,
  purpose: TokenPurpose,
  token: string,
  shopId?: string,
) {
  const [row] = await ctx.db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, sha256(token)),
        eq(accountTokens.subjectKind, subject),
        eq(accountTokens.purpose, purpose),
        shopId ? eq(accountTokens.shopId, shopId) : undefined,
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    );
  if (!row) throw tokenInvalid();
  return row;
}

/**
 * Ends a token in the caller's transaction; exactly one of several concurrent callers succeeds,
 * the others get 400.
 */
export async function useAccountToken(ctx: TxCtx, token: { id: string; shopId: string }): Promise<void> {
  const rows = await ctx.db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.shopId, token.shopId),
        eq(accountTokens.id, token.id),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ id: accountTokens.id });
  if (rows.length === 0) throw tokenInvalid();
}
