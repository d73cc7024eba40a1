/**
 * The admin's routes: paths, typed search params and what must hold before a screen renders
 * (signed in). Screens are loaded lazily, one chunk per screen folder (routes/<area>/<screen>/).
 * New areas declare their routes in routes/<area>/routes.ts (against route-base.ts's
 * `signedInRoute`) and add them to the tree below.
 */
import { createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { $api, setUnauthorizedHandler } from '../shared/api.js';
import { meQuery } from '../shared/auth.js';
import {
  dayParam,
  enumParam,
  pagingSearch,
  parseSearch,
  searchValidator,
  stringifySearch,
  textParam,
} from '../shared/list.js';
import { queryClient, rootRoute, safeRedirect, signedInRoute, signInRoute } from './route-base.js';
import { accessRoutes } from './routes/access/routes.js';
import { customerRoutes } from './routes/customers/routes.js';
import { digitalRoutes } from './routes/digital/routes.js';
import { financeRoutes } from './routes/finance/routes.js';
import { orderListQuery } from './routes/orders/order-list/query.js';
import { partnerRoutes } from './routes/partners/routes.js';
import { productListQuery } from './routes/products/product-list/query.js';
import { operationsSettingsRoutes } from './routes/settings/routes.js';

export { queryClient, rootRoute, safeRedirect, signedInRoute, signInRoute } from './route-base.js';

// ---- home (Heute) ----
const homeRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: '/',
  loader: ({ context }) => void context.queryClient.prefetchQuery($api.queryOptions('get', '/api/admin/overview')),
  component: lazyRouteComponent(() => import('./routes/home/today/page.js'), 'HomePage'),
});
// ---- end home ----

export const ORDER_STATUSES = [
  'pending_payment',
  'paid',
  'fulfilled',
  'cancelled',
  'partially_refunded',
  'refunded',
] as const;

export const ORDER_SORTS = ['-created_at', 'created_at', '-total_cents', 'total_cents', '-number', 'number'] as const;

export const ordersRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'orders',
  validateSearch: searchValidator((raw) => ({
    ...pagingSearch(raw),
    q: textParam(raw, 'q'),
    status: enumParam(raw, 'status', ORDER_STATUSES),
    from: dayParam(raw, 'from'),
    to: dayParam(raw, 'to'),
    // ---- orders: channel, paid, sort ----
    channel: textParam(raw, 'channel', 64),
    paid: enumParam(raw, 'paid', ['true', 'false'] as const),
    sort: enumParam(raw, 'sort', ORDER_SORTS),
  })),
  loaderDeps: ({ search }) => search,
  // prefetched beside the session check; a failure is the page's to show (or sign-in's)
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(orderListQuery(deps)),
  component: lazyRouteComponent(() => import('./routes/orders/order-list/page.js'), 'OrderListPage'),
});

export const orderRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'orders/$id',
  loader: ({ context, params }) =>
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/orders/{id}', { params: { path: { id: params.id } } }),
    ),
  component: lazyRouteComponent(() => import('./routes/orders/order-detail/page.js'), 'OrderDetailPage'),
});

export const accountRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'account',
  component: lazyRouteComponent(() => import('./routes/account/password/page.js'), 'AccountPage'),
});

// ---- products ----
export const PRODUCT_STATUSES = ['draft', 'published', 'archived'] as const;
export const PRODUCT_SORTS = [
  '-created_at',
  'created_at',
  'name',
  '-name',
  'sku',
  '-sku',
  'base_price_cents',
  '-base_price_cents',
  'updated_at',
  '-updated_at',
] as const;

export const productsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'products',
  validateSearch: searchValidator((raw) => ({
    ...pagingSearch(raw),
    q: textParam(raw, 'q'),
    status: enumParam(raw, 'status', PRODUCT_STATUSES),
    category_id: textParam(raw, 'category_id', 40),
    brand_id: textParam(raw, 'brand_id', 40),
    supplier_id: textParam(raw, 'supplier_id', 40),
    digital: enumParam(raw, 'digital', ['ja'] as const),
    sort: enumParam(raw, 'sort', PRODUCT_SORTS),
  })),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(productListQuery(deps)),
  component: lazyRouteComponent(() => import('./routes/products/product-list/page.js'), 'ProductListPage'),
});

export const productNewRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'products/new',
  component: lazyRouteComponent(() => import('./routes/products/product-edit/page.js'), 'ProductNewPage'),
});

export const productRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'products/$id',
  loader: ({ context, params }) =>
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/products/{id}', { params: { path: { id: params.id } } }),
    ),
  component: lazyRouteComponent(() => import('./routes/products/product-edit/page.js'), 'ProductEditPage'),
});

const referenceSearch = searchValidator((raw) => ({ ...pagingSearch(raw), q: textParam(raw, 'q') }));

export const categoriesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'categories',
  validateSearch: referenceSearch,
  component: lazyRouteComponent(() => import('./routes/products/references/page.js'), 'CategoriesPage'),
});

export const brandsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'brands',
  validateSearch: referenceSearch,
  component: lazyRouteComponent(() => import('./routes/products/references/page.js'), 'BrandsPage'),
});

export const suppliersRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'suppliers',
  validateSearch: referenceSearch,
  component: lazyRouteComponent(() => import('./routes/products/references/page.js'), 'SuppliersPage'),
});

const productRoutes = [productsRoute, productNewRoute, productRoute, categoriesRoute, brandsRoute, suppliersRoute];
// ---- end products ----

// ---- channels ----
export const channelsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'channels',
  loader: ({ context }) => void context.queryClient.prefetchQuery($api.queryOptions('get', '/api/admin/channels')),
  component: lazyRouteComponent(() => import('./routes/channels/channel-list/page.js'), 'ChannelListPage'),
});

export const channelRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'channels/$id',
  loader: ({ context, params }) =>
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/channels/{id}', { params: { path: { id: params.id } } }),
    ),
  component: lazyRouteComponent(() => import('./routes/channels/channel-detail/page.js'), 'ChannelDetailPage'),
});
// ---- end channels ----

const routeTree = rootRoute.addChildren([
  signInRoute,
  signedInRoute.addChildren([
    homeRoute,
    ordersRoute,
    orderRoute,
    accountRoute,
    ...productRoutes,
    channelsRoute,
    channelRoute,
    ...digitalRoutes,
    ...customerRoutes,
    ...operationsSettingsRoutes,
    ...partnerRoutes,
    ...accessRoutes,
    ...financeRoutes,
  ]),
]);

export const router = createRouter({
  routeTree,
  basepath: '/admin',
  context: { queryClient },
  parseSearch,
  stringifySearch,
  defaultPreload: 'intent',
  scrollRestoration: true,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}

// A session that lapses (expired, revoked, password changed elsewhere): back to sign-in, and
// after it to the page the employee was on.
setUnauthorizedHandler(() => {
  if (!queryClient.getQueryData(meQuery().queryKey)) return;
  queryClient.clear();
  const here = `${window.location.pathname}${window.location.search}`;
  void router.navigate({ to: '/sign-in', search: { redirect: safeRedirect(here), reason: 'expired' } });
});
