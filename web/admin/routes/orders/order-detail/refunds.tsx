/** The order's refunds with their state (pending: waiting for the provider's confirmation) and the refund action. */
import { useState } from 'react';
import { $api } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { useT } from '../../../../shared/i18n/index.js';
import type { OrderDetail } from './lines.js';
import { RefundDialog } from './refund-dialog.js';

export function OrderRefunds({ order }: { order: OrderDetail }) {
  const t = useT();
  const o = t.orderOps;
  const f = useFormat();
  const can = useCan();
  const [open, setOpen] = useState(false);
  const allowed = can('GET /api/admin/orders/{id}/refunds');
  const query = $api.useQuery(
    'get',
    '/api/admin/orders/{id}/refunds',
    { params: { path: { id: order.id } } },
    { enabled: allowed },
  );
  if (!allowed) return null;
  const refunds = query.data?.refunds ?? [];
  const mayRefund =
    order.paid_at !== null &&
    order.status !== 'refunded' &&
    can('POST /api/admin/orders/{id}/refunds') &&
    can('POST /api/admin/orders/{id}/refunds/preview');
  return (
    <section aria-labelledby="refunds-h" className="panel">
      <div className="panel-head">
        <h2 id="refunds-h">{o.refunds}</h2>
        {mayRefund ? (
          <button type="button" onClick={() => setOpen(true)}>
            {o.refund}
          </button>
        ) : null}
      </div>
      {query.data && refunds.length === 0 ? <p className="muted">{o.noRefunds}</p> : null}
      {refunds.length > 0 ? (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{t.orders.date}</th>
                <th scope="col">{o.reason}</th>
                <th scope="col">{t.orders.status}</th>
                <th scope="col">{o.creditNote}</th>
                <th scope="col" className="num">
                  {o.amount}
                </th>
              </tr>
            </thead>
            <tbody>
              {refunds.map((r) => (
                <tr key={r.id}>
                  <td>{f.dateTime(r.created_at)}</td>
                  <td className="wrap">{r.reason}</td>
                  <td>
                    <span className={`badge badge-refund-${r.status}`}>{o.refundStatus[r.status]}</span>
                    {r.status === 'pending' ? <span className="muted block small">{o.pendingExplained}</span> : null}
                  </td>
                  <td>
                    {r.credit_note_id ? (
                      <a href={`/api/admin/credit-notes/${r.credit_note_id}/pdf`} download>
                        {o.creditNote} ({o.pdf})
                      </a>
                    ) : (
                      <span className="muted small">{o.creditNoteLater}</span>
                    )}
                  </td>
                  <td className="num">{f.money(r.amount_cents, r.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {mayRefund ? <RefundDialog order={order} open={open} onClose={() => setOpen(false)} /> : null}
    </section>
  );
}
