/**
 * Affiliates (admin side): create and invite, update (blocking ends their portal sessions),
 * lists with balances from the ledger, earnings and their release after the hold period, and the
 * promotional content the shop publishes for them. Money is never stored here: balances are
 * sums of ledger postings (ledger.ts), earnings are booked by earnings.ts.
 */

import { randomInt } from 'node:crypto';
import type { Static } from '@sinclair/typebox';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { lockOwned } from '../../platform/db/lock.js';
import { likeAnywhere, one, query, type TxCtx, uniqueConstraintOf, withTx } from '../../platform/db/tx.js';
import { AppError, conflict, type FieldError, notFound } from '../../platform/errors.js';
import type { Paged } from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import { defaultChannelDomain } from '../channels/index.js';
import { revokeSessionsOf } from '../identity/index.js';
import { builtInStorefrontUrl } from '../storefront/index.js';
import type {
  AFFILIATE_STATUSES,
  AffiliateCreate,
  AffiliateInvite,
  AffiliateListQuery,
  AffiliatePatch as AffiliatePatchBody,
  ContentCreate,
  ContentListQuery,
  EarningListQuery,
} from './affiliates.schemas.js';
import { type EarningRow, type EarningView, earningOut, listEarnings, releaseEarnings } from './earnings.js';
import { type Balance, balanceOut, balances } from './ledger.js';
import { issueInvite } from './partner-auth.js';
import { affiliateContent, affiliates } from './partners.tables.js';
import { holdCutoff, loadPartnerSettings } from './settings.js';

export type AffiliateRow = typeof affiliates.$inferSelect;
export type ContentRow = typeof affiliateContent.$inferSelect;
export type AffiliateStatus = (typeof AFFILIATE_STATUSES)[number];
export type AffiliateInput = Static<typeof AffiliateCreate>;
export type AffiliateInviteInput = Static<typeof AffiliateInvite>;
export type AffiliatePatch = Static<typeof AffiliatePatchBody>;

// ---- output ----

/** Where referral links point: the configured base, else the default channel's first domain, else the built-in storefront (PUBLIC_URL/shop/) when it shows this shop, else none. */
export async function referralBase(ctx: Ctx): Promise<string | null> {
  const settings = await loadPartnerSettings(ctx);
  if (settings.referralBaseUrl) return settings.referralBaseUrl;
  const domain = await defaultChannelDomain(ctx);
  if (domain) return `https://${domain}/`;
  // the built-in storefront, when it shows this shop (it reads ?ref= into checkout's affiliate_code)
  return builtInStorefrontUrl(ctx);
}

/** `<base>?ref=<code>` (or `&ref=` when the base already has a query). */
export function referralLink(base: string | null, code: string): string | null {
  if (!base) return null;
  try {
    const url = new URL(base);
    url.searchParams.set('ref', code);
    return url.toString();
  } catch {
    return `${base}${base.includes('?') ? '&' : '?'}ref=${encodeURIComponent(code)}`;
  }
}

export const portalState = (a: AffiliateRow): 'none' | 'invited' | 'active' =>
  a.acceptedAt ? 'active' : a.invitedAt ? 'invited' : 'none';

