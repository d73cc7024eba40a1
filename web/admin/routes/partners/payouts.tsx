/**
 * A partner's payouts: vendors get "create" (a part or all of the available balance), "start
 * processing", "mark as paid" (with the transfer reference) and "cancel"; affiliates request their
 * payouts in their portal, the shop marks them paid or cancels them. Every step in a dialog naming
 * the amount; which step is possible is the payout's state (the server refuses the others).
 */
import { keepPreviousData } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { $api, type ApiProblem } from '../../../shared/api.js';
import { useCan } from '../../../shared/auth.js';
import { useFormat } from '../../../shared/format.js';
import { fieldErrors, formValues } from '../../../shared/forms.js';
import { useDictionary, useErrorMessage, useT } from '../../../shared/i18n/index.js';
import { Pager, type Paging, serverPaging } from '../../../shared/list.js';
import { Dialog } from '../../../shared/widgets/Dialog.js';
import { Field } from '../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../shared/widgets/Toasts.js';
import type { PartnerKind } from './earnings.js';
import { partnersText } from './i18n.js';
import { type Balance, numberFieldError, StatusBadge, toCents, useRefreshPartners } from './shared.js';

interface PayoutRow {
  id: string;
  currency: string;
  amount_cents: number;
  status: 'pending' | 'processing' | 'paid' | 'cancelled';
  requested_by: string;
  reference: string | null;
  note: string | null;
  created_at: string;
  paid_at: string | null;
}

type Step = 'process' | 'mark-paid' | 'cancel';

export interface PayoutsProps {
  kind: PartnerKind;
  partnerId: string;
  balances: Balance[];
  search: Paging;
  onSearch: (next: Paging) => void;
}

