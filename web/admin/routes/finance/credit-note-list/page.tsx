/** Credit notes: filtered and paged by the server; status, issue dates, search and page live in the URL. */
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
import { CREDIT_NOTE_STATUSES, creditNoteListQuery, creditNotesRoute } from '../routes.js';
import { DocBadge } from '../shared.js';

export function CreditNoteListPage() {
  const t = useT();
  const s = useDictionary(financeText);
  const f = useFormat();
  useTitle(s.creditNotes.title);
  const search = creditNotesRoute.useSearch();
  const navigate = useNavigate({ from: creditNotesRoute.fullPath });
  const query = useQuery({ ...creditNoteListQuery(search), placeholderData: keepPreviousData });
  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const data = query.data;
  return (
    <div className="page">
      <div className="page-head">
        <h1>{s.creditNotes.title}</h1>
        {data ? <p className="muted">{s.creditNotes.count(data.count)}</p> : null}
        <Link to="/finance/invoices" search={{ page: 1, limit: 25 }}>
          {s.creditNotes.toInvoices}
        </Link>
      </div>
      <DocumentFilters
        id="credit-notes"
        from="/finance/credit-notes"
        search={search}
        statuses={CREDIT_NOTE_STATUSES}
        label={s.creditNotes.search}
        hint={s.creditNotes.searchHint}
      />
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{s.creditNotes.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.invoices.number}</th>
              <th scope="col">{s.invoices.issued}</th>
              <th scope="col">{s.creditNotes.invoice}</th>
              <th scope="col">{s.invoices.buyer}</th>
              <th scope="col">{s.creditNotes.reason}</th>
              <th scope="col">{s.invoices.status}</th>
              <th scope="col" className="num">
                {s.invoices.total}
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.credit_notes.map((cn) => (
              <tr key={cn.id}>
                <th scope="row">
                  <Link to="/finance/credit-notes/$id" params={{ id: cn.id }}>
                    {cn.number ?? `${s.invoices.draftNumber} · ${cn.invoice_number}`}
                  </Link>
                </th>
                <td>{cn.issue_date ? f.date(cn.issue_date) : t.common.none}</td>
                <td>
                  <Link to="/finance/invoices/$id" params={{ id: cn.invoice_id }}>
                    {cn.invoice_number}
                  </Link>
                </td>
                <td>
                  {cn.buyer.company ?? cn.buyer.name}
                  <span className="muted block small">{cn.buyer.email}</span>
                </td>
                <td className="wrap">{cn.reason ?? ''}</td>
                <td>
                  <DocBadge status={cn.status} />
                </td>
                <td className="num">{f.money(-cn.total_cents, cn.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {data && data.credit_notes.length === 0 ? (
          <p className="empty">
            {t.list.empty}{' '}
            <Link to="/finance/credit-notes" search={{ page: 1, limit: search.limit }}>
              {t.list.reset}
            </Link>
          </p>
        ) : null}
      </div>
      {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
    </div>
  );
}
