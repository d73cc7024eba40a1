/**
 * Orders: filtered, paged (and, once the API sorts, sorted) by the server; every filter and the
 * page live in the URL, so a list view can be bookmarked, shared and reloaded.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import type { ApiProblem } from '../../../../shared/api.js';
import { formValues } from '../../../../shared/forms.js';
import { useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging } from '../../../../shared/list.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { ordersRoute } from '../../../router.js';
import { useTitle } from '../../../shell.js';
import { OrderFilters } from './filters.js';
import { orderListQuery } from './query.js';
import { OrderRows } from './rows.js';

export type OrderListSearch = ReturnType<typeof ordersRoute.useSearch>;

export function OrderListPage() {
  const t = useT();
  useTitle(t.orders.title);
  const search = ordersRoute.useSearch();
  const navigate = useNavigate({ from: ordersRoute.fullPath });
  const query = useQuery({ ...orderListQuery(search), placeholderData: keepPreviousData });

  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void navigate({
      search: (prev) => ({
        ...prev,
        page: 1,
        q: v.q?.trim() || undefined,
        status: (v.status || undefined) as OrderListSearch['status'],
        from: v.from || undefined,
        to: v.to || undefined,
      }),
    });
  };

  const data = query.data;
  return (
    <div className="page">
      <div className="page-head">
        <h1>{t.orders.title}</h1>
        {data ? <p className="muted">{t.orders.count(data.count)}</p> : null}
      </div>
      <OrderFilters search={search} onSubmit={onFilter} />
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{t.orders.title}</caption>
          <thead>
            <tr>
              <th scope="col">{t.orders.number}</th>
              <th scope="col">{t.orders.date}</th>
              <th scope="col">{t.orders.customer}</th>
              <th scope="col">{t.orders.status}</th>
              <th scope="col" className="num">
                {t.orders.total}
              </th>
            </tr>
          </thead>
          <tbody>{data ? <OrderRows orders={data.orders} /> : null}</tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {data && data.orders.length === 0 ? (
          <p className="empty">
            {t.list.empty}{' '}
            <Link to="/orders" search={{ page: 1, limit: search.limit }}>
              {t.list.reset}
            </Link>
          </p>
        ) : null}
      </div>
      {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
    </div>
  );
}
