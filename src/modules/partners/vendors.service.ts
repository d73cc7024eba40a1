/**
 * Vendors (admin side): invitations, the vendor list and detail with balances from the ledger,
 * status changes (suspending ends their portal sessions), append-only commission rules, and the
 * vendor earnings list and release. Money is never stored here: balances are sums of ledger
 * postings (ledger.ts); earnings are booked by earnings.ts when an order is paid.
 */

import type { Static } from '@sinclair/typebox';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull, LAST_INSTANT, storableDateTime, storableInstant } from '../../platform/dates.js';
import type { Db } from '../../platform/db/client.js';
import { likeAnywhere, one, query, type TxCtx, uniqueConstraintOf, withTx } from '../../platform/db/tx.js';
import { AppError, conflict, notFound } from '../../platform/errors.js';
import type { Paged } from '../../platform/http/schemas.js';
import { pageOf } from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import { categoryNames } from '../catalog/index.js';
import { revokeSessionsOf } from '../identity/index.js';
import { type EarningRow, type EarningView, listEarnings, releaseEarnings } from './earnings.js';
import { type Balance, balanceOut, balances, type ShopTx } from './ledger.js';
import { issueInvite } from './partner-auth.js';
import { vendorCommissionRules, vendors } from './partners.tables.js';
import { holdCutoff, loadPartnerSettings } from './settings.js';
import type { CommissionRuleCreate, EarningListQuery, VendorListQuery } from './vendors.schemas.js';

export type VendorRow = typeof vendors.$inferSelect;
export type RuleRow = typeof vendorCommissionRules.$inferSelect;

// ---- output ----

/** A vendor as the API shows it: never the password or invite token hashes. */
export const vendorOut = (v: VendorRow) => ({
  id: v.id,
  name: v.name,
  email: v.email,
  status: v.status,
  invited_at: isoOrNull(v.invitedAt),
  accepted_at: isoOrNull(v.acceptedAt),
  created_at: iso(v.createdAt),
  updated_at: iso(v.updatedAt),
});

/** Balances of several vendors in one query, grouped by vendor id. */
export async function balancesByVendor(ctx: Ctx, ids: string[]) {
  const out = new Map<string, ReturnType<typeof balanceOut>[]>();
  for (const b of await balances(ctx, 'vendor', { partnerIds: ids })) {
    const list = out.get(b.partner_id) ?? [];
    list.push(balanceOut(b));
    out.set(b.partner_id, list);
  }
  return out;
}

export const ruleOut = (r: RuleRow & { categoryName?: string | null }) => ({
  id: r.id,
  vendor_id: r.vendorId,
  category_id: r.categoryId,
  category_name: r.categoryName ?? null,
  percent: Number(r.percent),
  fixed_cents: r.fixedCents,
  effective_from: iso(r.effectiveFrom),
  created_by: r.createdBy,
  created_at: iso(r.createdAt),
});

// ---- time bounds of list filters ----

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A `from`/`to` query value as an instant: a date is the start of that UTC day, and a date as
 * `to` includes the whole day (the bound is exclusive, so it becomes the next day's start).
 */
export function parseBound(value: string | undefined, as: 'from' | 'to'): Date | undefined {
  if (value === undefined) return undefined;
  const d = new Date(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(d.getTime())) {
    throw new AppError('validation_failed', `Invalid ${as}: not a date`, [
      { path: `/query/${as}`, message: 'must be YYYY-MM-DD or an RFC 3339 timestamp' },
    ]);
  }
  if (as === 'to' && DATE_ONLY.test(value)) d.setUTCDate(d.getUTCDate() + 1);
  // a whole last day 9999-12-31 ends at the last instant the database holds
  if (as === 'to' && DATE_ONLY.test(value) && d.getTime() > LAST_INSTANT) d.setTime(LAST_INSTANT);
  if (!(DATE_ONLY.test(value) ? storableInstant(d) : storableDateTime(value))) {
    throw new AppError('validation_failed', `Invalid ${as}: not a time the service can hold`, [
      { path: `/query/${as}`, message: 'must lie within the years 0001 to 9999 (UTC), offset at most ±15:59' },
    ]);
  }
  return d;
}

/** Both bounds, checked for order. */
export function parseRange(q: { from?: string; to?: string }) {
  const from = parseBound(q.from, 'from');
  const to = parseBound(q.to, 'to');
  if (from && to && to.getTime() <= from.getTime()) {
    throw new AppError('validation_failed', 'to must be after from', [
      { path: '/query/to', message: 'must be after from' },
    ]);
  }
  return { from, to };
}

// ---- vendors ----

/**
 * Whether `vendorId` is a vendor of the shop (any status), its row locked against deletion until
 * the caller's transaction ends.
 */
export async function vendorExists(ctx: ShopTx, vendorId: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: vendors.id })
    .from(vendors)
    .where(and(eq(vendors.id, vendorId), eq(vendors.shopId, ctx.shopId)))
    .for('key share');
  return row !== undefined;
}

