/**
 * One order: its lines with the tax decision of each, VIES, totals, addresses, refunds (and the
 * refund dialog), invoices and credit notes, the timeline, the accounting sync and the payment
 * events; the state changes the API offers (each said before it is done; hidden when the
 * employee's role may not call it).
 */
import { Link } from '@tanstack/react-router';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { useT } from '../../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { orderRoute } from '../../../router.js';
import { useTitle } from '../../../shell.js';
import { StatusBadge } from '../status.js';
import { AccountingSync } from './accounting.js';
import { OrderActions } from './actions.js';
import { OrderInvoices } from './invoices.js';
import { Address, OrderLines } from './lines.js';
import { PaymentEvents } from './payment-events.js';
import { OrderRefunds } from './refunds.js';
import { OrderTimeline } from './timeline.js';

export function OrderDetailPage() {
  const t = useT();
  const f = useFormat();
  const { id } = orderRoute.useParams();
  const query = $api.useQuery('get', '/api/admin/orders/{id}', { params: { path: { id } } });
  const order = query.data?.order;
  const can = useCan();
  const channels = $api.useQuery('get', '/api/admin/channels', {}, { enabled: can('GET /api/admin/channels') });
  const channelName = channels.data?.channels.find((c) => c.id === order?.channel_id)?.name;
  useTitle(order ? t.order.title(order.number) : t.orders.title);
  return (
    <div className="page">
      <p>
        <Link to="/orders" search={{ page: 1, limit: 25 }}>
          ← {t.order.back}
        </Link>
      </p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {!order ? (
        query.isPending ? (
          <p className="muted">{t.common.loading}</p>
        ) : null
      ) : (
        <>
          <div className="page-head">
            <h1>{t.order.title(order.number)}</h1>
            <StatusBadge status={order.status} />
          </div>
          <OrderActions order={order} />
          <section aria-labelledby="summary-h" className="panel">
            <h2 id="summary-h">{t.order.summary}</h2>
            <dl className="facts">
              <dt>{t.order.email}</dt>
              <dd>{order.customer_email}</dd>
              <dt>{t.order.created}</dt>
              <dd>{f.dateTime(order.created_at)}</dd>
              <dt>{t.order.paid}</dt>
              <dd>{order.paid_at ? f.dateTime(order.paid_at) : t.common.none}</dd>
              <dt>{t.orderOps.provider}</dt>
              <dd>{order.payment_provider ?? t.common.none}</dd>
              <dt>{t.orderOps.channelLabel}</dt>
              <dd>{channelName ?? order.channel_id}</dd>
              <dt>{t.orderOps.vies}</dt>
              <dd>
                {order.vat_id_status ? (
                  <>
                    {(t.orderOps.viesStatus as Record<string, string>)[order.vat_id_status] ?? order.vat_id_status}
                    {order.billing_address?.vat_id ? <> · {order.billing_address.vat_id}</> : null}
                    {order.vat_id_checked_at ? (
                      <span className="muted block small">
                        {t.orderOps.checkedAt(f.dateTime(order.vat_id_checked_at))}
                      </span>
                    ) : null}
                  </>
                ) : (
                  <span className="muted">{t.orderOps.noVatId}</span>
                )}
              </dd>
            </dl>
          </section>
          <OrderLines order={order} />
          <div className="columns">
            <section aria-labelledby="billing-h" className="panel">
              <h2 id="billing-h">{t.order.billing}</h2>
              <Address address={order.billing_address} />
            </section>
            <section aria-labelledby="shipping-h" className="panel">
              <h2 id="shipping-h">{t.order.shippingAddress}</h2>
              <Address address={order.shipping_address} />
            </section>
          </div>
          <OrderRefunds order={order} />
          <OrderInvoices order={order} />
          <div className="columns">
            <OrderTimeline order={order} />
            <div>
              <AccountingSync order={order} />
              <PaymentEvents order={order} />
            </div>
          </div>
        </>
      )}
    </div>
  );
}