export function Payouts({ kind, partnerId, balances, search, onSearch }: PayoutsProps) {
  const s = useDictionary(partnersText);
  const f = useFormat();
  const can = useCan();
  const query = { ...serverPaging(search) };
  const vendorQuery = $api.useQuery(
    'get',
    '/api/admin/vendor-payouts',
    { params: { query: { ...query, vendor_id: partnerId } } },
    { enabled: kind === 'vendor', placeholderData: keepPreviousData },
  );
  const affiliateQuery = $api.useQuery(
    'get',
    '/api/admin/affiliate-payouts',
    { params: { query: { ...query, affiliate_id: partnerId } } },
    { enabled: kind === 'affiliate', placeholderData: keepPreviousData },
  );
  const list = kind === 'vendor' ? vendorQuery : affiliateQuery;
  const rows: PayoutRow[] = list.data?.payouts ?? [];
  const [step, setStep] = useState<{ payout: PayoutRow; step: Step } | null>(null);

  const steps = (p: PayoutRow): Step[] => {
    const out: Step[] = [];
    if (kind === 'vendor') {
      if (p.status === 'pending' && can('POST /api/admin/vendor-payouts/{id}/process')) out.push('process');
      if (p.status === 'processing' && can('POST /api/admin/vendor-payouts/{id}/mark-paid')) out.push('mark-paid');
      if ((p.status === 'pending' || p.status === 'processing') && can('POST /api/admin/vendor-payouts/{id}/cancel'))
        out.push('cancel');
    } else {
      if (
        (p.status === 'pending' || p.status === 'processing') &&
        can('POST /api/admin/affiliate-payouts/{id}/mark-paid')
      )
        out.push('mark-paid');
      if ((p.status === 'pending' || p.status === 'processing') && can('POST /api/admin/affiliate-payouts/{id}/cancel'))
        out.push('cancel');
    }
    return out;
  };
  const label = (st: Step) =>
    st === 'process' ? s.payouts.process : st === 'mark-paid' ? s.payouts.markPaid : s.payouts.cancel;
  const canRead =
    kind === 'vendor' ? can('GET /api/admin/vendor-payouts/{id}') : can('GET /api/admin/affiliate-payouts/{id}');
  const anyActions = canRead || rows.some((p) => steps(p).length > 0);
  const [detail, setDetail] = useState<PayoutRow | null>(null);

  return (
    <section aria-labelledby="payouts-h" className="panel">
      <h2 id="payouts-h">{s.payouts.title}</h2>
      {kind === 'vendor' && can('POST /api/admin/vendor-payouts') ? (
        <CreatePayout vendorId={partnerId} balances={balances} />
      ) : null}
      {list.error ? <ProblemAlert problem={list.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={list.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{s.payouts.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.payouts.created}</th>
              <th scope="col" className="num">
                {s.payouts.amount}
              </th>
              <th scope="col">{s.payouts.status}</th>
              <th scope="col">{s.payouts.reference}</th>
              {anyActions ? <th scope="col">{s.common.actions}</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.id}>
                <td>
                  {f.dateTime(p.created_at)}
                  <br />
                  <span className="muted small">{s.payouts.requestedBy[p.requested_by] ?? p.requested_by}</span>
                </td>
                <td className="num">{f.money(p.amount_cents, p.currency)}</td>
                <td>
                  <StatusBadge status={p.status} label={s.payouts.statuses[p.status] ?? p.status} />
                  {p.paid_at ? <span className="muted small"> {f.date(p.paid_at)}</span> : null}
                </td>
                <td>
                  {p.reference ?? '—'}
                  {p.note ? <div className="muted small">{p.note}</div> : null}
                </td>
                {anyActions ? (
                  <td>
                    <div className="row-actions">
                      {canRead ? (
                        <button
                          type="button"
                          className="small-button"
                          aria-label={s.payoutDetail.openOne(f.money(p.amount_cents, p.currency))}
                          onClick={() => setDetail(p)}
                        >
                          {s.payoutDetail.open}
                        </button>
                      ) : null}
                      {steps(p).map((st) => (
                        <button
                          key={st}
                          type="button"
                          className={st === 'cancel' ? 'small-button danger' : 'small-button'}
                          onClick={() => setStep({ payout: p, step: st })}
                        >
                          {label(st)}
                        </button>
                      ))}
                    </div>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {list.data && rows.length === 0 ? <p className="empty">{s.payouts.none}</p> : null}
      </div>
      {list.data ? <Pager count={list.data.count} paging={search} onChange={onSearch} /> : null}
      {detail ? <PayoutDetail kind={kind} payout={detail} onClose={() => setDetail(null)} /> : null}
      {step ? <StepDialog kind={kind} step={step.step} payout={step.payout} onClose={() => setStep(null)} /> : null}
    </section>
  );
}

function StepDialog({
  kind,
  step,
  payout,
  onClose,
}: {
  kind: PartnerKind;
  step: Step;
  payout: PayoutRow;
  onClose: () => void;
}) {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const message = useErrorMessage();
  const refresh = useRefreshPartners();
  const [reference, setReference] = useState('');
  const formId = useId();
  const amount = f.money(payout.amount_cents, payout.currency);
  const options = {
    onSuccess: async () => {
      onClose();
      toast(s.payouts.saved);
      await refresh();
    },
  };
  const vProcess = $api.useMutation('post', '/api/admin/vendor-payouts/{id}/process', options);
  const vPaid = $api.useMutation('post', '/api/admin/vendor-payouts/{id}/mark-paid', options);
  const vCancel = $api.useMutation('post', '/api/admin/vendor-payouts/{id}/cancel', options);
  const aPaid = $api.useMutation('post', '/api/admin/affiliate-payouts/{id}/mark-paid', options);
  const aCancel = $api.useMutation('post', '/api/admin/affiliate-payouts/{id}/cancel', options);
  const m =
    kind === 'vendor'
      ? step === 'process'
        ? vProcess
        : step === 'mark-paid'
          ? vPaid
          : vCancel
      : step === 'mark-paid'
        ? aPaid
        : aCancel;
  const problem = m.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['reference'], t);
  const path = { id: payout.id };
  const run = () => {
    if (kind === 'vendor') {
      if (step === 'process') vProcess.mutate({ params: { path } });
      else if (step === 'mark-paid') vPaid.mutate({ params: { path }, body: { reference: reference.trim() } });
      else vCancel.mutate({ params: { path } });
    } else if (step === 'mark-paid') aPaid.mutate({ params: { path }, body: { reference: reference.trim() } });
    else aCancel.mutate({ params: { path } });
  };
  const title = step === 'process' ? s.payouts.process : step === 'mark-paid' ? s.payouts.markPaid : s.payouts.cancel;
  const text =
    step === 'process'
      ? s.payouts.confirmProcess(amount)
      : step === 'mark-paid'
        ? s.payouts.confirmMarkPaid(amount)
        : s.payouts.confirmCancel(amount);
  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      confirm={{ label: title, busy: m.isPending, danger: step === 'cancel', onConfirm: run }}
    >
      <p>{text}</p>
      {step === 'mark-paid' ? (
        <form
          id={formId}
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            run();
          }}
        >
          <Field
            label={s.payouts.referenceLabel}
            name="reference"
            value={reference}
            onChange={(e) => setReference(e.currentTarget.value)}
            maxLength={140}
            required
            autoComplete="off"
            error={errors.fields.reference}
          />
        </form>
      ) : null}
      {problem && !errors.fields.reference ? (
        <p className="field-error" role="alert">
          {message(problem.code)}
        </p>
      ) : null}
    </Dialog>
  );
}

function CreatePayout({ vendorId, balances }: { vendorId: string; balances: Balance[] }) {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const message = useErrorMessage();
  const refresh = useRefreshPartners();
  const withMoney = balances.filter((b) => b.available_cents > 0);
  const [pending, setPending] = useState<{
    amount_cents: number | undefined;
    currency: string;
    note: string;
  } | null>(null);
  const [formKey, setFormKey] = useState(0);
  const create = $api.useMutation('post', '/api/admin/vendor-payouts', {
    onSuccess: async () => {
      setPending(null);
      setFormKey((k) => k + 1);
      toast(s.payouts.saved);
      await refresh();
    },
    onError: () => setPending(null),
  });
  const problem = create.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['amount_cents', 'currency', 'note'], t);
  errors.fields.amount_cents = numberFieldError(errors.fields.amount_cents, s.common.amountInvalid) ?? '';
  if (problem?.code === 'insufficient_balance') errors.fields.amount_cents = message('insufficient_balance');
  if (problem?.code === 'currency_required') errors.fields.currency = message('currency_required');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    create.reset();
    setPending({
      amount_cents: toCents(v.amount),
      currency: v.currency ?? withMoney[0]?.currency ?? '',
      note: v.note?.trim() ?? '',
    });
  };
  if (withMoney.length === 0) return <p className="muted">{s.payouts.nothingAvailable}</p>;
  const balanceOf = (currency: string) => balances.find((b) => b.currency === currency);
  const available = pending ? balanceOf(pending.currency) : undefined;
  return (
    <>
      <form key={formKey} className="inline-form partner-form" onSubmit={onSubmit} noValidate>
        <Field
          label={s.payouts.amountLabel}
          name="amount"
          inputMode="decimal"
          hint={s.payouts.amountHint}
          autoComplete="off"
          error={errors.fields.amount_cents || undefined}
        />
        <div className="field">
          <label htmlFor="payout-currency">{s.payouts.currency}</label>
          <select
            id="payout-currency"
            name="currency"
            defaultValue={withMoney[0]?.currency}
            aria-invalid={errors.fields.currency ? true : undefined}
          >
            {withMoney.map((b) => (
              <option key={b.currency} value={b.currency}>
                {b.currency} ({f.money(b.available_cents, b.currency)})
              </option>
            ))}
          </select>
          {errors.fields.currency ? <span className="field-error">{errors.fields.currency}</span> : null}
        </div>
        <Field label={s.payouts.note} name="note" maxLength={1000} autoComplete="off" error={errors.fields.note} />
        <button type="submit" className="primary">
          {s.payouts.create}
        </button>
      </form>
      {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <Dialog
        open={pending !== null}
        title={s.payouts.create}
        onClose={() => setPending(null)}
        confirm={{
          label: s.payouts.create,
          busy: create.isPending,
          onConfirm: () => {
            if (!pending) return;
            create.mutate({
              body: {
                vendor_id: vendorId,
                currency: pending.currency,
                ...(pending.amount_cents !== undefined ? { amount_cents: pending.amount_cents } : {}),
                ...(pending.note ? { note: pending.note } : {}),
              },
            });
          },
        }}
      >
        <p>
          {pending && available
            ? pending.amount_cents === undefined
              ? s.payouts.confirmCreateWhole(f.money(available.available_cents, available.currency))
              : s.payouts.confirmCreate(
                  Number.isFinite(pending.amount_cents) ? f.money(pending.amount_cents, pending.currency) : '—',
                  f.money(available.available_cents, available.currency),
                )
            : null}
        </p>
      </Dialog>
    </>
  );
}

