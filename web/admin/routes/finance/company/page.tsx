/**
 * The company data printed on invoices (legal name, address, VAT ID, tax number, bank, footer,
 * number formats), and beside it what a valid e-invoice still lacks — from the server's readiness
 * check (the same checks finalization and the e-invoice writer run), refreshed after each save.
 * A role that may not change it sees the form disabled.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { financeText } from '../i18n.js';

const NULLABLE = [
  'legal_name',
  'line1',
  'line2',
  'postal_code',
  'city',
  'country',
  'vat_id',
  'tax_number',
  'register_info',
  'email',
  'phone',
  'contact_name',
  'bank_name',
  'iban',
  'bic',
  'invoice_footer',
] as const;
const REQUIRED = ['invoice_number_format', 'credit_note_number_format', 'time_zone'] as const;
const FIELDS = [...NULLABLE, ...REQUIRED, 'payment_terms_days'] as const;
type FieldName = (typeof FIELDS)[number];

const GROUPS: { legend: 'address' | 'tax' | 'contact' | 'bank' | 'invoices'; fields: FieldName[] }[] = [
  { legend: 'address', fields: ['legal_name', 'line1', 'line2', 'postal_code', 'city', 'country'] },
  { legend: 'tax', fields: ['vat_id', 'tax_number', 'register_info'] },
  { legend: 'contact', fields: ['email', 'phone', 'contact_name'] },
  { legend: 'bank', fields: ['bank_name', 'iban', 'bic'] },
  {
    legend: 'invoices',
    fields: ['invoice_number_format', 'credit_note_number_format', 'payment_terms_days', 'time_zone'],
  },
];

function Readiness() {
  const s = useDictionary(financeText).company;
  const readiness = $api.useQuery('get', '/api/admin/settings/company/einvoice-readiness');
  const r = readiness.data;
  const label = (field: string) => (s as unknown as Record<string, string>)[field] ?? field;
  return (
    <section aria-labelledby="ready-h" className="panel" aria-live="polite">
      <h2 id="ready-h">{s.readiness}</h2>
      {readiness.error ? <ProblemAlert problem={readiness.error as ApiProblem} /> : null}
      {r?.ready ? <p className="check-pass">✓ {s.ready}</p> : null}
      {r && !r.ready ? (
        <div className="alert alert-warning">
          <p>{s.notReady}</p>
          <ul>
            {r.missing.map((m) => (
              <li key={m.path}>
                <a href={`#company-${m.field}`}>{label(m.field)}</a>: {s.codes[m.message_code] ?? m.message_code}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {r && r.conditional.length > 0 ? (
        <>
          <p>{s.conditional}</p>
          <ul>
            {r.conditional.map((m) => (
              <li key={m.path}>
                {label(m.field)}: {s.codes[m.message_code] ?? m.message_code}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </section>
  );
}

export function CompanyPage() {
  const t = useT();
  const s = useDictionary(financeText).company;
  useTitle(s.title);
  const can = useCan();
  const queryClient = useQueryClient();
  const settings = $api.useQuery('get', '/api/admin/settings/company');
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const mayEdit = can('PUT /api/admin/settings/company');
  const save = $api.useMutation('put', '/api/admin/settings/company', {
    onSuccess: async (data) => {
      toast(s.saved);
      queryClient.setQueryData(['get', '/api/admin/settings/company', {}], data);
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/settings/company'] });
      await queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/settings/company/einvoice-readiness'] });
    },
    onError: (p: ApiProblem) => setProblem(p),
  });
  const errors = fieldErrors(problem, FIELDS, t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    const body: Record<string, string | number | null> = {};
    for (const k of NULLABLE) body[k] = v[k]?.trim() ? v[k].trim() : null;
    for (const k of REQUIRED) if (v[k]?.trim()) body[k] = v[k].trim();
    const days = v.payment_terms_days?.trim();
    if (days) body.payment_terms_days = Number(days);
    setProblem(null);
    save.mutate({ body });
  };
  const c = settings.data;
  const value = (k: FieldName) => {
    const x = c?.[k];
    return x === null || x === undefined ? '' : String(x);
  };
  return (
    <div className="page finance-page">
      <div className="page-head">
        <h1>{s.title}</h1>
      </div>
      <p className="muted">{s.intro}</p>
      {settings.error ? <ProblemAlert problem={settings.error as ApiProblem} /> : null}
      {c ? (
        <div className="company-layout">
          <form onSubmit={onSubmit} noValidate key={c.updated_at ?? 'new'} className="company-form">
            {problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
            {!mayEdit ? <p className="alert alert-info">{s.readOnly}</p> : null}
            <fieldset disabled={!mayEdit} className="plain">
              {GROUPS.map((g) => (
                <fieldset key={g.legend} className="panel">
                  <legend>{s[g.legend]}</legend>
                  <div className="form-grid">
                    {g.fields.map((k) => (
                      <Field
                        key={k}
                        id={`company-${k}`}
                        label={s[k]}
                        name={k}
                        defaultValue={value(k)}
                        autoComplete="off"
                        type={k === 'payment_terms_days' ? 'number' : k === 'email' ? 'email' : 'text'}
                        {...(k.endsWith('number_format') ? { hint: s.numberHint } : {})}
                        error={errors.fields[k]}
                      />
                    ))}
                  </div>
                  {g.legend === 'invoices' ? (
                    <div className="field">
                      <label htmlFor="company-invoice_footer">{s.invoice_footer}</label>
                      <textarea
                        id="company-invoice_footer"
                        name="invoice_footer"
                        rows={3}
                        maxLength={1000}
                        defaultValue={value('invoice_footer')}
                        aria-invalid={errors.fields.invoice_footer ? true : undefined}
                      />
                      {errors.fields.invoice_footer ? (
                        <span className="field-error">{errors.fields.invoice_footer}</span>
                      ) : null}
                    </div>
                  ) : null}
                </fieldset>
              ))}
            </fieldset>
            {mayEdit ? (
              <div className="save-bar">
                <button
                  type="submit"
                  className="primary"
                  disabled={save.isPending}
                  aria-busy={save.isPending || undefined}
                >
                  {s.save}
                </button>
              </div>
            ) : null}
          </form>
          <Readiness />
        </div>
      ) : settings.isPending ? (
        <p className="muted">{t.common.loading}</p>
      ) : null}
    </div>
  );
}
