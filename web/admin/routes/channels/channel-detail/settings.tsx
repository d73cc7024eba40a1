/**
 * A channel's settings and order rules (PATCH /api/admin/channels/{id}): name, currency (locked
 * once data depend on the channel: the API's 409 currency_locked is explained at the field),
 * default country, path prefix, payment deadline, auto-confirm, unpaid orders, stock allocation.
 */
import type { FormEvent } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { ALLOCATIONS, type Allocation, type Channel, CURRENCIES, type Currency } from '../reference.js';
import { useRefreshChannel } from './refresh.js';

const FIELDS = [
  'name',
  'currency',
  'default_country',
  'path_prefix',
  'pending_payment_ttl_hours',
  'auto_confirm_orders',
  'allow_unpaid_orders',
  'allocation_strategy',
  'slug',
];

export function Settings({ channel }: { channel: Channel }) {
  const t = useT();
  const can = useCan();
  const message = useErrorMessage();
  const refresh = useRefreshChannel();
  const editable = can('PATCH /api/admin/channels/{id}');
  const save = $api.useMutation('patch', '/api/admin/channels/{id}', {
    onSuccess: async () => {
      toast(t.channels.saved);
      await refresh();
    },
  });
  const problem = save.error as ApiProblem | null;
  const errors = fieldErrors(problem, FIELDS, t);
  // conflicts name the field they are about
  if (problem?.code === 'currency_locked') errors.fields.currency = t.channels.currencyLocked;
  if (problem?.code === 'path_prefix_taken') errors.fields.path_prefix = message('path_prefix_taken');
  if (problem?.code === 'slug_taken') errors.fields.slug = message('slug_taken');
  const handled = Object.keys(errors.fields).length > 0 && errors.other.length === 0;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    const data = new FormData(event.currentTarget);
    save.mutate({
      params: { path: { id: channel.id } },
      body: {
        name: v.name?.trim() ?? '',
        currency: (v.currency ?? channel.currency) as Currency,
        default_country: (v.default_country ?? '').trim().toUpperCase(),
        path_prefix: v.path_prefix?.trim() ? v.path_prefix.trim() : null,
        pending_payment_ttl_hours: Number(v.pending_payment_ttl_hours),
        auto_confirm_orders: data.has('auto_confirm_orders'),
        allow_unpaid_orders: data.has('allow_unpaid_orders'),
        allocation_strategy: (v.allocation_strategy ?? channel.allocation_strategy) as Allocation,
      },
    });
  };
  const currencyError = errors.fields.currency;
  return (
    <section aria-labelledby="settings-h" className="panel">
      <h2 id="settings-h">{t.channels.settings}</h2>
      {problem && !handled ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={!editable} className="plain">
          <legend className="visually-hidden">{t.channels.settings}</legend>
          <div className="form-grid">
            <Field
              label={t.channels.name}
              name="name"
              defaultValue={channel.name}
              required
              maxLength={200}
              error={errors.fields.name}
            />
            <div className="field">
              <label htmlFor="channel-currency">{t.channels.currency}</label>
              <span className="hint" id="channel-currency-hint">
                {t.channels.currencyLockHint}
              </span>
              <select
                id="channel-currency"
                name="currency"
                defaultValue={channel.currency}
                aria-invalid={currencyError ? true : undefined}
                aria-describedby={`channel-currency-hint${currencyError ? ' channel-currency-error' : ''}`}
              >
                {CURRENCIES.map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
              {currencyError ? (
                <span className="field-error" id="channel-currency-error">
                  {currencyError}
                </span>
              ) : null}
            </div>
            <Field
              label={t.channels.defaultCountry}
              name="default_country"
              defaultValue={channel.default_country}
              hint={t.channels.countryHint}
              maxLength={2}
              className="short"
              error={errors.fields.default_country}
            />
            <Field
              label={t.channels.pathPrefix}
              name="path_prefix"
              defaultValue={channel.path_prefix ?? ''}
              hint={t.channels.pathPrefixHint}
              maxLength={32}
              error={errors.fields.path_prefix}
            />
          </div>
          <fieldset>
            <legend>{t.channels.orderRules}</legend>
            <Field
              label={t.channels.ttl}
              name="pending_payment_ttl_hours"
              type="number"
              min={1}
              max={720}
              step={1}
              className="short"
              defaultValue={channel.pending_payment_ttl_hours}
              hint={t.channels.ttlHint}
              error={errors.fields.pending_payment_ttl_hours}
            />
            <div className="check">
              <input
                type="checkbox"
                id="channel-auto-confirm"
                name="auto_confirm_orders"
                defaultChecked={channel.auto_confirm_orders}
              />
              <label htmlFor="channel-auto-confirm">{t.channels.autoConfirm}</label>
            </div>
            <div className="check">
              <input
                type="checkbox"
                id="channel-allow-unpaid"
                name="allow_unpaid_orders"
                defaultChecked={channel.allow_unpaid_orders}
              />
              <label htmlFor="channel-allow-unpaid">{t.channels.allowUnpaid}</label>
            </div>
            <div className="field">
              <label htmlFor="channel-allocation">{t.channels.allocation}</label>
              <select id="channel-allocation" name="allocation_strategy" defaultValue={channel.allocation_strategy}>
                {ALLOCATIONS.map((a) => (
                  <option key={a} value={a}>
                    {t.channels.allocations[a]}
                  </option>
                ))}
              </select>
            </div>
          </fieldset>
          {editable ? (
            <button type="submit" className="primary" disabled={save.isPending}>
              {t.common.save}
            </button>
          ) : null}
        </fieldset>
      </form>
    </section>
  );
}
