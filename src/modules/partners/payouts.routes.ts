/**
 * Partner settings, payouts and vendor statements (docs/partners.md). Every mutation and the vendor
 * payout and statement reads need an owner or admin session and refuse every API token (403
 * token_blocked, finance:read included); GET /api/admin/affiliate-payouts is also open to a
 * finance:read token. The portals see only their own payouts and (vendors) final statements.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  actorOf,
  affiliatePortal,
  manageMoneyAllChannels,
  readFinanceAllChannels,
  vendorPortal,
} from '../../platform/auth/presets.js';
import type { AuthSpec } from '../../platform/auth/types.js';
import { IdParams, pageOf } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import type { PartnerType } from './partners.tables.js';
import type { PayoutStatus } from './payout-states.js';
import * as S from './payouts.schemas.js';
import * as svc from './payouts.service.js';
import { renderStatementPdf } from './statement-pdf.js';
import * as st from './statements.service.js';

const vendorOf = (r: FastifyRequest) => actorOf(r.ctx, vendorPortal).vendorId;
const affiliateOf = (r: FastifyRequest) => actorOf(r.ctx, affiliatePortal).affiliateId;

interface TransitionRoute {
  action: string;
  to: Exclude<PayoutStatus, 'pending'>;
  summary: string;
}

const CANCEL: TransitionRoute = {
  action: 'cancel',
  to: 'cancelled',
  summary: 'pending or processing → cancelled: the amount returns to the available balance',
};

const VENDOR_TRANSITIONS: TransitionRoute[] = [
  { action: 'process', to: 'processing', summary: 'pending → processing (the transfer is under way)' },
  {
    action: 'mark-paid',
    to: 'paid',
    summary: 'processing → paid with the transfer reference (in_payout → paid_out)',
  },
  CANCEL,
];

const AFFILIATE_TRANSITIONS: TransitionRoute[] = [
  { action: 'mark-paid', to: 'paid', summary: 'pending → paid with the transfer reference (in_payout → paid_out)' },
  CANCEL,
];

const PAYOUT = { vendor: S.VendorPayout, affiliate: S.AffiliatePayout } as const;
const PAYOUT_LIST = { vendor: S.VendorPayoutList, affiliate: S.AffiliatePayoutList } as const;

/** The transfer reference of a mark-paid body (validated by S.MarkPaid; other transitions take no body). */
function referenceOf(body: unknown): string | undefined {
  return typeof body === 'object' && body !== null && 'reference' in body && typeof body.reference === 'string'
    ? body.reference
    : undefined;
}

export function payoutRoutes(app: TypedApp): void {
  partnerSettingsRoutes(app);
  adminPayoutRoutes(app);
  portalPayoutRoutes(app);
  statementRoutes(app);
}

/** POST …/payouts/:id/<action>: one state change (payout-states.ts) with its ledger entry. */
function transitionRoute(app: TypedApp, kind: 'vendor' | 'affiliate', t: TransitionRoute) {
  app.post(
    `/api/admin/${kind}-payouts/:id/${t.action}`,
    {
      config: manageMoneyAllChannels,
      schema: {
        tags: [`${kind} payouts`],
        summary: t.summary,
        params: IdParams,
        ...(t.to === 'paid' ? { body: S.MarkPaid } : {}),
        response: { 200: kind === 'vendor' ? S.VendorPayout : S.AffiliatePayout },
      },
    },
    async (request) =>
      svc.payoutOut(
        kind,
        await svc.transitionPayout(
          request.ctx,
          kind,
          request.params.id,
          t.to,
          t.to === 'paid' ? { reference: referenceOf(request.body) } : {},
        ),
      ),
  );
}

/**
 * GET <base> (newest first, filtered by status and currency) and GET <base>/:id for one partner
 * type: an admin reads any partner's payouts (the list filtered by vendor_id / affiliate_id), a
 * portal (`own`) only those of the signed-in partner.
 */
