/**
 * Checkout settings: the line maximum (PUT /api/admin/settings/checkout), how long stock is
 * reserved (the server's hosted-checkout minutes, read-only; direct-flow orders per channel) and
 * the tax rules checkout applies (OSS registration, VIES fallback: part of the company settings,
 * PUT /api/admin/settings/company with only these two fields).
 */
import { Link } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { settingsText } from '../i18n.js';

const VIES = ['charge_vat', 'accept_unverified'] as const;

export function CheckoutSettingsPage() {
  const s = useDictionary(settingsText).checkout;
  const t = useT();
  useTitle(s.title);
  const can = useCan();
  const query = $api.useQuery('get', '/api/admin/settings/checkout');
  const editable = can('PUT /api/admin/settings/checkout');
  const save = $api.useMutation('put', '/api/admin/settings/checkout', {
    onSuccess: async () => {
      toast(s.saved);
      await query.refetch();
    },
  });
  const problem = save.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['max_line_quantity'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    save.mutate({ body: { max_line_quantity: Number(v.max_line_quantity) } });
  };
  const data = query.data;
  return (
    <div className="page narrow-form">
      <div className="page-head">
        <h1>{s.title}</h1>
      </div>
      <p className="muted">{s.intro}</p>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {data ? (
        <>
          <section aria-labelledby="checkout-qty-h" className="panel">
            <h2 id="checkout-qty-h">{s.quantity}</h2>
            {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
            <form onSubmit={onSubmit} noValidate key={data.max_line_quantity}>
              <fieldset disabled={!editable} className="plain">
                <legend className="visually-hidden">{s.quantity}</legend>
                <Field
                  label={s.maxLine}
                  name="max_line_quantity"
                  type="number"
                  min={1}
                  max={1000}
                  step={1}
                  className="short"
                  required
                  defaultValue={data.max_line_quantity}
                  hint={s.maxLineHint}
                  error={errors.fields.max_line_quantity}
                />
                {editable ? (
                  <button type="submit" className="primary" disabled={save.isPending}>
                    {t.common.save}
                  </button>
                ) : null}
              </fieldset>
            </form>
          </section>
          <section aria-labelledby="checkout-res-h" className="panel">
            <h2 id="checkout-res-h">{s.reservation}</h2>
            <dl className="facts">
              <dt>{s.hostedMinutes}</dt>
              <dd>
                {s.hostedValue(data.hosted_reservation_minutes)}
                <span className="muted block small">{s.hostedHint}</span>
              </dd>
            </dl>
            <p>
              {s.directHint} <Link to="/channels">{s.channelsLink}</Link>
            </p>
          </section>
        </>
      ) : query.isPending ? (
        <p className="muted">{t.common.loading}</p>
      ) : null}
      <TaxRules />
    </div>
  );
}

function TaxRules() {
  const s = useDictionary(settingsText).checkout;
  const t = useT();
  const can = useCan();
  const readable = can('GET /api/admin/settings/company');
  const editable = can('PUT /api/admin/settings/company');
  const query = $api.useQuery('get', '/api/admin/settings/company', {}, { enabled: readable });
  const save = $api.useMutation('put', '/api/admin/settings/company', {
    onSuccess: async () => {
      toast(s.taxSaved);
      await query.refetch();
    },
  });
  const problem = save.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['oss_registered', 'vies_unavailable'], t);
  if (!readable) return <p className="muted">{s.noTaxAccess}</p>;
  const data = query.data;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const v = formValues(event.currentTarget);
    save.mutate({
      body: {
        oss_registered: form.has('oss_registered'),
        vies_unavailable: (VIES as readonly string[]).includes(v.vies_unavailable ?? '')
          ? (v.vies_unavailable as (typeof VIES)[number])
          : 'charge_vat',
      },
    });
  };
  return (
    <section aria-labelledby="checkout-tax-h" className="panel">
      <h2 id="checkout-tax-h">{s.tax}</h2>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      {data ? (
        <form onSubmit={onSubmit} noValidate key={`${data.oss_registered}|${data.vies_unavailable}`}>
          <fieldset disabled={!editable} className="plain">
            <legend className="visually-hidden">{s.tax}</legend>
            <div className="check">
              <input
                type="checkbox"
                id="checkout-oss"
                name="oss_registered"
                defaultChecked={data.oss_registered}
                aria-describedby="checkout-oss-hint"
              />
              <label htmlFor="checkout-oss">{s.oss}</label>
            </div>
            <p className="hint small muted check-hint" id="checkout-oss-hint">
              {s.ossHint}
            </p>
            <fieldset>
              <legend>{s.vies}</legend>
              <p className="hint small muted">{s.viesHint}</p>
              {VIES.map((value) => (
                <div className="check" key={value}>
                  <input
                    type="radio"
                    id={`checkout-vies-${value}`}
                    name="vies_unavailable"
                    value={value}
                    defaultChecked={data.vies_unavailable === value}
                  />
                  <label htmlFor={`checkout-vies-${value}`}>{s.viesOptions[value]}</label>
                </div>
              ))}
            </fieldset>
            {editable ? (
              <button type="submit" className="primary" disabled={save.isPending}>
                {t.common.save}
              </button>
            ) : null}
          </fieldset>
        </form>
      ) : query.isPending ? (
        <p className="muted">{t.common.loading}</p>
      ) : null}
    </section>
  );
}
