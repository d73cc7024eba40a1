/**
 * Partner settings writes and payouts. A payout reserves money in the ledger when it is created
 * (vendor, by an admin) or requested (affiliate, in the portal): available → in_payout; paying it
 * moves in_payout → paid_out, cancelling moves it back to available. Every step changes the
 * payout row (locked FOR UPDATE) and books its ledger entry in one transaction, with the idem
 * key `payout:<id>:<step>`. Creating locks the partner row before reading the balance, so two
 * concurrent payouts of one partner never reserve more than is available.
 */

import type { Static } from '@sinclair/typebox';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { lockOwned } from '../../platform/db/lock.js';
import { one, type TxCtx, uniqueConstraintOf, withTx } from '../../platform/db/tx.js';
import { AppError, badRequest, conflict, notFound } from '../../platform/errors.js';
import type { Paged } from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import { defaultChannelCurrency } from '../channels/index.js';
import { balanceOf, balances, move, post } from './ledger.js';
import { affiliates, type PartnerType, partnerPayouts, partnerSettings, vendors } from './partners.tables.js';
import { OPEN_PAYOUT_STATUSES, payoutStates } from './payout-states.js';
import type {
  PartnerSettingsPut as PartnerSettingsPutBody,
  PortalPayoutQuery,
  VendorPayoutCreate as VendorPayoutCreateBody,
} from './payouts.schemas.js';
import { loadPartnerSettings, type PartnerSettings } from './settings.js';

