/**
 * The frame of both portals: skip link, banner (portal name, who is signed in, language switch,
 * sign-out), the portal's navigation and the main landmark. The pages without a session (sign-in,
 * accept the invitation, reset the password) get the banner without navigation. The session is
 * the HttpOnly cookie the API sets (`vsid` / `asid`); the page never holds a token. Without one,
 * a signed-in page goes to sign-in and comes back afterwards.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Outlet } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef } from 'react';
import { setUnauthorizedHandler } from '../shared/api.js';
import { setLanguage, useDictionary, useLanguage } from '../shared/i18n/index.js';
import { Toasts } from '../shared/widgets/Toasts.js';
import { portalConfig } from './config.js';
import { portalText } from './i18n.js';
import { go, PortalLink, portalBase, portalHref, usePortalPath } from './nav.js';

/** Paths reachable without a session. */
export const PUBLIC_PATHS = ['/sign-in', '/accept', '/reset-password'];

export interface NavEntry {
  to: string;
  label: string;
  /** Also current for paths below it (`/orders/…`). */
  prefix?: boolean;
}

/** The session as a portal reads it (its `/me`): pending, none, or who is signed in. */
export type Session = { state: 'pending' } | { state: 'none' } | { state: 'signed-in'; name: string };

/** Sets the document title: "<page> · <portal>". */
export function usePortalTitle(title: string): void {
  const s = useDictionary(portalText);
  const name = s.portalName[portalConfig().kind];
  useEffect(() => {
    document.title = `${title} · ${name}`;
  }, [title, name]);
}

export function LanguageSwitch() {
  const s = useDictionary(portalText);
  const language = useLanguage();
  return (
    <button
      type="button"
      className="link language"
      lang={language === 'de' ? 'en' : 'de'}
      aria-label={s.switchToLabel}
      onClick={() => setLanguage(language === 'de' ? 'en' : 'de')}
    >
      {s.switchTo}
    </button>
  );
}

/** The current page with its search, for coming back after sign-in (only paths of this portal). */
function here(): string {
  return `${window.location.pathname}${window.location.search}`;
}

let hadSession = false;

/**
 * Installs what a lapsed session does: any 401 of a signed-in page clears the cached data and
 * opens sign-in with "session expired", the page remembered.
 */
export function installSessionHandler(clear: () => void): void {
  setUnauthorizedHandler(() => {
    const path = window.location.pathname.slice(portalBase().length) || '/';
    if (PUBLIC_PATHS.includes(path) || !hadSession) return;
    hadSession = false;
    clear();
    go('/sign-in', { reason: 'expired', redirect: here() }, true);
  });
}

/** The app's root: public pages in the small frame, every other page behind the session. */
export function PortalRoot({ useSession, nav }: { useSession: () => Session; nav: () => NavEntry[] }) {
  const path = usePortalPath();
  if (PUBLIC_PATHS.includes(path)) {
    return (
      <Frame>
        <Outlet />
      </Frame>
    );
  }
  return <SignedIn useSession={useSession} nav={nav} path={path} />;
}

function SignedIn({ useSession, nav, path }: { useSession: () => Session; nav: () => NavEntry[]; path: string }) {
  const s = useDictionary(portalText);
  const session = useSession();
  const entries = nav();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (session.state === 'none') go('/sign-in', { redirect: here() }, true);
    if (session.state === 'signed-in') hadSession = true;
  }, [session.state]);
  if (session.state !== 'signed-in') {
    return (
      <Frame>
        <p aria-live="polite">{s.loading}</p>
      </Frame>
    );
  }
  const signOut = async () => {
    hadSession = false;
    await portalConfig().logout();
    queryClient.clear();
    go('/sign-in', { reason: 'signed-out' });
  };
  return (
    <Frame
      who={
        <>
          <span className="who">{s.signedInAs(session.name)}</span>
          <button type="button" onClick={signOut}>
            {s.signOut}
          </button>
        </>
      }
      nav={
        <nav aria-label={s.mainNav} className="main-nav">
          <ul>
            {entries.map((e) => (
              <li key={e.to}>
                <PortalLink to={e.to} current={e.to === path || (!!e.prefix && path.startsWith(`${e.to}/`))}>
                  {e.label}
                </PortalLink>
              </li>
            ))}
          </ul>
        </nav>
      }
    >
      <Outlet />
    </Frame>
  );
}

function Frame({ children, who, nav }: { children: ReactNode; who?: ReactNode; nav?: ReactNode }) {
  const s = useDictionary(portalText);
  const path = usePortalPath();
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
      <a className="skip-link" href="#main">
        {s.skipToContent}
      </a>
      <div className={nav ? 'layout' : 'layout layout-plain'}>
        <header className="banner">
          <a className="brand" href={portalHref('/')}>
            {s.portalName[portalConfig().kind]}
          </a>
          <div className="session">
            {who}
            <LanguageSwitch />
          </div>
        </header>
        {nav}
        <main id="main" tabIndex={-1} ref={main}>
          {children}
        </main>
      </div>
      <Toasts />
    </>
  );
}

export function NotFound() {
  const s = useDictionary(portalText);
  usePortalTitle(s.notFound);
  return (
    <section>
      <h1>{s.notFound}</h1>
      <p>
        <PortalLink to="/">{s.backHome}</PortalLink>
      </p>
    </section>
  );
}

/** A failed `/me` (401 without a session, 403 for a suspended account) means no usable session. */
export function sessionOf(query: { data?: { name: string } | undefined; error: unknown; isPending: boolean }): Session {
  if (query.data) return { state: 'signed-in', name: query.data.name };
  if (query.error) return { state: 'none' };
  return { state: 'pending' };
}
