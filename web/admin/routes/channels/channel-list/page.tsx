/**
 * Sales channels: the shop's channels (a handful; the API lists them all, default first) with
 * currency, default, state and the number of domains; the owner creates new ones here.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { CURRENCIES, type Currency } from '../reference.js';

export function ChannelListPage() {
  const t = useT();
  useTitle(t.channels.title);
  const can = useCan();
  const query = $api.useQuery('get', '/api/admin/channels');
  const data = query.data;
  return (
    <div className="page channel-page">
      <div className="page-head">
        <h1>{t.channels.title}</h1>
        {data ? <p className="muted">{t.channels.count(data.channels.length)}</p> : null}
      </div>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{t.channels.title}</caption>
          <thead>
            <tr>
              <th scope="col">{t.channels.name}</th>
              <th scope="col">{t.channels.currency}</th>
              <th scope="col">{t.channels.isDefault}</th>
              <th scope="col">{t.channels.status}</th>
              <th scope="col" className="num">
                {t.channels.domains}
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.channels.map((c) => (
              <tr key={c.id}>
                <th scope="row">
                  <Link to="/channels/$id" params={{ id: c.id }}>
                    {c.name}
                  </Link>
                  <span className="muted block small">{c.slug}</span>
                </th>
                <td>{c.currency}</td>
                <td>{c.is_default ? <span className="badge badge-paid">{t.channels.isDefault}</span> : ''}</td>
                <td>
                  <span className={c.is_active ? 'badge badge-fulfilled' : 'badge badge-cancelled'}>
                    {c.is_active ? t.channels.active : t.channels.inactive}
                  </span>
                </td>
                <td className="num">{c.domain_count}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
      </div>
      {can('POST /api/admin/channels') ? <CreateChannel /> : null}
    </div>
  );
}

function CreateChannel() {
  const t = useT();
  const message = useErrorMessage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const create = $api.useMutation('post', '/api/admin/channels', {
    onSuccess: async (channel) => {
      toast(t.channels.created);
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/channels'] });
      await navigate({ to: '/channels/$id', params: { id: channel.id } });
    },
  });
  const problem = create.error as ApiProblem | null;
  const names = ['name', 'slug', 'default_country', 'currency'];
  const errors = fieldErrors(problem, names, t);
  // a 409 names the field it is about (slug or path prefix taken)
  if (problem?.code === 'slug_taken') errors.fields.slug = message('slug_taken');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    create.mutate({
      body: {
        name: v.name?.trim() ?? '',
        ...(v.slug?.trim() ? { slug: v.slug.trim() } : {}),
        default_country: (v.default_country ?? '').trim().toUpperCase(),
        currency: (v.currency ?? 'EUR') as Currency,
      },
    });
  };
  return (
    <section aria-labelledby="create-h" className="panel narrow-form">
      <h2 id="create-h">{t.channels.create}</h2>
      {problem && !errors.fields.slug ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <form onSubmit={onSubmit} noValidate>
        <Field label={t.channels.name} name="name" required maxLength={200} error={errors.fields.name} />
        <Field
          label={t.channels.slug}
          name="slug"
          hint={t.channels.slugHint}
          maxLength={80}
          error={errors.fields.slug}
        />
        <Field
          label={t.channels.defaultCountry}
          name="default_country"
          hint={t.channels.countryHint}
          defaultValue="DE"
          required
          maxLength={2}
          autoComplete="off"
          className="short"
          error={errors.fields.default_country}
        />
        <div className="field">
          <label htmlFor="create-currency">{t.channels.currency}</label>
          <select id="create-currency" name="currency" defaultValue="EUR">
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="primary" disabled={create.isPending}>
          {t.channels.createSubmit}
        </button>
      </form>
    </section>
  );
}
