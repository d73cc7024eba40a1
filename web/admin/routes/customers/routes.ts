/**
 * The customers area: the list (accounts and guest buyers, filters and page in the URL) and an
 * account's detail with its orders, subscriptions, invoices and the account actions.
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

export const CUSTOMER_SORTS = [
  'last_order_desc',
  'created_desc',
  'created_asc',
  'email_asc',
  'email_desc',
  'orders_desc',
] as const;
export const CUSTOMER_KINDS = ['account', 'guest'] as const;

export interface CustomerListSearch extends Paging {
  q?: string | undefined;
  verified?: 'true' | 'false' | undefined;
  kind?: (typeof CUSTOMER_KINDS)[number] | undefined;
  sort?: (typeof CUSTOMER_SORTS)[number] | undefined;
}

/** The list's server query from the URL (shared by the loader and the page: one cache entry). */
export const customerListQuery = (search: CustomerListSearch) =>
  $api.queryOptions('get', '/api/admin/customers', {
    params: {
      query: {
        ...serverPaging(search),
        q: search.q,
        verified: search.verified === undefined ? undefined : search.verified === 'true',
        kind: search.kind,
        sort: search.sort,
      },
    },
  });

export const customerDetailQuery = (id: string) =>
  $api.queryOptions('get', '/api/admin/customers/{id}', { params: { path: { id } } });

export const customersRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'customers',
  validateSearch: searchValidator(
    (raw): CustomerListSearch => ({
      ...pagingSearch(raw),
      q: textParam(raw, 'q'),
      verified: enumParam(raw, 'verified', ['true', 'false'] as const),
      kind: enumParam(raw, 'kind', CUSTOMER_KINDS),
      sort: enumParam(raw, 'sort', CUSTOMER_SORTS),
    }),
  ),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => void context.queryClient.prefetchQuery(customerListQuery(deps)),
  component: lazyRouteComponent(() => import('./customer-list/page.js'), 'CustomerListPage'),
});

export const customerRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'customers/$id',
  loader: ({ context, params }) => void context.queryClient.prefetchQuery(customerDetailQuery(params.id)),
  component: lazyRouteComponent(() => import('./customer-detail/page.js'), 'CustomerDetailPage'),
});

export const customerRoutes = [customersRoute, customerRoute];
