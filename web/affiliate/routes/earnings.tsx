/** The affiliate's commissions (GET /api/affiliate/earnings: order number and date, never the customer), paged on the server. */
import type { FormEvent } from 'react';
import { portalText } from '../../portal/i18n.js';
import { PortalLink, usePortalSearch } from '../../portal/nav.js';
import { applyFilters, Badge, Loaded, UrlPager } from '../../portal/parts.js';
import { usePortalTitle } from '../../portal/shell.js';
import { $api } from '../../shared/api.js';
import { useFormat } from '../../shared/format.js';
import { useDictionary } from '../../shared/i18n/index.js';
import { serverPaging } from '../../shared/list.js';
import { affiliateText } from '../i18n.js';
import { earningSearch } from '../search.js';

export function EarningsPage() {
  const a = useDictionary(affiliateText);
  const s = useDictionary(portalText);
  const f = useFormat();
  usePortalTitle(a.earnings.title);
  const search = usePortalSearch(earningSearch);
  const query = $api.useQuery('get', '/api/affiliate/earnings', {
    params: { query: { ...serverPaging(search), ...(search.status ? { status: search.status } : {}) } },
  });
  const onFilter = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    applyFilters('/earnings', e.currentTarget, { limit: search.limit });
  };
  return (
    <>
      <h1 id="earnings-title">{a.earnings.title}</h1>
      <p className="muted">{a.earnings.intro}</p>
      <form className="filters" aria-label={s.filters} onSubmit={onFilter}>
        <div className="field">
          <label htmlFor="filter-status">{s.status}</label>
          <select id="filter-status" name="status" defaultValue={search.status ?? ''}>
            <option value="">{s.all}</option>
            <option value="pending">{s.earningStatus.pending}</option>
            <option value="released">{s.earningStatus.released}</option>
          </select>
        </div>
        <div className="filter-actions">
          <button type="submit">{s.apply}</button> <PortalLink to="/earnings">{s.reset}</PortalLink>
        </div>
      </form>
      <Loaded query={query}>
        {(d) =>
          d.earnings.length === 0 ? (
            <p>{s.empty}</p>
          ) : (
            <>
              <div className="table-wrap">
                <table className="data" aria-labelledby="earnings-title">
                  <thead>
                    <tr>
                      <th scope="col">{s.date}</th>
                      <th scope="col">{a.earnings.orderNumber}</th>
                      <th scope="col" className="num">
                        {a.earnings.net}
                      </th>
                      <th scope="col" className="num">
                        {a.earnings.rate}
                      </th>
                      <th scope="col" className="num">
                        {a.earnings.amount}
                      </th>
                      <th scope="col" className="num">
                        {a.earnings.reversed}
                      </th>
                      <th scope="col">{s.status}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.earnings.map((e) => (
                      <tr key={e.id}>
                        <td>{f.dateTime(e.order_date ?? e.earned_at)}</td>
                        <td className="mono">
                          {e.order_number ?? s.none}
                          {e.subscription_payment_number ? (
                            <span className="muted"> · {a.earnings.renewal(e.subscription_payment_number)}</span>
                          ) : null}
                        </td>
                        <td className="num">{f.money(e.net_cents, e.currency)}</td>
                        <td className="num">{f.percent(e.rate_percent / 100)}</td>
                        <td className="num">{f.money(e.amount_cents, e.currency)}</td>
                        <td className="num">{e.reversed_cents ? f.money(e.reversed_cents, e.currency) : s.none}</td>
                        <td>
                          <Badge kind={e.status}>{s.earningStatus[e.status] ?? e.status}</Badge>
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
