/**
 * Accounting (Lexware): the connection (a stored key is never shown again: a mask and its date),
 * connecting or replacing the key, the connection test with the provider's answer, and the order
 * syncs by status (failed by default, with Lexware's message), each failed or pending one retried
 * or cancelled after a confirmation. The status and page live in the URL; the server pages.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging } from '../../../../shared/list.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { financeText } from '../i18n.js';
import { accountingRoute, SYNC_FILTERS, syncListQuery } from '../routes.js';

function Connection() {
  const t = useT();
  const s = useDictionary(financeText).accounting;
  const f = useFormat();
  const can = useCan();
  const queryClient = useQueryClient();
  const state = $api.useQuery('get', '/api/admin/credentials/lexware');
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [formKey, setFormKey] = useState(0);
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const connect = $api.useMutation('post', '/api/admin/credentials/lexware/connect', {
    onSuccess: async () => {
      toast(s.connectedToast);
      setFormKey((k) => k + 1);
      setResult(null);
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/credentials/lexware'] });
    },
    onError: (p: ApiProblem) => setProblem(p),
  });
  const test = $api.useMutation('post', '/api/admin/credentials/test/lexware', {
    onSuccess: (r) =>
      setResult(
        r.ok
          ? { ok: true, text: s.testOk(r.company_name ?? r.organization_id ?? 'Lexware') }
          : {
              ok: false,
              text: s.testFailed(r.provider_status ? String(r.provider_status) : s.unreachable, r.error ?? ''),
            },
      ),
    onError: (p: ApiProblem) => setProblem(p),
  });
  const errors = fieldErrors(problem, ['api_key'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    setProblem(null);
    connect.mutate({ body: { api_key: (v.api_key ?? '').trim() } });
  };
  const c = state.data;
  return (
    <section aria-labelledby="conn-h" className="panel">
      <h2 id="conn-h">{s.connection}</h2>
      {state.error ? <ProblemAlert problem={state.error as ApiProblem} /> : null}
      {c ? (
        c.connected && c.connected_at ? (
          <dl className="facts">
            <dt>{t.orders.status}</dt>
            <dd>
              {s.connected(f.dateTime(c.connected_at))}
              {c.updated_at && c.updated_at !== c.connected_at ? (
                <span className="muted block small">{s.keyChanged(f.dateTime(c.updated_at))}</span>
              ) : null}
            </dd>
            <dt>{s.storedKey}</dt>
            <dd className="mono">{s.masked}</dd>
          </dl>
        ) : (
          <p>{s.notConnected}</p>
        )
      ) : null}
      {problem && !problem.errors?.length ? <ProblemAlert problem={problem} /> : null}
      {result ? (
        <p className={result.ok ? 'alert alert-success' : 'alert alert-error'} role="status">
          {result.text}
        </p>
      ) : null}
      {can('POST /api/admin/credentials/lexware/connect') ? (
        <form className="inline-form" onSubmit={onSubmit} noValidate key={formKey}>
          <Field
            label={c?.connected ? s.apiKeyNew : s.apiKey}
            name="api_key"
            type="password"
            autoComplete="off"
            required
            minLength={8}
            maxLength={500}
            hint={s.apiKeyHint}
            error={errors.fields.api_key}
          />
          <button type="submit" className="primary" disabled={connect.isPending}>
            {c?.connected ? s.replace : s.connect}
          </button>
        </form>
      ) : null}
      {c?.connected && can('POST /api/admin/credentials/test/lexware') ? (
        <div className="actions">
          <button
            type="button"
            onClick={() => test.mutate({})}
            disabled={test.isPending}
            aria-busy={test.isPending || undefined}
          >
            {s.test}
          </button>
        </div>
      ) : null}
    </section>
  );
}

export function AccountingPage() {
  const t = useT();
  const s = useDictionary(financeText).accounting;
  const voucher = useDictionary(financeText).detail.voucher;
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  useTitle(s.title);
  const search = accountingRoute.useSearch();
  const navigate = useNavigate({ from: accountingRoute.fullPath });
  const query = useQuery({ ...syncListQuery(search), placeholderData: keepPreviousData });
  const [pending, setPending] = useState<{ kind: 'retry' | 'cancel'; orderId: string; number: string } | null>(null);
  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const options = {
    onSuccess: async () => {
      setPending(null);
      toast(t.order.done);
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/accounting/syncs'] });
    },
    onError: (p: ApiProblem) => {
      setPending(null);
      toast(message(p.code), 'error');
    },
  };
  const retry = $api.useMutation('post', '/api/admin/orders/{id}/lexware-retry', options);
  const cancel = $api.useMutation('post', '/api/admin/orders/{id}/lexware-cancel', options);
  const mayRetry = can('POST /api/admin/orders/{id}/lexware-retry');
  const mayCancel = can('POST /api/admin/orders/{id}/lexware-cancel');
  const run = pending?.kind === 'retry' ? retry : cancel;
  const data = query.data;
  const statusLabel = (st: (typeof SYNC_FILTERS)[number]) => (st === 'all' ? s.all : t.orderOps.syncStatus[st]);
  return (
    <div className="page finance-page">
      <div className="page-head">
        <h1>{s.title}</h1>
      </div>
      <Connection />
      <section aria-labelledby="syncs-h" className="panel">
        <div className="panel-head">
          <h2 id="syncs-h">{s.syncs}</h2>
          <div className="field">
            <label htmlFor="sync-status">{s.statusFilter}</label>
            <select
              id="sync-status"
              value={search.status}
              onChange={(e) =>
                navigate({
                  search: (prev) => ({
                    ...prev,
                    page: 1,
                    status: e.currentTarget.value as (typeof SYNC_FILTERS)[number],
                  }),
                })
              }
            >
              {SYNC_FILTERS.map((st) => (
                <option key={st} value={st}>
                  {statusLabel(st)}
                </option>
              ))}
            </select>
          </div>
        </div>
        {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
        <div className="table-wrap" aria-busy={query.isFetching || undefined}>
          <table className="data">
            <caption className="visually-hidden">
              {s.syncs}: {statusLabel(search.status)}
            </caption>
            <thead>
              <tr>
                <th scope="col">{s.order}</th>
                <th scope="col">{s.state}</th>
                <th scope="col">{s.message}</th>
                <th scope="col" className="num">
                  {s.attempts}
                </th>
                <th scope="col">{s.changed}</th>
                {mayRetry || mayCancel ? <th scope="col">{s.actions}</th> : null}
              </tr>
            </thead>
            <tbody>
              {data?.syncs.map((sync) => {
                const number = sync.order_number ?? sync.order_id;
                return (
                  <tr key={sync.order_id}>
                    <th scope="row">
                      <Link to="/orders/$id" params={{ id: sync.order_id }}>
                        {number}
                      </Link>
                    </th>
                    <td>{t.orderOps.syncStatus[sync.status]}</td>
                    <td className="wrap">{sync.last_error ?? (sync.provider_id ? voucher(sync.provider_id) : '')}</td>
                    <td className="num">{sync.attempts}</td>
                    <td>{sync.updated_at ? f.dateTime(sync.updated_at) : ''}</td>
                    {mayRetry || mayCancel ? (
                      <td>
                        <div className="row-actions">
                          {mayRetry && (sync.status === 'failed' || sync.status === 'cancelled') ? (
                            <button
                              type="button"
                              className="small-button"
                              aria-label={s.retry(number)}
                              onClick={() => setPending({ kind: 'retry', orderId: sync.order_id, number })}
                            >
                              {s.retryShort}
                            </button>
                          ) : null}
                          {mayCancel && (sync.status === 'failed' || sync.status === 'pending') ? (
                            <button
                              type="button"
                              className="small-button"
                              aria-label={s.cancel(number)}
                              onClick={() => setPending({ kind: 'cancel', orderId: sync.order_id, number })}
                            >
                              {s.cancelShort}
                            </button>
                          ) : null}
                        </div>
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
          {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
          {data && data.syncs.length === 0 ? <p className="empty">{s.none}</p> : null}
        </div>
        {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
      </section>
      <Dialog
        open={pending !== null}
        title={pending ? (pending.kind === 'retry' ? s.retry(pending.number) : s.cancel(pending.number)) : ''}
        onClose={() => setPending(null)}
        confirm={{
          label: pending?.kind === 'retry' ? t.orderOps.retrySync : t.orderOps.cancelSync,
          busy: run.isPending,
          onConfirm: () => pending && run.mutate({ params: { path: { id: pending.orderId } } }),
        }}
      >
        <p>{pending?.kind === 'retry' ? t.orderOps.confirmRetrySync : t.orderOps.confirmCancelSync}</p>
      </Dialog>
    </div>
  );
}
