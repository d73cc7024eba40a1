/**
 * Where the verification e-mail's link lands (/shop/konto/verify-email?token=…): the customer
 * enters the password chosen at registration; POST /api/customer/verify-email {token, password}
 * verifies the address and signs in (the API sets the session cookie), then the account opens.
 */
import { useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import type { ApiProblem } from '../../../shared/api.js';
import { useT } from '../../../shared/i18n/index.js';
import { Field } from '../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { $store } from '../../api.js';
import { tokenSearch, useShopSearch } from '../../router.js';
import { go } from '../../shell.js';

export function VerifyEmailPage() {
  const t = useT();
  const client = useQueryClient();
  const { token } = useShopSearch(tokenSearch);
  const verify = $store.useMutation('post', '/api/customer/verify-email');
  const problem = verify.error as ApiProblem | null;

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const password = String(new FormData(e.currentTarget).get('password') ?? '');
    verify.mutate(
      { body: { token: token ?? '', password } },
      {
        onSuccess: async () => {
          await client.invalidateQueries();
          go('/konto', {}, true);
        },
      },
    );
  };

  return (
    <section aria-labelledby="verify-title" className="narrow">
      <h1 id="verify-title">{t.shopAccount.verifyTitle}</h1>
      {token ? (
        <form className="panel" onSubmit={onSubmit} noValidate>
          <p>{t.shopAccount.verifyIntro}</p>
          {problem ? <ProblemAlert problem={problem} /> : null}
          <Field
            label={t.shopAccount.password}
            name="password"
            type="password"
            autoComplete="current-password"
            required
          />
          <button type="submit" className="primary" disabled={verify.isPending}>
            {t.shopAccount.verify}
          </button>
        </form>
      ) : (
        <p className="alert alert-error">{t.shopAccount.verifyNoToken}</p>
      )}
    </section>
  );
}
