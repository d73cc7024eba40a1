/**
 * One affiliate: invitation to the partner account, and in sections chosen in the URL (`tab`):
 * overview (referral link, balances from the ledger, referral stats, edit name / code / commission
 * / status), earnings (release) and payouts (mark paid, cancel). Every change said in a dialog.
 */
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import type { Paging } from '../../../../shared/list.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { Earnings } from '../earnings.js';
import { partnersText } from '../i18n.js';
import { Payouts } from '../payouts.js';
import { AFFILIATE_STATUSES, AFFILIATE_TABS, affiliateRoute } from '../routes.js';
import { Balances, numberFieldError, StatusBadge, useRefreshPartners } from '../shared.js';

type Search = ReturnType<typeof affiliateRoute.useSearch>;
type Affiliate = NonNullable<ReturnType<typeof useAffiliate>['data']>;

function useAffiliate(id: string) {
  return $api.useQuery('get', '/api/admin/affiliates/{id}', { params: { path: { id } } });
}

export function AffiliateDetailPage() {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const { id } = affiliateRoute.useParams();
  const search = affiliateRoute.useSearch();
  const navigate = useNavigate({ from: affiliateRoute.fullPath });
  const query = useAffiliate(id);
  const a = query.data;
  useTitle(a ? s.affiliates.affiliateTitle(a.name) : s.affiliates.title);
  const tab = search.tab ?? 'overview';
  const paging = { page: search.page, limit: search.limit };
  const onSearch = (next: Partial<Paging> & { status?: Search['status'] }) =>
    navigate({ search: (prev) => ({ ...prev, ...next }) });
  return (
    <div className="page partner-page">
      <p>
        <Link to="/partners/affiliates" search={{ page: 1, limit: 25 }}>
          ← {s.affiliates.back}
        </Link>
      </p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {!a ? (
        query.isPending ? (
          <p className="muted">{t.common.loading}</p>
        ) : null
      ) : (
        <>
          <div className="page-head">
            <h1>{s.affiliates.affiliateTitle(a.name)}</h1>
            <StatusBadge status={a.status} label={s.affiliates.statuses[a.status] ?? a.status} />
          </div>
          <Invite affiliate={a} />
          <nav aria-label={s.tabs.label} className="partner-tabs">
            <ul>
              {AFFILIATE_TABS.map((key) => (
                <li key={key}>
                  <Link
                    to="/partners/affiliates/$id"
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
                <dt>{s.affiliates.email}</dt>
                <dd>{a.email}</dd>
                <dt>{s.affiliates.code}</dt>
                <dd className="mono">{a.code}</dd>
                <dt>{s.affiliates.percent}</dt>
                <dd>{f.percent(a.commission_percent / 100)}</dd>
                <dt>{s.affiliates.link}</dt>
                <dd className="mono wrap">{a.referral_link ?? '—'}</dd>
                <dt>{s.affiliates.portal}</dt>
                <dd>{s.affiliates.portals[a.portal] ?? a.portal}</dd>
              </dl>
              <Balances balances={a.balances} />
              <section aria-labelledby="stats-h" className="panel">
                <h2 id="stats-h">
                  {s.affiliates.stats}: {f.number(a.stats.referred_orders)}
                </h2>
                {a.stats.per_currency.length > 0 ? (
                  <div className="table-wrap">
                    <table className="data">
                      <caption className="visually-hidden">{s.affiliates.stats}</caption>
                      <thead>
                        <tr>
                          <th scope="col">{s.balances.currency}</th>
                          <th scope="col" className="num">
                            {s.affiliates.stats}
                          </th>
                          <th scope="col" className="num">
                            {s.affiliates.netSales}
                          </th>
                          <th scope="col" className="num">
                            {s.affiliates.earned}
                          </th>
                        </tr>
                      </thead>
                      <tbody>
                        {a.stats.per_currency.map((c) => (
                          <tr key={c.currency}>
                            <th scope="row">{c.currency}</th>
                            <td className="num">{f.number(c.referred_orders)}</td>
                            <td className="num">{f.money(c.net_sales_cents, c.currency)}</td>
                            <td className="num">{f.money(c.earned_cents, c.currency)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                ) : null}
              </section>
              <Edit affiliate={a} key={a.updated_at} />
            </>
          ) : null}
          {tab === 'earnings' ? (
            <Earnings
              kind="affiliate"
              partnerId={id}
              search={{ ...paging, status: search.status }}
              onSearch={onSearch}
            />
          ) : null}
          {tab === 'payouts' ? (
            <>
              <Balances balances={a.balances} id="payout-balances-h" />
              <Payouts kind="affiliate" partnerId={id} balances={a.balances} search={paging} onSearch={onSearch} />
            </>
          ) : null}
        </>
      )}
    </div>
  );
}

function Invite({ affiliate }: { affiliate: Affiliate }) {
  const s = useDictionary(partnersText);
  const can = useCan();
  const message = useErrorMessage();
  const refresh = useRefreshPartners();
  const [open, setOpen] = useState(false);
  const invite = $api.useMutation('post', '/api/admin/affiliates/invite', {
    onSuccess: async () => {
      setOpen(false);
      toast(s.affiliates.invitedMsg(affiliate.email));
      await refresh();
    },
    onError: (problem: ApiProblem) => {
      setOpen(false);
      toast(message(problem.code), 'error');
    },
  });
  if (affiliate.portal === 'active' || !can('POST /api/admin/affiliates/invite')) return null;
  return (
    <section aria-label={s.common.actions} className="actions">
      <button type="button" onClick={() => setOpen(true)}>
        {s.affiliates.invite}
      </button>
      <Dialog
        open={open}
        title={s.affiliates.invite}
        onClose={() => setOpen(false)}
        confirm={{
          label: s.affiliates.invite,
          busy: invite.isPending,
          onConfirm: () => invite.mutate({ body: { email: affiliate.email } }),
        }}
      >
        <p>{s.affiliates.confirmInvite(affiliate.email)}</p>
      </Dialog>
    </section>
  );
}

interface Changes {
  name?: string;
  code?: string;
  commission_percent?: number;
  status?: (typeof AFFILIATE_STATUSES)[number];
}

function Edit({ affiliate }: { affiliate: Affiliate }) {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  const refresh = useRefreshPartners();
  const [pending, setPending] = useState<Changes | null>(null);
  const patch = $api.useMutation('patch', '/api/admin/affiliates/{id}', {
    onSuccess: async () => {
      setPending(null);
      toast(s.affiliates.savedMsg);
      await refresh();
    },
    onError: () => setPending(null),
  });
  if (!can('PATCH /api/admin/affiliates/{id}')) return null;
  const problem = patch.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['name', 'code', 'commission_percent', 'status'], t);
  if (problem?.code === 'code_taken') errors.fields.code = message('code_taken');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    patch.reset();
    const changes: Changes = {};
    const name = v.name?.trim() ?? '';
    if (name !== affiliate.name) changes.name = name;
    const code = v.code?.trim() ?? '';
    if (code !== affiliate.code) changes.code = code;
    const percentText = (v.percent ?? '').trim().replace(',', '.');
    const percent = percentText === '' ? Number.NaN : Number(percentText);
    if (percent !== affiliate.commission_percent) changes.commission_percent = percent;
    if (v.status && v.status !== affiliate.status) changes.status = v.status as Changes['status'];
    setPending(changes);
  };
  const lines = pending
    ? [
        pending.name !== undefined ? s.affiliates.change(s.affiliates.name, affiliate.name, pending.name || '—') : null,
        pending.code !== undefined ? s.affiliates.change(s.affiliates.code, affiliate.code, pending.code || '—') : null,
        pending.commission_percent !== undefined
          ? s.affiliates.change(
              s.affiliates.percent,
              f.percent(affiliate.commission_percent / 100),
              Number.isFinite(pending.commission_percent) ? f.percent(pending.commission_percent / 100) : '—',
            )
          : null,
        pending.status !== undefined
          ? s.affiliates.change(
              s.affiliates.status,
              s.affiliates.statuses[affiliate.status] ?? affiliate.status,
              s.affiliates.statuses[pending.status] ?? pending.status,
            )
          : null,
      ].filter((l): l is string => l !== null)
    : [];
  return (
    <section aria-labelledby="edit-h" className="panel">
      <h2 id="edit-h">{s.affiliates.edit}</h2>
      <form className="form-grid partner-edit" onSubmit={onSubmit} noValidate>
        <Field
          label={s.affiliates.name}
          name="name"
          defaultValue={affiliate.name}
          maxLength={200}
          error={errors.fields.name}
        />
        <Field
          label={s.affiliates.code}
          name="code"
          defaultValue={affiliate.code}
          maxLength={32}
          autoComplete="off"
          error={errors.fields.code}
        />
        <Field
          label={s.affiliates.percent}
          name="percent"
          inputMode="decimal"
          defaultValue={f.number(affiliate.commission_percent)}
          hint={s.affiliates.percentHint}
          autoComplete="off"
          error={numberFieldError(errors.fields.commission_percent, s.common.percentRange)}
        />
        <div className="field">
          <label htmlFor="affiliate-status">{s.affiliates.status}</label>
          <select id="affiliate-status" name="status" defaultValue={affiliate.status}>
            {AFFILIATE_STATUSES.map((st) => (
              <option key={st} value={st}>
                {s.affiliates.statuses[st]}
              </option>
            ))}
          </select>
        </div>
        <div className="filter-actions">
          <button type="submit" className="primary">
            {s.affiliates.saveChanges}
          </button>
        </div>
      </form>
      {problem && !Object.keys(errors.fields).length ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <Dialog
        open={pending !== null}
        title={s.affiliates.saveChanges}
        onClose={() => setPending(null)}
        confirm={
          lines.length > 0
            ? {
                label: s.affiliates.saveChanges,
                busy: patch.isPending,
                onConfirm: () => {
                  if (pending) patch.mutate({ params: { path: { id: affiliate.id } }, body: pending });
                },
              }
            : undefined
        }
      >
        {lines.length === 0 ? (
          <p>{s.affiliates.noChanges}</p>
        ) : (
          <>
            <ul>
              {lines.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
            <p>{s.affiliates.confirmEdit}</p>
          </>
        )}
      </Dialog>
    </section>
  );
}
