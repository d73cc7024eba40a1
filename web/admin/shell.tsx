/**
 * The frame of every screen: a skip link, the banner with who is signed in, the language switch
 * and sign-out, the main navigation (nav.tsx: a sidebar of groups), and the main landmark.
 */
import { Link, Outlet, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useMe, useSignOut } from '../shared/auth.js';
import { setLanguage, useLanguage, useT } from '../shared/i18n/index.js';
import { Toasts } from '../shared/widgets/Toasts.js';
import { MainNav } from './nav.js';

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
      <MainNav />
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
        <Link to="/">{t.notFound.back}</Link>
      </p>
    </main>
  );
}
