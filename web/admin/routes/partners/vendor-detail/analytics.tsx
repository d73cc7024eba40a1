/**
 * The vendor's figures for a period (GET /api/admin/vendor-analytics with its vendor_id): one row
 * per currency, as the server computes them (nothing added up here); the period's days are in the
 * URL (`from`, `to`; absent = this month, the API's default).
 */
import { keepPreviousData } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { formValues } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { partnersText } from '../i18n.js';

export interface Period {
  from: string | undefined;
  to: string | undefined;
}

export function VendorAnalytics({
  vendorId,
  period,
  onPeriod,
}: {
  vendorId: string;
  period: Period;
  onPeriod: (next: Period) => void;
}) {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const allowed = can('GET /api/admin/vendor-analytics');
  const query = $api.useQuery(
    'get',
    '/api/admin/vendor-analytics',
    { params: { query: { vendor_id: vendorId, from: period.from, to: period.to } } },
    { enabled: allowed, placeholderData: keepPreviousData },
  );
  if (!allowed) return null;
  const data = query.data;
  const rows = data?.vendors.filter((v) => v.vendor_id === vendorId) ?? [];
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    onPeriod({ from: v.from || undefined, to: v.to || undefined });
  };
  // the period the server used: `to` is exclusive, shown as the last day it includes
  const lastDay = (iso: string) => f.date(new Date(new Date(iso).getTime() - 1).toISOString());
  return (
    <section aria-labelledby="analytics-h" className="panel">
      <h2 id="analytics-h">{s.analytics.title}</h2>
      <form
        className="inline-form partner-form"
        onSubmit={onSubmit}
        noValidate
        key={`${period.from ?? ''}|${period.to ?? ''}`}
      >
        <div className="field">
          <label htmlFor="analytics-from">{s.analytics.from}</label>
          <input id="analytics-from" name="from" type="date" defaultValue={period.from ?? ''} />
        </div>
        <div className="field">
          <label htmlFor="analytics-to">{s.analytics.to}</label>
          <input id="analytics-to" name="to" type="date" defaultValue={period.to ?? ''} />
        </div>
        <button type="submit">{t.list.apply}</button>
      </form>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {data ? <p className="muted small">{s.analytics.period(f.date(data.from), lastDay(data.to))}</p> : null}
      {data && rows.length === 0 ? <p className="muted">{s.analytics.none}</p> : null}
      {rows.length > 0 ? (
        <div className="table-wrap" aria-busy={query.isFetching || undefined}>
          <table className="data analytics">
            <caption className="visually-hidden">{s.analytics.title}</caption>
            <thead>
              <tr>
                <th scope="col">{s.analytics.currency}</th>
                <th scope="col" className="num">
                  {s.analytics.gross}
                </th>
                <th scope="col" className="num">
                  {s.analytics.net}
                </th>
                <th scope="col" className="num">
                  {s.analytics.commission}
                </th>
                <th scope="col" className="num">
                  {s.analytics.earnings}
                </th>
                <th scope="col" className="num">
                  {s.analytics.clawbacks}
                </th>
                <th scope="col" className="num">
                  {s.analytics.orders}
                </th>
                <th scope="col" className="num">
                  {s.analytics.lines}
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.currency}>
                  <th scope="row">{r.currency}</th>
                  <td className="num">{f.money(r.gross_sales_cents, r.currency)}</td>
                  <td className="num">{f.money(r.net_sales_cents, r.currency)}</td>
                  <td className="num">{f.money(r.commission_cents, r.currency)}</td>
                  <td className="num" data-analytics="earnings">
                    {f.money(r.earnings_cents, r.currency)}
                  </td>
                  <td className="num">{f.money(r.clawbacks_cents, r.currency)}</td>
                  <td className="num">{f.number(r.orders)}</td>
                  <td className="num">{f.number(r.lines)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <p className="muted small">{s.analytics.explain}</p>
    </section>
  );
}