export function affiliateOut(a: AffiliateRow, base: string | null) {
  return {
    id: a.id,
    name: a.name,
    email: a.email,
    code: a.code,
    commission_percent: Number(a.commissionPercent),
    status: a.status,
    portal: portalState(a),
    referral_link: referralLink(base, a.code),
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

// ---- validation helpers ----

/** 0–100 with at most two decimals (the column is numeric(5,2)). */
function checkPercent(value: number | undefined, path = '/body/commission_percent'): void {
  if (value === undefined) return;
  const scaled = value * 100;
  if (Math.abs(scaled - Math.round(scaled)) > 1e-6) {
    throw new AppError('validation_failed', 'commission_percent has at most two decimals', [
      { path, message: 'must have at most two decimals' },
    ]);
  }
}

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const TRANSLIT: Record<string, string> = { ä: 'ae', ö: 'oe', ü: 'ue', ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o' };

/** A referral code from the name plus a random suffix: "Erika Muster" → `ERIKAMUSTER-7KQ2`. */
export function generateCode(name: string): string {
  const base =
    name
      .toLowerCase()
      .replace(/[äöüßæœø]/g, (c) => TRANSLIT[c] ?? c)
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .replace(/[^a-z0-9]+/g, '')
      .slice(0, 16)
      .toUpperCase() || 'AFF';
  let suffix = '';
  for (let i = 0; i < 4; i++) suffix += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return `${base.length < 2 ? 'AFF' : base}-${suffix}`;
}

/** Maps the unique indexes of `affiliates` to their 409s; anything else is rethrown. */
function translateConflict(err: unknown): never {
  const c = uniqueConstraintOf(err);
  if (c === 'affiliates_code_uq') throw conflict('code_taken', 'Another affiliate of this shop has this code');
  if (c === 'affiliates_email_uq') throw conflict('email_taken', 'Another affiliate of this shop has this e-mail');
  throw err;
}

const GENERATE_ATTEMPTS = 5;

/**
 * Inserts in a savepoint (so a unique violation leaves the caller's transaction usable); a
 * generated code is retried.
 */
async function insertAffiliate(ctx: TxCtx, input: AffiliateInput, now: Date): Promise<AffiliateRow> {
  const generated = input.code === undefined;
  let code = input.code ?? generateCode(input.name);
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTx(ctx, async (sp) => {
        return one(
          await sp.db
            .insert(affiliates)
            .values({
              id: newId('affiliate'),
              shopId: ctx.shopId,
              name: input.name,
              email: input.email,
              code,
              commissionPercent: input.commission_percent,
              status: input.status ?? 'active',
              createdAt: now,
              updatedAt: now,
            })
            .returning(),
        );
      });
    } catch (err) {
      if (generated && uniqueConstraintOf(err) === 'affiliates_code_uq' && attempt < GENERATE_ATTEMPTS) {
        code = generateCode(input.name);
        continue;
      }
      translateConflict(err);
    }
  }
}

export async function getAffiliateRow(ctx: Ctx, id: string): Promise<AffiliateRow> {
  const [row] = await ctx.db
    .select()
    .from(affiliates)
    .where(and(eq(affiliates.id, id), eq(affiliates.shopId, ctx.shopId)));
  if (!row) throw notFound('Affiliate');
  return row;
}

// ---- admin: create, invite, update ----

export async function createAffiliate(ctx: Ctx, input: AffiliateInput): Promise<AffiliateRow> {
  checkPercent(input.commission_percent);
  return withTx(ctx, (t) => insertAffiliate(t, input, ctx.clock.now()));
}

/**
 * Invites by e-mail: an existing affiliate (not yet signed up) gets a fresh link, otherwise one
 * is created first. The e-mail is queued in the same transaction, so it goes out iff this commits.
 */
export async function inviteAffiliate(
  ctx: Ctx,
  input: AffiliateInviteInput,
): Promise<{ row: AffiliateRow; created: boolean }> {
  checkPercent(input.commission_percent);
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    const [existing] = await t.db
      .select()
      .from(affiliates)
      .where(and(eq(affiliates.shopId, ctx.shopId), sql`lower(${affiliates.email}) = lower(${input.email})`))
      .for('update');
    let row: AffiliateRow;
    let created = false;
    if (existing) {
      if (existing.acceptedAt) {
        throw conflict('already_active', 'This affiliate has already set up portal access; they can sign in');
      }
      if (existing.status === 'blocked') {
        throw AppError.withStatus(
          'affiliate_blocked',
          409,
          'This affiliate is blocked; unblock them before sending an invite',
        );
      }
      row = existing;
    } else {
      const errors: FieldError[] = [];
      if (input.name === undefined) errors.push({ path: '/body/name', message: 'is required for a new affiliate' });
      if (input.commission_percent === undefined) {
        errors.push({ path: '/body/commission_percent', message: 'is required for a new affiliate' });
      }
      if (errors.length > 0) {
        throw new AppError('validation_failed', 'A new affiliate needs name and commission_percent', errors);
      }
      row = await insertAffiliate(
        t,
        {
          name: input.name as string,
          email: input.email,
          commission_percent: input.commission_percent as number,
          ...(input.code !== undefined ? { code: input.code } : {}),
        },
        now,
      );
      created = true;
    }
    await issueInvite(t, 'affiliate', { id: row.id, email: row.email, name: row.name }, now);
    return { row: await getAffiliateRow(t, row.id), created };
  });
}

/**
 * Changes name, status, rate or code. The rate applies to orders paid afterwards (each earning
 * keeps the rate it was booked with). Blocking ends every portal session of the affiliate.
 */
export async function updateAffiliate(ctx: Ctx, id: string, patch: AffiliatePatch): Promise<AffiliateRow> {
  checkPercent(patch.commission_percent);
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const current = await lockOwned(tx, affiliates, ctx.shopId, id, 'Affiliate');
    let row = current;
    const changes = {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.commission_percent !== undefined ? { commissionPercent: patch.commission_percent } : {}),
      ...(patch.code !== undefined ? { code: patch.code } : {}),
    };
    if (Object.keys(changes).length > 0) {
      try {
        const updated = one(
          await tx
            .update(affiliates)
            .set({ ...changes, updatedAt: ctx.clock.now() })
            .where(and(eq(affiliates.id, id), eq(affiliates.shopId, ctx.shopId)))
            .returning(),
        );
        row = updated;
      } catch (err) {
        translateConflict(err);
      }
    }
    if (patch.status === 'blocked') await revokeSessionsOf(t, 'affiliate', id);
    return row;
  });
}

