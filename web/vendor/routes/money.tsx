/**
 * The vendor's money: earnings (GET /api/vendor/earnings), the ledger (GET /api/vendor/ledger) and
 * payouts (GET /api/vendor/payouts). Filters and page are in the URL and go to the API as its query
 * parameters; the server pages.
 */
import type { FormEvent } from 'react';
import { portalText } from '../../portal/i18n.js';
import { PortalLink, usePortalPath, usePortalSearch } from '../../portal/nav.js';
import { applyFilters, Badge, Loaded, PayoutTable, UrlPager } from '../../portal/parts.js';
import { usePortalTitle } from '../../portal/shell.js';
import { $api } from '../../shared/api.js';
import { useFormat } from '../../shared/format.js';
import { useDictionary } from '../../shared/i18n/index.js';
import { serverPaging } from '../../shared/list.js';
import { vendorText } from '../i18n.js';
import { CURRENCIES, earningSearch, ledgerSearch, payoutSearch } from '../search.js';

/** A filter form whose fields are the URL's filters; submitting applies them (page 1). */
function Filters({ children, paging }: { children: React.ReactNode; paging: { limit: number } }) {
  const s = useDictionary(portalText);
  const path = usePortalPath();
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    applyFilters(path, e.currentTarget, { limit: paging.limit });
  };
  return (
    <form className="filters" aria-label={s.filters} onSubmit={onSubmit}>
      {children}
      <div className="filter-actions">
        <button type="submit">{s.apply}</button> <PortalLink to={path}>{s.reset}</PortalLink>
      </div>
    </form>
  );
}

function DayFields({ from, to }: { from?: string | undefined; to?: string | undefined }) {
  const s = useDictionary(portalText);
  return (
    <>
      <div className="field">
        <label htmlFor="filter-from">{s.from}</label>
        <input id="filter-from" name="from" type="date" defaultValue={from ?? ''} />
      </div>
      <div className="field">
        <label htmlFor="filter-to">{s.to}</label>
        <input id="filter-to" name="to" type="date" defaultValue={to ?? ''} />
      </div>
    </>
  );
}