export type PayoutRow = typeof partnerPayouts.$inferSelect;

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency}`;

// ---- partner settings ----

export type PartnerSettingsPut = Static<typeof PartnerSettingsPutBody>;

export async function partnerSettingsView(ctx: Ctx) {
  const [row] = await ctx.db
    .select({ updatedAt: partnerSettings.updatedAt })
    .from(partnerSettings)
    .where(eq(partnerSettings.shopId, ctx.shopId));
  return { settings: await loadPartnerSettings(ctx), updatedAt: row?.updatedAt ?? null };
}

export function partnerSettingsBody(v: { settings: PartnerSettings; updatedAt: Date | null }) {
  return {
    vendor_hold_days: v.settings.vendorHoldDays,
    affiliate_hold_days: v.settings.affiliateHoldDays,
    affiliate_min_payout_cents: v.settings.affiliateMinPayoutCents,
    referral_base_url: v.settings.referralBaseUrl,
    updated_at: isoOrNull(v.updatedAt),
  };
}

/** Partial upsert: omitted fields keep their value (or the default while there is no row). */
export async function putPartnerSettings(ctx: Ctx, body: PartnerSettingsPut) {
  const now = ctx.clock.now();
  const base = await loadPartnerSettings(ctx);
  const next: PartnerSettings = {
    vendorHoldDays: body.vendor_hold_days ?? base.vendorHoldDays,
    affiliateHoldDays: body.affiliate_hold_days ?? base.affiliateHoldDays,
    affiliateMinPayoutCents: body.affiliate_min_payout_cents ?? base.affiliateMinPayoutCents,
    referralBaseUrl: body.referral_base_url !== undefined ? body.referral_base_url : base.referralBaseUrl,
  };
  const set: Partial<typeof partnerSettings.$inferInsert> = { updatedAt: now };
  if (body.vendor_hold_days !== undefined) set.vendorHoldDays = body.vendor_hold_days;
  if (body.affiliate_hold_days !== undefined) set.affiliateHoldDays = body.affiliate_hold_days;
  if (body.affiliate_min_payout_cents !== undefined) set.affiliateMinPayoutCents = body.affiliate_min_payout_cents;
  if (body.referral_base_url !== undefined) set.referralBaseUrl = body.referral_base_url;
  await ctx.db
    .insert(partnerSettings)
    .values({ shopId: ctx.shopId, ...next, updatedAt: now })
    .onConflictDoUpdate({ target: partnerSettings.shopId, set });
  return partnerSettingsView(ctx);
}

// ---- currencies ----

/** The currency of the shop's default channel (null without channels). */
export function defaultCurrency(ctx: Ctx): Promise<string | null> {
  return defaultChannelCurrency(ctx);
}

const currencyRequired = (currencies: string[]) =>
  badRequest('currency_required', `The partner has balances in ${currencies.join(', ')}; name the currency`, [
    { path: '/body/currency', message: `is required: one of ${currencies.join(', ')}` },
  ]);

/**
 * The currency of a payout: the one asked for; else the only currency with an available balance;
 * else the only currency the partner has any entry in, else the shop's default channel currency.
 * Several candidates: 400 currency_required.
 */
export async function payoutCurrency(
  ctx: Ctx,
  type: PartnerType,
  partnerId: string,
  requested: string | undefined,
): Promise<string> {
  if (requested) return requested;
  const all = await balances(ctx, type, { partnerIds: [partnerId] });
  const available = all.filter((b) => b.available_cents > 0).map((b) => b.currency);
  if (available.length === 1) return available[0] as string;
  if (available.length > 1) throw currencyRequired(available);
  if (all.length === 1) return (all[0] as { currency: string }).currency;
  if (all.length > 1) throw currencyRequired(all.map((b) => b.currency));
  return (await defaultCurrency(ctx)) ?? 'EUR';
}

// ---- reads ----

/** The partner's id under its kind's name: `{ vendor_id }` or `{ affiliate_id }`. */
export type PartnerIdOut<K extends PartnerType> = K extends 'vendor' ? { vendor_id: string } : { affiliate_id: string };
export function partnerIdOut<K extends PartnerType>(kind: K, id: string): PartnerIdOut<K> {
  return (kind === 'vendor' ? { vendor_id: id } : { affiliate_id: id }) as PartnerIdOut<K>;
}

/** A payout of the given partner kind (the rows of one kind's routes). */
export function payoutOut<K extends PartnerType>(kind: K, row: PayoutRow) {
  return {
    id: row.id,
    ...partnerIdOut(kind, row.partnerId),
    currency: row.currency,
    amount_cents: row.amountCents,
    status: row.status,
    requested_by: row.requestedBy,
    reference: row.reference,
    note: row.note,
    created_at: iso(row.createdAt),
    processing_at: isoOrNull(row.processingAt),
    paid_at: isoOrNull(row.paidAt),
    cancelled_at: isoOrNull(row.cancelledAt),
  };
}

/** A payout list: the portal's filters plus the partner (vendor_id or affiliate_id in the admin lists). */
export type PayoutFilters = Paged<Static<typeof PortalPayoutQuery> & { partner_id?: string }>;

/** Payouts of one partner type, newest first, with the exact count. */
export async function listPayouts(ctx: Ctx, type: PartnerType, f: PayoutFilters) {
  const { db } = ctx;
  const conds: SQL[] = [eq(partnerPayouts.shopId, ctx.shopId), eq(partnerPayouts.partnerType, type)];
  if (f.partner_id) conds.push(eq(partnerPayouts.partnerId, f.partner_id));
  if (f.status) conds.push(eq(partnerPayouts.status, f.status));
  if (f.currency) conds.push(eq(partnerPayouts.currency, f.currency));
  const where = and(...conds);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(partnerPayouts)
      .where(where)
      .orderBy(desc(partnerPayouts.createdAt), desc(partnerPayouts.id))
      .limit(f.limit)
      .offset(f.offset),
    db.select({ n: sql<number>`count(*)::int` }).from(partnerPayouts).where(where),
  ]);
  return { rows, count: Number(total[0]?.n ?? 0) };
}

/** One payout; another shop's, another type's or (with `partnerId`) another partner's is 404. */
export async function getPayout(ctx: Ctx, type: PartnerType, id: string, partnerId?: string): Promise<PayoutRow> {
  const [row] = await ctx.db
    .select()
    .from(partnerPayouts)
    .where(
      and(
        eq(partnerPayouts.id, id),
        eq(partnerPayouts.shopId, ctx.shopId),
        eq(partnerPayouts.partnerType, type),
        partnerId ? eq(partnerPayouts.partnerId, partnerId) : undefined,
      ),
    );
  if (!row) throw notFound('Payout');
  return row;
}

// ---- creating ----

const insufficient = (amount: number, available: number, currency: string) =>
  conflict(
    'insufficient_balance',
    available <= 0
      ? `There is no available balance in ${currency} to pay out`
      : `The amount ${money(amount, currency)} exceeds the available balance of ${money(available, currency)}`,
  );

/** Inserts the pending payout and books payout_requested (available → in_payout) in the caller's transaction. */
async function openPayout(
  ctx: TxCtx,
  p: {
    type: PartnerType;
    partnerId: string;
    currency: string;
    amount: number;
    requestedBy: 'admin' | 'partner';
    note: string | null;
    now: Date;
  },
): Promise<PayoutRow> {
  const id = newId('payout');
  const row = one(
    await ctx.db
      .insert(partnerPayouts)
      .values({
        id,
        shopId: ctx.shopId,
        partnerType: p.type,
        partnerId: p.partnerId,
        currency: p.currency,
        amountCents: p.amount,
        status: 'pending',
        requestedBy: p.requestedBy,
        note: p.note,
        createdAt: p.now,
        updatedAt: p.now,
      })
      .returning(),
  );
  await post(ctx, {
    partnerType: p.type,
    partnerId: p.partnerId,
    currency: p.currency,
    kind: 'payout_requested',
    idemKey: `payout:${id}:requested`,
    payoutId: id,
    memo: `Payout ${id} requested`,
    occurredAt: p.now,
    postings: move('available', 'in_payout', p.amount),
  });
  return row;
}

export type VendorPayoutCreate = Static<typeof VendorPayoutCreateBody>;

/** An admin pays out a vendor's available balance (or part of it): a pending payout. */
export async function createVendorPayout(ctx: Ctx, body: VendorPayoutCreate): Promise<PayoutRow> {
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    await lockOwned(t.db, vendors, ctx.shopId, body.vendor_id, 'Vendor');
    const currency = await payoutCurrency(t, 'vendor', body.vendor_id, body.currency);
    const { available_cents: available } = await balanceOf(t, 'vendor', body.vendor_id, currency);
    const amount = body.amount_cents ?? available;
    if (available <= 0 || amount > available) throw insufficient(amount, available, currency);
    return openPayout(t, {
      type: 'vendor',
      partnerId: body.vendor_id,
      currency,
      amount,
      requestedBy: 'admin',
      note: body.note ?? null,
      now,
    });
  });
}

const payoutOpen = () =>
  conflict('payout_open', 'There is already an open payout request; wait until it is paid or cancelled');

/**
 * An affiliate requests a payout in the portal: the available balance must reach the shop's
 * minimum payout (as must the amount), one open request at a time, not while blocked.
 */
export async function requestAffiliatePayout(
  ctx: Ctx,
  affiliateId: string,
  body: { amount_cents?: number; currency?: string },
): Promise<PayoutRow> {
  const now = ctx.clock.now();
  try {
    return await withTx(ctx, async (t) => {
      const tx = t.db;
      const affiliate = await lockOwned(tx, affiliates, ctx.shopId, affiliateId, 'Affiliate');
      if (affiliate.status === 'blocked') {
        throw new AppError('affiliate_blocked', 'A blocked affiliate cannot request payouts');
      }
      const open = await tx
        .select({ id: partnerPayouts.id })
        .from(partnerPayouts)
        .where(
          and(
            eq(partnerPayouts.shopId, ctx.shopId),
            eq(partnerPayouts.partnerType, 'affiliate'),
            eq(partnerPayouts.partnerId, affiliateId),
            inArray(partnerPayouts.status, OPEN_PAYOUT_STATUSES),
          ),
        )
        .limit(1);
      if (open.length > 0) throw payoutOpen();
      const currency = await payoutCurrency(t, 'affiliate', affiliateId, body.currency);
      const { available_cents: available } = await balanceOf(t, 'affiliate', affiliateId, currency);
      const { affiliateMinPayoutCents: min } = await loadPartnerSettings(t);
      const amount = body.amount_cents ?? available;
      if (available < min) {
        throw conflict(
          'below_minimum',
          `The available balance of ${money(available, currency)} is below the minimum payout of ${money(min, currency)}`,
        );
      }
      if (amount < min) {
        throw conflict(
          'below_minimum',
          `The requested ${money(amount, currency)} is below the minimum payout of ${money(min, currency)}`,
        );
      }
      if (available <= 0 || amount > available) throw insufficient(amount, available, currency);
      return openPayout(t, {
        type: 'affiliate',
        partnerId: affiliateId,
        currency,
        amount,
        requestedBy: 'partner',
        note: null,
        now,
      });
    });
  } catch (err) {
    // the partial unique index: a concurrent request won
    if (uniqueConstraintOf(err) === 'partner_payouts_open_affiliate_uq') throw payoutOpen();
    throw err;
  }
}

// ---- transitions ----

/**
 * Moves a payout to `to` under a row lock and books the step's ledger entry in the same
 * transaction: paid → payout_paid (in_payout → paid_out), cancelled → payout_cancelled
 * (in_payout → available). Refused steps are 409 invalid_state.
 */
export async function transitionPayout(
  ctx: Ctx,
  type: PartnerType,
  id: string,
  to: 'processing' | 'paid' | 'cancelled',
  opts: { reference?: string } = {},
): Promise<PayoutRow> {
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const row = await lockOwned(tx, partnerPayouts, ctx.shopId, id, 'Payout', eq(partnerPayouts.partnerType, type));
    payoutStates[type].assert(row.status, to);
    const set: Partial<PayoutRow> = { status: to, updatedAt: now };
    if (to === 'processing') set.processingAt = now;
    if (to === 'paid') {
      set.paidAt = now;
      set.reference = opts.reference ?? null;
    }
    if (to === 'cancelled') set.cancelledAt = now;
    const updated = one(
      await tx
        .update(partnerPayouts)
        .set(set)
        .where(and(eq(partnerPayouts.shopId, row.shopId), eq(partnerPayouts.id, row.id)))
        .returning(),
    );
    if (to !== 'processing') {
      await post(t, {
        partnerType: type,
        partnerId: row.partnerId,
        currency: row.currency,
        kind: to === 'paid' ? 'payout_paid' : 'payout_cancelled',
        idemKey: `payout:${row.id}:${to}`,
        payoutId: row.id,
        memo: to === 'paid' ? `Payout ${row.id} paid (${opts.reference ?? ''})` : `Payout ${row.id} cancelled`,
        occurredAt: now,
        postings:
          to === 'paid'
            ? move('in_payout', 'paid_out', row.amountCents)
            : move('in_payout', 'available', row.amountCents),
      });
    }
    return updated;
  });
}
