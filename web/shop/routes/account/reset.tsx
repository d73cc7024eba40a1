/**
 * Password reset (/shop/konto/reset-password): without a token, the request form
 * (POST /api/customer/password-reset, always 202); with the e-mailed link's token, the new
 * password (POST /api/customer/password-reset/confirm), then sign-in.
 */
import { type FormEvent, useState } from 'react';
import type { ApiProblem } from '../../../shared/api.js';
import { fieldErrors } from '../../../shared/forms.js';
import { useT } from '../../../shared/i18n/index.js';
import { Field } from '../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { $store } from '../../api.js';
import { tokenSearch, useShopSearch } from '../../router.js';
import { ShopLink } from '../../shell.js';

export function ResetPasswordPage() {
  const t = useT();
  const { token } = useShopSearch(tokenSearch);
  const request = $store.useMutation('post', '/api/customer/password-reset');
  const confirm = $store.useMutation('post', '/api/customer/password-reset/confirm');
  const [sent, setSent] = useState(false);
  const problem = (token ? confirm.error : request.error) as ApiProblem | null;
  const errors = fieldErrors(problem, ['email', 'password'], t);

  const onRequest = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const email = String(new FormData(e.currentTarget).get('email') ?? '');
    request.mutate({ body: { email } }, { onSuccess: () => setSent(true) });
  };
  const onConfirm = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get('password') ?? '');
    confirm.mutate({ body: { token: token ?? '', password } });
  };

  return (
    <section aria-labelledby="reset-title" className="narrow">
      <h1 id="reset-title">{t.shopAccount.resetTitle}</h1>
      {confirm.isSuccess ? (
        <p className="alert alert-info" role="status">
          {t.shopAccount.resetDone} <ShopLink to="/konto">{t.shopAccount.signIn}</ShopLink>
        </p>
      ) : token ? (
        <form className="panel" onSubmit={onConfirm} noValidate>
          <p>{t.shopAccount.resetConfirmIntro}</p>
          {problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
          <Field
            label={t.shopAccount.newPassword}
            name="password"
            type="password"
            autoComplete="new-password"
            minLength={8}
            required
            error={errors.fields.password}
          />
          <button type="submit" className="primary" disabled={confirm.isPending}>
            {t.shopAccount.resetConfirm}
          </button>
        </form>
      ) : (
        <form className="panel" onSubmit={onRequest} noValidate>
          <p>{t.shopAccount.resetIntro}</p>
          {sent ? (
            <p className="alert alert-info" role="status">
              {t.shopAccount.resetSent}
            </p>
          ) : null}
          {problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
          <Field
            label={t.shopAccount.email}
            name="email"
            type="email"
            autoComplete="email"
            required
            error={errors.fields.email}
          />
          <button type="submit" className="primary" disabled={request.isPending}>
            {t.shopAccount.resetRequest}
          </button>
        </form>
      )}
    </section>
  );
}
