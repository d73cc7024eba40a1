/** My account: who I am, and changing my password (every other session of mine ends). */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef } from 'react';
import { type ApiProblem, client } from '../../../../shared/api.js';
import { useMe } from '../../../../shared/auth.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useT } from '../../../../shared/i18n/index.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';

export function AccountPage() {
  const t = useT();
  useTitle(t.account.title);
  const me = useMe();
  const formRef = useRef<HTMLFormElement>(null);
  const change = useMutation<void, ApiProblem, { current_password: string; new_password: string }>({
    mutationFn: async (body) => {
      const { error } = await client.POST('/api/auth/password', { body });
      if (error) throw error as ApiProblem;
    },
    onSuccess: () => {
      formRef.current?.reset();
      toast(t.account.changed);
    },
  });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    change.mutate({ current_password: v.current_password ?? '', new_password: v.new_password ?? '' });
  };
  const errors = fieldErrors(change.error, ['current_password', 'new_password'], t);
  return (
    <div className="page narrow">
      <h1>{t.account.title}</h1>
      {me ? (
        <dl className="facts panel">
          <dt>{t.signIn.email}</dt>
          <dd>{me.user.email}</dd>
          <dt>{t.account.role}</dt>
          <dd>{t.roles[me.user.role]}</dd>
          <dt>{t.account.shop}</dt>
          <dd>{me.shop.name}</dd>
          <dt>{t.account.channels}</dt>
          <dd>
            {me.user.channel_restricted ? t.account.someChannels(me.user.channel_ids.length) : t.account.allChannels}
          </dd>
        </dl>
      ) : null}
      <section aria-labelledby="password-h" className="panel">
        <h2 id="password-h">{t.account.passwordTitle}</h2>
        {change.error ? <ProblemAlert problem={change.error} extra={errors.other} /> : null}
        <form ref={formRef} onSubmit={onSubmit}>
          <Field
            label={t.account.current}
            name="current_password"
            type="password"
            autoComplete="current-password"
            required
            error={errors.fields.current_password}
          />
          <Field
            label={t.account.next}
            name="new_password"
            type="password"
            autoComplete="new-password"
            required
            error={errors.fields.new_password}
          />
          <button type="submit" className="primary" disabled={change.isPending}>
            {t.account.submit}
          </button>
        </form>
      </section>
    </div>
  );
}