export async function loadVendor(ctx: Ctx, id: string): Promise<VendorRow> {
  const [row] = await ctx.db
    .select()
    .from(vendors)
    .where(and(eq(vendors.id, id), eq(vendors.shopId, ctx.shopId)));
  if (!row) throw notFound('Vendor');
  return row;
}

/** The vendor, its row locked (`FOR UPDATE`) until the caller's transaction ends. */
async function lockVendor(ctx: TxCtx, id: string): Promise<VendorRow> {
  const [row] = await ctx.db
    .select()
    .from(vendors)
    .where(and(eq(vendors.id, id), eq(vendors.shopId, ctx.shopId)))
    .for('update');
  if (!row) throw notFound('Vendor');
  return row;
}

/**
 * Invites a vendor by e-mail (status `invited`) and queues the accept link in the same
 * transaction. An e-mail whose vendor is still `invited` gets a fresh link (`created: false`);
 * an accepted vendor with that e-mail is 409 `vendor_exists`.
 */
export async function inviteVendor(
  ctx: Ctx,
  input: { email: string; name: string },
): Promise<{ vendor: VendorRow; created: boolean }> {
  const email = input.email.trim();
  const name = input.name.trim();
  for (let attempt = 1; ; attempt++) {
    try {
      return await withTx(ctx, async (t) => {
        const tx = t.db;
        const now = ctx.clock.now();
        const [existing] = await tx
          .select()
          .from(vendors)
          .where(and(eq(vendors.shopId, ctx.shopId), sql`lower(${vendors.email}) = lower(${email})`))
          .for('update');
        let id: string;
        if (existing) {
          if (existing.status !== 'invited') {
            throw conflict('vendor_exists', `A vendor with this e-mail already exists (${existing.id})`);
          }
          id = existing.id;
          if (existing.name !== name) {
            await tx
              .update(vendors)
              .set({ name, updatedAt: now })
              .where(and(eq(vendors.shopId, ctx.shopId), eq(vendors.id, id)));
          }
        } else {
          id = newId('vendor');
          await tx
            .insert(vendors)
            .values({ id, shopId: ctx.shopId, name, email, status: 'invited', createdAt: now, updatedAt: now });
        }
        await issueInvite(t, 'vendor', { id, email: existing?.email ?? email, name }, now);
        return { vendor: await loadVendor(t, id), created: !existing };
      });
    } catch (err) {
      // a concurrent invite of the same e-mail inserted first: the next attempt re-invites it
      if (attempt < 3 && uniqueConstraintOf(err) === 'vendors_email_uq') continue;
      throw err;
    }
  }
}

export type VendorFilters = Paged<Static<typeof VendorListQuery>>;

/** A page of vendors, newest first, each with its balances (one ledger query for the page). */
export async function listVendors(ctx: Ctx, f: VendorFilters) {
  const conds: SQL[] = [eq(vendors.shopId, ctx.shopId)];
  if (f.status) conds.push(eq(vendors.status, f.status));
  if (f.q) {
    const like = likeAnywhere(f.q);
    conds.push(sql`(${vendors.name} ILIKE ${like} OR ${vendors.email} ILIKE ${like})`);
  }
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    ctx.db
      .select()
      .from(vendors)
      .where(where)
      .orderBy(desc(vendors.createdAt), desc(vendors.id))
      .limit(f.limit)
      .offset(f.offset),
    ctx.db.select({ n: sql<number>`count(*)::int` }).from(vendors).where(where),
  ]);
  const bal = await balancesByVendor(
    ctx,
    rows.map((r) => r.id),
  );
  return {
    vendors: rows.map((r) => ({ ...vendorOut(r), balances: bal.get(r.id) ?? [] })),
    count: Number(total[0]?.n ?? 0),
  };
}

/** Every rule version of a vendor with its category's name, newest effective_from first. */
async function rulesOf(ctx: Ctx, vendorId: string) {
  const rows = await ctx.db
    .select()
    .from(vendorCommissionRules)
    .where(and(eq(vendorCommissionRules.shopId, ctx.shopId), eq(vendorCommissionRules.vendorId, vendorId)))
    .orderBy(desc(vendorCommissionRules.effectiveFrom), desc(vendorCommissionRules.id));
  const names = await categoryNames(
    ctx,
    rows.flatMap((r) => (r.categoryId ? [r.categoryId] : [])),
  );
  return rows.map((r) => ({ ...r, categoryName: r.categoryId ? (names.get(r.categoryId) ?? null) : null }));
}