export function EarningsPage() {
  const v = useDictionary(vendorText);
  const s = useDictionary(portalText);
  const f = useFormat();
  usePortalTitle(v.earnings.title);
  const search = usePortalSearch(earningSearch);
  const query = $api.useQuery('get', '/api/vendor/earnings', {
    params: {
      query: {
        ...serverPaging(search),
        ...(search.status ? { status: search.status } : {}),
        ...(search.from ? { from: search.from } : {}),
        ...(search.to ? { to: search.to } : {}),
      },
    },
  });
  return (
    <>
      <h1 id="earnings-title">{v.earnings.title}</h1>
      <p className="muted">{v.earnings.intro}</p>
      <Filters paging={search}>
        <div className="field">
          <label htmlFor="filter-status">{s.status}</label>
          <select id="filter-status" name="status" defaultValue={search.status ?? ''}>
            <option value="">{s.all}</option>
            <option value="pending">{s.earningStatus.pending}</option>
            <option value="released">{s.earningStatus.released}</option>
          </select>
        </div>
        <DayFields from={search.from} to={search.to} />
      </Filters>
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
                      <th scope="col">{s.order}</th>
                      <th scope="col" className="num">
                        {v.earnings.gross}
                      </th>
                      <th scope="col" className="num">
                        {v.earnings.commission}
                      </th>
                      <th scope="col" className="num">
                        {v.earnings.amount}
                      </th>
                      <th scope="col" className="num">
                        {v.earnings.reversed}
                      </th>
                      <th scope="col">{s.status}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.earnings.map((e) => (
                      <tr key={e.id}>
                        <td>{f.dateTime(e.earned_at)}</td>
                        <td>
                          <PortalLink to={`/orders/${e.order_id}`}>{e.order_number ?? s.order}</PortalLink>
                        </td>
                        <td className="num">{f.money(e.gross_cents, e.currency)}</td>
                        <td className="num">
                          {f.money(e.commission_cents, e.currency)}{' '}
                          <span className="muted">({f.percent(e.rate_percent / 100)})</span>
                        </td>
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

export function LedgerPage() {
  const v = useDictionary(vendorText);
  const s = useDictionary(portalText);
  const f = useFormat();
  usePortalTitle(v.ledger.title);
  const search = usePortalSearch(ledgerSearch);
  const query = $api.useQuery('get', '/api/vendor/ledger', {
    params: {
      query: {
        ...serverPaging(search),
        ...(search.currency ? { currency: search.currency } : {}),
        ...(search.from ? { from: search.from } : {}),
        ...(search.to ? { to: search.to } : {}),
      },
    },
  });
  return (
    <>
      <h1 id="ledger-title">{v.ledger.title}</h1>
      <p className="muted">{v.ledger.intro}</p>
      <Filters paging={search}>
        <div className="field">
          <label htmlFor="filter-currency">{s.currency}</label>
          <select id="filter-currency" name="currency" defaultValue={search.currency ?? ''}>
            <option value="">{s.all}</option>
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </div>
        <DayFields from={search.from} to={search.to} />
      </Filters>
      <Loaded query={query}>
        {(d) =>
          d.entries.length === 0 ? (
            <p>{s.empty}</p>
          ) : (
            <>
              <div className="table-wrap">
                <table className="data" aria-labelledby="ledger-title">
                  <thead>
                    <tr>
                      <th scope="col">{s.date}</th>
                      <th scope="col">{v.ledger.kind}</th>
                      <th scope="col">{v.ledger.postings}</th>
                      <th scope="col">{v.ledger.memo}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {d.entries.map((e) => (
                      <tr key={e.id}>
                        <td>{f.dateTime(e.occurred_at)}</td>
                        <td>
                          {v.ledger.kinds[e.kind] ?? e.kind}
                          {e.order_id ? (
                            <>
                              {' '}
                              <PortalLink to={`/orders/${e.order_id}`}>({s.order})</PortalLink>
                            </>
                          ) : null}
                        </td>
                        <td>
                          <ul className="plain-list">
                            {e.postings
                              .filter((p) => p.account !== 'expense')
                              .map((p) => (
                                <li key={p.account}>
                                  {v.ledger.accounts[p.account] ?? p.account}: {f.money(p.amount_cents, e.currency)}
                                </li>
                              ))}
                          </ul>
                        </td>
                        <td>{e.memo ?? s.none}</td>
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

export function PayoutsPage() {
  const v = useDictionary(vendorText);
  const s = useDictionary(portalText);
  usePortalTitle(v.payouts.title);
  const search = usePortalSearch(payoutSearch);
  const query = $api.useQuery('get', '/api/vendor/payouts', {
    params: { query: { ...serverPaging(search), ...(search.status ? { status: search.status } : {}) } },
  });
  return (
    <>
      <h1 id="payouts-title">{v.payouts.title}</h1>
      <p className="muted">{v.payouts.intro}</p>
      <Filters paging={search}>
        <div className="field">
          <label htmlFor="filter-status">{s.status}</label>
          <select id="filter-status" name="status" defaultValue={search.status ?? ''}>
            <option value="">{s.all}</option>
            {(['pending', 'processing', 'paid', 'cancelled'] as const).map((st) => (
              <option key={st} value={st}>
                {s.payoutStatus[st]}
              </option>
            ))}
          </select>
        </div>
      </Filters>
      <Loaded query={query}>
        {(d) =>
          d.payouts.length === 0 ? (
            <p>{s.empty}</p>
          ) : (
            <>
              <PayoutTable payouts={d.payouts} labelledBy="payouts-title" />
              <UrlPager count={d.count} search={search} />
            </>
          )
        }
      </Loaded>
    </>
  );
}
