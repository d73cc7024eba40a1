/**
 * The shop's operations settings: checkout rules, the shop's payment methods (what every channel
 * without its own selection offers), shipping methods, the payment provider's events
 * and the e-mail outbox (lists page on the server, filters in the URL). The access settings
 * (employees, API tokens, webhooks) live in routes/access/.
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { $api } from '../../../shared/api.js';
import {
  enumParam,
  type Paging,
  pagingSearch,
  searchValidator,
  serverPaging,
  textParam,
} from '../../../shared/list.js';
import { signedInRoute } from '../../route-base.js';

export const PAYMENT_EVENT_STATUSES = ['processed', 'ignored', 'rejected', 'refunded'] as const;
export const EMAIL_STATUSES = ['queued', 'stored', 'sent', 'failed'] as const;

export interface PaymentEventSearch extends Paging {
  status?: (typeof PAYMENT_EVENT_STATUSES)[number] | undefined;
}

export interface EmailSearch extends Paging {
  status?: (typeof EMAIL_STATUSES)[number] | undefined;
  to?: string | undefined;
  kind?: string | undefined;
}

export const paymentEventsQuery = (search: PaymentEventSearch) =>
  $api.queryOptions('get', '/api/admin/payment-events', {
    params: { query: { ...serverPaging(search), status: search.status } },
  });

export const emailsQuery = (search: EmailSearch) =>
  $api.queryOptions('get', '/api/admin/emails', {
    params: { query: { ...serverPaging(search), status: search.status, to: search.to, kind: search.kind } },
  });

export const checkoutSettingsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'settings/checkout',
  loader: ({ context }) =>
    void context.queryClient.prefetchQuery($api.queryOptions('get', '/api/admin/settings/checkout')),
  component: lazyRouteComponent(() => import('./checkout/page.js'), 'CheckoutSettingsPage'),
});

export const paymentMethodsSettingsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'settings/payment-methods',
  loader: ({ context }) =>
    void context.queryClient.prefetchQuery($api.queryOptions('get', '/api/admin/settings/payment-methods')),
  component: lazyRouteComponent(() => import('./payment-methods/page.js'), 'PaymentMethodsSettingsPage'),
});

export const shippingMethodsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'settings/shipping',
  loader: ({ context }) =>
    void context.queryClient.prefetchQuery($api.queryOptions('get', '/api/admin/shipping-methods')),
  component: lazyRouteComponent(() => import('./shipping/page.js'), 'ShippingMethodsPage'),
});

export const paymentEventsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'settings/payment-events',
  validateSearch: searchValidator(
    (raw): PaymentEventSearch => ({
      ...pagingSearch(raw),
      status: enumParam(raw, 'status', PAYMENT_EVENT_STATUSES),
    }),
  ),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(paymentEventsQuery(deps)),
  component: lazyRouteComponent(() => import('./payment-events/page.js'), 'PaymentEventsPage'),
});

export const emailsRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'settings/emails',
  validateSearch: searchValidator(
    (raw): EmailSearch => ({
      ...pagingSearch(raw),
      status: enumParam(raw, 'status', EMAIL_STATUSES),
      to: textParam(raw, 'to', 254),
      kind: textParam(raw, 'kind', 64),
    }),
  ),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(emailsQuery(deps)),
  component: lazyRouteComponent(() => import('./emails/page.js'), 'EmailsPage'),
});

export const operationsSettingsRoutes = [
  checkoutSettingsRoute,
  paymentMethodsSettingsRoute,
  shippingMethodsRoute,
  paymentEventsRoute,
  emailsRoute,
];