/** The vendor with balances, its rules in force now (per category) and the rule history. */
export async function vendorDetail(ctx: Ctx, id: string) {
  const vendor = await loadVendor(ctx, id);
  const [bal, rules] = await Promise.all([balancesByVendor(ctx, [id]), rulesOf(ctx, id)]);
  // the same choice earnings.ts makes at payment time: the newest version in force per category
  const now = ctx.clock.now().getTime();
  const current = new Map<string, (typeof rules)[number]>();
  for (const r of rules) {
    const key = r.categoryId ?? '';
    if (r.effectiveFrom.getTime() <= now && !current.has(key)) current.set(key, r);
  }
  return {
    ...vendorOut(vendor),
    balances: bal.get(id) ?? [],
    commission_rules: {
      current: [...current.values()]
        .sort((a, b) =>
          a.categoryId === null ? -1 : b.categoryId === null ? 1 : a.categoryId.localeCompare(b.categoryId),
        )
        .map(ruleOut),
      history: rules.map(ruleOut),
    },
  };
}

/**
 * Renames a vendor or switches an accepted vendor between `active` and `suspended`;
 * suspending ends the vendor's portal sessions. An invited vendor becomes active only by
 * accepting its invitation (409 invalid_state).
 */
export async function updateVendor(
  ctx: Ctx,
  id: string,
  patch: { name?: string; status?: 'active' | 'suspended' },
): Promise<VendorRow> {
  return withTx(ctx, async (t) => {
    const row = await lockVendor(t, id);
    const status = patch.status !== undefined && patch.status !== row.status ? patch.status : undefined;
    if (status !== undefined && (row.status === 'invited' || row.acceptedAt === null)) {
      throw new AppError(
        'invalid_state',
        'An invited vendor becomes active by accepting the invitation; its status cannot be changed',
      );
    }
    const name = patch.name?.trim();
    if (status === undefined && (name === undefined || name === row.name)) return row;
    const now = ctx.clock.now();
    const updated = one(
      await t.db
        .update(vendors)
        .set({ ...(name !== undefined ? { name } : {}), ...(status ? { status } : {}), updatedAt: now })
        .where(and(eq(vendors.id, id), eq(vendors.shopId, ctx.shopId)))
        .returning(),
    );
    if (status === 'suspended') await revokeSessionsOf(t, 'vendor', id);
    return updated;
  });
}

// ---- commission rules ----

export type RuleInput = Static<typeof CommissionRuleCreate>;

/** A client's "now" may be a moment behind ours: such an effective_from means now. */
const PAST_TOLERANCE_MS = 5 * 60_000;

/**
 * Appends a new version of the vendor's rule (general, or for one category). It applies to
 * orders paid from `effective_from` on; orders paid before keep the rule they were paid under.
 */
export async function addCommissionRule(ctx: Ctx, vendorId: string, input: RuleInput) {
  if (input.percent === undefined && input.fixed_cents === undefined) {
    throw new AppError('validation_failed', 'A rule needs percent or fixed_cents (or both)', [
      { path: '/body/percent', message: 'percent or fixed_cents is required' },
      { path: '/body/fixed_cents', message: 'percent or fixed_cents is required' },
    ]);
  }
  if (input.percent !== undefined && Math.abs(input.percent * 100 - Math.round(input.percent * 100)) > 1e-6) {
    throw new AppError('validation_failed', 'percent has at most two decimals', [
      { path: '/body/percent', message: 'must have at most two decimals' },
    ]);
  }
  const now = ctx.clock.now();
  let effectiveFrom = now;
  if (input.effective_from !== undefined) {
    const at = new Date(input.effective_from);
    if (at.getTime() < now.getTime() - PAST_TOLERANCE_MS) {
      throw new AppError('validation_failed', 'effective_from must not be in the past', [
        { path: '/body/effective_from', message: 'must not be in the past' },
      ]);
    }
    if (at.getTime() > now.getTime()) effectiveFrom = at;
  }
  return withTx(ctx, async (t) => {
    const tx = t.db;
    await loadVendor(t, vendorId);
    let categoryName: string | null = null;
    if (input.category_id !== undefined) {
      const name = (await categoryNames(t, [input.category_id])).get(input.category_id);
      if (name === undefined) {
        throw new AppError('unknown_category', 'category_id is not a category of this shop', [
          { path: '/body/category_id', message: 'is not a category of this shop' },
        ]);
      }
      categoryName = name;
    }
    const rule = one(
      await tx
        .insert(vendorCommissionRules)
        .values({
          id: newId('commissionRule'),
          shopId: ctx.shopId,
          vendorId,
          categoryId: input.category_id ?? null,
          percent: Math.round((input.percent ?? 0) * 100) / 100,
          fixedCents: input.fixed_cents ?? 0,
          effectiveFrom,
          createdBy: ctx.actor?.kind === 'admin' ? ctx.actor.userId : null,
          createdAt: now,
        })
        .returning(),
    );
    return ruleOut({ ...rule, categoryName });
  });
}

