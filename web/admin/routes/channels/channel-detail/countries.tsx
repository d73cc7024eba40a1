/**
 * A channel's countries: the selection (empty = every active country), the tax rates that apply
 * with the channel's overrides, and the shop's own countries. Rates are shown and entered in
 * percent and sent as the fractions the API stores (19 → 0.19); the page converts units only, the
 * service decides which rate an order gets.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import type { operations } from '../../../../../clients/typescript/schema.js';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { fractionToPercent, percentToFraction } from '../reference.js';

type Country = operations['listChannelCountries']['responses'][200]['content']['application/json']['countries'][number];
const RATES = ['tax_rate', 'food_tax_rate', 'books_tax_rate'] as const;
type RateKey = (typeof RATES)[number];

function useRefreshCountries() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/channels/{id}/countries'] });
}

/** A rate field's server error in percent words (the API's bounds are 0…1). */
function rateErrors(problem: ApiProblem | null, t: ReturnType<typeof useT>) {
  const errors = fieldErrors(problem, ['code', 'name', ...RATES], t);
  for (const key of RATES) if (errors.fields[key]) errors.fields[key] = t.channels.percentRange;
  return errors;
}

/** The rates of a form (percent) as the API's fractions; a field that is not a number is reported. */
function ratesOf(v: Record<string, string>, t: ReturnType<typeof useT>) {
  const body: Partial<Record<RateKey, number | null>> = {};
  const invalid: Partial<Record<RateKey, string>> = {};
  for (const key of RATES) {
    const fraction = percentToFraction(v[key] ?? '');
    if (fraction === undefined) invalid[key] = t.channels.percentRange;
    else body[key] = fraction;
  }
  return { body, invalid };
}

