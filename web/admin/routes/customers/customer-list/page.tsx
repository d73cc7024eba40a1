/**
 * Customers: accounts and guest buyers (e-mails that ordered without an account), searched by
 * e-mail or name, filtered by verification and kind, sorted and paged by the server; every
 * control lives in the URL.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import type { ApiProblem } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { formValues } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging } from '../../../../shared/list.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { useTitle } from '../../../shell.js';
import { CustomerBadges } from '../badges.js';
import { customersText } from '../i18n.js';
import {
  CUSTOMER_KINDS,
  CUSTOMER_SORTS,
  type CustomerListSearch,
  customerListQuery,
  customersRoute,
} from '../routes.js';

export function CustomerListPage() {
  const t = useT();
  const s = useDictionary(customersText);
  const f = useFormat();
  useTitle(s.title);
  const search = customersRoute.useSearch();
  const navigate = useNavigate({ from: customersRoute.fullPath });
  const query = useQuery({ ...customerListQuery(search), placeholderData: keepPreviousData });
  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void navigate({
      search: (prev) => ({
        ...prev,
        page: 1,
        q: v.q?.trim() || undefined,
        verified: (v.verified || undefined) as CustomerListSearch['verified'],
        kind: (v.kind || undefined) as CustomerListSearch['kind'],
        sort: (v.sort || undefined) as CustomerListSearch['sort'],
      }),
    });
  };
  const data = query.data;
  const key = JSON.stringify([search.q, search.verified, search.kind, search.sort]);
  return (
    <div className="page">
      <div className="page-head">
        <h1>{s.title}</h1>
        {data ? <p className="muted">{s.count(data.count)}</p> : null}
      </div>
      <search aria-label={t.list.filters}>
        <form className="filters" onSubmit={onFilter} key={key}>
          <div className="field field-wide">
            <label htmlFor="customers-q">{s.search}</label>
            <input id="customers-q" name="q" type="search" defaultValue={search.q ?? ''} placeholder={s.searchHint} />
          </div>
          <div className="field">
            <label htmlFor="customers-verified">{s.verified}</label>
            <select id="customers-verified" name="verified" defaultValue={search.verified ?? ''}>
              <option value="">{s.anyVerified}</option>
              <option value="true">{s.verifiedOnly}</option>
              <option value="false">{s.unverifiedOnly}</option>
            </select>
          </div>
          <div className="field">
            <label htmlFor="customers-kind">{s.kind}</label>
            <select id="customers-kind" name="kind" defaultValue={search.kind ?? ''}>
              <option value="">{s.anyKind}</option>
              {CUSTOMER_KINDS.map((k) => (
                <option key={k} value={k}>
                  {s.kinds[k]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="customers-sort">{s.sort}</label>
            <select id="customers-sort" name="sort" defaultValue={search.sort ?? 'last_order_desc'}>
              {CUSTOMER_SORTS.map((k) => (
                <option key={k} value={k}>
                  {s.sorts[k]}
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
          <caption className="visually-hidden">{s.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.email}</th>
              <th scope="col">{s.name}</th>
              <th scope="col">{s.status}</th>
              <th scope="col" className="num">
                {s.orders}
              </th>
              <th scope="col">{s.lastOrder}</th>
              <th scope="col">{s.since}</th>
            </tr>
          </thead>
          <tbody>
            {data?.customers.map((c) => (
              <tr key={c.id ?? `guest:${c.email}`}>
                <th scope="row">
                  {c.id ? (
                    <Link to="/customers/$id" params={{ id: c.id }}>
                      {c.email}
                    </Link>
                  ) : (
                    <Link to="/orders" search={{ page: 1, limit: 25, q: c.email }} aria-label={s.guestOrders(c.email)}>
                      {c.email}
                    </Link>
                  )}
                </th>
                <td>{c.name ?? <span className="muted">{t.common.none}</span>}</td>
                <td>
                  <CustomerBadges kind={c.kind} verified={c.email_verified} suspended={c.suspended} />
                </td>
                <td className="num">{f.number(c.order_count)}</td>
                <td>{c.last_order_at ? f.date(c.last_order_at) : <span className="muted">{t.common.none}</span>}</td>
                <td>{f.date(c.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {data && data.customers.length === 0 ? (
          <p className="empty">
            {t.list.empty}{' '}
            <Link to="/customers" search={{ page: 1, limit: search.limit }}>
              {t.list.reset}
            </Link>
          </p>
        ) : null}
      </div>
      {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
    </div>
  );
}
