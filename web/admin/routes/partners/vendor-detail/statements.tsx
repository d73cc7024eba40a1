/**
 * A vendor's monthly statements: create (or recompute) the draft of a month, its totals and
 * entries exactly as the API computed them from the ledger, finalize (numbered, immutable; only
 * after the month), and the PDF.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { type FormEvent, Fragment, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { LOCALES, useDictionary, useErrorMessage, useLanguage, useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging, serverPaging } from '../../../../shared/list.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { partnersText } from '../i18n.js';
import { StatusBadge, useRefreshPartners } from '../shared.js';
import type { VendorDetail } from './page.js';

interface StatementRow {
  id: string;
  period: string;
  currency: string;
  status: 'draft' | 'final';
  number: string | null;
  opening_balance_cents: number;
  closing_balance_cents: number;
  totals: { earnings_cents: number; clawbacks_cents: number; payouts_cents: number };
}

export function Statements({
  vendor,
  paging,
  onPaging,
}: {
  vendor: VendorDetail;
  paging: Paging;
  onPaging: (p: Paging) => void;
}) {
  const s = useDictionary(partnersText);
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  const refresh = useRefreshPartners();
  const [open, setOpen] = useState<string | null>(null);
  const [finalizing, setFinalizing] = useState<StatementRow | null>(null);
  const list = $api.useQuery(
    'get',
    '/api/admin/vendor-statements',
    { params: { query: { vendor_id: vendor.id, ...serverPaging(paging) } } },
    { placeholderData: keepPreviousData },
  );
  const finalize = $api.useMutation('post', '/api/admin/vendor-statements/{id}/finalize', {
    onSuccess: async (st) => {
      setFinalizing(null);
      toast(s.statements.finalized(st.number ?? ''));
      await refresh();
    },
    onError: (problem: ApiProblem) => {
      setFinalizing(null);
      toast(message(problem.code), 'error');
    },
  });
  const canFinalize = can('POST /api/admin/vendor-statements/{id}/finalize');
  const rows: StatementRow[] = list.data?.statements ?? [];
  const locale = LOCALES[useLanguage()];
  // a statement's month by name ("November 2026"), through Intl
  const monthName = (period: string) => {
    const [y, m] = period.split('-').map(Number) as [number, number];
    return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      new Date(Date.UTC(y, m - 1, 15)),
    );
  };
  return (
    <section aria-labelledby="statements-h" className="panel">
      <h2 id="statements-h">{s.statements.title}</h2>
      {can('POST /api/admin/vendor-statements') ? <CreateStatement vendor={vendor} monthName={monthName} /> : null}
      {list.error ? <ProblemAlert problem={list.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={list.isFetching || undefined}>
        <table className="data statements">
          <caption className="visually-hidden">{s.statements.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.statements.period}</th>
              <th scope="col">{s.statements.status}</th>
              <th scope="col" className="num">
                {s.statements.opening}
              </th>
              <th scope="col" className="num">
                {s.statements.earnings}
              </th>
              <th scope="col" className="num">
                {s.statements.clawbacks}
              </th>
              <th scope="col" className="num">
                {s.statements.payouts}
              </th>
              <th scope="col" className="num">
                {s.statements.closing}
              </th>
              <th scope="col">{s.common.actions}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((st) => (
              <Fragment key={st.id}>
                <tr>
                  <th scope="row">
                    {monthName(st.period)}
                    <div className="muted small">
                      {st.currency}
                      {st.number ? ` · ${st.number}` : ''}
                    </div>
                  </th>
                  <td>
                    <StatusBadge status={st.status} label={s.statements.statuses[st.status] ?? st.status} />
                  </td>
                  <td className="num">{f.money(st.opening_balance_cents, st.currency)}</td>
                  <td className="num" data-total="earnings">
                    {f.money(st.totals.earnings_cents, st.currency)}
                  </td>
                  <td className="num">{f.money(st.totals.clawbacks_cents, st.currency)}</td>
                  <td className="num">{f.money(st.totals.payouts_cents, st.currency)}</td>
                  <td className="num">{f.money(st.closing_balance_cents, st.currency)}</td>
                  <td>
                    <div className="row-actions">
                      <button
                        type="button"
                        className="small-button"
                        aria-expanded={open === st.id}
                        onClick={() => setOpen(open === st.id ? null : st.id)}
                      >
                        {open === st.id ? s.statements.hide : s.statements.show}
                      </button>
                      <a
                        className="small-button"
                        href={`/api/admin/vendor-statements/${encodeURIComponent(st.id)}/pdf`}
                        download
                        aria-label={s.statements.pdfOf(monthName(st.period))}
                      >
                        {s.statements.pdf}
                      </a>
                      {st.status === 'draft' && canFinalize ? (
                        <button type="button" className="small-button" onClick={() => setFinalizing(st)}>
                          {s.statements.finalize}
                        </button>
                      ) : null}
                    </div>
                  </td>
                </tr>
                {open === st.id ? (
                  <tr>
                    <td colSpan={8}>
                      <Entries id={st.id} />
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            ))}
          </tbody>
        </table>
        {list.data && rows.length === 0 ? <p className="empty">{s.statements.none}</p> : null}
      </div>
      {list.data ? <Pager count={list.data.count} paging={paging} onChange={onPaging} /> : null}
      <Dialog
        open={finalizing !== null}
        title={s.statements.finalize}
        onClose={() => setFinalizing(null)}
        confirm={{
          label: s.statements.finalize,
          busy: finalize.isPending,
          onConfirm: () => {
            if (finalizing) finalize.mutate({ params: { path: { id: finalizing.id } } });
          },
        }}
      >
        <p>
          {finalizing
            ? s.statements.confirmFinalize(
                monthName(finalizing.period),
                f.money(finalizing.closing_balance_cents, finalizing.currency),
              )
            : null}
        </p>
      </Dialog>
    </section>
  );
}

function Entries({ id }: { id: string }) {
  const s = useDictionary(partnersText);
  const f = useFormat();
  const q = $api.useQuery('get', '/api/admin/vendor-statements/{id}', { params: { path: { id } } });
  if (q.error) return <ProblemAlert problem={q.error as ApiProblem} />;
  if (!q.data) return null;
  const st = q.data;
  return (
    <table className="data inner">
      <caption>{s.statements.entries}</caption>
      <thead>
        <tr>
          <th scope="col">{s.statements.date}</th>
          <th scope="col">{s.statements.description}</th>
          <th scope="col" className="num">
            {s.statements.amount}
          </th>
          <th scope="col" className="num">
            {s.statements.balance}
          </th>
        </tr>
      </thead>
      <tbody>
        {st.entries.map((e) => (
          <tr key={e.transaction_id}>
            <td>{f.date(`${e.date}T12:00:00Z`)}</td>
            <td>
              {e.order_number
                ? s.statements.withOrder(s.statements.kinds[e.kind] ?? e.kind, e.order_number)
                : (s.statements.kinds[e.kind] ?? e.description)}
            </td>
            <td className="num">{f.money(e.amount_cents, st.currency)}</td>
            <td className="num">{f.money(e.balance_cents, st.currency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CreateStatement({ vendor, monthName }: { vendor: VendorDetail; monthName: (p: string) => string }) {
  const s = useDictionary(partnersText);
  const t = useT();
  const message = useErrorMessage();
  const refresh = useRefreshPartners();
  const [pending, setPending] = useState<{ period: string; currency: string | undefined } | null>(null);
  const create = $api.useMutation('post', '/api/admin/vendor-statements', {
    onSuccess: async () => {
      setPending(null);
      toast(s.statements.created);
      await refresh();
    },
    onError: () => setPending(null),
  });
  const problem = create.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['period', 'currency'], t);
  if (problem?.code === 'statement_final') errors.fields.period = message('statement_final');
  if (problem?.code === 'currency_required') errors.fields.currency = message('currency_required');
  const currencies = vendor.balances.map((b) => b.currency);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    create.reset();
    setPending({ period: v.period ?? '', currency: v.currency || undefined });
  };
  const valid = pending && /^\d{4}-\d{2}$/.test(pending.period);
  return (
    <>
      <form className="inline-form partner-form" onSubmit={onSubmit} noValidate>
        <Field
          label={s.statements.period}
          name="period"
          type="month"
          hint={s.statements.periodHint}
          required
          error={errors.fields.period}
        />
        {currencies.length > 1 ? (
          <div className="field">
            <label htmlFor="statement-currency">{s.statements.currency}</label>
            <select id="statement-currency" name="currency" defaultValue={currencies[0]}>
              {currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
            {errors.fields.currency ? <span className="field-error">{errors.fields.currency}</span> : null}
          </div>
        ) : null}
        <button type="submit" className="primary">
          {s.statements.create}
        </button>
      </form>
      {problem && !Object.keys(errors.fields).length ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <Dialog
        open={pending !== null}
        title={s.statements.create}
        onClose={() => setPending(null)}
        confirm={{
          label: s.statements.create,
          busy: create.isPending,
          onConfirm: () => {
            if (!pending) return;
            create.mutate({
              body: {
                vendor_id: vendor.id,
                period: pending.period,
                ...(pending.currency ? { currency: pending.currency } : {}),
              },
            });
          },
        }}
      >
        <p>{pending ? s.statements.confirmCreate(valid ? monthName(pending.period) : pending.period || '—') : null}</p>
      </Dialog>
    </>
  );
}
