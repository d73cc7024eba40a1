/**
 * The vendor portal's routes (basepath /vendor): the pages without a session (sign-in, the
 * invitation link's accept page, password reset) and, behind the vendor session, one lazy chunk
 * per page: overview, products, orders, earnings, ledger, payouts, statements.
 */
import { QueryClient } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, lazyRouteComponent } from '@tanstack/react-router';
import { NotFound, PortalRoot, sessionOf } from '../portal/shell.js';
import { $api, isProblem } from '../shared/api.js';
import { useDictionary } from '../shared/i18n/index.js';
import { parseSearch, searchValidator, stringifySearch } from '../shared/list.js';
import { vendorText } from './i18n.js';
import { earningSearch, ledgerSearch, listSearch, payoutSearch, statementSearch } from './search.js';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, retry: (count, error) => !isProblem(error) && count < 1 } },
});

function useVendorSession() {
  return sessionOf($api.useQuery('get', '/api/vendor/me', {}, { retry: false, staleTime: 60_000 }));
}

function useVendorNav() {
  const v = useDictionary(vendorText);
  return [
    { to: '/', label: v.nav.dashboard },
    { to: '/products', label: v.nav.products },
    { to: '/orders', label: v.nav.orders, prefix: true },
    { to: '/earnings', label: v.nav.earnings },
    { to: '/ledger', label: v.nav.ledger },
    { to: '/payouts', label: v.nav.payouts },
    { to: '/statements', label: v.nav.statements, prefix: true },
  ];
}

const rootRoute = createRootRoute({
  component: () => <PortalRoot useSession={useVendorSession} nav={useVendorNav} />,
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
  page('/', () => import('./routes/dashboard.js'), 'DashboardPage'),
  page('products', () => import('./routes/products.js'), 'ProductsPage', listSearch),
  page('orders', () => import('./routes/orders.js'), 'OrdersPage', listSearch),
  page('orders/$id', () => import('./routes/orders.js'), 'OrderPage'),
  page('earnings', () => import('./routes/money.js'), 'EarningsPage', earningSearch),
  page('ledger', () => import('./routes/money.js'), 'LedgerPage', ledgerSearch),
  page('payouts', () => import('./routes/money.js'), 'PayoutsPage', payoutSearch),
  page('statements', () => import('./routes/statements.js'), 'StatementsPage', statementSearch),
  page('statements/$id', () => import('./routes/statements.js'), 'StatementPage'),
]);

export const router = createRouter({
  routeTree,
  basepath: '/vendor',
  parseSearch,
  stringifySearch,
  defaultPreload: 'intent',
  scrollRestoration: true,
});
