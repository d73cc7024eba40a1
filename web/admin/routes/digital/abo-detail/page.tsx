/**
 * A subscription (GET /api/admin/digital/abos/{id}): its terms and state, its orders
 * (bestellungen), its event history (…/events), and for owner and admin `kuendigen` (at the period
 * end or at once, with a reason) and `fortsetzen`, each in a dialog that says what happens and
 * when, with the dates and amounts of the subscription as the API returns them.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { useDictionary, useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { StatusBadge } from '../../orders/status.js';
import { DigitalGate } from '../gate.js';
import { digitalText } from '../i18n.js';
import { aboRoute } from '../routes.js';
import { AboStatusBadge, TestBadge, useIntervalText } from '../shared.js';

type Detail = NonNullable<ReturnType<typeof useAbo>['data']>;
type Abo = Detail['abo'];
const useAbo = (id: string) => $api.useQuery('get', '/api/admin/digital/abos/{id}', { params: { path: { id } } });

const RUNNING = ['trialing', 'active', 'past_due'];

export function AboDetailPage() {
  const s = useDictionary(digitalText);
  useTitle(s.abos.title);
  return (
    <DigitalGate title={s.abos.title}>
      <AboDetail />
    </DigitalGate>
  );
}

function AboDetail() {
  const t = useT();
  const s = useDictionary(digitalText);
  const f = useFormat();
  const interval = useIntervalText();
  const { id } = aboRoute.useParams();
  const query = useAbo(id);
  const plans = $api.useQuery('get', '/api/admin/digital/plaene');
  if (query.error) {
    return (
      <div className="page">
        <h1>{s.abos.title}</h1>
        <ProblemAlert problem={query.error as ApiProblem} />
      </div>
    );
  }
  if (!query.data) return <p className="muted">{t.common.loading}</p>;
  const { abo, bestellungen } = query.data;
  const plan = plans.data?.plaene.find((p) => p.id === abo.plan_id);
  const running = RUNNING.includes(abo.status);
  return (
    <div className="page abo-page">
      <p>
        <Link to="/digital/abos" search={{ page: 1, limit: 25 }}>
          ← {s.abo.back}
        </Link>
      </p>
      <div className="page-head">
        <h1>{s.abo.title(abo.customer_email)}</h1>
        <AboStatusBadge status={abo.status} />
        {abo.cancel_at_period_end && abo.endet_am && running ? (
          <span className="badge badge-abo-ending">{s.abos.cancelledEndsOn(f.date(abo.endet_am))}</span>
        ) : null}
        {abo.is_test ? <TestBadge /> : null}
      </div>
      {abo.is_test ? <p className="alert alert-warning">{s.abo.test}</p> : null}
      <AboActions abo={abo} />
      <section aria-labelledby="abo-facts-h" className="panel">
        <h2 id="abo-facts-h">{s.abo.facts}</h2>
        <dl className="facts">
          <dt>{s.abo.id}</dt>
          <dd className="mono">{abo.id}</dd>
          <dt>{s.abo.plan}</dt>
          <dd>
            <Link to="/digital/plaene/$id" params={{ id: abo.plan_id }}>
              {plan ? `${plan.name} · ${plan.product_name}` : abo.plan_id}
            </Link>
          </dd>
          <dt>{s.abo.customer}</dt>
          <dd>{abo.customer_email}</dd>
          <dt>{s.abo.price}</dt>
          <dd>
            {f.money(abo.price_cents, abo.currency)} ·{' '}
            {interval(abo.interval_unit, abo.interval_count, abo.interval_text)}
          </dd>
          {running && abo.intro_price_cents !== null && abo.intro_until ? (
            <>
              <dt>{s.abo.intro}</dt>
              <dd>{s.abo.introUntil(f.money(abo.intro_price_cents, abo.currency), f.date(abo.intro_until))}</dd>
            </>
          ) : null}
          {running ? (
            <>
              <dt>{s.abo.period}</dt>
              <dd>{s.abo.periodRange(f.date(abo.current_period_start), f.date(abo.current_period_end))}</dd>
            </>
          ) : null}
          {abo.trial_end && abo.status === 'trialing' ? (
            <>
              <dt>{s.abo.trialEnd}</dt>
              <dd>{f.dateTime(abo.trial_end)}</dd>
            </>
          ) : null}
          {running && !abo.cancel_at_period_end && abo.next_charge_cents !== null ? (
            <>
              <dt>{s.abo.nextCharge}</dt>
              <dd>
                {s.abo.nextChargeAt(f.money(abo.next_charge_cents, abo.currency), f.date(abo.current_period_end))}
              </dd>
            </>
          ) : null}
          {abo.endet_am ? (
            <>
              <dt>{running ? s.abo.endsAt : s.abo.endedAt}</dt>
              <dd>{f.dateTime(abo.endet_am)}</dd>
            </>
          ) : null}
          {abo.canceled_at ? (
            <>
              <dt>{s.abo.cancelled}</dt>
              <dd>{f.dateTime(abo.canceled_at)}</dd>
            </>
          ) : null}
          {abo.grund ? (
            <>
              <dt>{s.abo.grund}</dt>
              <dd>{abo.grund}</dd>
            </>
          ) : null}
          <dt>{s.abo.payments}</dt>
          <dd>{f.number(abo.payments_count)}</dd>
          {abo.failed_attempts > 0 ? (
            <>
              <dt>{s.abo.failed}</dt>
              <dd>
                {f.number(abo.failed_attempts)}
                {abo.next_retry_at ? ` · ${s.abo.nextRetry}: ${f.dateTime(abo.next_retry_at)}` : ''}
              </dd>
            </>
          ) : null}
          <dt>{s.abo.provider}</dt>
          <dd>
            {abo.provider}
            {abo.card_last4 ? ` · ${s.abo.card} ${s.abo.cardEnding(abo.card_last4)}` : ''}
          </dd>
          <dt>{s.abo.tax}</dt>
          <dd>{f.percent(abo.tax_rate)}</dd>
          {abo.affiliate_code ? (
            <>
              <dt>{s.abo.affiliate}</dt>
              <dd className="mono">{abo.affiliate_code}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <section aria-labelledby="abo-orders-h" className="panel">
        <h2 id="abo-orders-h">{s.abo.orders}</h2>
        {bestellungen.length === 0 ? (
          <p className="muted">{s.abo.noOrders}</p>
        ) : (
          <div className="table-wrap">
            <table className="data">
              <caption className="visually-hidden">{s.abo.orders}</caption>
              <thead>
                <tr>
                  <th scope="col">{s.abo.orderNumber}</th>
                  <th scope="col">{s.abo.orderDate}</th>
                  <th scope="col">{s.abo.orderStatus}</th>
                  <th scope="col" className="num">
                    {s.abo.orderTotal}
                  </th>
                </tr>
              </thead>
              <tbody>
                {bestellungen.map((o) => (
                  <tr key={o.id}>
                    <th scope="row">
                      <Link to="/orders/$id" params={{ id: o.id }}>
                        {o.number}
                      </Link>
                    </th>
                    <td>{f.dateTime(o.created_at)}</td>
                    <td>
                      <StatusBadge status={o.status} />
                    </td>
                    <td className="num">{f.money(o.total_cents, o.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      <AboEvents abo={abo} numbers={new Map(bestellungen.map((o) => [o.id, o.number]))} />
    </div>
  );
}

function AboEvents({ abo, numbers }: { abo: Abo; numbers: Map<string, string> }) {
  const t = useT();
  const s = useDictionary(digitalText);
  const f = useFormat();
  const query = $api.useQuery('get', '/api/admin/digital/abos/{id}/events', { params: { path: { id: abo.id } } });
  const events = query.data?.events ?? [];
  return (
    <section aria-labelledby="abo-events-h" className="panel">
      <h2 id="abo-events-h">{s.abo.events}</h2>
      {query.isPending ? <p className="muted">{t.common.loading}</p> : null}
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {query.data && events.length === 0 ? <p className="muted">{s.abo.noEvents}</p> : null}
      {events.length > 0 ? (
        <ol className="timeline">
          {events.map((e) => {
            const d = e.data as Record<string, unknown>;
            const details: string[] = [];
            if (typeof d.sofort === 'boolean') details.push(d.sofort ? s.abo.eventSofort : s.abo.eventAtEnd);
            if (typeof d.canceled_by === 'string')
              details.push(s.abo.eventBy(s.abo.canceledBy[d.canceled_by] ?? d.canceled_by));
            if (typeof d.amount_cents === 'number')
              details.push(s.abo.eventAmount(f.money(d.amount_cents, abo.currency)));
            if (typeof d.grund === 'string' && d.grund) details.push(s.abo.eventGrund(d.grund));
            if (d.backfilled) details.push(s.abo.eventBackfilled);
            return (
              <li key={e.id} className={`tl tl-abo-${e.type.replace('abo.', '')}`}>
                <time dateTime={e.created_at}>{f.dateTime(e.created_at)}</time>
                <span className="tl-what">{s.abo.eventTypes[e.type] ?? e.type}</span>
                {details.length > 0 ? <span className="muted small block">{details.join(' · ')}</span> : null}
                {typeof d.order_id === 'string' ? (
                  <span className="small block">
                    <Link to="/orders/$id" params={{ id: d.order_id }}>
                      {s.abo.eventOrder(numbers.get(d.order_id) ?? d.order_id)}
                    </Link>
                  </span>
                ) : null}
              </li>
            );
          })}
        </ol>
      ) : null}
    </section>
  );
}

function AboActions({ abo }: { abo: Abo }) {
  const s = useDictionary(digitalText);
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState<'kuendigen' | 'fortsetzen' | null>(null);
  const [sofort, setSofort] = useState(false);
  const [grund, setGrund] = useState('');
  const running = RUNNING.includes(abo.status);
  const canCancel = running && can('POST /api/admin/digital/abos/{id}/kuendigen');
  const canResume = running && abo.cancel_at_period_end && can('POST /api/admin/digital/abos/{id}/fortsetzen');
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/digital/abos/{id}'] });
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/digital/abos/{id}/events'] });
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/digital/abos'] });
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/digital/plaene'] });
  };
  const options = (done: string) => ({
    onSuccess: async () => {
      setOpen(null);
      toast(done);
      await refresh();
    },
    onError: (problem: ApiProblem) => toast(message(problem.code), 'error'),
  });
  const cancel = $api.useMutation('post', '/api/admin/digital/abos/{id}/kuendigen', options(s.abo.doneKuendigen));
  const resume = $api.useMutation('post', '/api/admin/digital/abos/{id}/fortsetzen', options(s.abo.doneFortsetzen));
  if (!canCancel && !canResume) return null;
  // already ending at the period end: only "at once" is left to choose
  const onlySofort = abo.cancel_at_period_end;
  const isSofort = sofort || onlySofort;
  const endDate = f.date(abo.current_period_end);
  return (
    <section aria-label={s.abo.actions} className="actions">
      {canCancel ? (
        <button
          type="button"
          className="danger"
          onClick={() => {
            setSofort(false);
            setGrund('');
            setOpen('kuendigen');
          }}
        >
          {s.abo.kuendigen}
        </button>
      ) : null}
      {canResume ? (
        <button type="button" onClick={() => setOpen('fortsetzen')}>
          {s.abo.fortsetzen}
        </button>
      ) : null}
      <Dialog
        open={open === 'kuendigen'}
        title={s.abo.kuendigenTitle}
        onClose={() => setOpen(null)}
        confirm={{
          label: isSofort ? s.abo.confirmSofort : s.abo.confirmAtEnd,
          danger: true,
          busy: cancel.isPending,
          onConfirm: () =>
            cancel.mutate({
              params: { path: { id: abo.id } },
              body: { sofort: isSofort, grund: grund.trim() === '' ? null : grund.trim() },
            }),
        }}
      >
        <fieldset className="abo-cancel-modes">
          <legend>{s.abo.mode}</legend>
          {!onlySofort ? (
            <div className="check">
              <input
                type="radio"
                id="abo-cancel-end"
                name="abo-cancel-mode"
                checked={!isSofort}
                onChange={() => setSofort(false)}
              />
              <label htmlFor="abo-cancel-end">{s.abo.atEnd(endDate)}</label>
            </div>
          ) : null}
          <div className="check">
            <input
              type="radio"
              id="abo-cancel-now"
              name="abo-cancel-mode"
              checked={isSofort}
              onChange={() => setSofort(true)}
            />
            <label htmlFor="abo-cancel-now">{s.abo.sofort}</label>
          </div>
        </fieldset>
        <p className="abo-cancel-explain" aria-live="polite">
          {isSofort ? s.abo.explainSofort(abo.customer_email) : s.abo.explainAtEnd(endDate, abo.customer_email)}
        </p>
        <div className="field">
          <label htmlFor="abo-cancel-grund">{s.abo.grundLabel}</label>
          <textarea
            id="abo-cancel-grund"
            rows={3}
            maxLength={1000}
            value={grund}
            onChange={(e) => setGrund(e.currentTarget.value)}
          />
        </div>
      </Dialog>
      <Dialog
        open={open === 'fortsetzen'}
        title={s.abo.fortsetzenTitle}
        onClose={() => setOpen(null)}
        confirm={{
          label: s.abo.confirmFortsetzen,
          busy: resume.isPending,
          onConfirm: () => resume.mutate({ params: { path: { id: abo.id } } }),
        }}
      >
        <p>
          {abo.next_charge_cents !== null
            ? s.abo.explainFortsetzen(endDate, f.money(abo.next_charge_cents, abo.currency))
            : s.abo.explainFortsetzenNoAmount(endDate)}
        </p>
      </Dialog>
    </section>
  );
}
