/**
 * Server-side sessions for every kind of person: admin employees, customers, vendors and
 * affiliates. The token is random, shown once, and stored only as its SHA-256.
 * Expiry slides with use and follows the wall clock, not the simulated business clock.
 */
import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { sha256 } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/client.js';
import { credentialEntry, dropCredentials, registerCredential } from '../../platform/db/directory.js';
import { prepared } from '../../platform/db/prepared.js';
import { query, withTx } from '../../platform/db/tx.js';
import { newId, newSecret } from '../../platform/ids.js';
import { catalogVersionOf } from '../catalog/index.js';
import { type SessionKind, sessions, users } from './identity.tables.js';

export type { SessionKind };

export const SESSION_PREFIX: Record<SessionKind, string> = {
  admin: 'sess',
  customer: 'csess',
  vendor: 'vsess',
  affiliate: 'asess',
};

export const SESSION_COOKIE: Record<SessionKind, string> = {
  admin: 'sid',
  customer: 'csid',
  vendor: 'vsid',
  affiliate: 'asid',
};

/**
 * Session lifetimes (configured from SESSION_* / CUSTOMER_SESSION_*): a session ends after
 * `idle` seconds without use (sliding) and in any case `maxAge` seconds after sign-in.
 */
export interface SessionPolicy {
  idle: number;
  maxAge: number;
}

const HOUR = 3600;
const policies: Record<SessionKind, SessionPolicy> = {
  admin: { idle: 12 * HOUR, maxAge: 7 * 24 * HOUR },
  customer: { idle: 30 * 24 * HOUR, maxAge: 90 * 24 * HOUR },
  vendor: { idle: 12 * HOUR, maxAge: 7 * 24 * HOUR },
  affiliate: { idle: 12 * HOUR, maxAge: 7 * 24 * HOUR },
};

/** Applies the configured idle timeout and absolute lifetime (called once when the app is built). */
export function configureSessions(s: {
  staffIdleSeconds: number;
  staffMaxAgeSeconds: number;
  customerIdleSeconds: number;
  customerMaxAgeSeconds: number;
}): void {
  const staff = { idle: s.staffIdleSeconds, maxAge: s.staffMaxAgeSeconds };
  policies.admin = staff;
  policies.vendor = staff;
  policies.affiliate = staff;
  policies.customer = { idle: s.customerIdleSeconds, maxAge: s.customerMaxAgeSeconds };
}

export const sessionPolicy = (kind: SessionKind): SessionPolicy => policies[kind];

/** Sliding expiry is written at most this often per session (a quarter of the idle timeout, ≤ 5 min). */
const touchAfter = (p: SessionPolicy) => Math.max(1, Math.min(300, Math.floor(p.idle / 4)));

/** A new session of a person of `input.shopId` (at sign-in the context has no shop yet), with its directory row. */
export async function createSession(
  ctx: Pick<Ctx, 'db'>,
  input: { shopId: string; kind: SessionKind; subjectId: string },
): Promise<{ token: string; id: string; expiresAt: Date }> {
  const token = newSecret(SESSION_PREFIX[input.kind]);
  const id = newId('session');
  const p = policies[input.kind];
  const expiresAt = new Date(Date.now() + Math.min(p.idle, p.maxAge) * 1000);
  const tokenHash = sha256(token);
  await withTx(ctx.db, async (tx) => {
    await tx.insert(sessions).values({
      id,
      shopId: input.shopId,
      kind: input.kind,
      subjectId: input.subjectId,
      tokenHash,
      expiresAt,
    });
    await registerCredential(tx, { hash: tokenHash, kind: `${input.kind}_session`, shopId: input.shopId, rowId: id });
  });
  return { token, id, expiresAt };
}

export interface ActiveSession {
  id: string;
  shop_id: string;
  subject_id: string;
  /** The shop's storefront (catalog) version, read in the same query. */
  catalog_version: number;
}

export interface SessionUser {
  role: string;
  email: string;
  channel_ids: string[];
  channel_restricted: boolean;
}

/**
 * Finds a live session of `kind` for the token, extending its expiry when due: the credential
 * directory names the shop (one primary-key read), then the session is read in that shop only.
 * For admin sessions the employee comes along in the same round trip (every admin request needs it).
 */
