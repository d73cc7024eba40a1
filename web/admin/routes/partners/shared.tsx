/**
 * What the vendor and affiliate screens share: the balances table (every amount from the API's
 * ledger sums, nothing added up here), status badges, the refresh after a change, and reading a
 * typed amount (in the currency's units) as integer cents.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useFormat } from '../../../shared/format.js';
import { useDictionary } from '../../../shared/i18n/index.js';
import { partnersText } from './i18n.js';

/** A balance per currency as GET /api/admin/vendors/{id} and /affiliates/{id} give it. */
export interface Balance {
  currency: string;
  pending_cents: number;
  available_cents: number;
  in_payout_cents: number;
  paid_out_cents: number;
  earned_cents: number;
  owed_cents: number;
}

/** The partner's balances per currency, as the ledger gives them. */
export function Balances({ balances, id = 'balances-h' }: { balances: Balance[]; id?: string }) {
  const s = useDictionary(partnersText);
  const f = useFormat();
  return (
    <section aria-labelledby={id} className="panel">
      <h2 id={id}>{s.balances.title}</h2>
      {balances.length === 0 ? (
        <p className="muted">{s.balances.none}</p>
      ) : (
        <div className="table-wrap">
          <table className="data balances">
            <thead>
              <tr>
                <th scope="col">{s.balances.currency}</th>
                <th scope="col" className="num">
                  {s.balances.earned}
                </th>
                <th scope="col" className="num">
                  {s.balances.pending}
                </th>
                <th scope="col" className="num">
                  {s.balances.available}
                </th>
                <th scope="col" className="num">
                  {s.balances.inPayout}
                </th>
                <th scope="col" className="num">
                  {s.balances.paidOut}
                </th>
                <th scope="col" className="num">
                  {s.balances.owed}
                </th>
              </tr>
            </thead>
            <tbody>
              {balances.map((b) => (
                <tr key={b.currency}>
                  <th scope="row">{b.currency}</th>
                  <td className="num" data-balance="earned">
                    {f.money(b.earned_cents, b.currency)}
                  </td>
                  <td className="num">{f.money(b.pending_cents, b.currency)}</td>
                  <td className="num" data-balance="available">
                    {f.money(b.available_cents, b.currency)}
                  </td>
                  <td className="num">{f.money(b.in_payout_cents, b.currency)}</td>
                  <td className="num">{f.money(b.paid_out_cents, b.currency)}</td>
                  <td className="num" data-balance="owed">
                    {f.money(b.owed_cents, b.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="muted small">{s.balances.explain}</p>
    </section>
  );
}

const BADGE: Record<string, string> = {
  active: 'badge-fulfilled',
  released: 'badge-fulfilled',
  paid: 'badge-fulfilled',
  final: 'badge-fulfilled',
  invited: 'badge-paid',
  processing: 'badge-paid',
  pending: 'badge-pending_payment',
  draft: 'badge-pending_payment',
  paused: 'badge-pending_payment',
  suspended: 'badge-cancelled',
  blocked: 'badge-cancelled',
  cancelled: 'badge-cancelled',
};

export function StatusBadge({ status, label }: { status: string; label: string }) {
  return <span className={`badge ${BADGE[status] ?? ''}`}>{label}</span>;
}

/** After any partner change: every partner read (lists, details, earnings, ledger, payouts, statements). */
export function useRefreshPartners() {
  const queryClient = useQueryClient();
  return () =>
    queryClient.invalidateQueries({
      predicate: (q) => {
        const path = q.queryKey[1];
        return (
          typeof path === 'string' && (path.startsWith('/api/admin/vendor') || path.startsWith('/api/admin/affiliate'))
        );
      },
    });
}

/**
 * A typed amount in the currency's units ("120,50", "120.50", "1.200,50") as integer cents;
 * empty → undefined; not a number → NaN (the API then names the field). Only units are converted:
 * what may be paid out is the server's decision.
 */
export function toCents(text: string | undefined): number | undefined {
  const raw = (text ?? '').trim().replace(/\s/g, '');
  if (raw === '') return undefined;
  // the last separator followed by one or two digits is the decimal one
  const m = /^(\d{1,3}(?:[.,]?\d{3})*|\d+)(?:[.,](\d{1,2}))?$/.exec(raw);
  if (!m?.[1]) return Number.NaN;
  const units = Number(m[1].replace(/[.,]/g, ''));
  const cents = Number((m[2] ?? '0').padEnd(2, '0'));
  return units * 100 + cents;
}

/**
 * The server's wording for a number field (JSON Schema, English: "must be <= 100", "must be
 * integer", "must be number") replaced by the page's own sentence for that field.
 */
export function numberFieldError(message: string | undefined, text: string): string | undefined {
  if (!message) return undefined;
  return /must be/.test(message) ? text : message;
}
