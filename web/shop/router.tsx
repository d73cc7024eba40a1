/**
 * The storefront's routes (basepath /shop): catalog with search, category and page in the URL,
 * a product by slug, the cart, checkout and the thank-you page return_url leads to. One lazy
 * chunk per page.
 */
import { QueryClient } from '@tanstack/react-query';
import { createRootRoute, createRoute, createRouter, lazyRouteComponent, useRouterState } from '@tanstack/react-router';
import { isProblem } from '../shared/api.js';
import { parseSearch, searchValidator, stringifySearch, textParam } from '../shared/list.js';
import { NotFound, ShopLayout } from './shell.js';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: 30_000, retry: (count, error) => !isProblem(error) && count < 1 },
  },
});

const rootRoute = createRootRoute({ component: ShopLayout, notFoundComponent: NotFound });

/** Products per catalog page. */
export const PAGE_SIZE = 12;

type Raw = Record<string, unknown>;

/** The catalog's URL state: search text, category id, page (1-based). */
export function catalogSearch(raw: Raw) {
  const page = Number(raw.page);
  return {
    q: textParam(raw, 'q'),
    category: textParam(raw, 'category', 64),
    page: Number.isInteger(page) && page >= 1 && page <= 10_000 ? page : 1,
  };
}
export const thanksSearch = (raw: Raw) => ({
  session_id: textParam(raw, 'session_id', 64),
  abo: ['1', 'true', true].includes(raw.abo as string),
});
export const tokenSearch = (raw: Raw) => ({ token: textParam(raw, 'token', 200) });

/**
 * The typed search of the current URL. (Route hooks are typed by the registered router, which is
 * the admin's, so the shop parses with its own validators.)
 */
export function useShopSearch<T>(parse: (raw: Raw) => T): T {
  return parse(useRouterState({ select: (s) => s.location.search }) as Raw);
}

export const catalogRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  validateSearch: searchValidator(catalogSearch),
  component: lazyRouteComponent(() => import('./routes/catalog/page.js'), 'CatalogPage'),
});

export const productRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'produkt/$slug',
  component: lazyRouteComponent(() => import('./routes/product/page.js'), 'ProductPage'),
});

export const cartRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'warenkorb',
  component: lazyRouteComponent(() => import('./routes/cart/page.js'), 'CartPage'),
});

export const checkoutRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'kasse',
  component: lazyRouteComponent(() => import('./routes/checkout/page.js'), 'CheckoutPage'),
});

export const thanksRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'danke',
  validateSearch: searchValidator(thanksSearch),
  component: lazyRouteComponent(() => import('./routes/thanks/page.js'), 'ThanksPage'),
});

// ---- customer account area ----
export const accountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'konto',
  component: lazyRouteComponent(() => import('./routes/account/page.js'), 'AccountPage'),
});

export const verifyEmailRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'konto/verify-email',
  validateSearch: searchValidator(tokenSearch),
  component: lazyRouteComponent(() => import('./routes/account/verify.js'), 'VerifyEmailPage'),
});

export const resetPasswordRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'konto/reset-password',
  validateSearch: searchValidator(tokenSearch),
  component: lazyRouteComponent(() => import('./routes/account/reset.js'), 'ResetPasswordPage'),
});

/** The page of the subscription e-mail's management link (no sign-in: the token is the credential). */
export const aboLinkRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'konto/abo',
  validateSearch: searchValidator(tokenSearch),
  component: lazyRouteComponent(() => import('./routes/account/abo.js'), 'AboLinkPage'),
});

const routeTree = rootRoute.addChildren([
  catalogRoute,
  productRoute,
  cartRoute,
  checkoutRoute,
  thanksRoute,
  accountRoute,
  verifyEmailRoute,
  resetPasswordRoute,
  aboLinkRoute,
]);

export const router = createRouter({
  routeTree,
  basepath: '/shop',
  parseSearch,
  stringifySearch,
  defaultPreload: 'intent',
  scrollRestoration: true,
});

// No `Register` declaration: the admin's router owns it (one tsconfig checks all of web/), so the
// shop navigates through its own router instance (shell.tsx, ShopLink and go()).
