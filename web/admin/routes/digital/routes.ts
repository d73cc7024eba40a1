/**
 * The digital add-on's screens (docs/admin.md "Digital"): the add-on status, plans (list, new,
 * edit), subscriptions (list with the spec's filters in the URL, detail) and the statistics with
 * its date range in the URL. Every screen checks the add-on first (gate.tsx).
 */
import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { $api } from '../../../shared/api.js';
import { dayParam, enumParam, pagingSearch, searchValidator, textParam } from '../../../shared/list.js';
import { signedInRoute } from '../../route-base.js';
import { aboListQuery, defaultRange, verlaufQuery } from './queries.js';

export const ABO_STATUS_FILTERS = ['alle', 'laufend', 'testzeit', 'zahlung_offen', 'gekuendigt', 'beendet'] as const;
export const ABO_TEST_FILTERS = ['alle', 'nein', 'ja'] as const;

const statusQuery = () => $api.queryOptions('get', '/api/admin/digital/status');

export const digitalStatusRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'digital',
  loader: ({ context }) => void context.queryClient.prefetchQuery(statusQuery()),
  component: lazyRouteComponent(() => import('./status/page.js'), 'DigitalStatusPage'),
});

export const plansRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'digital/plaene',
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(statusQuery());
    void context.queryClient.prefetchQuery($api.queryOptions('get', '/api/admin/digital/plaene'));
  },
  component: lazyRouteComponent(() => import('./plan-list/page.js'), 'PlanListPage'),
});

export const planNewRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'digital/plaene/neu',
  loader: ({ context }) => void context.queryClient.prefetchQuery(statusQuery()),
  component: lazyRouteComponent(() => import('./plan-edit/page.js'), 'PlanNewPage'),
});

export const planRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'digital/plaene/$id',
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(statusQuery());
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/digital/plaene/{id}', { params: { path: { id: params.id } } }),
    );
  },
  component: lazyRouteComponent(() => import('./plan-edit/page.js'), 'PlanEditPage'),
});

export const abosRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'digital/abos',
  validateSearch: searchValidator((raw) => ({
    ...pagingSearch(raw),
    q: textParam(raw, 'q'),
    plan_id: textParam(raw, 'plan_id', 64),
    status: enumParam(raw, 'status', ABO_STATUS_FILTERS),
    test: enumParam(raw, 'test', ABO_TEST_FILTERS),
  })),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(statusQuery());
    void context.queryClient.prefetchQuery(aboListQuery(deps));
  },
  component: lazyRouteComponent(() => import('./abo-list/page.js'), 'AboListPage'),
});

export const aboRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'digital/abos/$id',
  loader: ({ context, params }) => {
    void context.queryClient.prefetchQuery(statusQuery());
    void context.queryClient.prefetchQuery(
      $api.queryOptions('get', '/api/admin/digital/abos/{id}', { params: { path: { id: params.id } } }),
    );
  },
  component: lazyRouteComponent(() => import('./abo-detail/page.js'), 'AboDetailPage'),
});

export const statistikRoute = createRoute({
  getParentRoute: () => signedInRoute,
  path: 'digital/statistik',
  validateSearch: searchValidator((raw) => ({
    from: dayParam(raw, 'from'),
    to: dayParam(raw, 'to'),
    test: enumParam(raw, 'test', ABO_TEST_FILTERS),
  })),
  loaderDeps: ({ search }) => search,
  loader: ({ context, deps }) => {
    void context.queryClient.prefetchQuery(statusQuery());
    const range = defaultRange(deps);
    void context.queryClient.prefetchQuery(verlaufQuery({ ...range, test: deps.test }));
  },
  component: lazyRouteComponent(() => import('./statistik/page.js'), 'StatistikPage'),
});

export const digitalRoutes = [
  digitalStatusRoute,
  plansRoute,
  planNewRoute,
  planRoute,
  abosRoute,
  aboRoute,
  statistikRoute,
];
