/**
 * The payment provider's events of the shop, newest first, paged by the server and filtered by
 * status in the URL. Each status is said in words; `rejected` (paid but not applied) and
 * `refunded` (a late payment given back) are explained, since they need someone to act.
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
import { settingsText } from '../i18n.js';
import { PAYMENT_EVENT_STATUSES, type PaymentEventSearch, paymentEventsQuery, paymentEventsRoute } from '../routes.js';

export function PaymentEventsPage() {
  const t = useT();
  const s = useDictionary(settingsText).events;
  const f = useFormat();
  useTitle(s.title);
  const search = paymentEventsRoute.useSearch();
  const navigate = useNavigate({ from: paymentEventsRoute.fullPath });
  const query = useQuery({ ...paymentEventsQuery(search), placeholderData: keepPreviousData });
  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void navigate({
      search: (prev) => ({ ...prev, page: 1, status: (v.status || undefined) as PaymentEventSearch['status'] }),
    });
  };
  const data = query.data;
  return (
    <div className="page">
      <div className="page-head">
        <h1>{s.title}</h1>
        {data ? <p className="muted">{s.count(data.count)}</p> : null}
      </div>
      <p className="muted">{s.intro}</p>
      <search aria-label={t.list.filters}>
        <form className="filters" onSubmit={onFilter} key={search.status ?? ''}>
          <div className="field">
            <label htmlFor="events-status">{s.status}</label>
            <select id="events-status" name="status" defaultValue={search.status ?? ''}>
              <option value="">{s.anyStatus}</option>
              {PAYMENT_EVENT_STATUSES.map((k) => (
                <option key={k} value={k}>
                  {s.statuses[k]}
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
      {search.status ? <p className="alert alert-info">{s.explain[search.status]}</p> : null}
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{s.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.received}</th>
              <th scope="col">{s.type}</th>
              <th scope="col">{s.status}</th>
              <th scope="col">{s.order}</th>
              <th scope="col" className="num">
                {s.amount}
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.payment_events.map((e) => (
              <tr key={`${e.provider}-${e.event_id}`} className={`event-${e.status}`}>
                <td>{f.dateTime(e.received_at)}</td>
                <td className="event-type">
                  <code>{e.type}</code>
                  <span className="muted block small event-id">
                    {e.provider} · {e.event_id}
                  </span>
                </td>
                <td className="wrap event-status">
                  <span className={`badge badge-event-${e.status}`}>{s.statuses[e.status]}</span>
                  {e.status === 'rejected' || e.status === 'refunded' ? (
                    <span className="block small">{s.explain[e.status]}</span>
                  ) : null}
                  {e.reason ? (
                    <span className="muted block small">
                      {s.reason}: <code>{e.reason}</code>
                    </span>
                  ) : null}
                </td>
                <td>
                  {e.order_id ? (
                    <Link to="/orders/$id" params={{ id: e.order_id }}>
                      {s.openOrder}
                    </Link>
                  ) : (
                    <span className="muted">{s.noOrder}</span>
                  )}
                </td>
                <td className="num">
                  {e.amount_cents != null && e.currency ? f.money(e.amount_cents, e.currency) : t.common.none}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {data && data.payment_events.length === 0 ? (
          <p className="empty">
            {t.list.empty}{' '}
            <Link to="/settings/payment-events" search={{ page: 1, limit: search.limit }}>
              {t.list.reset}
            </Link>
          </p>
        ) : null}
      </div>
      {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
    </div>
  );
}
