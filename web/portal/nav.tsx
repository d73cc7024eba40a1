/**
 * Navigation inside a portal. The portals (like the storefront) run their own router instance
 * (basepath /vendor or /affiliate); route hooks of TanStack Router are typed by the registered
 * router, which is the admin's, so a portal navigates with plain paths through these helpers and
 * reads its URL search with its own validators.
 */
import type { AnyRouter } from '@tanstack/react-router';
import { useRouterState } from '@tanstack/react-router';
import type { AnchorHTMLAttributes, MouseEvent, ReactNode } from 'react';

export type Search = Record<string, string | number | undefined>;
type Raw = Record<string, unknown>;

let router: AnyRouter | null = null;
let base = '';

/** Called once by the app with its router and base path (`/vendor`, `/affiliate`). */
export function setPortalRouter(value: AnyRouter, basePath: string): void {
  router = value;
  base = basePath;
}

export const portalBase = () => base;

/** A path inside the portal with its search, as the browser shows it. */
export function portalHref(to: string, search: Search = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) if (v !== undefined && v !== '') params.set(k, String(v));
  const q = params.toString();
  return `${base}${to === '/' ? '/' : to}${q ? `?${q}` : ''}`;
}

/** Navigates inside the portal (history push or replace; the router takes the URL). */
export function go(to: string, search: Search = {}, replace = false): void {
  void router?.history[replace ? 'replace' : 'push'](portalHref(to, search));
}

/** The current path inside the portal (`/orders`), without the base. */
export function usePortalPath(): string {
  const path = useRouterState({ select: (s) => s.location.pathname });
  const inner = path.startsWith(base) ? path.slice(base.length) : path;
  return inner === '' ? '/' : inner;
}

/** The typed search of the current URL, parsed by the page's own validator. */
export function usePortalSearch<T>(parse: (raw: Raw) => T): T {
  return parse(useRouterState({ select: (s) => s.location.search }) as Raw);
}

/** A real link (new tab and copying the address work) that navigates in the app on a plain click. */
export function PortalLink({
  to,
  search,
  children,
  current,
  ...rest
}: {
  to: string;
  search?: Search;
  children: ReactNode;
  /** Marks the link `aria-current="page"` (navigation). */
  current?: boolean;
} & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const href = portalHref(to, search);
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    rest.onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    go(to, search);
  };
  return (
    <a {...rest} href={href} onClick={onClick} aria-current={current ? 'page' : undefined}>
      {children}
    </a>
  );
}
