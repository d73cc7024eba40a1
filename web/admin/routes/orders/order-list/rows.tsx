/** The rows of the orders table: the number links to the order. */
import { Link } from '@tanstack/react-router';
import type { operations } from '../../../../../clients/typescript/schema.js';
import { useFormat } from '../../../../shared/format.js';
import { useT } from '../../../../shared/i18n/index.js';
import { StatusBadge } from '../status.js';

type Order = operations['listOrders']['responses'][200]['content']['application/json']['orders'][number];

export function OrderRows({ orders }: { orders: Order[] }) {
  const f = useFormat();
  const t = useT();
  return (
    <>
      {orders.map((o) => (
        <tr key={o.id}>
          <th scope="row">
            <Link to="/orders/$id" params={{ id: o.id }}>
              {o.number}
            </Link>
            {o.is_test ? <span className="tag">{t.orders.test}</span> : null}
          </th>
          <td>{f.dateTime(o.created_at)}</td>
          <td>
            {o.billing_address?.name ?? o.shipping_address?.name ?? ''}
            <span className="muted block">{o.customer_email}</span>
          </td>
          <td>
            <StatusBadge status={o.status} />
          </td>
          <td className="num">{f.money(o.total_cents, o.currency)}</td>
        </tr>
      ))}
    </>
  );
}