export function Countries({ channelId }: { channelId: string }) {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  const refresh = useRefreshCountries();
  const path = { id: channelId };
  const query = $api.useQuery('get', '/api/admin/channels/{id}/countries', { params: { path } });
  const [editing, setEditing] = useState<Country | null>(null);
  const [deleting, setDeleting] = useState<Country | null>(null);
  const canEdit = can('PATCH /api/admin/channels/{id}/countries/{code}');
  const select = $api.useMutation('put', '/api/admin/channels/{id}/countries', {
    onSuccess: async () => {
      toast(t.channels.saved);
      await refresh();
    },
  });
  const removeCustom = $api.useMutation('delete', '/api/admin/channels/{id}/countries/custom/{code}', {
    onSuccess: async () => {
      setDeleting(null);
      toast(t.channels.saved);
      await refresh();
    },
    onError: (problem: ApiProblem) => {
      setDeleting(null);
      toast(message(problem.code), 'error');
    },
  });
  const data = query.data;
  const selectionErrors = fieldErrors(select.error as ApiProblem | null, ['country_codes'], t);
  const onSelect = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const codes = (formValues(event.currentTarget).country_codes ?? '')
      .split(/[\s,;]+/)
      .map((c) => c.trim().toUpperCase())
      .filter(Boolean);
    select.mutate({ params: { path }, body: { country_codes: [...new Set(codes)] } });
  };
  const rate = (value: number | null, override: number | null) =>
    value === null ? (
      t.common.none
    ) : (
      <>
        {f.percent(value)}
        {override !== null ? <span className="tag">{t.channels.overridden}</span> : null}
      </>
    );
  return (
    <section aria-labelledby="countries-h" className="panel">
      <h2 id="countries-h">{t.channels.countries}</h2>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {data ? (
        <>
          <p>{data.inherited ? t.channels.countriesInherited : t.channels.countriesSelected(data.countries.length)}</p>
          {can('PUT /api/admin/channels/{id}/countries') ? (
            <form
              onSubmit={onSelect}
              className="inline-form"
              noValidate
              key={data.inherited ? '' : data.countries.map((c) => c.code).join()}
            >
              <Field
                label={t.channels.selection}
                name="country_codes"
                hint={t.channels.selectionHint}
                defaultValue={data.inherited ? '' : data.countries.map((c) => c.code).join(', ')}
                autoComplete="off"
                error={selectionErrors.fields.country_codes}
              />
              <button type="submit" disabled={select.isPending}>
                {t.channels.saveSelection}
              </button>
            </form>
          ) : null}
          <div className="table-wrap scroll-y">
            <table className="data">
              <caption className="visually-hidden">{t.channels.countries}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.channels.country}</th>
                  <th scope="col">{t.channels.currency}</th>
                  <th scope="col" className="num">
                    {t.channels.taxRate}
                  </th>
                  <th scope="col" className="num">
                    {t.channels.foodTaxRate}
                  </th>
                  <th scope="col" className="num">
                    {t.channels.booksTaxRate}
                  </th>
                  {canEdit ? (
                    <th scope="col">
                      <span className="visually-hidden">{t.order.actions}</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {data.countries.map((c) => (
                  <tr key={c.code}>
                    <th scope="row">
                      <span className="mono">{c.code}</span> {c.name}
                      {c.is_custom ? <span className="tag">{t.channels.custom}</span> : null}
                    </th>
                    <td>{c.currency ?? t.common.none}</td>
                    <td className="num">{rate(c.tax_rate, c.overrides.tax_rate)}</td>
                    <td className="num">{rate(c.food_tax_rate, c.overrides.food_tax_rate)}</td>
                    <td className="num">{rate(c.books_tax_rate, c.overrides.books_tax_rate)}</td>
                    {canEdit ? (
                      <td className="row-actions">
                        <button
                          type="button"
                          className="small-button"
                          aria-label={t.channels.editRates(c.name)}
                          onClick={() => setEditing(c)}
                        >
                          {t.channels.edit}
                        </button>
                        {c.is_custom && can('DELETE /api/admin/channels/{id}/countries/custom/{code}') ? (
                          <button
                            type="button"
                            className="small-button"
                            aria-label={t.channels.deleteCustom(c.name)}
                            onClick={() => setDeleting(c)}
                          >
                            {t.channels.remove}
                          </button>
                        ) : null}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : query.isPending ? (
        <p className="muted">{t.common.loading}</p>
      ) : null}
      {editing ? <RatesDialog channelId={channelId} country={editing} onClose={() => setEditing(null)} /> : null}
      <Dialog
        open={deleting !== null}
        title={deleting ? t.channels.deleteCustom(deleting.name) : ''}
        onClose={() => setDeleting(null)}
        confirm={{
          label: t.channels.remove,
          danger: true,
          busy: removeCustom.isPending,
          onConfirm: () => {
            if (deleting) removeCustom.mutate({ params: { path: { id: channelId, code: deleting.code } } });
          },
        }}
      >
        <p>{deleting ? t.channels.confirmDeleteCustom(deleting.name) : null}</p>
      </Dialog>
      {can('POST /api/admin/channels/{id}/countries/custom') ? <CustomCountry channelId={channelId} /> : null}
    </section>
  );
}

/** The channel's overrides of one country's rates, in percent; an empty field removes the override. */
function RatesDialog({ channelId, country, onClose }: { channelId: string; country: Country; onClose: () => void }) {
  const t = useT();
  const f = useFormat();
  const refresh = useRefreshCountries();
  const formRef = useRef<HTMLFormElement>(null);
  const [invalid, setInvalid] = useState<Partial<Record<RateKey, string>>>({});
  const save = $api.useMutation('patch', '/api/admin/channels/{id}/countries/{code}', {
    onSuccess: async () => {
      toast(t.channels.saved);
      await refresh();
      onClose();
    },
  });
  const problem = save.error as ApiProblem | null;
  const errors = rateErrors(problem, t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const { body, invalid: bad } = ratesOf(formValues(event.currentTarget), t);
    setInvalid(bad);
    if (Object.keys(bad).length > 0) return;
    save.mutate({ params: { path: { id: channelId, code: country.code } }, body });
  };
  const labels: Record<RateKey, string> = {
    tax_rate: t.channels.taxRate,
    food_tax_rate: t.channels.foodTaxRate,
    books_tax_rate: t.channels.booksTaxRate,
  };
  // the general rate: the effective value where no override is set
  const general = (key: RateKey) =>
    country.overrides[key] === null && country[key] !== null
      ? t.channels.general(f.percent(country[key] as number))
      : undefined;
  return (
    <Dialog
      open
      title={t.channels.ratesTitle(country.name)}
      onClose={onClose}
      confirm={{ label: t.common.save, busy: save.isPending, onConfirm: () => formRef.current?.requestSubmit() }}
    >
      <p>{t.channels.ratesIntro}</p>
      {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <form ref={formRef} onSubmit={onSubmit} noValidate>
        {RATES.map((key) => (
          <Field
            key={key}
            label={t.channels.percent(labels[key])}
            name={key}
            inputMode="decimal"
            className="short"
            autoComplete="off"
            defaultValue={fractionToPercent(country.overrides[key])}
            hint={general(key)}
            error={invalid[key] ?? errors.fields[key]}
          />
        ))}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      </form>
    </Dialog>
  );
}

/** Adds a shop-owned country (a code the shared list does not have) to the channel. */
function CustomCountry({ channelId }: { channelId: string }) {
  const t = useT();
  const message = useErrorMessage();
  const refresh = useRefreshCountries();
  const formRef = useRef<HTMLFormElement>(null);
  const [invalid, setInvalid] = useState<Partial<Record<RateKey, string>>>({});
  const add = $api.useMutation('post', '/api/admin/channels/{id}/countries/custom', {
    onSuccess: async () => {
      formRef.current?.reset();
      toast(t.channels.customAdded);
      await refresh();
    },
  });
  const problem = add.error as ApiProblem | null;
  const errors = rateErrors(problem, t);
  if (problem?.code === 'country_exists') errors.fields.code = message('country_exists');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    const { body, invalid: bad } = ratesOf({ tax_rate: v.tax_rate ?? '' }, t);
    setInvalid(bad);
    if (Object.keys(bad).length > 0) return;
    add.mutate({
      params: { path: { id: channelId } },
      body: {
        code: (v.code ?? '').trim().toUpperCase(),
        name: v.name?.trim() ?? '',
        ...(body.tax_rate !== undefined ? { tax_rate: body.tax_rate } : {}),
      },
    });
  };
  return (
    <div className="subsection">
      <h3>{t.channels.customCountries}</h3>
      <p className="muted small">{t.channels.customHint}</p>
      {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <form ref={formRef} onSubmit={onSubmit} className="inline-form" noValidate>
        <Field
          label={t.channels.code}
          name="code"
          maxLength={2}
          className="short"
          autoComplete="off"
          error={errors.fields.code}
        />
        <Field label={t.channels.country} name="name" maxLength={100} autoComplete="off" error={errors.fields.name} />
        <Field
          label={t.channels.percent(t.channels.taxRate)}
          name="tax_rate"
          inputMode="decimal"
          className="short"
          autoComplete="off"
          error={invalid.tax_rate ?? errors.fields.tax_rate}
        />
        <button type="submit" disabled={add.isPending}>
          {t.channels.addCustom}
        </button>
      </form>
    </div>
  );
}
