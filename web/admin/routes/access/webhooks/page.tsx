/**
 * Webhooks (owner or admin): the shop's destination (set or change the URL; the signing secret
 * shown once on creation and on rotation; a test event) and its delivery log with status, the
 * receiver's answer (code and the start of its body) and attempts, filtered and paged in the URL;
 * any delivery can be sent again.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan, useChannelScope } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging } from '../../../../shared/list.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { ScrollRegion } from '../../../../shared/widgets/ScrollRegion.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { accessText } from '../i18n.js';
import { DELIVERY_STATUSES, type DeliveryStatus, deliveriesQuery, webhooksRoute } from '../routes.js';
import { OnceSecret } from '../secret.js';

const ENDPOINT = ['get', '/api/admin/checkout/webhook'] as const;
const DELIVERIES = ['get', '/api/admin/checkout/webhook/deliveries'] as const;

export function WebhooksPage() {
  const a = useDictionary(accessText);
  const s = a.webhooks;
  useTitle(s.title);
  const can = useCan();
  // the shop's webhooks are refused to a channel-restricted employee (the server enforces it)
  const allChannels = useChannelScope() === null;
  if (!can('GET /api/admin/checkout/webhook') || !allChannels) {
    return (
      <div className="page">
        <h1>{s.title}</h1>
        <p className="alert alert-info">{a.readOnly}</p>
      </div>
    );
  }
  return (
    <div className="page access-page">
      <div className="page-head">
        <h1>{s.title}</h1>
      </div>
      <p className="muted">{s.intro}</p>
      <Endpoint />
      <Deliveries />
    </div>
  );
}

function Endpoint() {
  const s = useDictionary(accessText).webhooks;
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState<string | null>(null);
  const [rotating, setRotating] = useState(false);
  const query = $api.useQuery('get', '/api/admin/checkout/webhook', {}, { retry: false });
  const notConfigured = (query.error as ApiProblem | null)?.status === 404;
  const endpoint = query.data;
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ENDPOINT });
    await queryClient.invalidateQueries({ queryKey: DELIVERIES });
  };
  const put = $api.useMutation('put', '/api/admin/checkout/webhook', {
    onSuccess: async (out) => {
      if (out.secret) setSecret(out.secret);
      else toast(s.saved);
      await refresh();
    },
  });
  const rotate = $api.useMutation('post', '/api/admin/checkout/webhook/rotate-secret', {
    onSuccess: (out) => {
      setRotating(false);
      setSecret(out.secret);
    },
  });
  const test = $api.useMutation('post', '/api/admin/checkout/webhook/test', {
    onSuccess: async () => {
      toast(s.testSent);
      await queryClient.invalidateQueries({ queryKey: DELIVERIES });
    },
  });
  const problem = put.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['url'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    put.mutate({ body: { url: formValues(event.currentTarget).url?.trim() ?? '' } });
  };
  const mayChange = can('PUT /api/admin/checkout/webhook');
  return (
    <section aria-labelledby="endpoint-h" className="panel">
      <h2 id="endpoint-h">{s.endpoint}</h2>
      {query.error && !notConfigured ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {notConfigured ? <p className="alert alert-info">{s.noEndpoint}</p> : null}
      {endpoint ? (
        <dl className="facts">
          <dt>{s.url}</dt>
          <dd className="mono break">{endpoint.url}</dd>
          <dt>{s.events}</dt>
          <dd>{s.allEvents}</dd>
          <dt>{s.since}</dt>
          <dd>{f.dateTime(endpoint.created_at)}</dd>
          <dt>{s.updated}</dt>
          <dd>{f.dateTime(endpoint.updated_at)}</dd>
        </dl>
      ) : null}
      {mayChange && (endpoint || notConfigured) ? (
        <form onSubmit={onSubmit} noValidate className="inline-form" key={endpoint?.url ?? 'new'}>
          <Field
            label={s.url}
            name="url"
            type="url"
            required
            maxLength={2048}
            autoComplete="off"
            defaultValue={endpoint?.url ?? ''}
            hint={s.urlHint}
            error={errors.fields.url}
          />
          <button type="submit" className="primary" disabled={put.isPending}>
            {endpoint ? s.save : s.create}
          </button>
        </form>
      ) : null}
      {problem && !errors.fields.url ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      {endpoint ? (
        <div className="actions">
          {can('POST /api/admin/checkout/webhook/rotate-secret') ? (
            <button type="button" onClick={() => setRotating(true)}>
              {s.rotate}
            </button>
          ) : null}
          {can('POST /api/admin/checkout/webhook/test') ? (
            <button type="button" onClick={() => test.mutate({})} disabled={test.isPending}>
              {s.test}
            </button>
          ) : null}
        </div>
      ) : null}
      {test.error ? <ProblemAlert problem={test.error as ApiProblem} /> : null}
      <Dialog
        open={rotating}
        title={s.rotateTitle}
        onClose={() => setRotating(false)}
        confirm={{ label: s.rotate, danger: true, busy: rotate.isPending, onConfirm: () => rotate.mutate({}) }}
      >
        <p>{s.rotateText}</p>
        {rotate.error ? <ProblemAlert problem={rotate.error as ApiProblem} /> : null}
      </Dialog>
      <Dialog open={secret !== null} title={s.secretTitle} onClose={() => setSecret(null)}>
        {secret ? <OnceSecret label={s.secretLabel} text={s.secretText} secret={secret} /> : null}
      </Dialog>
    </section>
  );
}

type Delivery = {
  id: string;
  event_type: string;
  created_at: string;
};

function Deliveries() {
  const s = useDictionary(accessText).webhooks;
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const search = webhooksRoute.useSearch();
  const navigate = useNavigate({ from: webhooksRoute.fullPath });
  const queryClient = useQueryClient();
  const query = useQuery(deliveriesQuery(search));
  const [resending, setResending] = useState<Delivery | null>(null);
  const resend = $api.useMutation('post', '/api/admin/checkout/webhook/deliveries/{id}/retry', {
    onSuccess: async () => {
      setResending(null);
      toast(s.resent);
      await queryClient.invalidateQueries({ queryKey: DELIVERIES });
    },
  });
  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const status = formValues(event.currentTarget).status as DeliveryStatus | '';
    void navigate({ search: (prev) => ({ ...prev, page: 1, status: status || undefined }) });
  };
  const data = query.data;
  const mayResend = can('POST /api/admin/checkout/webhook/deliveries/{id}/retry');
  return (
    <section aria-labelledby="deliveries-h" className="panel">
      <div className="panel-head">
        <h2 id="deliveries-h">{s.deliveries}</h2>
        {data ? <p className="muted">{s.deliveriesCount(data.count)}</p> : null}
      </div>
      <form className="filters" onSubmit={onFilter} key={search.status ?? 'all'}>
        <div className="field">
          <label htmlFor="delivery-status">{s.status}</label>
          <select id="delivery-status" name="status" defaultValue={search.status ?? ''}>
            <option value="">{s.anyStatus}</option>
            {DELIVERY_STATUSES.map((st) => (
              <option key={st} value={st}>
                {s.statuses[st]}
              </option>
            ))}
          </select>
        </div>
        <div className="filter-actions">
          <button type="submit">{s.filter}</button>
        </div>
      </form>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <ScrollRegion label={s.deliveries} busy={query.isFetching}>
        <table className="data deliveries">
          <caption className="visually-hidden">{s.deliveries}</caption>
          <thead>
            <tr>
              <th scope="col">{s.event}</th>
              <th scope="col">{s.status}</th>
              <th scope="col">{s.response}</th>
              <th scope="col" className="num">
                {s.attempts}
              </th>
              <th scope="col">{s.when}</th>
              <th scope="col">
                <span className="visually-hidden">{s.resend}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data?.deliveries.map((d) => (
              <tr key={d.id}>
                <th scope="row">
                  <span className="mono">{d.event_type}</span>
                  <span className="muted block small mono">{d.event_id}</span>
                </th>
                <td>
                  <span className={`badge webhook-${d.status}`}>{s.statusShort[d.status]}</span>
                  {d.status === 'failed' && d.next_attempt_at ? (
                    <span className="muted block small">{s.nextAttempt(f.dateTime(d.next_attempt_at))}</span>
                  ) : null}
                  {d.delivered_at ? (
                    <span className="muted block small">{s.deliveredAt(f.dateTime(d.delivered_at))}</span>
                  ) : null}
                </td>
                <td className="response">
                  {d.last_status_code !== null ? <span className="mono">{d.last_status_code}</span> : null}
                  {d.last_error ? <span className="muted block small excerpt">{d.last_error}</span> : null}
                  {d.last_status_code === null && !d.last_error ? <span className="muted">{s.noAnswer}</span> : null}
                </td>
                <td className="num">{d.attempts}</td>
                <td>{f.dateTime(d.created_at)}</td>
                <td>
                  {mayResend ? (
                    <button
                      type="button"
                      className="small-button"
                      aria-label={s.resendLabel(d.event_type, f.dateTime(d.created_at))}
                      onClick={() => setResending(d)}
                    >
                      {s.resend}
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && data.deliveries.length === 0 ? <p className="muted empty">{s.noDeliveries}</p> : null}
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
      </ScrollRegion>
      {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
      <Dialog
        open={resending !== null}
        title={s.resendTitle}
        onClose={() => setResending(null)}
        confirm={{
          label: s.resend,
          busy: resend.isPending,
          onConfirm: () => {
            if (resending) resend.mutate({ params: { path: { id: resending.id } } });
          },
        }}
      >
        <p>{resending ? s.resendText(resending.event_type) : null}</p>
        {resend.error ? <ProblemAlert problem={resend.error as ApiProblem} /> : null}
      </Dialog>
    </section>
  );
}
