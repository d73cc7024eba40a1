/**
 * A plan: create (POST /api/admin/digital/plaene) and edit (PATCH …/{id}). The API's constraints
 * are said at their fields (price range, trial days, the interval maximum per unit, the intro
 * discount's two fields as a pair) and a 400 lands at the field it names; after a PATCH the
 * service's `hinweis` is shown (price or interval changes apply to new subscriptions only). The
 * amounts the plan charges (intro price, first charge) are the service's, shown as it returns them.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors } from '../../../../shared/forms.js';
import { useDictionary, useLanguage, useT } from '../../../../shared/i18n/index.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { DigitalGate } from '../gate.js';
import { digitalText, type IntervalUnit } from '../i18n.js';
import { planRoute } from '../routes.js';

/** The provider maximum of interval_count per unit (the API's rule, src/modules/digital/billing.ts). */
const MAX_COUNT: Record<IntervalUnit, number> = { day: 1095, week: 156, month: 36, year: 3 };
const UNITS = ['month', 'year', 'week', 'day'] as const satisfies readonly IntervalUnit[];
const PRICE_MIN = 50;
const PRICE_MAX = 10_000_000;

const FIELDS = [
  'product_id',
  'name',
  'price_cents',
  'interval_unit',
  'interval_count',
  'trial_days',
  'intro_discount_percent',
  'intro_discount_months',
  'is_active',
] as const;

type Plan = NonNullable<ReturnType<typeof usePlan>['data']>;
const usePlan = (id: string) => $api.useQuery('get', '/api/admin/digital/plaene/{id}', { params: { path: { id } } });

export function PlanNewPage() {
  const s = useDictionary(digitalText);
  useTitle(s.planForm.newTitle);
  return (
    <DigitalGate title={s.planForm.newTitle}>
      <PlanForm />
    </DigitalGate>
  );
}

export function PlanEditPage() {
  const s = useDictionary(digitalText);
  useTitle(s.plans.title);
  return (
    <DigitalGate title={s.plans.title}>
      <PlanEdit />
    </DigitalGate>
  );
}

function PlanEdit() {
  const t = useT();
  const s = useDictionary(digitalText);
  const { id } = planRoute.useParams();
  const plan = usePlan(id);
  // the service's note of the last save, kept here: the form re-mounts with the saved plan
  const [hinweis, setHinweis] = useState<string | null>(null);
  if (plan.error) {
    return (
      <div className="page">
        <h1>{s.plans.title}</h1>
        <ProblemAlert problem={plan.error as ApiProblem} />
      </div>
    );
  }
  if (!plan.data) return <p className="muted">{t.common.loading}</p>;
  return <PlanForm plan={plan.data} key={plan.data.updated_at} hinweis={hinweis} onHinweis={setHinweis} />;
}

/** A whole number from a form field; '' → undefined (left out), anything else as typed (the API judges). */
const intOf = (value: FormDataEntryValue | null): number | undefined => {
  const text = String(value ?? '').trim();
  return text === '' ? undefined : Number(text);
};

/** A decimal amount ("9,90" or "9.90") in cents: a unit conversion only, the API checks the range. */
const centsOf = (value: FormDataEntryValue | null): number | undefined => {
  const text = String(value ?? '')
    .trim()
    .replace(/\s/g, '');
  if (text === '') return undefined;
  const normalized = /,\d{1,2}$/.test(text) ? text.replace(/\./g, '').replace(',', '.') : text.replace(/,/g, '');
  const amount = Number(normalized);
  return Number.isFinite(amount) ? Math.round(amount * 100) : Number.NaN;
};

