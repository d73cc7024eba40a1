/**
 * Orders: filtered, sorted and paged by the server; every filter and the
 * page live in the URL, so a list view can be bookmarked, shared and reloaded.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import type { ApiProblem } from '../../../../shared/api.js';
import { formValues } from '../../../../shared/forms.js';
import { useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging, SortHeader } from '../../../../shared/list.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { ordersRoute } from '../../../router.js';
import { useTitle } from '../../../shell.js';
import { OrderFilters } from './filters.js';
import { orderListQuery } from './query.js';
import { OrderRows } from './rows.js';
import { SavedViews } from './saved-views.js';

export type OrderListSearch = ReturnType<typeof ordersRoute.useSearch>;

export function OrderListPage() {
  const t = useT();
  useTitle(t.orders.title);
  const search = ordersRoute.useSearch();
  const navigate = useNavigate({ from: ordersRoute.fullPath });
  const query = useQuery({ ...orderListQuery(search), placeholderData: keepPreviousData });

  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const setSort = (sort: string) =>
    navigate({ search: (prev) => ({ ...prev, page: 1, sort: sort as OrderListSearch['sort'] }) });
  // the server's default order is the newest first
  const sort = search.sort ?? '-created_at';
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
        channel: v.channel || undefined,
        paid: (v.paid || undefined) as OrderListSearch['paid'],
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
      <SavedViews search={search} />
      <OrderFilters search={search} onSubmit={onFilter} />
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{t.orders.title}</caption>
          <thead>
            <tr>
              <SortHeader label={t.orders.number} column="number" sort={sort} onSort={setSort} />
              <SortHeader label={t.orders.date} column="created_at" sort={sort} onSort={setSort} />
              <th scope="col">{t.orders.customer}</th>
              <th scope="col">{t.orders.status}</th>
              <SortHeader label={t.orders.total} column="total_cents" sort={sort} onSort={setSort} className="num" />
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
