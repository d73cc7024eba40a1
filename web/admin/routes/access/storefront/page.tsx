/**
 * The built-in storefront's settings (owner or admin): the publishable key its pages at /shop/
 * use and the subscription plans they offer (GET/PUT /api/admin/storefront-settings). Without the
 * digital add-on the plan choice is left as it is.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { accessText } from '../i18n.js';

const ADDON_CODES = ['addon_unavailable', 'addon_inactive'];

export function StorefrontSettingsPage() {
  const a = useDictionary(accessText);
  const s = a.storefront;
  const t = useT();
  const f = useFormat();
  useTitle(s.title);
  const can = useCan();
  const mayRead = can('GET /api/admin/storefront-settings');
  const queryClient = useQueryClient();
  const settings = $api.useQuery('get', '/api/admin/storefront-settings', {}, { enabled: mayRead });
  const keys = $api.useQuery('get', '/api/admin/publishable-keys', {}, { enabled: mayRead });
  const plans = $api.useQuery('get', '/api/admin/digital/plaene', {}, { enabled: mayRead, retry: false });
  const [keyId, setKeyId] = useState<string | null>(null);
  const save = $api.useMutation('put', '/api/admin/storefront-settings', {
    onSuccess: async (out) => {
      toast(s.saved);
      queryClient.setQueryData(['get', '/api/admin/storefront-settings', {}], out);
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/storefront-settings'] });
    },
  });
  if (!mayRead) {
    return (
      <div className="page">
        <h1>{s.title}</h1>
        <p className="alert alert-info">{a.readOnly}</p>
      </div>
    );
  }
  const data = settings.data;
  const plansProblem = plans.error as ApiProblem | null;
  const plansOff = plansProblem !== null && ADDON_CODES.includes(plansProblem.code);
  const problem = save.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['publishable_key_id', 'offered_plan_ids'], t);
  const chosenKey = keyId ?? data?.publishable_key_id ?? '';
  const origins = keys.data?.publishable_keys.find((k) => k.id === chosenKey)?.allowed_origins;
  const mayChange = can('PUT /api/admin/storefront-settings');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const key = String(form.get('publishable_key_id') ?? '');
    save.mutate({
      body: {
        publishable_key_id: key === '' ? null : key,
        ...(plans.data ? { offered_plan_ids: form.getAll('offered_plan_ids').map(String) } : {}),
      },
    });
  };
  return (
    <div className="page access-page">
      <div className="page-head">
        <h1>{s.title}</h1>
        {data?.updated_at ? <p className="muted">{s.lastSaved(f.dateTime(data.updated_at))}</p> : null}
      </div>
      <p className="muted">{s.intro}</p>
      {settings.error ? <ProblemAlert problem={settings.error as ApiProblem} /> : null}
      {problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      {data && keys.data ? (
        <form onSubmit={onSubmit} noValidate className="panel narrow-form" key={data.updated_at ?? 'new'}>
          <fieldset disabled={!mayChange} className="plain">
            <div className="field">
              <label htmlFor="sf-key">{s.key}</label>
              <span className="hint" id="sf-key-hint">
                {s.keyHint}
              </span>
              <select
                id="sf-key"
                name="publishable_key_id"
                defaultValue={data.publishable_key_id ?? ''}
                onChange={(e) => setKeyId(e.currentTarget.value)}
                aria-invalid={errors.fields.publishable_key_id ? true : undefined}
                aria-describedby={`sf-key-hint sf-key-origins${errors.fields.publishable_key_id ? ' sf-key-error' : ''}`}
              >
                <option value="">{s.noKey}</option>
                {keys.data.publishable_keys.map((k) => (
                  <option key={k.id} value={k.id}>
                    {k.name}
                  </option>
                ))}
              </select>
              <span className="hint" id="sf-key-origins">
                {origins ? s.origins(origins.length > 0 ? origins.join(', ') : '—') : ''}
              </span>
              {errors.fields.publishable_key_id ? (
                <span className="field-error" id="sf-key-error">
                  {errors.fields.publishable_key_id}
                </span>
              ) : null}
              <Link to="/access/api" className="small">
                {s.manageKeys}
              </Link>
            </div>
            <fieldset>
              <legend>{s.plans}</legend>
              <p className="hint">{s.plansHint}</p>
              {plansOff ? <p className="alert alert-info">{s.plansUnavailable}</p> : null}
              {plansProblem && !plansOff ? <ProblemAlert problem={plansProblem} /> : null}
              {plans.data && plans.data.plaene.length === 0 ? <p className="muted">{s.noPlans}</p> : null}
              {plans.data ? (
                <div className="checks">
                  {plans.data.plaene.map((p) => (
                    <div className="check" key={p.id}>
                      <input
                        type="checkbox"
                        id={`plan-${p.id}`}
                        name="offered_plan_ids"
                        value={p.id}
                        defaultChecked={data.offered_plan_ids.includes(p.id)}
                      />
                      <label htmlFor={`plan-${p.id}`}>
                        {p.product_name} – {p.name}, {f.money(p.price_cents, p.currency)}{' '}
                        {s.interval(p.interval_count, p.interval_unit)}
                        {p.is_active ? '' : ` ${s.inactive}`}
                      </label>
                    </div>
                  ))}
                </div>
              ) : null}
              {errors.fields.offered_plan_ids ? <p className="field-error">{errors.fields.offered_plan_ids}</p> : null}
            </fieldset>
            {mayChange ? (
              <button type="submit" className="primary" disabled={save.isPending}>
                {t.common.save}
              </button>
            ) : null}
          </fieldset>
        </form>
      ) : settings.isPending ? (
        <p className="muted">{t.common.loading}</p>
      ) : null}
    </div>
  );
}