export async function findSession(
  db: Db,
  kind: SessionKind,
  token: string,
): Promise<(ActiveSession & { user?: SessionUser }) | null> {
  // prepared per kind: every authenticated request runs it
  // prepared per kind: every authenticated request runs it. Only an admin session joins its
  // employee (same shop: on Citus a join on the distribution column); other kinds join nothing
  // (a `LEFT JOIN … ON false` would make Citus refuse the statement as a non-co-located join).
  const statement = prepared(db, `session_${kind}`, (d, name) => {
    const query = d
      .select({
        id: sessions.id,
        shop_id: sessions.shopId,
        subject_id: sessions.subjectId,
        created_at: sessions.createdAt,
        touch: sql<boolean>`${sessions.lastSeenAt} < now() - make_interval(secs => ${sql.placeholder('touch')}::int)`,
        role: kind === 'admin' ? users.role : sql<string | null>`NULL::text`,
        email: kind === 'admin' ? users.email : sql<string | null>`NULL::text`,
        channel_ids: kind === 'admin' ? users.channelIds : sql<string[] | null>`NULL::text[]`,
        channel_restricted: kind === 'admin' ? users.channelRestricted : sql<boolean | null>`NULL::boolean`,
        // the shop's catalog/storefront version, for the version-checked caches (one round trip)
        catalog_version: catalogVersionOf(sessions.shopId),
      })
      .from(sessions)
      .$dynamic();
    const joined =
      kind === 'admin'
        ? query.leftJoin(users, and(eq(users.shopId, sessions.shopId), eq(users.id, sessions.subjectId)))
        : query;
    return joined
      .where(
        and(
          eq(sessions.shopId, sql.placeholder('shop')),
          eq(sessions.tokenHash, sql.placeholder('hash')),
          eq(sessions.kind, kind),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, sql`now()`),
          // absolute lifetime: no sliding past it
          gt(sessions.createdAt, sql`now() - make_interval(secs => ${sql.placeholder('maxAge')}::int)`),
          kind === 'admin' ? isNotNull(users.id) : undefined,
        ),
      )
      .prepare(name);
  });
  const p = policies[kind];
  const hash = sha256(token);
  const entry = await credentialEntry(db, `${kind}_session`, hash);
  if (!entry) return null;
  const rows = await statement.execute({ shop: entry.shopId, hash, touch: touchAfter(p), maxAge: p.maxAge });
  const row = rows[0];
  if (!row) return null;
  if (row.touch) {
    await db.execute(
      // the absolute cap as a value: Citus refuses a STABLE function of a column (created_at + interval) in an UPDATE
      sql`UPDATE sessions SET last_seen_at = now(),
            expires_at = least(now() + make_interval(secs => ${p.idle}::int), ${new Date(row.created_at.getTime() + p.maxAge * 1000).toISOString()}::timestamptz)
          WHERE shop_id = ${row.shop_id} AND id = ${row.id}`,
    );
  }
  return {
    id: row.id,
    shop_id: row.shop_id,
    subject_id: row.subject_id,
    catalog_version: Number(row.catalog_version ?? 0),
    ...(row.role !== null
      ? {
          user: {
            role: row.role,
            email: row.email ?? '',
            channel_ids: row.channel_ids ?? [],
            channel_restricted: row.channel_restricted === true,
          },
        }
      : {}),
  };
}

/** Ends one session of the context's shop (sign-out) and forgets its directory row. */
export async function revokeSession(ctx: Ctx, id: string): Promise<void> {
  await withTx(ctx.db, async (tx) => {
    const ended = await query<{ token_hash: string }>(
      tx,
      sql`UPDATE sessions SET revoked_at = now()
          WHERE shop_id = ${ctx.shopId} AND id = ${id} AND revoked_at IS NULL RETURNING token_hash`,
    );
    await dropCredentials(
      tx,
      ended.map((r) => r.token_hash),
    );
  });
}

/** Ends every session of one person of the context's shop, optionally keeping the current one; their directory rows go too. */
export async function revokeSessionsOf(
  ctx: Ctx,
  kind: SessionKind,
  subjectId: string,
  exceptId?: string,
): Promise<void> {
  await withTx(ctx.db, async (tx) => {
    const ended = await query<{ token_hash: string }>(
      tx,
      sql`UPDATE sessions SET revoked_at = now()
          WHERE shop_id = ${ctx.shopId} AND kind = ${kind} AND subject_id = ${subjectId} AND revoked_at IS NULL
            AND id <> ${exceptId ?? ''}
          RETURNING token_hash`,
    );
    await dropCredentials(
      tx,
      ended.map((r) => r.token_hash),
    );
  });
}
