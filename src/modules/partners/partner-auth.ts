/**
 * Portal access for vendors and affiliates (docs/ARCHITECTURE.md): an admin's invite e-mails a one-time
 * accept link (random token, only its SHA-256 stored, valid 7 days); accepting sets the password
 * and signs in; afterwards `…/auth/login` with e-mail and password. Sessions are `vsess_…` /
 * `asess_…` (cookie `vsid` / `asid`). A suspended vendor or blocked affiliate cannot sign in.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { queueEmail } from '../../adapters/mail/index.js';
import type { Ctx } from '../../platform/auth/types.js';
import { hashPassword, sha256 } from '../../platform/crypto.js';
import { credentialEntry, dropCredentials, registerCredential } from '../../platform/db/directory.js';
import { type TxCtx, withTx } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import { newSecret } from '../../platform/ids.js';
import {
  checkPassword,
  createSession,
  findAccountToken,
  INVALID_LOGIN,
  issueAccountToken,
  resetMailAllowed,
  revokeSessionsOf,
  tokenInvalid,
  useAccountToken,
} from '../identity/index.js';
import { shopName } from '../shops/index.js';
import { affiliates, type PartnerType, vendors } from './partners.tables.js';

const INVITE_TTL_MS = 7 * 86_400_000;

const tableOf = (kind: PartnerType) => (kind === 'vendor' ? vendors : affiliates);

const LABEL: Record<PartnerType, { de: string; path: string }> = {
  vendor: { de: 'Händlerportal', path: 'vendor' },
  affiliate: { de: 'Partnerprogramm', path: 'affiliate' },
};

/**
 * Issues a fresh invite for a vendor or affiliate row of the shop in the caller's transaction (an
 * earlier link stops working) and queues the e-mail with the accept link. Sent if and only if the
 * transaction commits.
 */
export async function issueInvite(
  ctx: TxCtx,
  kind: PartnerType,
  row: { id: string; email: string; name: string },
  now: Date,
): Promise<void> {
  const { db: tx, shopId } = ctx;
  const token = newSecret(kind === 'vendor' ? 'vinv' : 'ainv');
  const table = tableOf(kind);
  const hash = sha256(token);
  const [earlier] = await tx
    .select({ hash: table.inviteTokenHash })
    .from(table)
    .where(and(eq(table.id, row.id), eq(table.shopId, shopId)))
    .for('update');
  await tx
    .update(table)
    .set({
      inviteTokenHash: hash,
      inviteExpiresAt: new Date(now.getTime() + INVITE_TTL_MS),
      invitedAt: now,
      updatedAt: now,
    })
    .where(and(eq(table.id, row.id), eq(table.shopId, shopId)));
  // the earlier link stops working: its directory row goes, the new one's comes
  await dropCredentials(tx, [earlier?.hash]);
  await registerCredential(tx, { hash, kind: `${kind}_invite`, shopId, rowId: row.id });
  const shop = await shopName({ db: tx, shopId });
  const link = `${ctx.config.publicUrl}/${LABEL[kind].path}/accept?token=${encodeURIComponent(token)}`;
  await queueEmail(
    { db: tx, shopId, config: ctx.config },
    {
      kind: `${kind}_invite`,
      to: row.email,
      subject: `Einladung: ${LABEL[kind].de} von ${shop ?? 'unserem Shop'}`,
      text: [
        `Hallo ${row.name},`,
        '',
        `${shop ?? 'Wir'} lädt Sie in das ${LABEL[kind].de} ein. Legen Sie Ihr Passwort über diesen Link fest:`,
        '',
        link,
        '',
        `Der Link ist 7 Tage gültig. Token: ${token}`,
      ].join('\n'),
      secrets: [token],
      now,
    },
  );
}

/** Signed-up (password set) partners of `kind` with this e-mail, in `shop_id`'s shop when given. */
function signedUpByEmail(ctx: Ctx, kind: PartnerType, input: { email: string; shop_id?: string }, limit: number) {
  const table = tableOf(kind);
  return ctx.db
    .select()
    .from(table)
    .where(
      and(
        sql`lower(${table.email}) = lower(${input.email})`,
        input.shop_id ? eq(table.shopId, input.shop_id) : undefined,
        isNotNull(table.passwordHash),
      ),
    )
    .limit(limit);
}

/** Blocked states that may not sign in. */
const locked = (kind: PartnerType, status: string) =>
  kind === 'vendor' ? status === 'suspended' : status === 'blocked';

/**
 * Accepts an invite: sets the password, activates an invited vendor, ends the token and
 * returns a new session. The token row is locked so a link works exactly once. No shop is
 * signed in yet: the credential directory names the partner's shop, and the partner is read
 * (and locked) in that shop only.
 */
