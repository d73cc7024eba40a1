/**
 * Sign-in with the admin session cookie: POST /api/auth/login sets `sid` (HttpOnly); the token in
 * the answer is dropped, never stored. Wrong password, throttling (429 with its wait) and an
 * origin the CSRF rule would refuse are said here, in the page's language.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { type ApiProblem, client } from '../../../shared/api.js';
import { meQuery } from '../../../shared/auth.js';
import { fieldErrors, formValues } from '../../../shared/forms.js';
import { useT } from '../../../shared/i18n/index.js';
import { Field } from '../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { signInRoute } from '../../router.js';
import { LanguageSwitch, useTitle } from '../../shell.js';

function useOriginAllowed(): boolean | undefined {
  const origin = window.location.origin;
  return useQuery({
    queryKey: ['origin-check', origin],
    queryFn: async () => {
      const { data } = await client.GET('/api/auth/origin-check', { params: { query: { origin } } });
      return data?.allowed ?? true;
    },
    staleTime: Number.POSITIVE_INFINITY,
  }).data;
}

export function SignInPage() {
  const t = useT();
  useTitle(t.signIn.title);
  const search = signInRoute.useSearch();
  const navigate = useNavigate();
  const router = useRouter();
  const queryClient = useQueryClient();
  const originAllowed = useOriginAllowed();
  const [wait, setWait] = useState(0);
  const errorRef = useRef<HTMLDivElement>(null);

  const login = useMutation<void, ApiProblem, { email: string; password: string }>({
    mutationFn: async (body) => {
      const { data, error } = await client.POST('/api/auth/login', { body });
      if (error) throw error as ApiProblem;
      // the session lives in the HttpOnly cookie; only who signed in is kept
      queryClient.setQueryData(meQuery().queryKey, { user: data.user, shop: data.shop });
    },
    onSuccess: async () => {
      if (search.redirect) router.history.push(search.redirect);
      else await navigate({ to: '/' });
    },
    onError: (problem) => {
      if (problem.retry_after_seconds) setWait(problem.retry_after_seconds);
      errorRef.current?.focus();
    },
  });

  useEffect(() => {
    if (wait <= 0) return;
    const timer = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(timer);
  }, [wait]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const values = formValues(event.currentTarget);
    login.mutate({ email: values.email ?? '', password: values.password ?? '' });
  };

  const problem = login.error;
  const errors = fieldErrors(problem, ['email', 'password'], t);
  const notice =
    search.reason === 'expired' ? t.signIn.expired : search.reason === 'signed-out' ? t.signIn.signedOut : null;

  return (
    <main id="main" tabIndex={-1} className="sign-in">
      <div className="sign-in-card">
        <div className="sign-in-top">
          <p className="brand">{t.common.appName}</p>
          <LanguageSwitch />
        </div>
        <h1>{t.signIn.title}</h1>
        <p className="muted">{t.signIn.intro}</p>
        {originAllowed === false ? (
          <div className="alert alert-warning" role="alert">
            <h2>{t.signIn.originTitle}</h2>
            <p>{t.signIn.originBody(window.location.origin)}</p>
          </div>
        ) : null}
        {notice && !problem ? (
          <p className="alert alert-info" role="status">
            {notice}
          </p>
        ) : null}
        <div ref={errorRef} tabIndex={-1}>
          {problem?.code === 'rate_limited' || problem?.code === 'busy' ? (
            <div className="alert alert-error" role="alert">
              <p>{t.signIn.tooMany(Math.max(wait, 1))}</p>
            </div>
          ) : problem?.code === 'invalid_credentials' ? (
            <div className="alert alert-error" role="alert">
              <p>{t.signIn.wrong}</p>
            </div>
          ) : problem ? (
            <ProblemAlert problem={problem} extra={errors.other} />
          ) : null}
        </div>
        <form onSubmit={onSubmit}>
          <Field
            label={t.signIn.email}
            name="email"
            type="email"
            autoComplete="username"
            required
            error={errors.fields.email}
          />
          <Field
            label={t.signIn.password}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            error={errors.fields.password}
          />
          <button
            type="submit"
            className="primary"
            disabled={login.isPending || wait > 0}
            aria-busy={login.isPending || undefined}
          >
            {login.isPending ? t.signIn.submitting : t.signIn.submit}
          </button>
        </form>
      </div>
    </main>
  );
}
