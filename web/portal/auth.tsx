/**
 * The pages without a session, the same in both portals: sign-in (`…/auth/login`), the invitation
 * link's page (`/accept?token=…` → `…/auth/accept`, which sets the password and signs in) and the
 * password reset (request, and the e-mailed link's page `/reset-password?token=…`). Each call sets
 * or needs no token in the page: the session is the HttpOnly cookie the API sets.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import type { ApiProblem } from '../shared/api.js';
import { fieldErrors, formValues } from '../shared/forms.js';
import { useDictionary, useT } from '../shared/i18n/index.js';
import { textParam } from '../shared/list.js';
import { Field } from '../shared/widgets/Field.js';
import { ProblemAlert } from '../shared/widgets/ProblemAlert.js';
import { type CallResult, portalConfig } from './config.js';
import { portalText } from './i18n.js';
import { go, PortalLink, portalBase, usePortalSearch } from './nav.js';
import { usePortalTitle } from './shell.js';

type Raw = Record<string, unknown>;
const signInSearch = (raw: Raw) => ({
  redirect: textParam(raw, 'redirect', 500),
  reason: textParam(raw, 'reason', 20),
});
const tokenSearch = (raw: Raw) => ({ token: textParam(raw, 'token', 200) });

/** Runs a call; its problem (if any) is kept for the form. */
function useCall() {
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (call: () => Promise<CallResult>): Promise<boolean> => {
    setBusy(true);
    setProblem(null);
    try {
      const { error } = await call();
      if (error) setProblem(error as ApiProblem);
      return !error;
    } finally {
      setBusy(false);
    }
  };
  return { problem, busy, run };
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  usePortalTitle(title);
  return (
    <div className="sign-in-card">
      <h1>{title}</h1>
      {children}
    </div>
  );
}

/** After sign-in: back to the page that asked for it (only a path of this portal), else the start page. */
function afterSignIn(redirect: string | undefined): void {
  const base = portalBase();
  if (redirect && (redirect === base || redirect.startsWith(`${base}/`)) && !redirect.startsWith('//')) {
    const url = new URL(redirect, window.location.origin);
    const to = url.pathname.slice(base.length) || '/';
    go(to, Object.fromEntries(url.searchParams), true);
  } else {
    go('/', {}, true);
  }
}

export function SignInPage() {
  const s = useDictionary(portalText);
  const t = useT();
  const search = usePortalSearch(signInSearch);
  const queryClient = useQueryClient();
  const { problem, busy, run } = useCall();
  const [wait, setWait] = useState(0);
  const errorRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (problem?.retry_after_seconds) setWait(problem.retry_after_seconds);
    if (problem) errorRef.current?.focus();
  }, [problem]);
  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    const ok = await run(() => portalConfig().login({ email: v.email ?? '', password: v.password ?? '' }));
    if (ok) {
      queryClient.clear();
      afterSignIn(search.redirect);
    }
  };
  const errors = fieldErrors(problem, ['email', 'password'], t);
  const notice = search.reason === 'expired' ? s.expired : search.reason === 'signed-out' ? s.signedOut : null;
  return (
    <Card title={s.signInTitle}>
      <p className="muted">{s.signInIntro}</p>
      {notice && !problem ? (
        <p className="alert alert-info" role="status">
          {notice}
        </p>
      ) : null}
      <div ref={errorRef} tabIndex={-1}>
        {problem?.code === 'rate_limited' || problem?.code === 'busy' ? (
          <div className="alert alert-error" role="alert">
            <p>{s.tooMany(Math.max(wait, 1))}</p>
          </div>
        ) : problem?.code === 'invalid_credentials' ? (
          <div className="alert alert-error" role="alert">
            <p>{s.wrongLogin}</p>
          </div>
        ) : problem ? (
          <ProblemAlert problem={problem} extra={errors.other} />
        ) : null}
      </div>
      <form onSubmit={onSubmit} aria-label={s.signInTitle}>
        <Field label={s.email} name="email" type="email" autoComplete="username" required error={errors.fields.email} />
        <Field
          label={s.password}
          name="password"
          type="password"
          autoComplete="current-password"
          required
          error={errors.fields.password}
        />
        <button type="submit" className="primary" disabled={busy || wait > 0} aria-busy={busy || undefined}>
          {busy ? s.submitting : s.submitSignIn}
        </button>
      </form>
      <p>
        <PortalLink to="/reset-password">{s.forgot}</PortalLink>
      </p>
    </Card>
  );
}

