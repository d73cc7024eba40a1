/** Small parts the portal pages share: the balance table, a list's paging in the URL, a query's waiting and failure. */
import type { ReactNode } from 'react';
import type { ApiProblem } from '../shared/api.js';
import { useFormat } from '../shared/format.js';
import { useDictionary } from '../shared/i18n/index.js';
import { Pager, type Paging } from '../shared/list.js';
import { ProblemAlert } from '../shared/widgets/ProblemAlert.js';
import { portalText } from './i18n.js';
import { go, type Search, usePortalPath } from './nav.js';

export interface Balance {
  currency: string;
  pending_cents: number;
  available_cents: number;
  in_payout_cents: number;
  paid_out_cents: number;
  earned_cents: number;
}

/** The partner's balance per currency, as the ledger sums it (the page adds nothing). */
export function Balances({ balances, headingId }: { balances: Balance[]; headingId?: string }) {
  const s = useDictionary(portalText);
  const f = useFormat();
  if (balances.length === 0) return <p className="muted">{s.noBalance}</p>;
  return (
    <div className="table-wrap">
      <table className="data" aria-labelledby={headingId}>
        <caption className="visually-hidden">{s.balanceCaption}</caption>
        <thead>
          <tr>
            <th scope="col">{s.currency}</th>
            <th scope="col" className="num">
              {s.pending}
            </th>
            <th scope="col" className="num">
              {s.available}
            </th>
            <th scope="col" className="num">
              {s.inPayout}
            </th>
            <th scope="col" className="num">
              {s.paidOut}
            </th>
            <th scope="col" className="num">
              {s.earnedTotal}
            </th>
          </tr>
        </thead>
        <tbody>
          {balances.map((b) => (
            <tr key={b.currency}>
              <th scope="row">{b.currency}</th>
              <td className="num">{f.money(b.pending_cents, b.currency)}</td>
              <td className="num">{f.money(b.available_cents, b.currency)}</td>
              <td className="num">{f.money(b.in_payout_cents, b.currency)}</td>
              <td className="num">{f.money(b.paid_out_cents, b.currency)}</td>
              <td className="num">{f.money(b.earned_cents, b.currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Waiting, failed, or the content once the data is there. */
export function Loaded<T>({
  query,
  children,
}: {
  query: { data?: T | undefined; error: unknown; isPending: boolean };
  children: (data: T) => ReactNode;
}) {
  const s = useDictionary(portalText);
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.error) return <ProblemAlert problem={query.error as ApiProblem} />;
  return <p aria-live="polite">{s.loading}</p>;
}

/** The pager of a list page: changes page and size in the URL, keeping the filters. */
export function UrlPager<S extends Paging>({ count, search }: { count: number; search: S }) {
  const path = usePortalPath();
  return <Pager count={count} paging={search} onChange={(p) => go(path, { ...(search as unknown as Search), ...p })} />;
}

/** Applies a filter form: its non-empty values replace the URL's filters, back to page 1. */
export function applyFilters(path: string, form: HTMLFormElement, keep: Search): void {
  const values: Search = { ...keep, page: 1 };
  for (const [key, value] of new FormData(form)) if (typeof value === 'string') values[key] = value || undefined;
  go(path, values);
}

/** A status as a small label. */
export function Badge({ children, kind }: { children: ReactNode; kind: string }) {
  return <span className={`badge badge-${kind}`}>{children}</span>;
}

export interface Payout {
  id: string;
  currency: string;
  amount_cents: number;
  status: string;
  reference: string | null;
  created_at: string;
  paid_at: string | null;
}

/** Payouts of the partner: when, how much, where it stands, the transfer reference. */
export function PayoutTable({ payouts, labelledBy }: { payouts: Payout[]; labelledBy: string }) {
  const s = useDictionary(portalText);
  const f = useFormat();
  return (
    <div className="table-wrap">
      <table className="data" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">{s.payoutCreated}</th>
            <th scope="col" className="num">
              {s.amount}
            </th>
            <th scope="col">{s.status}</th>
            <th scope="col">{s.payoutReference}</th>
            <th scope="col">{s.payoutPaidAt}</th>
          </tr>
        </thead>
        <tbody>
          {payouts.map((p) => (
            <tr key={p.id}>
              <td>{f.dateTime(p.created_at)}</td>
              <td className="num">{f.money(p.amount_cents, p.currency)}</td>
              <td>
                <Badge kind={p.status}>{s.payoutStatus[p.status] ?? p.status}</Badge>
              </td>
              <td className="mono">{p.reference ?? s.none}</td>
              <td>{p.paid_at ? f.date(p.paid_at) : s.none}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
