/**
 * One vendor: its state (suspend / reactivate), and in sections chosen in the URL (`tab`, with the
 * section's page): overview (balances from the ledger, the commission rule and its change),
 * products, orders (only its lines), earnings (release), ledger, payouts and statements.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { useDictionary, useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import type { Paging } from '../../../../shared/list.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { Earnings } from '../earnings.js';
import { partnersText } from '../i18n.js';
import { Payouts } from '../payouts.js';
import { VENDOR_TABS, vendorRoute } from '../routes.js';
import { Balances, StatusBadge, useRefreshPartners } from '../shared.js';
import { VendorAnalytics } from './analytics.js';
import { Commission } from './commission.js';
import { VendorLedger, VendorOrders, VendorProducts } from './sections.js';
import { Statements } from './statements.js';

type Search = ReturnType<typeof vendorRoute.useSearch>;
export type VendorDetail = NonNullable<ReturnType<typeof useVendor>['data']>;

function useVendor(id: string) {
  return $api.useQuery('get', '/api/admin/vendors/{id}', { params: { path: { id } } });
}

export function VendorDetailPage() {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const { id } = vendorRoute.useParams();
  const search = vendorRoute.useSearch();
  const navigate = useNavigate({ from: vendorRoute.fullPath });
  const query = useVendor(id);
  const vendor = query.data;
  useTitle(vendor ? s.vendors.vendorTitle(vendor.name) : s.vendors.title);
  const tab = search.tab ?? 'overview';
  const onSearch = (next: Partial<Paging> & { status?: Search['status'] }) =>
    navigate({ search: (prev) => ({ ...prev, ...next }) });
  const paging = { page: search.page, limit: search.limit };
  return (
    <div className="page partner-page">
      <p>
        <Link to="/partners/vendors" search={{ page: 1, limit: 25 }}>
          ← {s.vendors.back}
        </Link>
      </p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {!vendor ? (
        query.isPending ? (
          <p className="muted">{t.common.loading}</p>
        ) : null
      ) : (
        <>
          <div className="page-head">
            <h1>{s.vendors.vendorTitle(vendor.name)}</h1>
            <StatusBadge status={vendor.status} label={s.vendors.statuses[vendor.status] ?? vendor.status} />
          </div>
          <VendorActions vendor={vendor} />
          <nav aria-label={s.tabs.label} className="partner-tabs">
            <ul>
              {VENDOR_TABS.map((key) => (
                <li key={key}>
                  <Link
                    to="/partners/vendors/$id"
                    params={{ id }}
                    search={{ tab: key === 'overview' ? undefined : key, page: 1, limit: search.limit }}
                    aria-current={key === tab ? 'page' : undefined}
                  >
                    {s.tabs[key]}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          {tab === 'overview' ? (
            <>
              <dl className="facts panel">
                <dt>{s.vendors.email}</dt>
                <dd>{vendor.email}</dd>
                <dt>{s.vendors.since}</dt>
                <dd>{vendor.invited_at ? f.dateTime(vendor.invited_at) : '—'}</dd>
                <dt>{s.vendors.accepted}</dt>
                <dd>{vendor.accepted_at ? f.dateTime(vendor.accepted_at) : s.vendors.notAccepted}</dd>
              </dl>
              <Balances balances={vendor.balances} />
              <VendorAnalytics
                vendorId={id}
                period={{ from: search.from, to: search.to }}
                onPeriod={(period) => navigate({ search: (prev) => ({ ...prev, ...period }) })}
              />
              <Commission vendor={vendor} />
            </>
          ) : null}
          {tab === 'products' ? <VendorProducts vendorId={id} paging={paging} onPaging={onSearch} /> : null}
          {tab === 'orders' ? <VendorOrders vendorId={id} paging={paging} onPaging={onSearch} /> : null}
          {tab === 'earnings' ? (
            <Earnings kind="vendor" partnerId={id} search={{ ...paging, status: search.status }} onSearch={onSearch} />
          ) : null}
          {tab === 'ledger' ? <VendorLedger vendorId={id} paging={paging} onPaging={onSearch} /> : null}
          {tab === 'payouts' ? (
            <>
              <Balances balances={vendor.balances} id="payout-balances-h" />
              <Payouts kind="vendor" partnerId={id} balances={vendor.balances} search={paging} onSearch={onSearch} />
            </>
          ) : null}
          {tab === 'statements' ? <Statements vendor={vendor} paging={paging} onPaging={onSearch} /> : null}
        </>
      )}
    </div>
  );
}

function VendorActions({ vendor }: { vendor: VendorDetail }) {
  const s = useDictionary(partnersText);
  const can = useCan();
  const message = useErrorMessage();
  const refresh = useRefreshPartners();
  const [open, setOpen] = useState(false);
  const patch = $api.useMutation('patch', '/api/admin/vendors/{id}', {
    onSuccess: async () => {
      setOpen(false);
      toast(s.vendors.saved);
      await refresh();
    },
    onError: (problem: ApiProblem) => {
      setOpen(false);
      toast(message(problem.code), 'error');
    },
  });
  if (!can('PATCH /api/admin/vendors/{id}') || vendor.status === 'invited') return null;
  const suspend = vendor.status === 'active';
  const label = suspend ? s.vendors.suspend : s.vendors.reactivate;
  return (
    <section aria-label={s.common.actions} className="actions">
      <button type="button" className={suspend ? 'danger' : undefined} onClick={() => setOpen(true)}>
        {label}
      </button>
      <Dialog
        open={open}
        title={label}
        onClose={() => setOpen(false)}
        confirm={{
          label,
          danger: suspend,
          busy: patch.isPending,
          onConfirm: () =>
            patch.mutate({
              params: { path: { id: vendor.id } },
              body: { status: suspend ? 'suspended' : 'active' },
            }),
        }}
      >
        <p>{suspend ? s.vendors.confirmSuspend(vendor.name) : s.vendors.confirmReactivate(vendor.name)}</p>
      </Dialog>
    </section>
  );
}
