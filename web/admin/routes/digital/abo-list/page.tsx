/**
 * Subscriptions (GET /api/admin/digital/abos): every filter of the spec (plan, search, test,
 * status) and the page in the URL, paged by the server with limit/offset; test subscriptions carry
 * a "Test" badge and their own row style, so they are never taken for real revenue.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { formValues } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging } from '../../../../shared/list.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { useTitle } from '../../../shell.js';
import { DigitalGate } from '../gate.js';
import { digitalText } from '../i18n.js';
import { type AboListSearch, aboListQuery } from '../queries.js';
import { ABO_STATUS_FILTERS, ABO_TEST_FILTERS, abosRoute } from '../routes.js';
import { AboStatusBadge, TestBadge, useIntervalText } from '../shared.js';

export function AboListPage() {
  const s = useDictionary(digitalText);
  useTitle(s.abos.title);
  return (
    <DigitalGate title={s.abos.title}>
      <AboList />
    </DigitalGate>
  );
}

function AboList() {
  const t = useT();
  const s = useDictionary(digitalText);
  const f = useFormat();
  const interval = useIntervalText();
  const search = abosRoute.useSearch();
  const navigate = useNavigate({ from: abosRoute.fullPath });
  const query = useQuery({ ...aboListQuery(search), placeholderData: keepPreviousData });
  const plans = $api.useQuery('get', '/api/admin/digital/plaene');
  const planName = new Map((plans.data?.plaene ?? []).map((p) => [p.id, p.name]));

  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void navigate({
      search: (prev) => ({
        ...prev,
        page: 1,
        q: v.q?.trim() || undefined,
        plan_id: v.plan_id || undefined,
        status: (v.status || undefined) as AboListSearch['status'],
        test: (v.test || undefined) as AboListSearch['test'],
      }),
    });
  };
  const data = query.data;
  const key = JSON.stringify([search.q, search.plan_id, search.status, search.test]);
  return (
    <div className="page">
      <div className="page-head">
        <h1>{s.abos.title}</h1>
        {data ? <p className="muted">{s.abos.count(data.count)}</p> : null}
      </div>
      <search aria-label={t.list.filters}>
        <form className="filters" onSubmit={onFilter} key={key}>
          <div className="field field-wide">
            <label htmlFor="abos-q">{s.abos.search}</label>
            <input id="abos-q" name="q" type="search" defaultValue={search.q ?? ''} placeholder={s.abos.searchHint} />
          </div>
          <div className="field">
            <label htmlFor="abos-plan">{s.abos.plan}</label>
            {/* re-mounted alone when the plans arrive: what was typed meanwhile stays */}
            <select
              id="abos-plan"
              name="plan_id"
              defaultValue={search.plan_id ?? ''}
              key={plans.data ? 'plans' : 'loading'}
            >
              <option value="">{s.abos.anyPlan}</option>
              {(plans.data?.plaene ?? []).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="abos-status">{s.abos.status}</label>
            <select id="abos-status" name="status" defaultValue={search.status ?? ''}>
              {ABO_STATUS_FILTERS.map((st) => (
                <option key={st} value={st === 'alle' ? '' : st}>
                  {s.abos.statusFilters[st]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor="abos-test">{s.abos.test}</label>
            <select id="abos-test" name="test" defaultValue={search.test ?? ''}>
              {ABO_TEST_FILTERS.map((v) => (
                <option key={v} value={v === 'alle' ? '' : v}>
                  {s.abos.testFilters[v]}
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
      <p className="muted small" id="abos-test-note">
        {s.abos.testCaption}
      </p>
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data abo-table" aria-describedby="abos-test-note">
          <caption className="visually-hidden">{s.abos.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.abos.customer}</th>
              <th scope="col">{s.abos.plan}</th>
              <th scope="col">{s.abos.status}</th>
              <th scope="col" className="num">
                {s.abos.price}
              </th>
              <th scope="col">{s.abos.periodEnd}</th>
              <th scope="col">{s.abos.created}</th>
            </tr>
          </thead>
          <tbody>
            {(data?.abos ?? []).map((a) => (
              <tr key={a.id} className={a.is_test ? 'row-test' : undefined}>
                <th scope="row">
                  <Link to="/digital/abos/$id" params={{ id: a.id }}>
                    {a.customer_email}
                  </Link>
                  {a.is_test ? (
                    <>
                      {' '}
                      <TestBadge />
                    </>
                  ) : null}
                  <span className="block muted small mono">{a.id}</span>
                </th>
                <td>{planName.get(a.plan_id) ?? a.plan_id}</td>
                <td>
                  <AboStatusBadge status={a.status} />
                  {a.cancel_at_period_end && a.endet_am ? (
                    <span className="block small">{s.abos.endsOn(f.date(a.endet_am))}</span>
                  ) : null}
                </td>
                <td className="num">
                  {f.money(a.price_cents, a.currency)}
                  <span className="block muted small">
                    {interval(a.interval_unit, a.interval_count, a.interval_text)}
                  </span>
                </td>
                <td>
                  {a.status === 'canceled' || a.status === 'unpaid' ? t.common.none : f.date(a.current_period_end)}
                </td>
                <td>{f.date(a.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {data && data.abos.length === 0 ? (
          <p className="empty">
            {t.list.empty}{' '}
            <Link to="/digital/abos" search={{ page: 1, limit: search.limit }}>
              {t.list.reset}
            </Link>
          </p>
        ) : null}
      </div>
      {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
    </div>
  );
}
