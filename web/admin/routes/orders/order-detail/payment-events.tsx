/** The payment provider's events for this order (what each webhook did), newest first. */
import { $api } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { useT } from '../../../../shared/i18n/index.js';
import type { OrderDetail } from './lines.js';

export function PaymentEvents({ order }: { order: OrderDetail }) {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const allowed = can('GET /api/admin/payment-events');
  const query = $api.useQuery(
    'get',
    '/api/admin/payment-events',
    { params: { query: { order_id: order.id, limit: 50 } } },
    { enabled: allowed },
  );
  if (!allowed) return null;
  const events = query.data?.payment_events ?? [];
  return (
    <section aria-labelledby="pe-h" className="panel">
      <h2 id="pe-h">{t.orderOps.paymentEvents}</h2>
      {query.data && events.length === 0 ? <p className="muted">{t.orderOps.noPaymentEvents}</p> : null}
      {events.length > 0 ? (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t.orderOps.received}</th>
                <th scope="col">{t.orderOps.eventType}</th>
                <th scope="col">{t.orderOps.eventStatus}</th>
                <th scope="col" className="num">
                  {t.orderOps.amount}
                </th>
              </tr>
            </thead>
            <tbody>
              {events.map((e) => (
                <tr key={`${e.provider}-${e.event_id}`}>
                  <td>{f.dateTime(e.received_at)}</td>
                  <td>
                    <code>{e.type}</code>
                    <span className="muted block small">
                      {e.provider} · {e.event_id}
                    </span>
                  </td>
                  <td>
                    {t.orderOps.paymentEventStatus[e.status]}
                    {e.reason ? <span className="muted block small">{e.reason}</span> : null}
                  </td>
                  <td className="num">
                    {e.amount_cents != null ? f.money(e.amount_cents, e.currency ?? order.currency) : t.common.none}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  );
}