/** The page of the invitation link: set the password; the API signs in (cookie) and the dashboard opens. */
export function AcceptPage() {
  const s = useDictionary(portalText);
  const t = useT();
  const { token } = usePortalSearch(tokenSearch);
  const queryClient = useQueryClient();
  const { problem, busy, run } = useCall();
  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token) return;
    const v = formValues(event.currentTarget);
    const ok = await run(() => portalConfig().accept({ token, password: v.password ?? '' }));
    if (ok) {
      queryClient.clear();
      go('/', {}, true);
    }
  };
  const errors = fieldErrors(problem, ['password', 'token'], t);
  return (
    <Card title={s.acceptTitle}>
      {!token ? (
        <p className="alert alert-error" role="alert">
          {s.noToken}
        </p>
      ) : (
        <>
          <p className="muted">{s.acceptIntro}</p>
          {problem?.code === 'invite_invalid' ? (
            <p className="alert alert-error" role="alert">
              {s.inviteInvalid}
            </p>
          ) : problem ? (
            <ProblemAlert problem={problem} extra={errors.other} />
          ) : null}
          <form onSubmit={onSubmit} aria-label={s.acceptTitle}>
            <Field
              label={s.newPassword}
              hint={s.passwordHint}
              name="password"
              type="password"
              autoComplete="new-password"
              minLength={8}
              maxLength={200}
              required
              error={errors.fields.password}
            />
            <button type="submit" className="primary" disabled={busy} aria-busy={busy || undefined}>
              {busy ? s.submitting : s.acceptSubmit}
            </button>
          </form>
        </>
      )}
      <p>
        <PortalLink to="/sign-in">{s.toSignIn}</PortalLink>
      </p>
    </Card>
  );
}

/** Without a token: ask for the e-mail (always 202). With the e-mailed link's token: the new password. */
export function ResetPasswordPage() {
  const s = useDictionary(portalText);
  const t = useT();
  const { token } = usePortalSearch(tokenSearch);
  const { problem, busy, run } = useCall();
  const [done, setDone] = useState(false);
  const onRequest = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    if (await run(() => portalConfig().requestReset({ email: v.email ?? '' }))) setDone(true);
  };
  const onConfirm = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token) return;
    const v = formValues(event.currentTarget);
    if (await run(() => portalConfig().confirmReset({ token, password: v.password ?? '' }))) setDone(true);
  };
  const errors = fieldErrors(problem, ['email', 'password', 'token'], t);
  return (
    <Card title={s.resetTitle}>
      {done ? (
        <p className="alert alert-success" role="status">
          {token ? s.resetDone : s.resetSent}
        </p>
      ) : (
        <>
          <p className="muted">{token ? s.resetConfirmIntro : s.resetIntro}</p>
          {problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
          {token ? (
            <form onSubmit={onConfirm} aria-label={s.resetTitle}>
              <Field
                label={s.newPassword}
                hint={s.passwordHint}
                name="password"
                type="password"
                autoComplete="new-password"
                minLength={8}
                maxLength={200}
                required
                error={errors.fields.password ?? errors.fields.token}
              />
              <button type="submit" className="primary" disabled={busy} aria-busy={busy || undefined}>
                {s.resetConfirmSubmit}
              </button>
            </form>
          ) : (
            <form onSubmit={onRequest} aria-label={s.resetTitle}>
              <Field
                label={s.email}
                name="email"
                type="email"
                autoComplete="username"
                required
                error={errors.fields.email}
              />
              <button type="submit" className="primary" disabled={busy} aria-busy={busy || undefined}>
                {s.resetSubmit}
              </button>
            </form>
          )}
        </>
      )}
      <p>
        <PortalLink to="/sign-in">{s.toSignIn}</PortalLink>
      </p>
    </Card>
  );
}
