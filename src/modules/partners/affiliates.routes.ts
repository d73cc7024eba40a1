/**
 * Affiliate routes (docs/partners.md): admin management, earnings and their release, promotional
 * content, and the affiliate portal reads. Reads of affiliates and earnings also accept an API
 * token with finance:read; every mutation (and the content admin) needs an owner or admin session
 * and refuses every token with 403 token_blocked.
 */
import { manageMoneyAllChannels, readFinanceAllChannels } from '../../platform/auth/presets.js';
import { IdParams, pageOf } from '../../platform/http/schemas.js';
import { deleteByIdRoute, type TypedApp } from '../../platform/http/typed-app.js';
import { affiliatePortalRoutes } from './affiliate-portal.js';
import * as S from './affiliates.schemas.js';
import * as svc from './affiliates.service.js';
import { balanceOut } from './ledger.js';

export function affiliateRoutes(app: TypedApp): void {
  const tags = ['affiliates'];

  app.get(
    '/api/admin/affiliates',
    {
      config: readFinanceAllChannels,
      schema: {
        tags,
        summary: 'List affiliates, newest first (status, q over name/e-mail/code), with balances per currency',
        querystring: S.AffiliateListQuery,
        response: { 200: S.AffiliateList },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      const ctx = request.ctx;
      const [page, base] = await Promise.all([svc.listAffiliates(ctx, { ...q, limit, offset }), svc.referralBase(ctx)]);
      return {
        affiliates: page.rows.map((r) => ({
          ...svc.affiliateOut(r, base),
          balances: (page.balances.get(r.id) ?? []).map(balanceOut),
        })),
        count: page.count,
        limit,
        offset,
      };
    },
  );

  app.get(
    '/api/admin/affiliates/:id',
    {
      config: readFinanceAllChannels,
      schema: {
        tags,
        summary: 'An affiliate with balances per currency and referral stats',
        params: IdParams,
        response: { 200: S.AffiliateDetail },
      },
    },
    async (request) => svc.affiliateDetail(request.ctx, request.params.id),
  );

  app.post(
    '/api/admin/affiliates',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary: 'Create an affiliate (code generated from the name when absent; 409 code_taken / email_taken)',
        body: S.AffiliateCreate,
        response: { 201: S.Affiliate },
      },
    },
    async (request, reply) => {
      const ctx = request.ctx;
      const row = await svc.createAffiliate(ctx, request.body);
      return reply.code(201).send(svc.affiliateOut(row, await svc.referralBase(ctx)));
    },
  );

  app.post(
    '/api/admin/affiliates/invite',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary:
          'E-mail a portal invite: to an existing affiliate (200) or a new one created from the body (201); ' +
          'name, code and commission_percent apply only to a new one; an affiliate with portal access already is 409 already_active, a blocked one 409 affiliate_blocked',
        body: S.AffiliateInvite,
        response: { 200: S.Affiliate, 201: S.Affiliate },
      },
    },
    async (request, reply) => {
      const ctx = request.ctx;
      const { row, created } = await svc.inviteAffiliate(ctx, request.body);
      return reply.code(created ? 201 : 200).send(svc.affiliateOut(row, await svc.referralBase(ctx)));
    },
  );

  app.patch(
    '/api/admin/affiliates/:id',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary:
          'Change name, status (active | paused | blocked; blocking ends their portal sessions), ' +
          'commission_percent (for orders paid afterwards) or code',
        params: IdParams,
        body: S.AffiliatePatch,
        response: { 200: S.Affiliate },
      },
    },
    async (request) => {
      const ctx = request.ctx;
      const row = await svc.updateAffiliate(ctx, request.params.id, request.body);
      return svc.affiliateOut(row, await svc.referralBase(ctx));
    },
  );

  // ---- earnings ----
  app.get(
    '/api/admin/affiliate-earnings',
    {
      config: readFinanceAllChannels,
      schema: {
        tags,
        summary: 'Affiliate earnings, newest first (affiliate_id, status, order_id, currency, earned from/to)',
        querystring: S.EarningListQuery,
        response: { 200: S.EarningList },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      const res = await svc.listAffiliateEarnings(request.ctx, { ...q, limit, offset });
      return { ...res, limit, offset };
    },
  );

  app.post(
    '/api/admin/affiliate-earnings/release',
    {
      config: manageMoneyAllChannels,
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags,
        summary:
          'Make pending earnings available: the given ids, or all older than the hold period (optionally one affiliate)',
        body: S.EarningRelease,
        response: { 200: S.EarningReleaseResult },
      },
    },
    async (request) => svc.releaseAffiliateEarnings(request.ctx, request.body),
  );

  // ---- promotional content ----
  app.get(
    '/api/admin/affiliate-content',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary: 'Promotional material for affiliates, newest first',
        querystring: S.ContentListQuery,
        response: { 200: S.ContentList },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      const res = await svc.listContent(request.ctx, { ...q, limit, offset });
      return { ...res, limit, offset };
    },
  );

  app.post(
    '/api/admin/affiliate-content',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary: 'Publish material: link (url), banner (url and image_url) or text (body); URLs are https',
        body: S.ContentCreate,
        response: { 201: S.Content },
      },
    },
    async (request, reply) => reply.code(201).send(svc.contentOut(await svc.createContent(request.ctx, request.body))),
  );

  deleteByIdRoute(
    app,
    '/api/admin/affiliate-content/:id',
    { config: manageMoneyAllChannels, tags, summary: 'Remove published material' },
    svc.deleteContent,
  );

  affiliatePortalRoutes(app);
}
