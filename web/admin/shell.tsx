/**
 * The frame of every screen: a skip link, the banner with who is signed in, the language switch
 * and sign-out, the main navigation (only screens that exist), and the main landmark.
 */
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useMe, useSignOut } from '../shared/auth.js';
import { setLanguage, useLanguage, useT } from '../shared/i18n/index.js';
import { Toasts } from '../shared/widgets/Toasts.js';

/** Sets the document title: "<screen> · <app>". */
export function useTitle(title: string): void {
  const t = useT();
  useEffect(() => {
    document.title = `${title} · ${t.common.appName}`;
  }, [title, t]);
}

export function LanguageSwitch() {
  const t = useT();
  const language = useLanguage();
  return (
    <button
      type="button"
      className="link language"
      lang={language === 'de' ? 'en' : 'de'}
      aria-label={t.common.switchToLabel}
      onClick={() => setLanguage(language === 'de' ? 'en' : 'de')}
    >
      {t.common.switchTo}
    </button>
  );
}

export function RootLayout() {
  const t = useT();
  return (
    <>
      <a className="skip-link" href="#main">
        {t.common.skipToContent}
      </a>
      <Outlet />
      <Toasts />
    </>
  );
}

export function SignedInLayout() {
  const t = useT();
  const me = useMe();
  const signOut = useSignOut();
  const navigate = useNavigate();
  return (
    <div className="layout">
      <header className="banner">
        <span className="brand">
          {t.common.appName}
          {me ? <span className="shop"> · {me.shop.name}</span> : null}
        </span>
        <nav aria-label={t.nav.main} className="main-nav">
          <ul>
            <li>
              <Link to="/" activeOptions={{ exact: true }} activeProps={{ 'aria-current': 'page' }}>
                {t.home.nav}
              </Link>
            </li>
            <li>
              <Link to="/orders" search={{ page: 1, limit: 25 }} activeProps={{ 'aria-current': 'page' }}>
                {t.nav.orders}
              </Link>
            </li>
            {/* ---- products ---- */}
            <li>
              <Link to="/products" search={{ page: 1, limit: 25 }} activeProps={{ 'aria-current': 'page' }}>
                {t.products.nav.products}
              </Link>
            </li>
            <li>
              <Link to="/categories" search={{ page: 1, limit: 25 }} activeProps={{ 'aria-current': 'page' }}>
                {t.products.nav.categories}
              </Link>
            </li>
            <li>
              <Link to="/brands" search={{ page: 1, limit: 25 }} activeProps={{ 'aria-current': 'page' }}>
                {t.products.nav.brands}
              </Link>
            </li>
            <li>
              <Link to="/suppliers" search={{ page: 1, limit: 25 }} activeProps={{ 'aria-current': 'page' }}>
                {t.products.nav.suppliers}
              </Link>
            </li>
            {/* ---- end products ---- */}
            <li>
              <Link to="/channels" activeProps={{ 'aria-current': 'page' }}>
                {t.channels.nav}
              </Link>
            </li>
            <li>
              <Link to="/account" activeProps={{ 'aria-current': 'page' }}>
                {t.nav.account}
              </Link>
            </li>
          </ul>
        </nav>
        <div className="session">
          {me ? (
            <span className="who">{t.nav.signedInAs(me.user.name ?? me.user.email, t.roles[me.user.role])}</span>
          ) : null}
          <LanguageSwitch />
          <button
            type="button"
            onClick={async () => {
              await signOut();
              await navigate({ to: '/sign-in', search: { redirect: undefined, reason: 'signed-out' } });
            }}
          >
            {t.nav.signOut}
          </button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}

export function NotFound() {
  const t = useT();
  useTitle(t.notFound.title);
  return (
    <main id="main" tabIndex={-1} className="narrow">
      <h1>{t.notFound.title}</h1>
      <p>
        <Link to="/orders" search={{ page: 1, limit: 25 }}>
          {t.notFound.back}
        </Link>
      </p>
    </main>
  );
}
