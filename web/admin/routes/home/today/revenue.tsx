/** Revenue of one period per currency: live payments first, test payments apart below them. */
import type { operations } from '../../../../../clients/typescript/schema.js';
import { useFormat } from '../../../../shared/format.js';
import { useT } from '../../../../shared/i18n/index.js';
import { ScrollRegion } from '../../../../shared/widgets/ScrollRegion.js';

type Revenue = NonNullable<
  operations['listOverview']['responses'][200]['content']['application/json']['revenue']
>['today'][number];

export function RevenueTable({ title, from, rows, id }: { title: string; from: string; rows: Revenue[]; id: string }) {
  const t = useT();
  const f = useFormat();
  const live = rows.filter((r) => !r.is_test);
  const test = rows.filter((r) => r.is_test);
  const row = (r: Revenue) => (
    <tr key={`${r.currency}-${r.is_test}`}>
      <th scope="row">{r.currency}</th>
      <td className="num">{f.money(r.paid_cents, r.currency)}</td>
      <td className="num">{f.money(r.refunded_cents, r.currency)}</td>
      <td className="num">
        <strong>{f.money(r.net_cents, r.currency)}</strong>
      </td>
    </tr>
  );
  return (
    <section aria-labelledby={`${id}-h`} className="panel">
      <h3 id={`${id}-h`}>
        {title} <span className="muted small">{t.home.since(f.dateTime(from))}</span>
      </h3>
      {rows.length === 0 ? (
        <p className="muted">{t.home.noRevenue}</p>
      ) : (
        <ScrollRegion labelledBy={`${id}-h`}>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t.home.currency}</th>
                <th scope="col" className="num">
                  {t.home.paid}
                </th>
                <th scope="col" className="num">
                  {t.home.refunded}
                </th>
                <th scope="col" className="num">
                  {t.home.net}
                </th>
              </tr>
            </thead>
            <tbody>{live.map(row)}</tbody>
            {test.length > 0 ? (
              <tbody className="test-rows">
                <tr>
                  <th scope="colgroup" colSpan={4}>
                    {t.home.testPayments}
                  </th>
                </tr>
                {test.map(row)}
              </tbody>
            ) : null}
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}
