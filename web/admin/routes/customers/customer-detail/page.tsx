/**
 * One customer account: what it is (verified, suspended, with a password), its newest orders,
 * subscriptions and invoices (each with the way to all of them), and the account actions.
 */
import { Link } from '@tanstack/react-router';
import type { operations } from '../../../../../clients/typescript/schema.js';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { useTitle } from '../../../shell.js';
import { StatusBadge } from '../../orders/status.js';
import { CustomerBadges } from '../badges.js';
import { customersText } from '../i18n.js';
import { customerRoute } from '../routes.js';
import { CustomerActions } from './actions.js';

type Detail = operations['getCustomer']['responses'][200]['content']['application/json'];

export function CustomerDetailPage() {
  const t = useT();
  const s = useDictionary(customersText);
  const f = useFormat();
  const { id } = customerRoute.useParams();
  const query = $api.useQuery('get', '/api/admin/customers/{id}', { params: { path: { id } } });
  const data = query.data;
  const c = data?.customer;
  useTitle(c ? s.detailTitle(c.email) : s.title);
  return (
    <div className="page">
      <p>
        <Link to="/customers" search={{ page: 1, limit: 25 }}>
          ← {s.back}
        </Link>
      </p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {!data || !c ? (
        query.isPending ? (
          <p className="muted">{t.common.loading}</p>
        ) : null
      ) : (
        <>
          <div className="page-head">
            <h1>{s.detailTitle(c.email)}</h1>
            <CustomerBadges kind="account" verified={c.email_verified} suspended={c.suspended} />
          </div>
          <CustomerActions customer={c} />
          <section aria-labelledby="customer-summary-h" className="panel">
            <h2 id="customer-summary-h">{s.summary}</h2>
            <dl className="facts">
              <dt>{s.email}</dt>
              <dd>{c.email}</dd>
              <dt>{s.name}</dt>
              <dd>{c.name ?? t.common.none}</dd>
              <dt>{s.created}</dt>
              <dd>{f.dateTime(c.created_at)}</dd>
              <dt>{s.password}</dt>
              <dd>
                {c.has_password ? s.hasPassword : s.noPassword}
                {c.suspended_at ? (
                  <span className="block small">{s.suspendedAt(f.dateTime(c.suspended_at))}</span>
                ) : null}
              </dd>
            </dl>
          </section>
          <CustomerOrders data={data} />
          <CustomerSubscriptions data={data} />
          <CustomerInvoices data={data} />
        </>
      )}
    </div>
  );
}

function SectionHead({ id, title, shown, count }: { id: string; title: string; shown: number; count: number }) {
  const s = useDictionary(customersText);
  return (
    <div className="panel-head">
      <h2 id={id}>{title}</h2>
      {count > shown ? <p className="muted small">{s.newest(shown, count)}</p> : null}
    </div>
  );
}

function CustomerOrders({ data }: { data: Detail }) {
  const s = useDictionary(customersText);
  const f = useFormat();
  const { items, count } = data.orders;
  return (
    <section aria-labelledby="customer-orders-h" className="panel">
      <SectionHead id="customer-orders-h" title={s.orders} shown={items.length} count={count} />
      {items.length === 0 ? (
        <p className="muted">{s.none}</p>
      ) : (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{s.number}</th>
                <th scope="col">{s.date}</th>
                <th scope="col">{s.status}</th>
                <th scope="col" className="num">
                  {s.total}
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((o) => (
                <tr key={o.id}>
                  <th scope="row">
                    <Link to="/orders/$id" params={{ id: o.id }}>
                      {o.number}
                    </Link>
                    {o.is_test ? <span className="tag">{s.test}</span> : null}
                  </th>
                  <td>{f.dateTime(o.created_at)}</td>
                  <td>
                    <StatusBadge status={o.status} />
                  </td>
                  <td className="num">{f.money(o.total_cents, o.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {count > 0 ? (
        <p>
          <Link to="/orders" search={{ page: 1, limit: 25, q: data.customer.email }}>
            {s.allOrders(count)}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

function CustomerSubscriptions({ data }: { data: Detail }) {
  const s = useDictionary(customersText);
  const f = useFormat();
  const { items, count } = data.subscriptions;
  return (
    <section aria-labelledby="customer-subs-h" className="panel">
      <SectionHead id="customer-subs-h" title={s.subscriptions} shown={items.length} count={count} />
      {items.length === 0 ? (
        <p className="muted">{s.none}</p>
      ) : (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{s.plan}</th>
                <th scope="col">{s.status}</th>
                <th scope="col">{s.periodEnd}</th>
                <th scope="col" className="num">
                  {s.price}
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((a) => (
                <tr key={a.id}>
                  <th scope="row">
                    {a.interval_text}
                    <span className="muted block small">{a.id}</span>
                    {a.is_test ? <span className="tag">{s.test}</span> : null}
                  </th>
                  <td>{s.aboStatuses[a.status] ?? a.status}</td>
                  <td>{f.date(a.endet_am ?? a.current_period_end)}</td>
                  <td className="num">{f.money(a.price_cents, a.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function CustomerInvoices({ data }: { data: Detail }) {
  const s = useDictionary(customersText);
  const t = useT();
  const f = useFormat();
  const { items, count } = data.invoices;
  return (
    <section aria-labelledby="customer-invoices-h" className="panel">
      <SectionHead id="customer-invoices-h" title={s.invoices} shown={items.length} count={count} />
      {items.length === 0 ? (
        <p className="muted">{s.none}</p>
      ) : (
        <div className="table-wrap">
          <table className="data">
            <thead>
              <tr>
                <th scope="col">{s.number}</th>
                <th scope="col">{s.orders}</th>
                <th scope="col">{s.status}</th>
                <th scope="col">{s.date}</th>
                <th scope="col" className="num">
                  {s.total}
                </th>
                <th scope="col" className="num">
                  {s.paid}
                </th>
              </tr>
            </thead>
            <tbody>
              {items.map((i) => (
                <tr key={i.id}>
                  <th scope="row">{i.number ?? <span className="muted">{s.draft}</span>}</th>
                  <td>
                    <Link to="/orders/$id" params={{ id: i.order_id }}>
                      {i.order_number}
                    </Link>
                  </td>
                  <td>{s.invoiceStatuses[i.status] ?? i.status}</td>
                  <td>{i.issue_date ? f.date(i.issue_date) : t.common.none}</td>
                  <td className="num">{f.money(i.total_cents, i.currency)}</td>
                  <td className="num">{f.money(i.paid_cents, i.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
