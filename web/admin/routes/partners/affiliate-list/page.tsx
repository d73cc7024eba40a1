/**
 * Affiliates: searched, filtered and paged by the server (all in the URL), with code, commission,
 * portal state and balances from the ledger; "create" (name, e-mail, code, percent), optionally
 * inviting to the partner account at once, each said in a dialog first.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging, serverPaging } from '../../../../shared/list.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { partnersText } from '../i18n.js';
import { AFFILIATE_STATUSES, affiliatesRoute } from '../routes.js';
import { numberFieldError, StatusBadge, useRefreshPartners } from '../shared.js';

type Search = ReturnType<typeof affiliatesRoute.useSearch>;

export function AffiliateListPage() {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  useTitle(s.affiliates.title);
  const search = affiliatesRoute.useSearch();
  const navigate = useNavigate({ from: affiliatesRoute.fullPath });
  const allowed = can('GET /api/admin/affiliates');
  const query = $api.useQuery(
    'get',
    '/api/admin/affiliates',
    { params: { query: { ...serverPaging(search), q: search.q, status: search.status } } },
    { placeholderData: keepPreviousData, enabled: allowed },
  );
  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void navigate({
      search: (prev) => ({
        ...prev,
        page: 1,
        q: v.q?.trim() || undefined,
        status: (v.status || undefined) as Search['status'],
      }),
    });
  };
  const data = query.data;
  if (!allowed) {
    return (
      <div className="page">
        <h1>{s.affiliates.title}</h1>
        <div className="alert alert-error" role="alert">
          <p>{message('role_denied')}</p>
        </div>
      </div>
    );
  }
  return (
    <div className="page">
      <div className="page-head">
        <h1>{s.affiliates.title}</h1>
        {data ? <p className="muted">{s.affiliates.count(data.count)}</p> : null}
      </div>
      {can('POST /api/admin/affiliates') ? <CreateAffiliate /> : null}
      <search aria-label={t.list.filters}>
        <form className="filters" onSubmit={onFilter} key={JSON.stringify([search.q, search.status])}>
          <div className="field field-wide">
            <label htmlFor="affiliates-q">{s.affiliates.search}</label>
            <input id="affiliates-q" name="q" type="search" defaultValue={search.q ?? ''} />
          </div>
          <div className="field">
            <label htmlFor="affiliates-status">{s.affiliates.status}</label>
            <select id="affiliates-status" name="status" defaultValue={search.status ?? ''}>
              <option value="">{s.affiliates.anyStatus}</option>
              {AFFILIATE_STATUSES.map((st) => (
                <option key={st} value={st}>
                  {s.affiliates.statuses[st]}
                </option>
              ))}
            </select>
          </div>
          <div className="filter-actions">
            <button type="submit" className="primary">
              {t.list.apply}
            </button>
          </div>
        </form>
      </search>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{s.affiliates.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.affiliates.name}</th>
              <th scope="col">{s.affiliates.code}</th>
              <th scope="col" className="num">
                {s.affiliates.percent}
              </th>
              <th scope="col">{s.affiliates.status}</th>
              <th scope="col">{s.affiliates.portal}</th>
              <th scope="col" className="num">
                {s.balances.available}
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.affiliates.map((a) => (
              <tr key={a.id}>
                <td>
                  <Link to="/partners/affiliates/$id" params={{ id: a.id }} search={{ page: 1, limit: 25 }}>
                    {a.name}
                  </Link>
                  <div className="muted small">{a.email}</div>
                </td>
                <td className="mono">{a.code}</td>
                <td className="num">{f.percent(a.commission_percent / 100)}</td>
                <td>
                  <StatusBadge status={a.status} label={s.affiliates.statuses[a.status] ?? a.status} />
                </td>
                <td>{s.affiliates.portals[a.portal] ?? a.portal}</td>
                <td className="num">
                  {a.balances.length === 0
                    ? '—'
                    : a.balances.map((b) => <div key={b.currency}>{f.money(b.available_cents, b.currency)}</div>)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {data && data.affiliates.length === 0 ? (
          <p className="empty">
            {t.list.empty}{' '}
            <Link to="/partners/affiliates" search={{ page: 1, limit: search.limit }}>
              {t.list.reset}
            </Link>
          </p>
        ) : null}
      </div>
      {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
    </div>
  );
}

interface NewAffiliate {
  name: string;
  email: string;
  code: string | undefined;
  commission_percent: number;
}

function CreateAffiliate() {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const message = useErrorMessage();
  const refresh = useRefreshPartners();
  const navigate = useNavigate();
  const [pending, setPending] = useState<NewAffiliate | null>(null);
  const create = $api.useMutation('post', '/api/admin/affiliates', {
    onSuccess: async (a) => {
      setPending(null);
      toast(s.affiliates.createdMsg(a.name));
      await refresh();
      void navigate({ to: '/partners/affiliates/$id', params: { id: a.id }, search: { page: 1, limit: 25 } });
    },
    onError: () => setPending(null),
  });
  const problem = create.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['name', 'email', 'code', 'commission_percent'], t);
  if (problem?.code === 'code_taken') errors.fields.code = message('code_taken');
  if (problem?.code === 'email_taken') errors.fields.email = message('email_taken');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    create.reset();
    const percent = (v.percent ?? '').trim().replace(',', '.');
    setPending({
      name: v.name?.trim() ?? '',
      email: v.email?.trim() ?? '',
      code: v.code?.trim() || undefined,
      commission_percent: percent === '' ? Number.NaN : Number(percent),
    });
  };
  return (
    <section aria-labelledby="create-affiliate-h" className="panel">
      <h2 id="create-affiliate-h">{s.affiliates.create}</h2>
      <form className="inline-form partner-form" onSubmit={onSubmit} noValidate>
        <Field
          label={s.affiliates.name}
          name="name"
          required
          maxLength={200}
          autoComplete="off"
          error={errors.fields.name}
        />
        <Field
          label={s.affiliates.email}
          name="email"
          type="email"
          required
          autoComplete="off"
          error={errors.fields.email}
        />
        <Field
          label={s.affiliates.code}
          name="code"
          hint={s.affiliates.codeHint}
          maxLength={32}
          autoComplete="off"
          error={errors.fields.code}
        />
        <Field
          label={s.affiliates.percent}
          name="percent"
          inputMode="decimal"
          hint={s.affiliates.percentHint}
          required
          autoComplete="off"
          error={numberFieldError(errors.fields.commission_percent, s.common.percentRange)}
        />
        <button type="submit" className="primary">
          {s.affiliates.create}
        </button>
      </form>
      {problem && !Object.keys(errors.fields).length ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <Dialog
        open={pending !== null}
        title={s.affiliates.create}
        onClose={() => setPending(null)}
        confirm={{
          label: s.affiliates.create,
          busy: create.isPending,
          onConfirm: () => {
            if (!pending) return;
            create.mutate({
              body: {
                name: pending.name,
                email: pending.email,
                commission_percent: pending.commission_percent,
                ...(pending.code ? { code: pending.code } : {}),
              },
            });
          },
        }}
      >
        <p>
          {pending
            ? s.affiliates.confirmCreate(
                pending.name || '—',
                pending.code ?? s.affiliates.fromName,
                Number.isFinite(pending.commission_percent) ? f.percent(pending.commission_percent / 100) : '—',
              )
            : null}
        </p>
      </Dialog>
    </section>
  );
}
