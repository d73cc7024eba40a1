/**
 * Access and webhooks: employees (owner only), API tokens with publishable keys and the token
 * write policy, the webhook destination with its delivery log, and the built-in storefront's
 * settings. Each screen's loader prefetches what it shows first.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { $api } from '../../../shared/api.js';
import { enumParam, pagingSearch, searchValidator, serverPaging } from '../../../shared/list.js';
import { signedInRoute } from '../../route-base.js';

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'dead'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const employeesRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'access/employees',
  component: lazyRouteComponent(() => import('./employees/page.js'), 'EmployeesPage'),
});

export const apiAccessRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'access/api',
  component: lazyRouteComponent(() => import('./api-access/page.js'), 'ApiAccessPage'),
});

export const webhookSearch = searchValidator((raw) => ({
  ...pagingSearch(raw),
  status: enumParam(raw, 'status', DELIVERY_STATUSES),
}));

export type WebhookSearch = { page: number; limit: 25 | 50 | 100; status: DeliveryStatus | undefined };

/** The delivery log's query for a URL state (shared by the loader and the page). */
export const deliveriesQuery = (search: WebhookSearch) =>
  $api.queryOptions('get', '/api/admin/checkout/webhook/deliveries', {
    params: { query: { ...serverPaging(search), ...(search.status ? { status: search.status } : {}) } },
  });

export const webhooksRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'access/webhooks',
  validateSearch: webhookSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(deliveriesQuery(deps)),
  component: lazyRouteComponent(() => import('./webhooks/page.js'), 'WebhooksPage'),
});

export const storefrontSettingsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'access/storefront',
  loader: ({ context }) =>
    void context.queryClient.prefetchQuery($api.queryOptions('get', '/api/admin/storefront-settings')),
  component: lazyRouteComponent(() => import('./storefront/page.js'), 'StorefrontSettingsPage'),
});

export const accessRoutes = [employeesRoute, apiAccessRoute, webhooksRoute, storefrontSettingsRoute];
