/**
 * Vendor routes (docs/partners.md): the admin side (invitations, vendors, commission rules, earnings,
 * analytics) and the vendor portal. Reads listed in docs/partners.md are open to a finance:read token;
 * every mutation needs an owner or admin session and refuses every token (token_blocked).
 * Payouts and statements live in payouts.routes.ts.
 */
import { manageMoneyAllChannels, readFinanceAllChannels, vendorPortal } from '../../platform/auth/presets.js';
import { IdParams, pageOf } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { orderNumbers } from '../orders/index.js';
import { earningOut } from './earnings.js';
import { vendorAnalytics } from './vendor-analytics.js';
import * as portal from './vendor-portal.js';
import * as S from './vendors.schemas.js';
import * as svc from './vendors.service.js';

const tags = ['vendors'];
const portalTags = ['vendor portal'];

export function vendorRoutes(app: TypedApp): void {
  app.post(
    '/api/admin/vendors/invite',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary:
          'Invite a vendor: e-mails an accept link (201, status invited); an e-mail still invited gets a fresh link (200); an accepted vendor is 409 vendor_exists',
        body: S.VendorInvite,
        response: { 200: S.Vendor, 201: S.Vendor },
      },
    },
    async (request, reply) => {
      const { vendor, created } = await svc.inviteVendor(request.ctx, request.body);
      return reply.code(created ? 201 : 200).send(svc.vendorOut(vendor));
    },
  );

  app.get(
    '/api/admin/vendors',
    {
      config: readFinanceAllChannels,
      schema: {
        tags,
        summary: 'List vendors, newest first (status, q over name and e-mail), each with its balances',
        querystring: S.VendorListQuery,
        response: { 200: S.VendorList },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      return { ...(await svc.listVendors(request.ctx, { ...q, limit, offset })), limit, offset };
    },
  );

  app.get(
    '/api/admin/vendors/:id',
    {
      config: readFinanceAllChannels,
      schema: {
        tags,
        summary: 'A vendor with balances, its commission rules in force and the rule history',
        params: IdParams,
        response: { 200: S.VendorDetail },
      },
    },
    async (request) => svc.vendorDetail(request.ctx, request.params.id),
  );

  app.patch(
    '/api/admin/vendors/:id',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary: 'Rename, suspend (ends its portal sessions) or reactivate a vendor',
        params: IdParams,
        body: S.VendorPatch,
        response: { 200: S.Vendor },
      },
    },
    async (request) => svc.vendorOut(await svc.updateVendor(request.ctx, request.params.id, request.body)),
  );

  app.post(
    '/api/admin/vendors/:id/commission-rule',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary:
          'Add a commission rule version (percent and/or fixed cents per line, optionally per category) for orders paid from effective_from on',
        params: IdParams,
        body: S.CommissionRuleCreate,
        response: { 201: S.CommissionRule },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await svc.addCommissionRule(request.ctx, request.params.id, request.body)),
  );

  // ---- one vendor's products, orders and ledger (the admin's view of what the portal shows) ----

  app.get(
    '/api/admin/vendors/:id/products',
    {
      config: readFinanceAllChannels,
      schema: {
        tags,
        summary: "The vendor's products (as its portal lists them), newest first",
        params: IdParams,
        querystring: S.PortalListQuery,
        response: { 200: S.PortalProductList },
      },
    },
    async (request) => {
      const vendor = await svc.loadVendor(request.ctx, request.params.id);
      const { limit, offset } = pageOf(request.query);
      return { ...(await portal.productPage(request.ctx, vendor.id, limit, offset)), limit, offset };
    },
  );

  app.get(
    '/api/admin/vendors/:id/orders',
    {
      config: readFinanceAllChannels,
      schema: {
        tags,
        summary: "Paid orders with a line of the vendor, each with only the vendor's lines, newest first",
        params: IdParams,
        querystring: S.PortalListQuery,
        response: { 200: S.PortalOrderList },
      },
    },
    async (request) => {
      const vendor = await svc.loadVendor(request.ctx, request.params.id);
      const { limit, offset } = pageOf(request.query);
      return { ...(await portal.orderPage(request.ctx, vendor.id, limit, offset)), limit, offset };
    },
  );

  app.get(
    '/api/admin/vendors/:id/ledger',
    {
      config: readFinanceAllChannels,
      schema: {
        tags,
        summary: "The vendor's ledger entries with their postings, oldest first (currency, from, to)",
        params: IdParams,
        querystring: S.LedgerQuery,
        response: { 200: S.LedgerList },
      },
    },
    async (request) => {
      const vendor = await svc.loadVendor(request.ctx, request.params.id);
      return portal.ledgerPage(request.ctx, vendor.id, request.query);
    },
  );

  app.get(
    '/api/admin/vendor-earnings',
    {
      config: readFinanceAllChannels,
      schema: {
        tags,
        summary: 'Vendor earnings, newest first (vendor, status, order, currency, earned from/to)',
        querystring: S.EarningListQuery,
        response: { 200: S.EarningList },
      },
    },
    async (request) => {
      const { rows, count, limit, offset } = await svc.vendorEarnings(request.ctx, request.query);
      return { earnings: rows.map((e) => earningOut('vendor', e)), count, limit, offset };
    },
  );

  app.post(
    '/api/admin/vendor-earnings/release',
    {
      config: manageMoneyAllChannels,
      schema: {
        tags,
        summary:
          'Make pending earnings available: the given ids, or all older than the hold period (optionally of one vendor)',
        body: S.ReleaseBody,
        response: { 200: S.ReleaseResult },
      },
    },
    async (request) => {
      const r = await svc.releaseVendorEarnings(request.ctx, request.body);
      return { ...r, earnings: r.earnings.map((e) => earningOut('vendor', e)) };
    },
  );

  app.get(
    '/api/admin/vendor-analytics',
    {
      config: readFinanceAllChannels,
      schema: {
        tags,
        summary:
          'Per vendor and currency for a period (default: this month): sales, commission, earnings, clawbacks, orders, current balances',
        querystring: S.AnalyticsQuery,
        response: { 200: S.Analytics },
      },
    },
    async (request) => vendorAnalytics(request.ctx, request.query),
  );

  // ---- portal ----

  app.get(
    '/api/vendor/me',
    {
      config: vendorPortal,
      schema: {
        tags: portalTags,
        summary: 'The signed-in vendor with its balances',
        response: { 200: S.VendorWithBalances },
      },
    },
    async (request) => portal.me(request.ctx),
  );

  app.get(
    '/api/vendor/dashboard',
    {
      config: vendorPortal,
      schema: {
        tags: portalTags,
        summary: 'Balances, sales of the last 30 days and this month, counts, the last 5 orders',
        response: { 200: S.Dashboard },
      },
    },
    async (request) => portal.dashboard(request.ctx),
  );

  app.get(
    '/api/vendor/products',
    {
      config: vendorPortal,
      schema: {
        tags: portalTags,
        summary: "The vendor's products",
        querystring: S.PortalListQuery,
        response: { 200: S.PortalProductList },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      return { ...(await portal.listProducts(request.ctx, limit, offset)), limit, offset };
    },
  );

  app.get(
    '/api/vendor/orders',
    {
      config: vendorPortal,
      schema: {
        tags: portalTags,
        summary: "Paid orders with the vendor's lines (only those), newest first",
        querystring: S.PortalListQuery,
        response: { 200: S.PortalOrderList },
      },
    },
    async (request) => {
      const q = request.query;
      const { limit, offset } = pageOf(q);
      return { ...(await portal.listOrders(request.ctx, limit, offset)), limit, offset };
    },
  );

  app.get(
    '/api/vendor/orders/:id',
    {
      config: vendorPortal,
      schema: {
        tags: portalTags,
        summary: "One order with the vendor's lines; 404 when it has none",
        params: IdParams,
        response: { 200: S.PortalOrder },
      },
    },
    async (request) => portal.getOrder(request.ctx, request.params.id),
  );

  app.get(
    '/api/vendor/earnings',
    {
      config: vendorPortal,
      schema: {
        tags: portalTags,
        summary: "The vendor's earnings, newest first, with their order's number",
        querystring: S.PortalEarningQuery,
        response: { 200: S.PortalEarningList },
      },
    },
    async (request) => {
      const v = await portal.portalVendor(request.ctx);
      const { rows, count, limit, offset } = await svc.vendorEarnings(request.ctx, request.query, v.id);
      const numbers = new Map(
        (
          await orderNumbers(
            request.ctx,
            rows.map((e) => e.orderId),
          )
        ).map((o) => [o.id, o.number]),
      );
      const earnings = rows.map((e) => ({ ...earningOut('vendor', e), order_number: numbers.get(e.orderId) ?? null }));
      return { earnings, count, limit, offset };
    },
  );

  app.get(
    '/api/vendor/ledger',
    {
      config: vendorPortal,
      schema: {
        tags: portalTags,
        summary: "The vendor's ledger entries with their postings, oldest first",
        querystring: S.LedgerQuery,
        response: { 200: S.LedgerList },
      },
    },
    async (request) => portal.ledger(request.ctx, request.query),
  );
}
