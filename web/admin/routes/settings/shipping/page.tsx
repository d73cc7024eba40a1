/**
 * Shipping methods: the list (name, price, countries, active), a form to create one, edit in a
 * dialog and delete after a confirmation. Prices are entered as amounts and sent as integer
 * cents; the server's field errors land at their field.
 */
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { operations } from '../../../../../clients/typescript/schema.js';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { LOCALES, useDictionary, useErrorMessage, useLanguage, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { settingsText } from '../i18n.js';

type Method =
  operations['listShippingMethods']['responses'][200]['content']['application/json']['shipping_methods'][number];

const FIELDS = ['name', 'price_cents', 'countries', 'is_active'];

/** "4,90" or "4.90" → 490; null when it is no amount. */
export function parseCents(text: string): number | null {
  const clean = text.trim().replace(/\s/g, '');
  if (!/^\d+([.,]\d{1,2})?$/.test(clean)) return null;
  return Math.round(Number(clean.replace(',', '.')) * 100);
}

const parseCountries = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((c) => c.trim().toUpperCase())
    .filter((c) => c !== '');

export function ShippingMethodsPage() {
  const s = useDictionary(settingsText).shipping;
  const t = useT();
  useTitle(s.title);
  const can = useCan();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const query = $api.useQuery('get', '/api/admin/shipping-methods');
  const [editing, setEditing] = useState<Method | null>(null);
  const [removing, setRemoving] = useState<Method | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/shipping-methods'] });
  const canCreate = can('POST /api/admin/shipping-methods');
  const canEdit = can('PATCH /api/admin/shipping-methods/{id}');
  const canDelete = can('DELETE /api/admin/shipping-methods/{id}');
  const remove = $api.useMutation('delete', '/api/admin/shipping-methods/{id}', {
    onSuccess: async () => {
      setRemoving(null);
      toast(s.removed);
      await refresh();
    },
    onError: (problem: ApiProblem) => {
      setRemoving(null);
      toast(message(problem.code), 'error');
    },
  });
  const methods = query.data?.shipping_methods ?? [];
  const language = useLanguage();
  const money = (cents: number) => amountFormat(LOCALES[language]).format(cents / 100);
  return (
    <div className="page">
      <div className="page-head">
        <h1>{s.title}</h1>
        {query.data ? <p className="muted">{s.count(methods.length)}</p> : null}
      </div>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {!canCreate && !canEdit ? <p className="muted">{s.readOnly}</p> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{s.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.name}</th>
              <th scope="col" className="num">
                {s.price}
              </th>
              <th scope="col">{s.countries}</th>
              <th scope="col">{s.status}</th>
              {canEdit || canDelete ? <th scope="col">{s.actions}</th> : null}
            </tr>
          </thead>
          <tbody>
            {methods.map((m) => (
              <tr key={m.id}>
                <th scope="row">{m.name}</th>
                <td className="num">{money(m.price_cents)}</td>
                <td>{m.countries.length === 0 ? s.allCountries : m.countries.join(', ')}</td>
                <td>
                  <span className={`badge ${m.is_active ? 'badge-verified' : 'badge-unverified'}`}>
                    {m.is_active ? s.isActive : s.inactive}
                  </span>
                </td>
                {canEdit || canDelete ? (
                  <td className="row-actions">
                    {canEdit ? (
                      <button type="button" onClick={() => setEditing(m)} aria-label={s.edit(m.name)}>
                        {s.editShort}
                      </button>
                    ) : null}
                    {canDelete ? (
                      <button
                        type="button"
                        className="danger"
                        onClick={() => setRemoving(m)}
                        aria-label={s.removeTitle(m.name)}
                      >
                        {s.remove}
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {query.data && methods.length === 0 ? <p className="empty">{s.empty}</p> : null}
        {!query.data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
      </div>
      {canCreate ? <CreateMethod onDone={refresh} /> : null}
      {editing ? (
        <EditMethod
          method={editing}
          onClose={() => setEditing(null)}
          onDone={async () => {
            setEditing(null);
            await refresh();
          }}
        />
      ) : null}
      <Dialog
        open={removing !== null}
        title={removing ? s.removeTitle(removing.name) : ''}
        onClose={() => setRemoving(null)}
        confirm={
          removing
            ? {
                label: s.remove,
                danger: true,
                busy: remove.isPending,
                onConfirm: () => remove.mutate({ params: { path: { id: removing.id } } }),
              }
            : undefined
        }
      >
        <p>{s.removeText}</p>
      </Dialog>
    </div>
  );
}

/** Amounts with two decimals in the page's locale (the currency is each channel's own). */
const amountFormat = (locale: string) =>
  new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The fields of a method's form, filled from `method` when editing. */
function MethodFields({
  method,
  errors,
  idPrefix,
}: {
  method?: Method;
  errors: Record<string, string>;
  idPrefix: string;
}) {
  const s = useDictionary(settingsText).shipping;
  const language = useLanguage();
  const amount = method ? (method.price_cents / 100).toFixed(2) : '';
  return (
    <>
      <div className="form-grid">
        <Field
          label={s.name}
          name="name"
          required
          maxLength={200}
          defaultValue={method?.name ?? ''}
          error={errors.name}
        />
        <Field
          label={s.price}
          name="price"
          inputMode="decimal"
          required
          className="short"
          defaultValue={language === 'de' ? amount.replace('.', ',') : amount}
          hint={s.priceHint}
          error={errors.price_cents}
        />
        <Field
          label={s.countries}
          name="countries"
          defaultValue={method?.countries.join(', ') ?? ''}
          hint={s.countriesHint}
          error={errors.countries}
        />
      </div>
      <div className="check">
        <input type="checkbox" id={`${idPrefix}-active`} name="is_active" defaultChecked={method?.is_active ?? true} />
        <label htmlFor={`${idPrefix}-active`}>{s.active}</label>
      </div>
    </>
  );
}

/** The body of a create or edit form; a price that is no amount is refused here, at its field. */
function readForm(form: HTMLFormElement): {
  body: { name: string; price_cents: number; countries: string[]; is_active: boolean } | null;
  priceError: boolean;
} {
  const v = formValues(form);
  const cents = parseCents(v.price ?? '');
  if (cents === null) return { body: null, priceError: true };
  return {
    body: {
      name: (v.name ?? '').trim(),
      price_cents: cents,
      countries: parseCountries(v.countries ?? ''),
      is_active: new FormData(form).has('is_active'),
    },
    priceError: false,
  };
}

function CreateMethod({ onDone }: { onDone: () => Promise<unknown> }) {
  const s = useDictionary(settingsText).shipping;
  const t = useT();
  const [priceError, setPriceError] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const create = $api.useMutation('post', '/api/admin/shipping-methods', {
    onSuccess: async () => {
      toast(s.created);
      setFormKey((k) => k + 1);
      await onDone();
    },
  });
  const problem = create.error as ApiProblem | null;
  const errors = fieldErrors(problem, FIELDS, t);
  if (priceError) errors.fields.price_cents = s.badPrice;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const read = readForm(event.currentTarget);
    setPriceError(read.priceError);
    if (read.body) create.mutate({ body: read.body });
  };
  return (
    <section aria-labelledby="shipping-new-h" className="panel">
      <h2 id="shipping-new-h">{s.create}</h2>
      {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <form onSubmit={onSubmit} noValidate key={formKey}>
        <MethodFields errors={errors.fields} idPrefix="shipping-new" />
        <button type="submit" className="primary" disabled={create.isPending}>
          {s.create}
        </button>
      </form>
    </section>
  );
}

function EditMethod({
  method,
  onClose,
  onDone,
}: {
  method: Method;
  onClose: () => void;
  onDone: () => Promise<unknown>;
}) {
  const s = useDictionary(settingsText).shipping;
  const t = useT();
  const [priceError, setPriceError] = useState(false);
  const save = $api.useMutation('patch', '/api/admin/shipping-methods/{id}', {
    onSuccess: async () => {
      toast(s.saved);
      await onDone();
    },
  });
  const problem = save.error as ApiProblem | null;
  const errors = fieldErrors(problem, FIELDS, t);
  if (priceError) errors.fields.price_cents = s.badPrice;
  const formId = `shipping-edit-${method.id}`;
  const submit = () => {
    const form = document.getElementById(formId) as HTMLFormElement | null;
    if (!form) return;
    const read = readForm(form);
    setPriceError(read.priceError);
    if (read.body) save.mutate({ params: { path: { id: method.id } }, body: read.body });
  };
  return (
    <Dialog
      open
      title={s.edit(method.name)}
      onClose={onClose}
      confirm={{ label: t.common.save, busy: save.isPending, onConfirm: submit }}
    >
      {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <form
        id={formId}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <MethodFields method={method} errors={errors.fields} idPrefix={formId} />
      </form>
    </Dialog>
  );
}
