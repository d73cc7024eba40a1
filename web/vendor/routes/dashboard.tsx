/** The vendor's overview (GET /api/vendor/dashboard): balance, sales of 30 days and of the month, counts, the latest orders. */
import { portalText } from '../../portal/i18n.js';
import { PortalLink } from '../../portal/nav.js';
import { Balances, Loaded } from '../../portal/parts.js';
import { usePortalTitle } from '../../portal/shell.js';
import { $api } from '../../shared/api.js';
import { useFormat } from '../../shared/format.js';
import { useDictionary } from '../../shared/i18n/index.js';
import { vendorText } from '../i18n.js';
import { OrderTable } from './orders.js';

type Figures = { currency: string; gross_cents: number; earnings_cents: number; orders: number }[];

function Sales({ title, figures }: { title: string; figures: Figures }) {
  const v = useDictionary(vendorText);
  const f = useFormat();
  return (
    <section className="panel" aria-label={title}>
      <h2>{title}</h2>
      {figures.length === 0 ? (
        <p className="muted">{v.dashboard.noSales}</p>
      ) : (
        <dl className="facts">
          {figures.map((x) => [
            <dt key={`${x.currency}g`}>{v.dashboard.gross}</dt>,
            <dd key={`${x.currency}gv`}>{f.money(x.gross_cents, x.currency)}</dd>,
            <dt key={`${x.currency}e`}>{v.dashboard.earnings}</dt>,
            <dd key={`${x.currency}ev`}>{f.money(x.earnings_cents, x.currency)}</dd>,
            <dt key={`${x.currency}o`}>{v.dashboard.orders}</dt>,
            <dd key={`${x.currency}ov`}>{f.number(x.orders)}</dd>,
          ])}
        </dl>
      )}
    </section>
  );
}

export function DashboardPage() {
  const v = useDictionary(vendorText);
  const s = useDictionary(portalText);
  usePortalTitle(v.dashboard.title);
  const query = $api.useQuery('get', '/api/vendor/dashboard');
  return (
    <>
      <h1>{v.dashboard.title}</h1>
      <Loaded query={query}>
        {(d) => (
          <>
            <p>
              {v.dashboard.products(d.products)} · {v.dashboard.pendingEarnings(d.pending_earnings)}
            </p>
            <section aria-labelledby="balances-title" className="panel">
              <h2 id="balances-title">{s.balances}</h2>
              <Balances balances={d.balances} />
            </section>
            <div className="figures">
              <Sales title={v.dashboard.sales30} figures={d.sales_last_30_days} />
              <Sales title={v.dashboard.salesMonth} figures={d.sales_this_month} />
            </div>
            <section aria-labelledby="recent-title">
              <div className="page-head">
                <h2 id="recent-title">{v.dashboard.recent}</h2>
                <PortalLink to="/orders">{v.dashboard.allOrders}</PortalLink>
              </div>
              <OrderTable orders={d.recent_orders} labelledBy="recent-title" />
            </section>
          </>
        )}
      </Loaded>
    </>
  );
}
