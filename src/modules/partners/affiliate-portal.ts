/**
 * The affiliate portal (affiliate session, own data only): who am I with balances and referral
 * link, my earnings (order number and date, never the customer), and the shop's promotional
 * content. A blocked affiliate is refused with 403 affiliate_blocked on every portal route.
 */
import type { Static } from '@sinclair/typebox';
import { affiliatePortal } from '../../platform/auth/presets.js';
import type { Ctx } from '../../platform/auth/types.js';
import { iso, isoOrNull } from '../../platform/dates.js';
import { AppError } from '../../platform/errors.js';
import { pageOf } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { orderNumbers } from '../orders/index.js';
import * as S from './affiliates.schemas.js';
import { type AffiliateRow, affiliateOut, getAffiliateRow, listContent, referralBase } from './affiliates.service.js';
import { listEarnings } from './earnings.js';
import { balanceOut, balances } from './ledger.js';
import { loadPartnerSettings } from './settings.js';

/** The affiliate of the portal session; 403 affiliate_blocked when blocked. */
export async function portalAffiliate(ctx: Ctx): Promise<AffiliateRow> {
  if (ctx.actor?.kind !== 'affiliate') throw new AppError('credential_denied', 'An affiliate session is needed');
  const row = await getAffiliateRow(ctx, ctx.actor.affiliateId).catch(() => null);
  if (!row) throw new AppError('invalid_credential', 'The credential is unknown, expired or revoked');
  if (row.status === 'blocked') {
    throw new AppError('affiliate_blocked', 'This affiliate account is blocked; contact the shop');
  }
  return row;
}

export async function portalMe(ctx: Ctx) {
  const row = await portalAffiliate(ctx);
  const [bals, base, settings] = await Promise.all([
    balances(ctx, 'affiliate', { partnerIds: [row.id] }),
    referralBase(ctx),
    loadPartnerSettings(ctx),
  ]);
  return {
    ...affiliateOut(row, base),
    balances: bals.map(balanceOut),
    min_payout_cents: settings.affiliateMinPayoutCents,
  };
}

type PortalEarningQuery = Static<typeof S.PortalEarningQuery>;

export async function portalEarnings(ctx: Ctx, q: PortalEarningQuery) {
  const row = await portalAffiliate(ctx);
  const { limit, offset } = pageOf(q);
  const { rows, count } = await listEarnings(ctx, 'affiliate', {
    ...(q.status ? { status: q.status } : {}),
    ...(q.currency ? { currency: q.currency } : {}),
    ...(q.from ? { from: q.from } : {}),
    ...(q.to ? { to: q.to } : {}),
    partner_id: row.id,
    limit,
    offset,
  });
  const orders = await orderNumbers(
    ctx,
    rows.map((e) => e.orderId),
  );
  const byId = new Map(orders.map((o) => [o.id, o]));
  return {
    earnings: rows.map((e) => {
      const o = byId.get(e.orderId);
      return {
        id: e.id,
        order_id: e.orderId,
        order_number: o?.number ?? null,
        order_date: o ? iso(o.paidAt ?? o.createdAt) : null,
        subscription_payment_number: e.subscriptionPaymentNumber,
        currency: e.currency,
        net_cents: e.netCents,
        rate_percent: Number(e.ratePercent),
        amount_cents: e.amountCents,
        reversed_cents: e.reversedCents,
        status: e.status,
        earned_at: iso(e.earnedAt),
        released_at: isoOrNull(e.releasedAt),
      };
    }),
    count,
    limit,
    offset,
  };
}

const tags = ['affiliate portal'];

/** GET /api/affiliate/me, /earnings, /content. (/payouts and /payouts/request live in payouts.routes.ts.) */
export function affiliatePortalRoutes(app: TypedApp): void {
  app.get(
    '/api/affiliate/me',
    {
      config: affiliatePortal,
      schema: {
        tags,
        summary: 'The signed-in affiliate with balances per currency and their referral link',
        response: { 200: S.PortalMe },
      },
    },
    async (request) => portalMe(request.ctx),
  );

  app.get(
    '/api/affiliate/earnings',
    {
      config: affiliatePortal,
      schema: {
        tags,
        summary: 'My commissions, newest first (order number and date; no customer data)',
        querystring: S.PortalEarningQuery,
        response: { 200: S.PortalEarningList },
      },
    },
    async (request) => portalEarnings(request.ctx, request.query),
  );

  app.get(
    '/api/affiliate/content',
    {
      config: affiliatePortal,
      schema: {
        tags,
        summary: 'Promotional material the shop publishes for its affiliates',
        querystring: S.ContentListQuery,
        response: { 200: S.ContentList },
      },
    },
    async (request) => {
      await portalAffiliate(request.ctx);
      const q = request.query;
      const { limit, offset } = pageOf(q);
      const res = await listContent(request.ctx, { ...q, limit, offset });
      return { ...res, limit, offset };
    },
  );
}
