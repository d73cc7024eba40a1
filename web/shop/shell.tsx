/** The storefront's frame: skip link, banner with the shop name, cart and language, main, footer. */
import { Outlet, useRouterState } from '@tanstack/react-router';
import { type AnchorHTMLAttributes, type MouseEvent, type ReactNode, useEffect, useRef } from 'react';
import { setLanguage, useLanguage, useT } from '../shared/i18n/index.js';
import { Toasts } from '../shared/widgets/Toasts.js';
import type { Bootstrap } from './api.js';
import { useCart } from './cart.js';
import { router } from './router.js';

let boot: Bootstrap = { shop_name: '', publishable_key: '', origin_allowed: true, offered_plans: [] };
export function setBoot(value: Bootstrap): void {
  boot = value;
}
export const shopName = () => boot.shop_name;
/** The subscription plans the shop's storefront settings offer (on their products' pages). */
export const offeredPlans = () => boot.offered_plans;

type Search = Record<string, string | number | undefined>;

/** A path inside the shop with its search, as the browser shows it. */
export function shopHref(to: string, search: Search = {}): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) if (v !== undefined && v !== '') params.set(k, String(v));
  const q = params.toString();
  return `/shop${to === '/' ? '/' : to}${q ? `?${q}` : ''}`;
}

/** Navigates inside the shop (history push; the router takes the URL). */
export function go(to: string, search: Search = {}, replace = false): void {
  void router.history[replace ? 'replace' : 'push'](shopHref(to, search));
}

/** A real link (new tab, copy address work) that navigates in the app on a plain click. */
export function ShopLink({
  to,
  search,
  children,
  ...rest
}: { to: string; search?: Search; children: ReactNode } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const href = shopHref(to, search);
  const onClick = (e: MouseEvent<HTMLAnchorElement>) => {
    rest.onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    go(to, search);
  };
  return (
    <a {...rest} href={href} onClick={onClick}>
      {children}
    </a>
  );
}

function LanguageSwitch() {
  const t = useT();
  const language = useLanguage();
  return (
    <button
      type="button"
      className="link-button"
      lang={language === 'de' ? 'en' : 'de'}
      aria-label={t.shop.languageLabel}
      onClick={() => setLanguage(language === 'de' ? 'en' : 'de')}
    >
      {t.shop.languageName}
    </button>
  );
}

export function ShopLayout() {
  const t = useT();
  const lines = useCart();
  const count = lines.reduce((n, l) => n + l.quantity, 0);
  const path = useRouterState({ select: (s) => s.location.pathname });
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);
  // after an in-app navigation, focus moves to the new page's content (screen readers hear it)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every path change
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [path]);
  return (
    <>
      <a className="skip-link" href="#content">
        {t.shop.skipToContent}
      </a>
      <header className="shop-header">
        <div className="shop-bar">
          <ShopLink to="/" className="shop-brand">
            {boot.shop_name}
          </ShopLink>
          <nav aria-label={t.shop.mainNav} className="shop-nav">
            <ShopLink to="/">{t.shop.catalog}</ShopLink>
            <ShopLink to="/konto">{t.shopAccount.nav}</ShopLink>
            <ShopLink to="/warenkorb" aria-label={t.shop.cartCount(count)} className="cart-link">
              {t.shop.cart} <span className="cart-badge">{count}</span>
            </ShopLink>
            <LanguageSwitch />
          </nav>
        </div>
      </header>
      {boot.origin_allowed ? null : (
        <div className="alert alert-error shop-notice" role="alert">
          {t.shop.originDenied}
        </div>
      )}
      <main id="content" tabIndex={-1} ref={main} className="shop-main">
        <Outlet />
      </main>
      <footer className="shop-footer">
        <p>{t.shop.footerNote}</p>
        <p className="muted">{t.shop.testMode}</p>
      </footer>
      <Toasts />
    </>
  );
}

export function NotFound() {
  const t = useT();
  return (
    <section>
      <h1>{t.shop.notFound}</h1>
      <p>
        <ShopLink to="/">{t.shop.backToCatalog}</ShopLink>
      </p>
    </section>
  );
}

/** Shown when this host has no storefront (no bootstrap). */
export function Unavailable() {
  const t = useT();
  return (
    <main className="shop-main">
      <h1>{t.shop.unavailable}</h1>
      <p>{t.shop.unavailableHint}</p>
    </main>
  );
}