// ---- admin: reads ----

export type AffiliateFilters = Paged<Static<typeof AffiliateListQuery>>;

export async function listAffiliates(
  ctx: Ctx,
  f: AffiliateFilters,
): Promise<{ rows: AffiliateRow[]; balances: Map<string, Balance[]>; count: number }> {
  const conds: SQL[] = [eq(affiliates.shopId, ctx.shopId)];
  if (f.status) conds.push(eq(affiliates.status, f.status));
  if (f.q) {
    const p = likeAnywhere(f.q);
    conds.push(sql`(${affiliates.name} ILIKE ${p} OR ${affiliates.email} ILIKE ${p} OR ${affiliates.code} ILIKE ${p})`);
  }
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(affiliates)
      .where(where)
      .orderBy(desc(affiliates.createdAt), desc(affiliates.id))
      .limit(f.limit)
      .offset(f.offset),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(affiliates).where(where),
  ]);
  const byPartner = new Map<string, Balance[]>();
  const page = await balances(ctx, 'affiliate', { partnerIds: rows.map((r) => r.id) });
  for (const b of page) byPartner.set(b.partner_id, [...(byPartner.get(b.partner_id) ?? []), b]);
  return { rows, balances: byPartner, count: Number(total[0]?.n ?? 0) };
}

export async function affiliateDetail(ctx: Ctx, id: string) {
  const row = await getAffiliateRow(ctx, id);
  const [bals, stats, base] = await Promise.all([
    balances(ctx, 'affiliate', { partnerIds: [id] }),
    query<{ currency: string; orders: number; net: number | string }>(
      ctx.db,
      sql`SELECT currency, count(DISTINCT order_id)::int AS orders, coalesce(sum(net_cents), 0)::bigint AS net
          FROM partner_earnings
          WHERE shop_id = ${ctx.shopId} AND partner_type = 'affiliate' AND partner_id = ${id}
          GROUP BY currency ORDER BY currency`,
    ),
    referralBase(ctx),
  ]);
  const [total] = await query<{ n: number }>(
    ctx.db,
    sql`SELECT count(DISTINCT order_id)::int AS n FROM partner_earnings
        WHERE shop_id = ${ctx.shopId} AND partner_type = 'affiliate' AND partner_id = ${id}`,
  );
  return {
    ...affiliateOut(row, base),
    balances: bals.map(balanceOut),
    stats: {
      referred_orders: Number(total?.n ?? 0),
      per_currency: stats.map((s) => ({
        currency: s.currency,
        referred_orders: Number(s.orders),
        net_sales_cents: Number(s.net),
        earned_cents: bals.find((b) => b.currency === s.currency)?.earned_cents ?? 0,
      })),
    },
  };
}

// ---- earnings ----

export type AffiliateEarningFilters = Paged<Static<typeof EarningListQuery>>;

export async function listAffiliateEarnings(ctx: Ctx, f: AffiliateEarningFilters) {
  const { affiliate_id, ...rest } = f;
  const { rows, count } = await listEarnings(ctx, 'affiliate', {
    ...rest,
    ...(affiliate_id ? { partner_id: affiliate_id } : {}),
  });
  return { earnings: rows.map((e) => earningOut('affiliate', e)), count };
}

/** What was clawed back from each earning so far, from the ledger. */
async function reversedOf(ctx: Ctx, earningIds: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (earningIds.length === 0) return out;
  const rows = await query<{ earning_id: string; total: number | string }>(
    ctx.db,
    sql`SELECT t.earning_id, coalesce(sum(p.amount_cents), 0)::bigint AS total
        FROM ledger_transactions t JOIN ledger_postings p ON p.shop_id = t.shop_id AND p.transaction_id = t.id
        WHERE t.shop_id = ${ctx.shopId} AND t.kind = 'clawback' AND p.account = 'expense'
          AND t.earning_id IN (${sql.join(
            earningIds.map((id) => sql`${id}`),
            sql`, `,
          )})
        GROUP BY t.earning_id`,
  );
  for (const r of rows) out.set(r.earning_id, Number(r.total));
  return out;
}