function payoutReads(
  app: TypedApp,
  kind: PartnerType,
  r: {
    base: string;
    config: { auth: AuthSpec };
    tags: string[];
    own: boolean;
    listSummary: string;
    readSummary: string;
    query: typeof S.PortalPayoutQuery;
  },
) {
  // widened: payoutOut(kind, …) has the shape of the kind's schema, which TypeScript cannot
  // correlate across the union; the schemas still serialize and document each route
  const one: TSchema = PAYOUT[kind];
  const list: TSchema = PAYOUT_LIST[kind];
  const ownId = (request: FastifyRequest) => (kind === 'vendor' ? vendorOf(request) : affiliateOf(request));
  app.get(
    r.base,
    {
      config: r.config,
      schema: {
        tags: r.tags,
        summary: r.listSummary,
        querystring: r.query,
        response: { 200: list },
      },
    },
    async (request) => {
      // the admin queries also carry the partner filter (S.VendorPayoutQuery, S.AffiliatePayoutQuery)
      const q: Static<typeof S.PortalPayoutQuery> & { vendor_id?: string; affiliate_id?: string } = request.query;
      const p = pageOf(q);
      const { rows, count } = await svc.listPayouts(request.ctx, kind, {
        partner_id: r.own ? ownId(request) : q[`${kind}_id`],
        status: q.status,
        currency: q.currency,
        ...p,
      });
      return { payouts: rows.map((row) => svc.payoutOut(kind, row)), count, ...p };
    },
  );
  app.get(
    `${r.base}/:id`,
    {
      config: r.config,
      schema: { tags: r.tags, summary: r.readSummary, params: IdParams, response: { 200: one } },
    },
    async (request) =>
      svc.payoutOut(
        kind,
        await svc.getPayout(request.ctx, kind, request.params.id, r.own ? ownId(request) : undefined),
      ),
  );
}

/** The shop's partner settings. */
function partnerSettingsRoutes(app: TypedApp): void {
  app.get(
    '/api/admin/settings/partners',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags: ['partners'],
        summary: 'Partner settings: hold periods, minimum affiliate payout, referral link base',
        response: { 200: S.PartnerSettings },
      },
    },
    async (request) => svc.partnerSettingsBody(await svc.partnerSettingsView(request.ctx)),
  );

  app.put(
    '/api/admin/settings/partners',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags: ['partners'],
        summary: 'Set partner settings (partial: omitted fields keep their value)',
        body: S.PartnerSettingsPut,
        response: { 200: S.PartnerSettings },
      },
    },
    async (request) => svc.partnerSettingsBody(await svc.putPartnerSettings(request.ctx, request.body)),
  );
}

/** Vendor and affiliate payouts, admin side: create, read, state changes. */
function adminPayoutRoutes(app: TypedApp): void {
  // ---- vendor payouts (admin) ----
  const vtags = ['vendor payouts'];
  payoutReads(app, 'vendor', {
    base: '/api/admin/vendor-payouts',
    config: manageMoneyAllChannels,
    tags: vtags,
    own: false,
    listSummary: 'List vendor payouts, newest first (vendor_id, status, currency); session only, every token refused',
    readSummary: 'Read a vendor payout',
    query: S.VendorPayoutQuery,
  });

  app.post(
    '/api/admin/vendor-payouts',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags: vtags,
        summary:
          'Pay out a vendor: reserves the available balance (or amount_cents ≤ it) in a pending payout ' +
          '(409 insufficient_balance)',
        body: S.VendorPayoutCreate,
        response: { 201: S.VendorPayout },
      },
    },
    async (request, reply) =>
      reply.code(201).send(svc.payoutOut('vendor', await svc.createVendorPayout(request.ctx, request.body))),
  );

  for (const t of VENDOR_TRANSITIONS) transitionRoute(app, 'vendor', t);

  // ---- affiliate payouts (admin) ----
  const atags = ['affiliate payouts'];
  payoutReads(app, 'affiliate', {
    base: '/api/admin/affiliate-payouts',
    config: readFinanceAllChannels,
    tags: atags,
    own: false,
    listSummary: 'List affiliate payout requests, newest first (affiliate_id, status, currency)',
    readSummary: 'Read an affiliate payout',
    query: S.AffiliatePayoutQuery,
  });

  for (const t of AFFILIATE_TRANSITIONS) transitionRoute(app, 'affiliate', t);
}