export async function acceptInvite(ctx: Ctx, kind: PartnerType, token: string, password: string) {
  const table = tableOf(kind);
  const now = ctx.clock.now();
  const hash = sha256(token);
  const findRow = async (c: Ctx, lock: boolean) => {
    const entry = await credentialEntry(c.db, `${kind}_invite`, hash);
    const q = c.db
      .select()
      .from(table)
      .where(
        and(
          eq(table.shopId, entry?.shopId ?? ''),
          eq(table.id, entry?.rowId ?? ''),
          eq(table.inviteTokenHash, hash),
          isNotNull(table.inviteTokenHash),
        ),
      );
    const [row] = !entry ? [] : lock ? await q.for('update') : await q;
    if (!row?.inviteExpiresAt || row.inviteExpiresAt.getTime() <= now.getTime()) {
      throw new AppError('invite_invalid', 'The invitation link is unknown, used or expired', [
        { path: '/body/token', message: 'is unknown, used or expired' },
      ]);
    }
    if (locked(kind, row.status)) throw new AppError('account_locked', `This ${kind} account is locked`);
    return row;
  };
  // Cheap check first: an unknown or used token costs no password hash.
  await findRow(ctx, false);
  const passwordHash = await hashPassword(password);
  return withTx(ctx, async (t) => {
    const row = await findRow(t, true);
    const status = kind === 'vendor' && row.status === 'invited' ? 'active' : row.status;
    const [updated] = await t.db
      .update(table)
      .set({ passwordHash, inviteTokenHash: null, inviteExpiresAt: null, acceptedAt: now, status, updatedAt: now })
      .where(and(eq(table.shopId, row.shopId), eq(table.id, row.id)))
      .returning();
    await dropCredentials(t.db, [hash]);
    const session = await createSession(t, { shopId: row.shopId, kind, subjectId: row.id });
    return { partner: updated as typeof row, session };
  });
}

/**
 * Signs a vendor or affiliate in. The same e-mail may belong to partners of several shops:
 * `shop_id` picks one; without it an e-mail of several shops is 400 `shop_required`.
 */
export async function loginPartner(
  ctx: Ctx,
  kind: PartnerType,
  input: { email: string; password: string; shop_id?: string },
  ip: string,
) {
  const rows = await signedUpByEmail(ctx, kind, input, 2);
  if (rows.length > 1) {
    throw new AppError('shop_required', 'This e-mail has accounts at several shops; send shop_id', [
      { path: '/body/shop_id', message: 'is required for this e-mail' },
    ]);
  }
  const row = rows[0];
  await checkPassword(ctx, kind, ip, input.email, row?.passwordHash ?? null, input.password);
  if (!row) throw INVALID_LOGIN();
  if (locked(kind, row.status)) throw new AppError('account_locked', `This ${kind} account is locked`);
  const session = await createSession(ctx, { shopId: row.shopId, kind, subjectId: row.id });
  return { partner: row, session };
}

/**
 * Password-reset request of a vendor or affiliate: every signed-up, unlocked account of the e-mail
 * (in `shop_id`'s shop when given) gets a one-use link valid 1 h. The caller always gets 202.
 */
export async function requestPartnerReset(
  ctx: Ctx,
  kind: PartnerType,
  input: { email: string; shop_id?: string },
): Promise<void> {
  const now = ctx.clock.now();
  const rows = await signedUpByEmail(ctx, kind, input, 20);
  for (const row of rows) {
    if (locked(kind, row.status)) continue;
    if (!(await resetMailAllowed(ctx, `${kind}:${row.id}`))) continue;
    await withTx(ctx, async (t) => {
      const tx = t.db;
      const token = await issueAccountToken(t, {
        shopId: row.shopId,
        subject: kind,
        subjectId: row.id,
        purpose: 'password_reset',
      });
      const shop = await shopName({ db: tx, shopId: row.shopId });
      await queueEmail(
        { db: tx, shopId: row.shopId, config: t.config },
        {
          kind: `${kind}_password_reset`,
          to: row.email,
          subject: `${LABEL[kind].de} von ${shop ?? 'unserem Shop'}: Passwort zurücksetzen`,
          text: [
            `Hallo ${row.name},`,
            '',
            'Sie haben ein neues Passwort angefordert. Legen Sie es über diesen Link fest:',
            '',
            `${t.config.publicUrl}/${LABEL[kind].path}/reset-password?token=${encodeURIComponent(token)}`,
            '',
            `(oder mit dem Token über POST /api/${LABEL[kind].path}/auth/password-reset/confirm {token, password})`,
            `Token: ${token}`,
            '',
            'Das Token ist 1 Stunde gültig und funktioniert einmal. Wenn Sie das nicht waren, ignorieren Sie diese E-Mail.',
          ].join('\n'),
          secrets: [token],
          now,
        },
      );
    });
  }
}

/**
 * Sets a new password with a reset token (looked up before hashing) and ends every session. No
 * shop is signed in: the token names the partner and its shop.
 */
export async function confirmPartnerReset(ctx: Ctx, kind: PartnerType, token: string, password: string) {
  const table = tableOf(kind);
  const found = await findAccountToken(ctx, kind, 'password_reset', token);
  const passwordHash = await hashPassword(password);
  return withTx(ctx, async (t) => {
    const tx = t.db;
    await useAccountToken(t, found.id, found.shopId);
    const [row] = await tx
      .select()
      .from(table)
      .where(and(eq(table.id, found.subjectId), eq(table.shopId, found.shopId)))
      .for('update');
    if (!row) throw tokenInvalid();
    if (locked(kind, row.status)) throw new AppError('account_locked', `This ${kind} account is locked`);
    const [updated] = await tx
      .update(table)
      .set({ passwordHash, updatedAt: new Date() })
      .where(and(eq(table.shopId, row.shopId), eq(table.id, row.id)))
      .returning();
    await revokeSessionsOf({ ...t, shopId: row.shopId }, kind, row.id);
    return updated as typeof row;
  });
}
