/**
 * The shop's plans (GET /api/admin/digital/plaene: all of them, a shop has a handful) with the
 * product's name, price, interval, trial, intro discount and the running subscriptions, each
 * linking to its subscriptions. Owner and admin get "Neuer Plan".
 */
import { Link } from '@tanstack/react-router';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { useTitle } from '../../../shell.js';
import { DigitalGate } from '../gate.js';
import { digitalText } from '../i18n.js';
import { useIntervalText } from '../shared.js';

export function PlanListPage() {
  const s = useDictionary(digitalText);
  useTitle(s.plans.title);
  return (
    <DigitalGate title={s.plans.title}>
      <PlanList />
    </DigitalGate>
  );
}

function PlanList() {
  const t = useT();
  const s = useDictionary(digitalText);
  const f = useFormat();
  const can = useCan();
  const interval = useIntervalText();
  const query = $api.useQuery('get', '/api/admin/digital/plaene');
  const plans = query.data?.plaene ?? [];
  return (
    <div className="page">
      <div className="page-head">
        <h1>{s.plans.title}</h1>
        {query.data ? <p className="muted">{s.plans.count(plans.length)}</p> : null}
        {can('POST /api/admin/digital/plaene') ? (
          <Link to="/digital/plaene/neu" className="button primary">
            {s.plans.new}
          </Link>
        ) : null}
      </div>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{s.plans.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.plans.name}</th>
              <th scope="col">{s.plans.product}</th>
              <th scope="col" className="num">
                {s.plans.price}
              </th>
              <th scope="col">{s.plans.interval}</th>
              <th scope="col">{s.plans.trial}</th>
              <th scope="col">{s.plans.intro}</th>
              <th scope="col">{s.plans.state}</th>
              <th scope="col" className="num">
                {s.plans.activeCount}
              </th>
            </tr>
          </thead>
          <tbody>
            {plans.map((p) => (
              <tr key={p.id}>
                <th scope="row">
                  <Link to="/digital/plaene/$id" params={{ id: p.id }}>
                    {p.name}
                  </Link>
                </th>
                <td>{p.product_name}</td>
                <td className="num">{f.money(p.price_cents, p.currency)}</td>
                <td>{interval(p.interval_unit, p.interval_count, p.interval_text)}</td>
                <td>{p.trial_days > 0 ? s.plans.trialDays(p.trial_days) : t.common.none}</td>
                <td>
                  {p.intro_discount_percent !== null && p.intro_discount_months !== null
                    ? s.plans.introText(p.intro_discount_percent, p.intro_discount_months)
                    : t.common.none}
                </td>
                <td>
                  <span className={`badge ${p.is_active ? 'badge-plan-on' : 'badge-plan-off'}`}>
                    {p.is_active ? s.plans.selling : s.plans.notSelling}
                  </span>
                </td>
                <td className="num">
                  <Link
                    to="/digital/abos"
                    search={{ page: 1, limit: 25, plan_id: p.id, status: 'laufend' }}
                    aria-label={`${s.plans.abosOf(p.name)}: ${f.number(p.active_count)}`}
                  >
                    {f.number(p.active_count)}
                  </Link>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {!query.data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {query.data && plans.length === 0 ? <p className="empty">{s.plans.none}</p> : null}
      </div>
    </div>
  );
}