/** What each release moved to `available`, from the ledger. */
async function releasedAmounts(ctx: Ctx, earningIds: string[]): Promise<{ currency: string; amount_cents: number }[]> {
  if (earningIds.length === 0) return [];
  const rows = await query<{ currency: string; total: number | string }>(
    ctx.db,
    sql`SELECT t.currency, coalesce(sum(p.amount_cents), 0)::bigint AS total
        FROM ledger_transactions t JOIN ledger_postings p ON p.shop_id = t.shop_id AND p.transaction_id = t.id
        WHERE t.shop_id = ${ctx.shopId} AND t.kind = 'release' AND p.account = 'available'
          AND t.earning_id IN (${sql.join(
            earningIds.map((id) => sql`${id}`),
            sql`, `,
          )})
        GROUP BY t.currency ORDER BY t.currency`,
  );
  return rows.map((r) => ({ currency: r.currency, amount_cents: Number(r.total) }));
}

/**
 * Releases pending affiliate earnings: exactly the given ids (hold period ignored; all or
 * nothing), or every pending earning older than the hold period (optionally of one affiliate).
 */
export async function releaseAffiliateEarnings(ctx: Ctx, sel: { earning_ids?: string[]; affiliate_id?: string }) {
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    if (sel.affiliate_id) await getAffiliateRow(t, sel.affiliate_id);
    let rows: EarningRow[];
    if (sel.earning_ids) {
      const ids = [...new Set(sel.earning_ids)];
      rows = await releaseEarnings(
        t,
        'affiliate',
        { earningIds: ids, ...(sel.affiliate_id ? { partnerId: sel.affiliate_id } : {}) },
        now,
      );
      if (rows.length !== ids.length) {
        const released = new Set(rows.map((r) => r.id));
        const missing = ids.filter((id) => !released.has(id));
        throw new AppError(
          'not_releasable',
          `Not pending earnings of this shop's affiliates${sel.affiliate_id ? ' (of this affiliate)' : ''}: ${missing.join(', ')}; nothing was released`,
        );
      }
    } else {
      const settings = await loadPartnerSettings(t);
      rows = await releaseEarnings(
        t,
        'affiliate',
        {
          earnedBefore: holdCutoff(now, settings.affiliateHoldDays),
          ...(sel.affiliate_id ? { partnerId: sel.affiliate_id } : {}),
        },
        now,
      );
    }
    const ids = rows.map((r) => r.id);
    const [reversed, amounts] = await Promise.all([reversedOf(t, ids), releasedAmounts(t, ids)]);
    const views: EarningView[] = rows.map((r) => ({ ...r, reversedCents: reversed.get(r.id) ?? 0 }));
    return { released: rows.length, amounts, earnings: views.map((e) => earningOut('affiliate', e)) };
  });
}

// ---- promotional content ----

export type ContentInput = Static<typeof ContentCreate>;

export const contentOut = (c: ContentRow) => ({
  id: c.id,
  kind: c.kind,
  title: c.title,
  url: c.url,
  image_url: c.imageUrl,
  body: c.body,
  created_at: iso(c.createdAt),
});

export async function listContent(ctx: Ctx, f: Paged<Static<typeof ContentListQuery>>) {
  const { db } = ctx;
  const where = and(eq(affiliateContent.shopId, ctx.shopId), f.kind ? eq(affiliateContent.kind, f.kind) : undefined);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(affiliateContent)
      .where(where)
      .orderBy(desc(affiliateContent.createdAt), desc(affiliateContent.id))
      .limit(f.limit)
      .offset(f.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(affiliateContent).where(where),
  ]);
  return { content: rows.map(contentOut), count: Number(total[0]?.n ?? 0) };
}

export async function createContent(ctx: Ctx, input: ContentInput): Promise<ContentRow> {
  const errors: FieldError[] = [];
  const need = (field: 'url' | 'image_url' | 'body') => {
    if (input[field] === undefined) errors.push({ path: `/body/${field}`, message: `is required for ${input.kind}` });
  };
  if (input.kind === 'link' || input.kind === 'banner') need('url');
  if (input.kind === 'banner') need('image_url');
  if (input.kind === 'text') need('body');
  if (errors.length > 0) {
    throw new AppError('validation_failed', `Content of kind ${input.kind} is incomplete`, errors);
  }
  return one(
    await ctx.db
      .insert(affiliateContent)
      .values({
        id: newId('affiliateContent'),
        shopId: ctx.shopId,
        kind: input.kind,
        title: input.title,
        url: input.url ?? null,
        imageUrl: input.image_url ?? null,
        body: input.body ?? null,
        createdAt: ctx.clock.now(),
      })
      .returning(),
  );
}

export async function deleteContent(ctx: Ctx, id: string): Promise<void> {
  const rows = await ctx.db
    .delete(affiliateContent)
    .where(and(eq(affiliateContent.id, id), eq(affiliateContent.shopId, ctx.shopId)))
    .returning({ id: affiliateContent.id });
  if (rows.length === 0) throw notFound('Content');
}