// ---- earnings ----

export type EarningQuery = Static<typeof EarningListQuery>;

/** Vendor earnings, newest first; `vendorId` pins the vendor (the portal). */
export async function vendorEarnings(ctx: Ctx, q: EarningQuery, vendorId?: string) {
  const { from, to } = parseRange(q);
  const { limit, offset } = pageOf(q);
  const partner = vendorId ?? q.vendor_id;
  const { rows, count } = await listEarnings(ctx, 'vendor', {
    ...(partner ? { partner_id: partner } : {}),
    ...(q.status ? { status: q.status } : {}),
    ...(q.order_id ? { order_id: q.order_id } : {}),
    ...(q.currency ? { currency: q.currency } : {}),
    ...(from ? { from: iso(from) } : {}),
    ...(to ? { to: iso(to) } : {}),
    limit,
    offset,
  });
  return { rows, count, limit, offset };
}

/** Clawed back so far per earning, from the ledger (ids in chunks to stay below parameter limits). */
async function reversedOf(ctx: { db: Db; shopId: string }, ids: string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (let i = 0; i < ids.length; i += 1000) {
    const chunk = ids.slice(i, i + 1000);
    const rows = await query<{ earning_id: string; total: number | string }>(
      ctx.db,
      sql`SELECT t.earning_id, sum(p.amount_cents)::bigint AS total
          FROM ledger_transactions t JOIN ledger_postings p ON p.shop_id = t.shop_id AND p.transaction_id = t.id
          WHERE t.shop_id = ${ctx.shopId} AND t.earning_id IN (${sql.join(
            chunk.map((id) => sql`${id}`),
            sql`, `,
          )}) AND t.kind = 'clawback' AND p.account = 'expense'
          GROUP BY t.earning_id`,
    );
    for (const r of rows) out.set(r.earning_id, Number(r.total));
  }
  return out;
}

/**
 * Releases pending vendor earnings in one transaction: exactly `earning_ids` (hold period
 * ignored; any id that is not a pending vendor earning of the shop is 409 not_releasable and
 * nothing moves), or every pending earning (of `vendor_id`) older than the vendor hold period.
 */
export async function releaseVendorEarnings(ctx: Ctx, body: { earning_ids?: string[]; vendor_id?: string }) {
  return withTx(ctx, async (t) => {
    if (body.vendor_id !== undefined) await loadVendor(t, body.vendor_id);
    const now = ctx.clock.now();
    const sel = body.earning_ids
      ? { earningIds: body.earning_ids }
      : { earnedBefore: holdCutoff(now, (await loadPartnerSettings(t)).vendorHoldDays) };
    const released: EarningRow[] = await releaseEarnings(
      t,
      'vendor',
      { ...sel, ...(body.vendor_id !== undefined ? { partnerId: body.vendor_id } : {}) },
      now,
    );
    const reversed = await reversedOf(
      t,
      released.map((e) => e.id),
    );
    const views: EarningView[] = released.map((e) => ({ ...e, reversedCents: reversed.get(e.id) ?? 0 }));
    const amounts = new Map<string, number>();
    for (const e of views) {
      amounts.set(e.currency, (amounts.get(e.currency) ?? 0) + Math.max(0, e.amountCents - e.reversedCents));
    }
    return {
      released: views.length,
      amounts: [...amounts.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, amount_cents]) => ({ currency, amount_cents })),
      earnings: views,
    };
  });
}

/** Balances of vendors as a map (for analytics): vendor id → currency → balance. */
export async function balanceMap(ctx: Ctx, ids?: string[]) {
  const out = new Map<string, Map<string, Balance>>();
  for (const b of await balances(ctx, 'vendor', ids ? { partnerIds: ids } : {})) {
    const m = out.get(b.partner_id) ?? new Map<string, Balance>();
    m.set(b.currency, b);
    out.set(b.partner_id, m);
  }
  return out;
}

/** Vendors by id (name lookups). */
export async function vendorsByIds(ctx: Ctx, ids: string[]) {
  if (ids.length === 0) return [];
  return ctx.db
    .select()
    .from(vendors)
    .where(and(eq(vendors.shopId, ctx.shopId), inArray(vendors.id, ids)));
}
