/**
 * The affiliate portal's routes (basepath /affiliate): the pages without a session (sign-in, the
 * invitation link's accept page, password reset) and, behind the affiliate session, one lazy
 * chunk per page: overview (code and referral link), commissions, payouts, promotional material.
 */
import { QueryClient } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { NotFound, PortalRoot, sessionOf } from '../portal/shell.js';
import { $api, isProblem } from '../shared/api.js';
import { useDictionary } from '../shared/i18n/index.js';
import { parseSearch, searchValidator, stringifySearch } from '../shared/list.js';
import { affiliateText } from './i18n.js';
import { contentSearch, earningSearch, payoutSearch } from './search.js';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, retry: (count, error) => !isProblem(error) && count < 1 } },
});

function useAffiliateSession() {
  return sessionOf($api.useQuery('get', '/api/affiliate/me', {}, { retry: false, staleTime: 60_000 }));
}

function useAffiliateNav() {
  const a = useDictionary(affiliateText);
  return [
    { to: '/', label: a.nav.overview },
    { to: '/earnings', label: a.nav.earnings },
    { to: '/payouts', label: a.nav.payouts },
    { to: '/content', label: a.nav.content },
  ];
}

const rootRoute = createRootRoute({
  component: () => <PortalRoot useSession={useAffiliateSession} nav={useAffiliateNav} />,
  notFoundComponent: NotFound,
});

const page = (
  path: string,
  load: () => Promise<Record<string, unknown>>,
  name: string,
  search?: (raw: Record<string, unknown>) => object,
) =>
  createRoute({
    getParentRoute: () => rootRoute,
    path,
    ...(search ? { validateSearch: searchValidator(search) } : {}),
    component: lazyRouteComponent(load as () => Promise<any>, name),
  });

const auth = () => import('../portal/auth.js');

const routeTree = rootRoute.addChildren([
  page('sign-in', auth, 'SignInPage'),
  page('accept', auth, 'AcceptPage'),
  page('reset-password', auth, 'ResetPasswordPage'),
  page('/', () => import('./routes/overview.js'), 'OverviewPage'),
  page('earnings', () => import('./routes/earnings.js'), 'EarningsPage', earningSearch),
  page('payouts', () => import('./routes/payouts.js'), 'PayoutsPage', payoutSearch),
  page('content', () => import('./routes/content.js'), 'ContentPage', contentSearch),
]);

export const router = createRouter({
  routeTree,
  basepath: '/affiliate',
  parseSearch,
  stringifySearch,
  defaultPreload: 'intent',
  scrollRestoration: true,
});
