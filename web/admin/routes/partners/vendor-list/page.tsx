/**
 * Vendors: searched, filtered and paged by the server (all in the URL), each with its balances
 * from the ledger; "invite" (name and e-mail, said in a dialog first) for who may.
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
import { VENDOR_STATUSES, vendorsRoute } from '../routes.js';
import { StatusBadge, useRefreshPartners } from '../shared.js';

type Search = ReturnType<typeof vendorsRoute.useSearch>;

export function VendorListPage() {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  useTitle(s.vendors.title);
  const search = vendorsRoute.useSearch();
  const navigate = useNavigate({ from: vendorsRoute.fullPath });
  const allowed = can('GET /api/admin/vendors');
  const query = $api.useQuery(
    'get',
    '/api/admin/vendors',
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
        <h1>{s.vendors.title}</h1>
        <div className="alert alert-error" role="alert">
          <p>{message('role_denied')}</p>
        </div>
      </div>
    );
  }
  return (
    <div className="page">
      <div className="page-head">
        <h1>{s.vendors.title}</h1>
        {data ? <p className="muted">{s.vendors.count(data.count)}</p> : null}
      </div>
      {can('POST /api/admin/vendors/invite') ? <InviteVendor /> : null}
      <search aria-label={t.list.filters}>
        <form className="filters" onSubmit={onFilter} key={JSON.stringify([search.q, search.status])}>
          <div className="field field-wide">
            <label htmlFor="vendors-q">{s.vendors.search}</label>
            <input id="vendors-q" name="q" type="search" defaultValue={search.q ?? ''} />
          </div>
          <div className="field">
            <label htmlFor="vendors-status">{s.vendors.status}</label>
            <select id="vendors-status" name="status" defaultValue={search.status ?? ''}>
              <option value="">{s.vendors.anyStatus}</option>
              {VENDOR_STATUSES.map((st) => (
                <option key={st} value={st}>
                  {s.vendors.statuses[st]}
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
          <caption className="visually-hidden">{s.vendors.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.vendors.name}</th>
              <th scope="col">{s.vendors.email}</th>
              <th scope="col">{s.vendors.status}</th>
              <th scope="col" className="num">
                {s.balances.available}
              </th>
              <th scope="col" className="num">
                {s.balances.owed}
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.vendors.map((v) => (
              <tr key={v.id}>
                <td>
                  <Link to="/partners/vendors/$id" params={{ id: v.id }} search={{ page: 1, limit: 25 }}>
                    {v.name}
                  </Link>
                </td>
                <td>{v.email}</td>
                <td>
                  <StatusBadge status={v.status} label={s.vendors.statuses[v.status] ?? v.status} />
                </td>
                <td className="num">
                  {v.balances.length === 0
                    ? '—'
                    : v.balances.map((b) => <div key={b.currency}>{f.money(b.available_cents, b.currency)}</div>)}
                </td>
                <td className="num">
                  {v.balances.length === 0
                    ? '—'
                    : v.balances.map((b) => <div key={b.currency}>{f.money(b.owed_cents, b.currency)}</div>)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {data && data.vendors.length === 0 ? (
          <p className="empty">
            {t.list.empty}{' '}
            <Link to="/partners/vendors" search={{ page: 1, limit: search.limit }}>
              {t.list.reset}
            </Link>
          </p>
        ) : null}
      </div>
      {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
    </div>
  );
}

function InviteVendor() {
  const s = useDictionary(partnersText);
  const t = useT();
  const message = useErrorMessage();
  const refresh = useRefreshPartners();
  const navigate = useNavigate();
  const [pending, setPending] = useState<{ name: string; email: string } | null>(null);
  const invite = $api.useMutation('post', '/api/admin/vendors/invite', {
    onSuccess: async (vendor) => {
      setPending(null);
      toast(s.vendors.invited(vendor.name));
      await refresh();
      void navigate({ to: '/partners/vendors/$id', params: { id: vendor.id }, search: { page: 1, limit: 25 } });
    },
    onError: () => setPending(null),
  });
  const problem = invite.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['name', 'email'], t);
  if (problem?.code === 'vendor_exists') errors.fields.email = message('vendor_exists');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    invite.reset();
    setPending({ name: v.name?.trim() ?? '', email: v.email?.trim() ?? '' });
  };
  return (
    <section aria-labelledby="invite-h" className="panel">
      <h2 id="invite-h">{s.vendors.invite}</h2>
      <form className="inline-form partner-form" onSubmit={onSubmit} noValidate>
        <Field
          label={s.vendors.name}
          name="name"
          required
          maxLength={200}
          autoComplete="off"
          error={errors.fields.name}
        />
        <Field
          label={s.vendors.email}
          name="email"
          type="email"
          required
          autoComplete="off"
          error={errors.fields.email}
        />
        <button type="submit" className="primary">
          {s.vendors.invite}
        </button>
      </form>
      {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      {problem && !errors.fields.name && !errors.fields.email && errors.other.length === 0 ? (
        <ProblemAlert problem={problem} />
      ) : null}
      <Dialog
        open={pending !== null}
        title={s.vendors.invite}
        onClose={() => setPending(null)}
        confirm={{
          label: s.vendors.invite,
          busy: invite.isPending,
          onConfirm: () => {
            if (pending) invite.mutate({ body: pending });
          },
        }}
      >
        <p>{pending ? s.vendors.inviteText(pending.email || '—') : null}</p>
      </Dialog>
    </section>
  );
}