/** The affiliate and vendor portals' own payouts (and the vendor portal's statements). */
function portalPayoutRoutes(app: TypedApp): void {
  // ---- affiliate portal ----
  const aptags = ['affiliate portal'];
  payoutReads(app, 'affiliate', {
    base: '/api/affiliate/payouts',
    config: affiliatePortal,
    tags: aptags,
    own: true,
    listSummary: 'My payout requests, newest first',
    readSummary: 'One of my payouts',
    query: S.PortalPayoutQuery,
  });

  app.post(
    '/api/affiliate/payouts/request',
    {
      config: affiliatePortal,
      preValidation: async (request) => {
        request.body ??= {};
      },
      schema: {
        tags: aptags,
        summary:
          'Request a payout of the available balance: at least the minimum payout (409 below_minimum), one open ' +
          'request at a time (409 payout_open)',
        body: S.PayoutRequest,
        response: { 201: S.AffiliatePayout },
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(
          svc.payoutOut(
            'affiliate',
            await svc.requestAffiliatePayout(request.ctx, affiliateOf(request), request.body ?? {}),
          ),
        ),
  );

  // ---- vendor portal ----
  const vptags = ['vendor portal'];
  payoutReads(app, 'vendor', {
    base: '/api/vendor/payouts',
    config: vendorPortal,
    tags: vptags,
    own: true,
    listSummary: 'My payouts, newest first',
    readSummary: 'One of my payouts',
    query: S.PortalPayoutQuery,
  });

  app.get(
    '/api/vendor/statements',
    {
      config: vendorPortal,
      schema: {
        tags: vptags,
        summary: 'My final statements, newest first',
        querystring: S.PortalStatementQuery,
        response: { 200: S.StatementList },
      },
    },
    async (request) => {
      const q = request.query;
      const p = pageOf(q);
      const { rows, count } = await st.listStatements(request.ctx, {
        vendor_id: vendorOf(request),
        status: 'final',
        period: q.period,
        currency: q.currency,
        ...p,
      });
      return { statements: rows.map(st.statementSummaryOut), count, ...p };
    },
  );

  app.get(
    '/api/vendor/statements/:id',
    {
      config: vendorPortal,
      schema: {
        tags: vptags,
        summary: 'One of my final statements with its entries',
        params: IdParams,
        response: { 200: S.Statement },
      },
    },
    async (request) =>
      st.statementOut(
        await st.getStatement(request.ctx, request.params.id, {
          vendorId: vendorOf(request),
        }),
      ),
  );

  app.get(
    '/api/vendor/statements/:id/pdf',
    {
      config: vendorPortal,
      schema: {
        tags: vptags,
        summary: 'The PDF of one of my final statements',
        params: IdParams,
        response: { 200: S.binary('application/pdf', 'PDF') },
      },
    },
    async (request, reply) => {
      const row = await st.getStatement(request.ctx, request.params.id, {
        vendorId: vendorOf(request),
      });
      return sendPdf(reply, row, await renderStatementPdf(row));
    },
  );
}

/** Vendor statements, admin side. */
function statementRoutes(app: TypedApp): void {
  // ---- vendor statements (admin) ----
  const stags = ['vendor statements'];
  app.get(
    '/api/admin/vendor-statements',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags: stags,
        summary: 'List vendor statements, newest first (vendor_id, status, period, currency)',
        querystring: S.StatementQuery,
        response: { 200: S.StatementList },
      },
    },
    async (request) => {
      const q = request.query;
      const p = pageOf(q);
      const { rows, count } = await st.listStatements(request.ctx, { ...q, ...p });
      return { statements: rows.map(st.statementSummaryOut), count, ...p };
    },
  );

  app.post(
    '/api/admin/vendor-statements',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags: stags,
        summary:
          "Compute the draft statement of a vendor for a month in the shop's time zone (201); again: the draft is " +
          'recomputed (200); a final one is 409 statement_final',
        body: S.StatementCreate,
        response: { 200: S.Statement, 201: S.Statement },
      },
    },
    async (request, reply) => {
      const { row, created } = await st.createStatement(request.ctx, request.body);
      return reply.code(created ? 201 : 200).send(st.statementOut(row));
    },
  );

  app.get(
    '/api/admin/vendor-statements/:id',
    {
      config: manageMoneyAllChannels,
      schema: { tags: stags, summary: 'Read a statement', params: IdParams, response: { 200: S.Statement } },
    },
    async (request) => st.statementOut(await st.getStatement(request.ctx, request.params.id)),
  );

  app.post(
    '/api/admin/vendor-statements/:id/finalize',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags: stags,
        summary:
          'Finalize after the period ended (409 period_open): recomputed, numbered VS-<year>-NNNN, hashed, immutable',
        params: IdParams,
        response: { 200: S.Statement },
      },
    },
    async (request) => st.statementOut(await st.finalizeStatement(request.ctx, request.params.id)),
  );

  app.get(
    '/api/admin/vendor-statements/:id/pdf',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags: stags,
        summary: 'The statement PDF (drafts watermarked DRAFT)',
        params: IdParams,
        response: { 200: S.binary('application/pdf', 'PDF') },
      },
    },
    async (request, reply) => {
      const row = await st.getStatement(request.ctx, request.params.id);
      return sendPdf(reply, row, await renderStatementPdf(row));
    },
  );
}

function sendPdf(reply: FastifyReply, row: st.StatementRow, body: Buffer) {
  const name = row.number ?? `statement-${row.period}-draft`;
  return reply
    .type('application/pdf')
    .header('content-disposition', `inline; filename="${name}.pdf"`)
    .header('cache-control', 'private, no-store')
    .send(body);
}
