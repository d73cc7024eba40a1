/** Invoices: filtered and paged by the server; status, issue dates, search and page live in the URL. */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { ApiProblem } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging } from '../../../../shared/list.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { useTitle } from '../../../shell.js';
import { DocumentFilters } from '../filters.js';
import { financeText } from '../i18n.js';
import { INVOICE_STATUSES, invoiceListQuery, invoicesRoute } from '../routes.js';
import { DocBadge } from '../shared.js';

export function InvoiceListPage() {
  const t = useT();
  const s = useDictionary(financeText);
  const f = useFormat();
  useTitle(s.invoices.title);
  const search = invoicesRoute.useSearch();
  const navigate = useNavigate({ from: invoicesRoute.fullPath });
  const query = useQuery({ ...invoiceListQuery(search), placeholderData: keepPreviousData });
  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const data = query.data;
  return (
    <div className="page">
      <div className="page-head">
        <h1>{s.invoices.title}</h1>
        {data ? <p className="muted">{s.invoices.count(data.count)}</p> : null}
        <Link to="/finance/credit-notes" search={{ page: 1, limit: 25 }}>
          {s.invoices.toCreditNotes}
        </Link>
      </div>
      <DocumentFilters
        id="invoices"
        from="/finance/invoices"
        search={search}
        statuses={INVOICE_STATUSES}
        label={s.invoices.search}
        hint={s.invoices.searchHint}
      />
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{s.invoices.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.invoices.number}</th>
              <th scope="col">{s.invoices.issued}</th>
              <th scope="col">{s.invoices.order}</th>
              <th scope="col">{s.invoices.buyer}</th>
              <th scope="col">{s.invoices.status}</th>
              <th scope="col" className="num">
                {s.invoices.total}
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.invoices.map((inv) => (
              <tr key={inv.id}>
                <th scope="row">
                  <Link to="/finance/invoices/$id" params={{ id: inv.id }}>
                    {inv.number ?? `${s.invoices.draftNumber} · ${inv.order_number}`}
                  </Link>
                </th>
                <td>{inv.issue_date ? f.date(inv.issue_date) : t.common.none}</td>
                <td>
                  <Link to="/orders/$id" params={{ id: inv.order_id }}>
                    {inv.order_number}
                  </Link>
                </td>
                <td>
                  {inv.buyer.company ?? inv.buyer.name}
                  <span className="muted block small">
                    {inv.buyer.email}
                    {inv.is_business ? ` · ${s.invoices.business}` : ''}
                  </span>
                </td>
                <td>
                  <DocBadge status={inv.status} />
                </td>
                <td className="num">{f.money(inv.total_cents, inv.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {data && data.invoices.length === 0 ? (
          <p className="empty">
            {t.list.empty}{' '}
            <Link to="/finance/invoices" search={{ page: 1, limit: search.limit }}>
              {t.list.reset}
            </Link>
          </p>
        ) : null}
      </div>
      {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
    </div>
  );
}