/**
 * One payout as GET /api/admin/{vendor,affiliate}-payouts/{id} gives it: amount, state, who
 * asked for it, the transfer reference and note, and when each state was reached.
 */
function PayoutDetail({ kind, payout, onClose }: { kind: PartnerKind; payout: PayoutRow; onClose: () => void }) {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const path = { params: { path: { id: payout.id } } };
  const vendor = $api.useQuery('get', '/api/admin/vendor-payouts/{id}', path, { enabled: kind === 'vendor' });
  const affiliate = $api.useQuery('get', '/api/admin/affiliate-payouts/{id}', path, {
    enabled: kind === 'affiliate',
  });
  const query = kind === 'vendor' ? vendor : affiliate;
  const p = query.data;
  const amount = f.money(payout.amount_cents, payout.currency);
  const history = p
    ? (
        [
          [s.payoutDetail.created, p.created_at],
          [s.payoutDetail.processing, p.processing_at],
          [s.payoutDetail.paid, p.paid_at],
          [s.payoutDetail.cancelled, p.cancelled_at],
        ] as const
      ).filter((entry): entry is readonly [string, string] => entry[1] !== null)
    : [];
  return (
    <Dialog open title={s.payoutDetail.title(amount)} onClose={onClose}>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {!p ? (
        query.isPending ? (
          <p className="muted">{t.common.loading}</p>
        ) : null
      ) : (
        <>
          <dl className="facts payout-facts">
            <dt>{s.payouts.amount}</dt>
            <dd>{f.money(p.amount_cents, p.currency)}</dd>
            <dt>{s.payouts.status}</dt>
            <dd>
              <StatusBadge status={p.status} label={s.payouts.statuses[p.status] ?? p.status} />
            </dd>
            <dt>{s.payoutDetail.origin}</dt>
            <dd>{s.payouts.requestedBy[p.requested_by] ?? p.requested_by}</dd>
            <dt>{s.payouts.reference}</dt>
            <dd className="wrap">{p.reference ?? '—'}</dd>
            <dt>{s.payoutDetail.note}</dt>
            <dd className="wrap">{p.note ?? '—'}</dd>
            <dt>{s.payoutDetail.id}</dt>
            <dd className="wrap">
              <code>{p.id}</code>
            </dd>
          </dl>
          <h3>{s.payoutDetail.history}</h3>
          <ol className="payout-history">
            {history.map(([label, at]) => (
              <li key={label}>
                <time dateTime={at}>{f.dateTime(at)}</time> — {label}
              </li>
            ))}
          </ol>
        </>
      )}
    </Dialog>
  );
}
