/**
 * The admin's route skeleton: the root, sign-in and the signed-in parent every screen hangs under.
 * Areas declare their routes in routes/<area>/routes.ts against `signedInRoute` (imported from
 * here, not from router.tsx, so that an area file never imports the router that imports it);
 * router.tsx assembles the tree.
 */
import { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { isProblem } from '../shared/api.js';
import { meQuery } from '../shared/auth.js';
import { enumParam, searchValidator } from '../shared/list.js';
import { NotFound, RootLayout, SignedInLayout } from './shell.js';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      // a refused call is not retried; a network failure once
      retry: (count, error) => !isProblem(error) && count < 1,
    },
  },
});

export const rootRoute = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: RootLayout,
  notFoundComponent: NotFound,
});

/** Only a path inside the admin is followed after sign-in (never another site). */
export function safeRedirect(value: unknown): string | undefined {
  return typeof value === 'string' && value.startsWith('/admin/') && !value.startsWith('//') && !value.includes('\\')
    ? value.slice(0, 2000)
    : undefined;
}

export const signInRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'sign-in',
  validateSearch: searchValidator((raw) => ({
    redirect: safeRedirect(raw.redirect),
    reason: enumParam(raw, 'reason', ['expired', 'signed-out'] as const),
  })),
  component: lazyRouteComponent(() => import('./routes/sign-in/page.js'), 'SignInPage'),
});

/**
 * Everything behind sign-in. The session check (GET /api/auth/me) is started here but awaited in
 * the loader, so that it runs in parallel with the screen's own data (child loaders); without a
 * session: to sign-in with the page remembered.
 */
export const signedInRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: 'signed-in',
  component: SignedInLayout,
  beforeLoad: ({ context }) => ({ session: context.queryClient.ensureQueryData(meQuery()) }),
  loader: async ({ context, location }) => {
    try {
      await context.session;
    } catch {
      const href = location.href.startsWith('/admin/') ? location.href : `/admin${location.href}`;
      throw redirect({ to: '/sign-in', search: { redirect: safeRedirect(href), reason: undefined } });
    }
  },
});
