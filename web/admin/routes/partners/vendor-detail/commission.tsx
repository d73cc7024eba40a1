/**
 * The vendor's platform commission: the rules in force now (general and per category), the
 * history of versions, and a new general version (percent and/or a fixed amount per line, from
 * now or a later time), said in a dialog first. A 400 lands at its field.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { ScrollRegion } from '../../../../shared/widgets/ScrollRegion.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { partnersText } from '../i18n.js';
import { numberFieldError, toCents, useRefreshPartners } from '../shared.js';
import type { VendorDetail } from './page.js';

type Rule = VendorDetail['commission_rules']['current'][number];

export function Commission({ vendor }: { vendor: VendorDetail }) {
  const s = useDictionary(partnersText);
  const f = useFormat();
  const can = useCan();
  // a fixed amount applies in each order's currency; shown in the vendor's (or the usual) one
  const currency = vendor.balances[0]?.currency ?? 'EUR';
  const ruleText = (r: { percent: number; fixed_cents: number }) =>
    s.commission.rule(f.percent(r.percent / 100), f.money(r.fixed_cents, currency));
  const { current, history } = vendor.commission_rules;
  const rows = (rules: Rule[], caption: string) => (
    <ScrollRegion label={caption}>
      <table className="data">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{s.commission.category}</th>
            <th scope="col" className="num">
              {s.commission.percent}
            </th>
            <th scope="col" className="num">
              {s.commission.fixed}
            </th>
            <th scope="col">{s.commission.from}</th>
          </tr>
        </thead>
        <tbody>
          {rules.map((r) => (
            <tr key={r.id}>
              <td>{r.category_name ?? (r.category_id ? r.category_id : s.commission.general)}</td>
              <td className="num">{f.percent(r.percent / 100)}</td>
              <td className="num">{f.money(r.fixed_cents, currency)}</td>
              <td>{f.dateTime(r.effective_from)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
  return (
    <section aria-labelledby="commission-h" className="panel">
      <h2 id="commission-h">{s.commission.title}</h2>
      <h3>{s.commission.current}</h3>
      {current.length === 0 ? <p className="muted">{s.commission.none}</p> : rows(current, s.commission.current)}
      {history.length > current.length ? (
        <details>
          <summary>{s.commission.history}</summary>
          {rows(history, s.commission.history)}
        </details>
      ) : null}
      {can('POST /api/admin/vendors/{id}/commission-rule') ? (
        <ChangeCommission vendorId={vendor.id} ruleText={ruleText} />
      ) : null}
    </section>
  );
}

function ChangeCommission({
  vendorId,
  ruleText,
}: {
  vendorId: string;
  ruleText: (r: { percent: number; fixed_cents: number }) => string;
}) {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const refresh = useRefreshPartners();
  const [formKey, setFormKey] = useState(0);
  const [pending, setPending] = useState<{
    percent: number | undefined;
    fixed_cents: number | undefined;
    effective_from: string | undefined;
    category: { id: string; name: string } | undefined;
  } | null>(null);
  const [categoryQ, setCategoryQ] = useState('');
  const [categoryId, setCategoryId] = useState('');
  // the categories offered: the first 50 by name matching the search (the server filters)
  const categories = $api.useQuery(
    'get',
    '/api/admin/categories',
    { params: { query: { limit: 50, ...(categoryQ.trim() ? { q: categoryQ.trim() } : {}) } } },
    { placeholderData: keepPreviousData },
  );
  const categoryList = categories.data?.categories ?? [];
  const add = $api.useMutation('post', '/api/admin/vendors/{id}/commission-rule', {
    onSuccess: async () => {
      setPending(null);
      setFormKey((k) => k + 1);
      setCategoryId('');
      setCategoryQ('');
      toast(s.commission.added);
      await refresh();
    },
    onError: () => setPending(null),
  });
  const problem = add.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['percent', 'fixed_cents', 'effective_from', 'category_id'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    add.reset();
    const percentText = (v.percent ?? '').trim().replace(',', '.');
    setPending({
      percent: percentText === '' ? undefined : Number(percentText),
      fixed_cents: toCents(v.fixed),
      effective_from: v.from ? new Date(v.from).toISOString() : undefined,
      category: categoryId
        ? { id: categoryId, name: categoryList.find((c) => c.id === categoryId)?.name ?? categoryId }
        : undefined,
    });
  };
  return (
    <>
      <h3>{s.commission.change}</h3>
      <form key={formKey} className="inline-form partner-form" onSubmit={onSubmit} noValidate>
        <Field
          label={s.commission.percentLabel}
          name="percent"
          inputMode="decimal"
          autoComplete="off"
          error={numberFieldError(errors.fields.percent, s.common.percentRange)}
        />
        <Field
          label={s.commission.fixedLabel}
          name="fixed"
          inputMode="decimal"
          hint={s.commission.fixedHint}
          autoComplete="off"
          error={numberFieldError(errors.fields.fixed_cents, s.common.amountInvalid)}
        />
        <Field label={s.commission.fromLabel} name="from" type="datetime-local" error={errors.fields.effective_from} />
        <Field
          label={s.commission.categorySearch}
          name="category_q"
          type="search"
          value={categoryQ}
          onChange={(e) => setCategoryQ(e.currentTarget.value)}
          autoComplete="off"
        />
        <div className="field">
          <label htmlFor="commission-category">{s.commission.categoryLabel}</label>
          <select
            id="commission-category"
            value={categoryId}
            onChange={(e) => setCategoryId(e.currentTarget.value)}
            aria-invalid={errors.fields.category_id ? true : undefined}
          >
            <option value="">{s.commission.anyCategory}</option>
            {categoryList.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
          {errors.fields.category_id ? <span className="field-error">{errors.fields.category_id}</span> : null}
        </div>
        <button type="submit" className="primary">
          {s.commission.change}
        </button>
      </form>
      {problem && !Object.keys(errors.fields).length ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <Dialog
        open={pending !== null}
        title={s.commission.change}
        onClose={() => setPending(null)}
        confirm={{
          label: s.commission.change,
          busy: add.isPending,
          onConfirm: () => {
            if (!pending) return;
            add.mutate({
              params: { path: { id: vendorId } },
              body: {
                ...(pending.percent !== undefined ? { percent: pending.percent } : {}),
                ...(pending.fixed_cents !== undefined ? { fixed_cents: pending.fixed_cents } : {}),
                ...(pending.effective_from ? { effective_from: pending.effective_from } : {}),
                ...(pending.category ? { category_id: pending.category.id } : {}),
              },
            });
          },
        }}
      >
        <p>
          {pending
            ? s.commission.confirm(
                ruleText({ percent: pending.percent ?? 0, fixed_cents: pending.fixed_cents ?? 0 }),
                pending.effective_from ? f.dateTime(pending.effective_from) : s.commission.now,
                pending.category ? s.commission.forCategory(pending.category.name) : s.commission.generalScope,
              )
            : null}
        </p>
      </Dialog>
    </>
  );
}