function PlanForm({
  plan,
  hinweis = null,
  onHinweis,
}: {
  plan?: Plan;
  hinweis?: string | null;
  onHinweis?: (hinweis: string | null) => void;
}) {
  const t = useT();
  const s = useDictionary(digitalText);
  const f = useFormat();
  const can = useCan();
  const language = useLanguage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const editable = plan ? can('PATCH /api/admin/digital/plaene/{id}') : can('POST /api/admin/digital/plaene');
  const [unit, setUnit] = useState<IntervalUnit>((plan?.interval_unit as IntervalUnit | undefined) ?? 'month');
  const [local, setLocal] = useState<Record<string, string>>({});

  // the service sets the currency: the plan's, or for a new plan the shop's (statistik names it)
  const stats = $api.useQuery('get', '/api/admin/digital/abos/statistik', {}, { enabled: !plan });
  const currency = plan?.currency ?? stats.data?.currency ?? 'EUR';
  const plans = $api.useQuery('get', '/api/admin/digital/plaene', {}, { enabled: Boolean(plan) });
  const productName = plans.data?.plaene.find((p) => p.id === plan?.id)?.product_name;
  // the shop's digital products by name (200 a page; more: the search narrows them)
  const [productSearch, setProductSearch] = useState('');
  const products = useQuery({
    ...$api.queryOptions('get', '/api/admin/products', {
      params: { query: { digital: 'ja', limit: 200, sort: 'name', q: productSearch.trim() || undefined } },
    }),
    enabled: !plan,
    placeholderData: keepPreviousData,
  });
  const manyProducts = (products.data?.count ?? 0) > 200 || productSearch !== '';

  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/digital/plaene'] });
    await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/digital/plaene/{id}'] });
  };
  const create = $api.useMutation('post', '/api/admin/digital/plaene', {
    onSuccess: async (created) => {
      toast(s.planForm.created);
      await refresh();
      await navigate({ to: '/digital/plaene/$id', params: { id: created.id } });
    },
  });
  const update = $api.useMutation('patch', '/api/admin/digital/plaene/{id}', {
    onSuccess: async (saved) => {
      toast(s.planForm.saved);
      onHinweis?.(saved.hinweis ?? null);
      await refresh();
    },
  });
  const mutation = plan ? update : create;
  const problem = mutation.error as ApiProblem | null;
  const errors = fieldErrors(problem, FIELDS, t);
  // the API's field messages (JSON Schema and the plan rules, in English) in the page's words
  const ranges: Record<string, [string, string]> = {
    price_cents: [f.money(PRICE_MIN, currency), f.money(PRICE_MAX, currency)],
    trial_days: ['0', '730'],
    intro_discount_percent: ['1', '100'],
    intro_discount_months: ['1', '120'],
    interval_count: ['1', String(MAX_COUNT[unit])],
  };
  for (const [field, text] of Object.entries(errors.fields)) {
    const most = /must be at most (\d+) for interval_unit/.exec(text);
    if (most) errors.fields[field] = s.planForm.intervalTooLong(Number(most[1]), s.planForm.units[unit]);
    else if (/together/.test(text)) errors.fields[field] = s.planForm.introPair;
    else if (/existing digital product/.test(text)) errors.fields[field] = s.planForm.productInvalid;
    else if (/must be [<>]=|must be integer|must be number|must be (null|integer)/.test(text) && ranges[field]) {
      const [min, max] = ranges[field];
      errors.fields[field] = s.planForm.between(min, max);
    }
  }
  if (problem?.code === 'product_immutable') errors.fields.product_id = s.planForm.productImmutable;
  for (const [k, v] of Object.entries(local)) errors.fields[k] ??= v;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onHinweis?.(null);
    const data = new FormData(event.currentTarget);
    const percent = intOf(data.get('intro_discount_percent'));
    const months = intOf(data.get('intro_discount_months'));
    // the pair rule said at once (the API says the same at the field it names)
    const pairError = (percent === undefined) !== (months === undefined) ? s.planForm.introPair : null;
    setLocal(
      pairError ? { [percent === undefined ? 'intro_discount_percent' : 'intro_discount_months']: pairError } : {},
    );
    if (pairError) return;
    const body = {
      name: String(data.get('name') ?? '').trim(),
      price_cents: centsOf(data.get('price')) as number,
      interval_unit: unit,
      interval_count: intOf(data.get('interval_count')) ?? 1,
      trial_days: intOf(data.get('trial_days')) ?? 0,
      is_active: data.has('is_active'),
    };
    if (plan) {
      update.mutate({
        params: { path: { id: plan.id } },
        body: { ...body, intro_discount_percent: percent ?? null, intro_discount_months: months ?? null },
      });
    } else {
      create.mutate({
        body: {
          ...body,
          product_id: String(data.get('product_id') ?? ''),
          ...(percent !== undefined ? { intro_discount_percent: percent, intro_discount_months: months ?? null } : {}),
        },
      });
    }
  };

  const title = plan ? s.planForm.editTitle(plan.name) : s.planForm.newTitle;
  const productList = products.data?.products ?? [];
  const max = MAX_COUNT[unit];
  return (
    <div className="page plan-page">
      <p>
        <Link to="/digital/plaene">← {s.planForm.back}</Link>
      </p>
      <h1>{title}</h1>
      {hinweis ? (
        <div className="alert alert-info" role="status">
          <h2>{s.planForm.hinweisTitle}</h2>
          <p lang="de">{hinweis}</p>
        </div>
      ) : null}
      {!editable ? <p className="muted">{s.planForm.readOnly}</p> : null}
      {problem && Object.keys(errors.fields).length === 0 ? (
        <ProblemAlert problem={problem} extra={errors.other} />
      ) : null}
      {problem && Object.keys(errors.fields).length > 0 && errors.other.length > 0 ? (
        <ProblemAlert problem={problem} extra={errors.other} />
      ) : null}
      <form onSubmit={onSubmit} noValidate className="panel">
        <fieldset disabled={!editable} className="plain">
          <legend className="visually-hidden">{title}</legend>
          {plan ? <p className="alert alert-info plan-note">{s.planForm.priceChangeNote}</p> : null}
          <div className="form-grid">
            {plan ? (
              <Field
                label={s.planForm.product}
                name="product_display"
                readOnly
                value={productName ?? plan.product_id}
                hint={s.planForm.productImmutable}
                error={errors.fields.product_id}
              />
            ) : (
              <div className="field field-wide">
                {manyProducts ? (
                  <>
                    <label htmlFor="plan-product-search">{s.planForm.productSearch}</label>
                    <input
                      id="plan-product-search"
                      type="search"
                      value={productSearch}
                      onChange={(e) => setProductSearch(e.currentTarget.value)}
                    />
                  </>
                ) : null}
                <label htmlFor="plan-product">{s.planForm.product}</label>
                <span className="hint" id="plan-product-hint">
                  {productList.length === 0 && products.data ? s.planForm.noProducts : s.planForm.productHint}
                </span>
                <select
                  id="plan-product"
                  name="product_id"
                  required
                  defaultValue=""
                  aria-invalid={errors.fields.product_id ? true : undefined}
                  aria-describedby={`plan-product-hint${errors.fields.product_id ? ' plan-product-error' : ''}`}
                >
                  <option value="">{s.planForm.chooseProduct}</option>
                  {productList.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
                </select>
                {errors.fields.product_id ? (
                  <span className="field-error" id="plan-product-error">
                    {errors.fields.product_id}
                  </span>
                ) : null}
              </div>
            )}
            <Field
              label={s.planForm.name}
              name="name"
              required
              maxLength={200}
              defaultValue={plan?.name ?? ''}
              error={errors.fields.name}
            />
            <Field
              label={s.planForm.price(currency)}
              name="price"
              inputMode="decimal"
              required
              className="short"
              defaultValue={plan ? (plan.price_cents / 100).toFixed(2).replace('.', language === 'de' ? ',' : '.') : ''}
              hint={s.planForm.priceHint(f.money(PRICE_MIN, currency), f.money(PRICE_MAX, currency))}
              error={errors.fields.price_cents}
            />
            <div className="field">
              <label htmlFor="plan-unit">{s.planForm.intervalUnit}</label>
              <select
                id="plan-unit"
                name="interval_unit"
                value={unit}
                onChange={(e) => setUnit(e.currentTarget.value as IntervalUnit)}
                aria-invalid={errors.fields.interval_unit ? true : undefined}
              >
                {UNITS.map((u) => (
                  <option key={u} value={u}>
                    {s.planForm.units[u]}
                  </option>
                ))}
              </select>
              {errors.fields.interval_unit ? <span className="field-error">{errors.fields.interval_unit}</span> : null}
            </div>
            <Field
              label={s.planForm.intervalCount}
              name="interval_count"
              type="number"
              min={1}
              max={max}
              step={1}
              className="short"
              defaultValue={plan?.interval_count ?? 1}
              hint={s.planForm.intervalHint(max, s.planForm.units[unit])}
              error={errors.fields.interval_count}
            />
            <Field
              label={s.planForm.trialDays}
              name="trial_days"
              type="number"
              min={0}
              max={730}
              step={1}
              className="short"
              defaultValue={plan?.trial_days ?? 0}
              hint={s.planForm.trialHint}
              error={errors.fields.trial_days}
            />
          </div>
          <fieldset aria-describedby="plan-intro-hint">
            <legend>{s.planForm.introLegend}</legend>
            <p className="hint muted small" id="plan-intro-hint">
              {s.planForm.introHint}
            </p>
            <div className="form-grid">
              <Field
                label={s.planForm.introPercent}
                name="intro_discount_percent"
                type="number"
                min={1}
                max={100}
                step={1}
                className="short"
                defaultValue={plan?.intro_discount_percent ?? ''}
                hint={s.planForm.introPercentHint}
                error={errors.fields.intro_discount_percent}
              />
              <Field
                label={s.planForm.introMonths}
                name="intro_discount_months"
                type="number"
                min={1}
                max={120}
                step={1}
                className="short"
                defaultValue={plan?.intro_discount_months ?? ''}
                hint={s.planForm.introMonthsHint}
                error={errors.fields.intro_discount_months}
              />
            </div>
          </fieldset>
          <div className="check">
            <input type="checkbox" id="plan-active" name="is_active" defaultChecked={plan?.is_active ?? true} />
            <label htmlFor="plan-active">{s.planForm.isActive}</label>
          </div>
          {!plan ? <p className="muted small">{s.planForm.currencyNote(currency)}</p> : null}
          {editable ? (
            <button
              type="submit"
              className="primary"
              disabled={mutation.isPending}
              aria-busy={mutation.isPending || undefined}
            >
              {plan ? s.planForm.save : s.planForm.create}
            </button>
          ) : null}
        </fieldset>
      </form>
      {plan ? (
        <dl className="facts panel">
          <dt>{s.planForm.introPrice}</dt>
          <dd>
            {plan.intro_price_cents !== null && plan.intro_discount_months !== null
              ? `${f.money(plan.intro_price_cents, plan.currency)} (${s.plans.introText(plan.intro_discount_percent ?? 0, plan.intro_discount_months)})`
              : t.common.none}
          </dd>
          <dt>{s.planForm.firstCharge}</dt>
          <dd>{f.money(plan.first_charge_cents, plan.currency)}</dd>
        </dl>
      ) : null}
    </div>
  );
}
