/** A vendor's products, orders (its lines only) and ledger: read-only lists paged by the server. */
import { keepPreviousData } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging, serverPaging } from '../../../../shared/list.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { ScrollRegion } from '../../../../shared/widgets/ScrollRegion.js';
import { partnersText } from '../i18n.js';

interface SectionProps {
  vendorId: string;
  paging: Paging;
  onPaging: (p: Paging) => void;
}

function ListPanel(props: {
  id: string;
  title: string;
  note?: string;
  error: unknown;
  fetching: boolean;
  count: number | undefined;
  empty: string;
  paging: Paging;
  onPaging: (p: Paging) => void;
  head: ReactNode;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={props.id} className="panel">
      <h2 id={props.id}>{props.title}</h2>
      {props.note ? <p className="muted small">{props.note}</p> : null}
      {props.error ? <ProblemAlert problem={props.error as ApiProblem} /> : null}
      <ScrollRegion label={props.title} busy={props.fetching}>
        <table className="data">
          <caption className="visually-hidden">{props.title}</caption>
          <thead>{props.head}</thead>
          <tbody>{props.children}</tbody>
        </table>
        {props.count === 0 ? <p className="empty">{props.empty}</p> : null}
      </ScrollRegion>
      {props.count !== undefined ? <Pager count={props.count} paging={props.paging} onChange={props.onPaging} /> : null}
    </section>
  );
}

export function VendorProducts({ vendorId, paging, onPaging }: SectionProps) {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const q = $api.useQuery(
    'get',
    '/api/admin/vendors/{id}/products',
    { params: { path: { id: vendorId }, query: serverPaging(paging) } },
    { placeholderData: keepPreviousData },
  );
  return (
    <ListPanel
      id="vproducts-h"
      title={s.products.title}
      error={q.error}
      fetching={q.isFetching}
      count={q.data?.count}
      empty={s.products.none}
      paging={paging}
      onPaging={onPaging}
      head={
        <tr>
          <th scope="col">{s.products.name}</th>
          <th scope="col">{s.products.sku}</th>
          <th scope="col">{s.products.status}</th>
          <th scope="col" className="num">
            {s.products.price}
          </th>
          <th scope="col" className="num">
            {s.products.stock}
          </th>
        </tr>
      }
    >
      {q.data?.products.map((p) => (
        <tr key={p.id}>
          <td>
            <Link to="/products/$id" params={{ id: p.id }}>
              {p.name}
            </Link>
            {p.is_digital ? <span className="tag">{s.products.digital}</span> : null}
          </td>
          <td className="mono">{p.sku ?? '—'}</td>
          <td>{(t.products.statuses as Record<string, string>)[p.status] ?? p.status}</td>
          <td className="num">{f.money(p.base_price_cents, 'EUR')}</td>
          <td className="num">{p.stock === null ? s.products.untracked : f.number(p.stock)}</td>
        </tr>
      ))}
    </ListPanel>
  );
}

export function VendorOrders({ vendorId, paging, onPaging }: SectionProps) {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const q = $api.useQuery(
    'get',
    '/api/admin/vendors/{id}/orders',
    { params: { path: { id: vendorId }, query: serverPaging(paging) } },
    { placeholderData: keepPreviousData },
  );
  return (
    <ListPanel
      id="vorders-h"
      title={s.orders.title}
      error={q.error}
      fetching={q.isFetching}
      count={q.data?.count}
      empty={s.orders.none}
      paging={paging}
      onPaging={onPaging}
      head={
        <tr>
          <th scope="col">{s.orders.number}</th>
          <th scope="col">{s.orders.date}</th>
          <th scope="col">{s.orders.status}</th>
          <th scope="col">{s.orders.lines}</th>
          <th scope="col" className="num">
            {s.orders.total}
          </th>
        </tr>
      }
    >
      {q.data?.orders.map((o) => (
        <tr key={o.id}>
          <td>
            <Link to="/orders/$id" params={{ id: o.id }}>
              {o.number}
            </Link>
          </td>
          <td>{o.paid_at ? f.dateTime(o.paid_at) : '—'}</td>
          <td>{(t.orders.statuses as Record<string, string>)[o.status] ?? o.status}</td>
          <td>
            <ul className="plain-list compact">
              {o.lines.map((l) => (
                <li key={l.id}>
                  {l.quantity} × {l.name}
                </li>
              ))}
            </ul>
          </td>
          <td className="num">{f.money(o.vendor_total_cents, o.currency)}</td>
        </tr>
      ))}
    </ListPanel>
  );
}

export function VendorLedger({ vendorId, paging, onPaging }: SectionProps) {
  const s = useDictionary(partnersText);
  const f = useFormat();
  const q = $api.useQuery(
    'get',
    '/api/admin/vendors/{id}/ledger',
    { params: { path: { id: vendorId }, query: serverPaging(paging) } },
    { placeholderData: keepPreviousData },
  );
  return (
    <ListPanel
      id="vledger-h"
      title={s.ledger.title}
      note={s.ledger.oldestFirst}
      error={q.error}
      fetching={q.isFetching}
      count={q.data?.count}
      empty={s.ledger.none}
      paging={paging}
      onPaging={onPaging}
      head={
        <tr>
          <th scope="col">{s.ledger.date}</th>
          <th scope="col">{s.ledger.kind}</th>
          <th scope="col">{s.ledger.postings}</th>
          <th scope="col">{s.ledger.order}</th>
        </tr>
      }
    >
      {q.data?.entries.map((e) => (
        <tr key={e.id}>
          <td>{f.dateTime(e.occurred_at)}</td>
          <td>{s.ledger.kinds[e.kind] ?? e.kind}</td>
          <td>
            <ul className="plain-list compact">
              {e.postings.map((p) => (
                <li key={p.account}>
                  {s.ledger.accounts[p.account] ?? p.account}: {f.money(p.amount_cents, e.currency)}
                </li>
              ))}
            </ul>
          </td>
          <td>
            {e.order_id ? (
              <Link to="/orders/$id" params={{ id: e.order_id }} className="mono">
                {e.order_id.slice(-8)}
              </Link>
            ) : (
              '—'
            )}
          </td>
        </tr>
      ))}
    </ListPanel>
  );
}
