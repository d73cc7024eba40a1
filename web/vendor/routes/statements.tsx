/**
 * The vendor's monthly statements (GET /api/vendor/statements, paged, month filter in the URL),
 * one statement with its entries (GET /api/vendor/statements/{id}) and its PDF
 * (GET /api/vendor/statements/{id}/pdf: a plain link, the session cookie goes with it).
 */
import type { FormEvent } from 'react';
import { portalText } from '../../portal/i18n.js';
import { go, PortalLink, usePortalPath, usePortalSearch } from '../../portal/nav.js';
import { Badge, Loaded, UrlPager } from '../../portal/parts.js';
import { usePortalTitle } from '../../portal/shell.js';
import { $api } from '../../shared/api.js';
import { useFormat } from '../../shared/format.js';
import { useDictionary } from '../../shared/i18n/index.js';
import { serverPaging } from '../../shared/list.js';
import { vendorText } from '../i18n.js';
import { statementSearch } from '../search.js';

const pdfHref = (id: string) => `/api/vendor/statements/${encodeURIComponent(id)}/pdf`;

export function StatementsPage() {
  const v = useDictionary(vendorText);
  const s = useDictionary(portalText);
  const f = useFormat();
  usePortalTitle(v.statements.title);
  const search = usePortalSearch(statementSearch);
  const query = $api.useQuery('get', '/api/vendor/statements', {
    params: { query: { ...serverPaging(search), ...(search.period ? { period: search.period } : {}) } },
  });
  const onFilter = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const period = String(new FormData(e.currentTarget).get('period') ?? '');
    go('/statements', { limit: search.limit, page: 1, period: period || undefined });
  };
  return (
    <>
      <h1 id="statements-title">{v.statements.title}</h1>
      <p className="muted">{v.statements.intro}</p>
      <form className="filters" aria-label={s.filters} onSubmit={onFilter}>
        <div className="field">
          <label htmlFor="filter-period">{v.statements.period}</label>
          <input id="filter-period" name="period" type="month" defaultValue={search.period ?? ''} />
        </div>
        <div className="filter-actions">
          <button type="submit">{s.apply}</button> <PortalLink to="/statements">{s.reset}</PortalLink>
        </div>
      </form>
      <Loaded query={query}>
        {(d) =>
          d.statements.length === 0 ? (
            <p>{s.empty}</p>
          ) : (
            <>
              <div className="table-wrap">
                <table className="data" aria-labelledby="statements-title">
                  <thead>
                    <tr>
                      <th scope="col">{v.statements.period}</th>
                      <th scope="col">{v.statements.number}</th>
                      <th scope="col">{v.statements.status}</th>
                      <th scope="col" className="num">
                        {v.statements.opening}
                      </th>
                      <th scope="col" className="num">
                        {v.statements.closing}
                      </th>
                      <th scope="col" className="num">
                        {v.statements.entries}
                      </th>
                      <th scope="col">PDF</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.statements.map((st) => (
                      <tr key={st.id}>
                        <th scope="row">
                          <PortalLink to={`/statements/${st.id}`} aria-label={v.statements.open(st.period)}>
                            {st.period} · {st.currency}
                          </PortalLink>
                        </th>
                        <td className="mono">{st.number ?? s.none}</td>
                        <td>
                          <Badge kind={st.status}>{v.statements.statuses[st.status] ?? st.status}</Badge>
                        </td>
                        <td className="num">{f.money(st.opening_balance_cents, st.currency)}</td>
                        <td className="num">{f.money(st.closing_balance_cents, st.currency)}</td>
                        <td className="num">{f.number(st.entry_count)}</td>
                        <td>
                          <a href={pdfHref(st.id)} download aria-label={v.statements.pdf(st.period)}>
                            {s.download}
                          </a>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <UrlPager count={d.count} search={search} />
            </>
          )
        }
      </Loaded>
    </>
  );
}

export function StatementPage() {
  const v = useDictionary(vendorText);
  const s = useDictionary(portalText);
  const f = useFormat();
  const id = usePortalPath().split('/')[2] ?? '';
  const query = $api.useQuery('get', '/api/vendor/statements/{id}', { params: { path: { id } } });
  usePortalTitle(query.data ? v.statement.title(query.data.period) : v.statements.title);
  return (
    <>
      <p>
        <PortalLink to="/statements">{v.statement.back}</PortalLink>
      </p>
      <Loaded query={query}>
        {(st) => (
          <>
            <div className="page-head">
              <h1 id="statement-title">{v.statement.title(st.period)}</h1>
              <Badge kind={st.status}>{v.statements.statuses[st.status] ?? st.status}</Badge>
              <a href={pdfHref(st.id)} download className="button">
                {v.statements.pdf(st.period)}
              </a>
            </div>
            <dl className="facts panel">
              <dt>{v.statements.number}</dt>
              <dd className="mono">{st.number ?? s.none}</dd>
              <dt>{v.statements.opening}</dt>
              <dd>{f.money(st.opening_balance_cents, st.currency)}</dd>
              <dt>{v.statement.earnings}</dt>
              <dd>{f.money(st.totals.earnings_cents, st.currency)}</dd>
              <dt>{v.statement.clawbacks}</dt>
              <dd>{f.money(st.totals.clawbacks_cents, st.currency)}</dd>
              <dt>{v.statement.payouts}</dt>
              <dd>{f.money(st.totals.payouts_cents, st.currency)}</dd>
              <dt>{v.statements.closing}</dt>
              <dd>{f.money(st.closing_balance_cents, st.currency)}</dd>
              <dt>{v.statement.grossSales}</dt>
              <dd>{f.money(st.totals.gross_sales_cents, st.currency)}</dd>
              <dt>{v.statement.commission}</dt>
              <dd>{f.money(st.totals.commission_cents, st.currency)}</dd>
            </dl>
            {st.entries.length === 0 ? (
              <p>{v.statement.noEntries}</p>
            ) : (
              <div className="table-wrap">
                <table className="data" aria-labelledby="statement-title">
                  <thead>
                    <tr>
                      <th scope="col">{s.date}</th>
                      <th scope="col">{v.statement.description}</th>
                      <th scope="col" className="num">
                        {s.amount}
                      </th>
                      <th scope="col" className="num">
                        {v.statement.balance}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {st.entries.map((e) => (
                      <tr key={e.transaction_id}>
                        <td>{f.date(`${e.date}T12:00:00`)}</td>
                        <td>
                          {e.order_id ? (
                            <PortalLink to={`/orders/${e.order_id}`}>{e.description}</PortalLink>
                          ) : (
                            e.description
                          )}
                        </td>
                        <td className="num">{f.money(e.amount_cents, st.currency)}</td>
                        <td className="num">{f.money(e.balance_cents, st.currency)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </Loaded>
    </>
  );
}
