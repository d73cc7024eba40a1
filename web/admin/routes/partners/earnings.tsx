/**
 * A partner's earnings (vendor or affiliate): filtered by status and paged by the server (both in
 * the URL), each pending earning releasable on its own (exactly that one, after a dialog naming
 * its amount), and "release due" for everything past the hold period. Amounts are the API's.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { $api, type ApiProblem } from '../../../shared/api.js';
import { useCan } from '../../../shared/auth.js';
import { useFormat } from '../../../shared/format.js';
import { useDictionary, useErrorMessage } from '../../../shared/i18n/index.js';
import { Pager, type Paging, serverPaging } from '../../../shared/list.js';
import { Dialog } from '../../../shared/widgets/Dialog.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../shared/widgets/Toasts.js';
import { partnersText } from './i18n.js';
import { StatusBadge, useRefreshPartners } from './shared.js';

export type PartnerKind = 'vendor' | 'affiliate';

interface EarningRow {
  id: string;
  order_id: string;
  currency: string;
  gross_cents: number;
  net_cents: number;
  commission_cents: number;
  amount_cents: number;
  reversed_cents: number;
  rate_percent: number;
  status: string;
  earned_at: string;
}

export interface EarningsProps {
  kind: PartnerKind;
  partnerId: string;
  search: Paging & { status?: 'pending' | 'released' | undefined };
  onSearch: (next: Partial<Paging> & { status?: 'pending' | 'released' | undefined }) => void;
}

export function Earnings({ kind, partnerId, search, onSearch }: EarningsProps) {
  const s = useDictionary(partnersText);
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  const refresh = useRefreshPartners();
  const [releasing, setReleasing] = useState<EarningRow | 'due' | null>(null);
  const base = { ...serverPaging(search), status: search.status };
  const vendorQuery = $api.useQuery(
    'get',
    '/api/admin/vendor-earnings',
    { params: { query: { ...base, vendor_id: partnerId } } },
    { enabled: kind === 'vendor', placeholderData: keepPreviousData },
  );
  const affiliateQuery = $api.useQuery(
    'get',
    '/api/admin/affiliate-earnings',
    { params: { query: { ...base, affiliate_id: partnerId } } },
    { enabled: kind === 'affiliate', placeholderData: keepPreviousData },
  );
  const query = kind === 'vendor' ? vendorQuery : affiliateQuery;
  const canRelease =
    kind === 'vendor'
      ? can('POST /api/admin/vendor-earnings/release')
      : can('POST /api/admin/affiliate-earnings/release');
  const settings = $api.useQuery('get', '/api/admin/settings/partners', {}, { enabled: canRelease });
  const holdDays = kind === 'vendor' ? settings.data?.vendor_hold_days : settings.data?.affiliate_hold_days;

  const options = {
    onSuccess: async (r: { released: number; amounts: { currency: string; amount_cents: number }[] }) => {
      setReleasing(null);
      toast(s.earnings.released(r.released, r.amounts.map((a) => f.money(a.amount_cents, a.currency)).join(', ')));
      await refresh();
    },
    onError: (problem: ApiProblem) => {
      setReleasing(null);
      toast(message(problem.code), 'error');
    },
  };
  const releaseVendor = $api.useMutation('post', '/api/admin/vendor-earnings/release', options);
  const releaseAffiliate = $api.useMutation('post', '/api/admin/affiliate-earnings/release', options);
  const busy = releaseVendor.isPending || releaseAffiliate.isPending;
  const release = (target: EarningRow | 'due') => {
    const ids = target === 'due' ? undefined : [target.id];
    if (kind === 'vendor') {
      releaseVendor.mutate({ body: ids ? { earning_ids: ids } : { vendor_id: partnerId } });
    } else {
      releaseAffiliate.mutate({ body: ids ? { earning_ids: ids } : { affiliate_id: partnerId } });
    }
  };

  const data = query.data;
  const rows: EarningRow[] = data?.earnings ?? [];
  const releasable = canRelease && rows.some((e) => e.status === 'pending');
  return (
    <section aria-labelledby="earnings-h" className="panel">
      <div className="panel-head">
        <h2 id="earnings-h">{s.earnings.title}</h2>
        {canRelease && holdDays !== undefined ? (
          <button type="button" onClick={() => setReleasing('due')}>
            {s.earnings.releaseDue}
          </button>
        ) : null}
      </div>
      <div className="filters partner-filters">
        <div className="field">
          <label htmlFor="earnings-status">{s.earnings.filterStatus}</label>
          <select
            id="earnings-status"
            value={search.status ?? ''}
            onChange={(e) =>
              onSearch({ page: 1, status: (e.currentTarget.value || undefined) as EarningsProps['search']['status'] })
            }
          >
            <option value="">{s.earnings.anyStatus}</option>
            <option value="pending">{s.earnings.statuses.pending}</option>
            <option value="released">{s.earnings.statuses.released}</option>
          </select>
        </div>
      </div>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{s.earnings.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.earnings.date}</th>
              <th scope="col">{s.earnings.order}</th>
              <th scope="col" className="num">
                {kind === 'vendor' ? s.earnings.gross : s.earnings.net}
              </th>
              <th scope="col" className="num">
                {kind === 'vendor' ? s.earnings.commission : s.earnings.rate}
              </th>
              <th scope="col" className="num">
                {s.earnings.amount}
              </th>
              <th scope="col" className="num">
                {s.earnings.reversed}
              </th>
              <th scope="col">{s.earnings.status}</th>
              {releasable ? <th scope="col">{s.common.actions}</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((e) => (
              <tr key={e.id}>
                <td>{f.dateTime(e.earned_at)}</td>
                <td>
                  <Link to="/orders/$id" params={{ id: e.order_id }} className="mono">
                    {e.order_id.slice(-8)}
                  </Link>
                </td>
                <td className="num">
                  {kind === 'vendor' ? f.money(e.gross_cents, e.currency) : f.money(e.net_cents, e.currency)}
                </td>
                <td className="num">
                  {kind === 'vendor' ? f.money(e.commission_cents, e.currency) : f.percent(e.rate_percent / 100)}
                </td>
                <td className="num">{f.money(e.amount_cents, e.currency)}</td>
                <td className="num">{e.reversed_cents ? f.money(e.reversed_cents, e.currency) : '—'}</td>
                <td>
                  <StatusBadge status={e.status} label={s.earnings.statuses[e.status] ?? e.status} />
                </td>
                {releasable ? (
                  <td>
                    {e.status === 'pending' ? (
                      <button
                        type="button"
                        className="small-button"
                        aria-label={s.earnings.releaseOne(f.money(e.amount_cents, e.currency))}
                        onClick={() => setReleasing(e)}
                      >
                        {s.earnings.release}
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {data && rows.length === 0 ? <p className="empty">{s.earnings.none}</p> : null}
      </div>
      {data ? <Pager count={data.count} paging={search} onChange={(p) => onSearch(p)} /> : null}
      <Dialog
        open={releasing !== null}
        title={
          releasing === 'due'
            ? s.earnings.releaseDue
            : releasing
              ? s.earnings.releaseOne(f.money(releasing.amount_cents, releasing.currency))
              : ''
        }
        onClose={() => setReleasing(null)}
        confirm={{
          label: s.earnings.release,
          busy,
          onConfirm: () => {
            if (releasing) release(releasing);
          },
        }}
      >
        <p>
          {releasing === 'due'
            ? s.earnings.confirmReleaseDue(holdDays ?? 0)
            : releasing
              ? s.earnings.confirmReleaseOne(f.money(releasing.amount_cents, releasing.currency))
              : null}
        </p>
      </Dialog>
    </section>
  );
}
