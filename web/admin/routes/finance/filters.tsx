/** The filter bar of the invoice and credit-note lists: number/name search, status, issue-date range. */
import { useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import { formValues } from '../../../shared/forms.js';
import { useDictionary, useT } from '../../../shared/i18n/index.js';
import { financeText } from './i18n.js';
import type { DocumentSearch } from './routes.js';

export function DocumentFilters<S extends string>({
  id,
  search,
  statuses,
  label,
  hint,
  from,
}: {
  id: string;
  search: DocumentSearch<S>;
  statuses: readonly S[];
  label: string;
  hint: string;
  from: '/finance/invoices' | '/finance/credit-notes';
}) {
  const t = useT();
  const s = useDictionary(financeText).invoices;
  const navigate = useNavigate({ from });
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void navigate({
      search: (prev) => ({
        ...prev,
        page: 1,
        q: v.q?.trim() || undefined,
        status: (v.status || undefined) as never,
        from: v.from || undefined,
        to: v.to || undefined,
      }),
    });
  };
  // keyed by the URL: back/forward and links reset the controls to what the list shows
  const key = JSON.stringify([search.q, search.status, search.from, search.to]);
  return (
    <search aria-label={t.list.filters}>
      <form className="filters" onSubmit={onSubmit} key={key}>
        <div className="field field-wide">
          <label htmlFor={`${id}-q`}>{label}</label>
          <input id={`${id}-q`} name="q" type="search" defaultValue={search.q ?? ''} placeholder={hint} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-status`}>{s.status}</label>
          <select id={`${id}-status`} name="status" defaultValue={search.status ?? ''}>
            <option value="">{s.anyStatus}</option>
            {statuses.map((st) => (
              <option key={st} value={st}>
                {(t.orderOps.invoiceStatus as Record<string, string>)[st]}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${id}-from`}>{s.issuedFrom}</label>
          <input id={`${id}-from`} name="from" type="date" defaultValue={search.from ?? ''} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>{s.issuedTo}</label>
          <input id={`${id}-to`} name="to" type="date" defaultValue={search.to ?? ''} />
        </div>
        <div className="filter-actions">
          <button type="submit" className="primary">
            {t.list.apply}
          </button>
        </div>
      </form>
    </search>
  );
}
