/**
 * The vendor's orders (GET /api/vendor/orders, paged on the server) and one order
 * (GET /api/vendor/orders/{id}): only the vendor's lines and their total, never the whole order.
 */

import type { paths } from '../../../clients/typescript/schema.js';
import { portalText } from '../../portal/i18n.js';
import { PortalLink, usePortalPath, usePortalSearch } from '../../portal/nav.js';
import { Badge, Loaded, UrlPager } from '../../portal/parts.js';
import { usePortalTitle } from '../../portal/shell.js';
import { $api } from '../../shared/api.js';
import { useFormat } from '../../shared/format.js';
import { useDictionary } from '../../shared/i18n/index.js';
import { serverPaging } from '../../shared/list.js';
import { vendorText } from '../i18n.js';
import { listSearch } from '../search.js';

type Order = paths['/api/vendor/orders/{id}']['get']['responses'][200]['content']['application/json'];

export function OrderTable({ orders, labelledBy }: { orders: Order[]; labelledBy: string }) {
  const v = useDictionary(vendorText);
  const s = useDictionary(portalText);
  const f = useFormat();
  if (orders.length === 0) return <p>{s.empty}</p>;
  return (
    <div className="table-wrap">
      <table className="data" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">{v.orders.number}</th>
            <th scope="col">{v.orders.date}</th>
            <th scope="col">{v.orders.status}</th>
            <th scope="col">{v.orders.items}</th>
            <th scope="col" className="num">
              {v.orders.total}
            </th>
          </tr>
        </thead>
        <tbody>
          {orders.map((o) => (
            <tr key={o.id}>
              <th scope="row">
                <PortalLink to={`/orders/${o.id}`}>{o.number}</PortalLink>
              </th>
              <td>{f.dateTime(o.paid_at ?? o.created_at)}</td>
              <td>
                <Badge kind={o.status}>{v.orders.statuses[o.status] ?? o.status}</Badge>
              </td>
              <td>{o.lines.map((l) => `${l.quantity} × ${l.name}`).join(', ')}</td>
              <td className="num">{f.money(o.vendor_total_cents, o.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function OrdersPage() {
  const v = useDictionary(vendorText);
  usePortalTitle(v.orders.title);
  const search = usePortalSearch(listSearch);
  const query = $api.useQuery('get', '/api/vendor/orders', { params: { query: serverPaging(search) } });
  return (
    <>
      <h1 id="orders-title">{v.orders.title}</h1>
      <p className="muted">{v.orders.intro}</p>
      <Loaded query={query}>
        {(d) => (
          <>
            <OrderTable orders={d.orders} labelledBy="orders-title" />
            {d.count > 0 ? <UrlPager count={d.count} search={search} /> : null}
          </>
        )}
      </Loaded>
    </>
  );
}

export function OrderPage() {
  const v = useDictionary(vendorText);
  const f = useFormat();
  const id = usePortalPath().split('/')[2] ?? '';
  const query = $api.useQuery('get', '/api/vendor/orders/{id}', { params: { path: { id } } });
  usePortalTitle(query.data ? v.order.title(query.data.number) : v.orders.title);
  return (
    <>
      <p>
        <PortalLink to="/orders">{v.order.back}</PortalLink>
      </p>
      <Loaded query={query}>
        {(o) => (
          <>
            <h1 id="order-title">{v.order.title(o.number)}</h1>
            <dl className="facts panel">
              <dt>{v.orders.status}</dt>
              <dd>
                <Badge kind={o.status}>{v.orders.statuses[o.status] ?? o.status}</Badge>
              </dd>
              <dt>{v.orders.date}</dt>
              <dd>{f.dateTime(o.created_at)}</dd>
              <dt>{v.order.paidAt}</dt>
              <dd>{o.paid_at ? f.dateTime(o.paid_at) : v.order.notPaid}</dd>
              <dt>{v.order.shipTo}</dt>
              <dd>
                {o.shipping_address ? (
                  <address>
                    {[
                      o.shipping_address.name,
                      o.shipping_address.company,
                      o.shipping_address.line1,
                      o.shipping_address.line2,
                      `${o.shipping_address.postal_code} ${o.shipping_address.city}`,
                      o.shipping_address.country,
                    ]
                      .filter(Boolean)
                      .map((line) => (
                        <span key={line} className="block">
                          {line}
                        </span>
                      ))}
                  </address>
                ) : (
                  v.order.noShipping
                )}
              </dd>
            </dl>
            <div className="table-wrap">
              <table className="data" aria-labelledby="order-title">
                <thead>
                  <tr>
                    <th scope="col">{v.order.product}</th>
                    <th scope="col" className="num">
                      {v.order.quantity}
                    </th>
                    <th scope="col" className="num">
                      {v.order.unitPrice}
                    </th>
                    <th scope="col" className="num">
                      {v.order.tax}
                    </th>
                    <th scope="col" className="num">
                      {v.order.lineTotal}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {o.lines.map((l) => (
                    <tr key={l.id}>
                      <th scope="row">
                        {l.name}
                        {l.sku ? <span className="muted mono"> · {l.sku}</span> : null}
                      </th>
                      <td className="num">{f.number(l.quantity)}</td>
                      <td className="num">{f.money(l.unit_price_cents, o.currency)}</td>
                      <td className="num">
                        {f.money(l.tax_cents, o.currency)} ({f.percent(l.tax_rate)})
                      </td>
                      <td className="num">{f.money(l.line_total_cents, o.currency)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row" colSpan={4}>
                      {v.order.total}
                    </th>
                    <td className="num">{f.money(o.vendor_total_cents, o.currency)}</td>
                  </tr>
                </tfoot>
              </table>
            </div>
          </>
        )}
      </Loaded>
    </>
  );
}
