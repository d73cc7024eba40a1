/**
 * The partner screens (vendors and affiliates): lists with their filters and page in the URL, and
 * one partner's page whose section (tab) and page are in the URL too. Each screen is its own chunk.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { $api } from '../../../shared/api.js';
import { dayParam, enumParam, pagingSearch, searchValidator, serverPaging, textParam } from '../../../shared/list.js';
import { signedInRoute } from '../../route-base.js';

export const VENDOR_STATUSES = ['invited', 'active', 'suspended'] as const;
export const AFFILIATE_STATUSES = ['active', 'paused', 'blocked'] as const;
export const VENDOR_TABS = ['overview', 'products', 'orders', 'earnings', 'ledger', 'payouts', 'statements'] as const;
export const AFFILIATE_TABS = ['overview', 'earnings', 'payouts'] as const;
export const EARNING_STATUSES = ['pending', 'released'] as const;
export const CONTENT_KINDS = ['link', 'banner', 'text'] as const;

export const vendorsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'partners/vendors',
  validateSearch: searchValidator((raw) => ({
    ...pagingSearch(raw),
    q: textParam(raw, 'q'),
    status: enumParam(raw, 'status', VENDOR_STATUSES),
  })),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/vendors', {
        params: { query: { ...serverPaging(deps), q: deps.q, status: deps.status } },
      }),
    ),
  component: lazyRouteComponent(() => import('./vendor-list/page.js'), 'VendorListPage'),
});

export const vendorRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'partners/vendors/$id',
  validateSearch: searchValidator((raw) => ({
    ...pagingSearch(raw),
    tab: enumParam(raw, 'tab', VENDOR_TABS),
    status: enumParam(raw, 'status', EARNING_STATUSES),
    // the overview's analytics period (UTC days; absent = this month, the API's default)
    from: dayParam(raw, 'from'),
    to: dayParam(raw, 'to'),
  })),
  loader: ({ context, params }) =>
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/vendors/{id}', { params: { path: { id: params.id } } }),
    ),
  component: lazyRouteComponent(() => import('./vendor-detail/page.js'), 'VendorDetailPage'),
});

export const affiliatesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'partners/affiliates',
  validateSearch: searchValidator((raw) => ({
    ...pagingSearch(raw),
    q: textParam(raw, 'q'),
    status: enumParam(raw, 'status', AFFILIATE_STATUSES),
  })),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/affiliates', {
        params: { query: { ...serverPaging(deps), q: deps.q, status: deps.status } },
      }),
    ),
  component: lazyRouteComponent(() => import('./affiliate-list/page.js'), 'AffiliateListPage'),
});

export const affiliateRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'partners/affiliates/$id',
  validateSearch: searchValidator((raw) => ({
    ...pagingSearch(raw),
    tab: enumParam(raw, 'tab', AFFILIATE_TABS),
    status: enumParam(raw, 'status', EARNING_STATUSES),
  })),
  loader: ({ context, params }) =>
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/affiliates/{id}', { params: { path: { id: params.id } } }),
    ),
  component: lazyRouteComponent(() => import('./affiliate-detail/page.js'), 'AffiliateDetailPage'),
});

export const affiliateContentRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'partners/affiliate-content',
  validateSearch: searchValidator((raw) => ({
    ...pagingSearch(raw),
    kind: enumParam(raw, 'kind', CONTENT_KINDS),
  })),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) =>
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/affiliate-content', {
        params: { query: { ...serverPaging(deps), kind: deps.kind } },
      }),
    ),
  component: lazyRouteComponent(() => import('./affiliate-content/page.js'), 'AffiliateContentPage'),
});

export const partnerSettingsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'partners/settings',
  loader: ({ context }) =>
    void context.queryClient.prefetchQuery($api.queryOptions('get', '/api/admin/settings/partners', {})),
  component: lazyRouteComponent(() => import('./partner-settings/page.js'), 'PartnerSettingsPage'),
});

export const partnerRoutes = [
  vendorsRoute,
  vendorRoute,
  affiliatesRoute,
  affiliateRoute,
  affiliateContentRoute,
  partnerSettingsRoute,
];
