/** The filter bar of the products list: native controls in a search form, values from the URL. */
import { type FormEvent, useState } from 'react';
import { useT } from '../../../../shared/i18n/index.js';
import { PRODUCT_STATUSES } from '../../../router.js';
import { ReferenceSearch } from '../reference-search.js';
import { type ReferenceKind, useReferencePicker } from '../shared.js';
import type { ProductListSearch } from './query.js';

const REFS: { kind: ReferenceKind; param: 'category_id' | 'brand_id' | 'supplier_id' }[] = [
  { kind: 'categories', param: 'category_id' },
  { kind: 'brands', param: 'brand_id' },
  { kind: 'suppliers', param: 'supplier_id' },
];

export function ProductFilters({
  search,
  onSubmit,
}: {
  search: ProductListSearch;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const t = useT();
  const labels = { categories: t.products.category, brands: t.products.brand, suppliers: t.products.supplier };
  // keyed by the URL (and the loaded pickers): back/forward reset the controls to what the list shows
  const key = JSON.stringify([
    search.q,
    search.status,
    search.category_id,
    search.brand_id,
    search.supplier_id,
    search.digital,
  ]);
  return (
    <search aria-label={t.list.filters}>
      <form className="filters" onSubmit={onSubmit} key={key}>
        <div className="field">
          <label htmlFor="products-q">{t.products.search}</label>
          <input
            id="products-q"
            name="q"
            type="search"
            defaultValue={search.q ?? ''}
            placeholder={t.products.searchHint}
          />
        </div>
        <div className="field">
          <label htmlFor="products-status">{t.products.status}</label>
          <select id="products-status" name="status" defaultValue={search.status ?? ''}>
            <option value="">{t.products.anyStatus}</option>
            {PRODUCT_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t.products.statuses[s]}
              </option>
            ))}
          </select>
        </div>
        {REFS.map(({ kind, param }) => (
          <ReferenceFilter key={kind} kind={kind} param={param} label={labels[kind]} value={search[param]} />
        ))}
        <div className="field">
          <label htmlFor="products-digital">{t.products.digital}</label>
          <select id="products-digital" name="digital" defaultValue={search.digital ?? ''}>
            <option value="">{t.products.allProducts}</option>
            <option value="ja">{t.products.digitalOnly}</option>
          </select>
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

/**
 * One reference filter: a select of the records (controlled, so that narrowing its options by the
 * search does not lose the choice) and, in a shop with more than the picker lists, its search.
 */
function ReferenceFilter({
  kind,
  param,
  label,
  value: initial,
}: {
  kind: ReferenceKind;
  param: string;
  label: string;
  value: string | undefined;
}) {
  const t = useT();
  const [value, setValue] = useState(initial ?? '');
  const picker = useReferencePicker(kind, value);
  return (
    <>
      <div className="field">
        <label htmlFor={`products-${param}`}>{label}</label>
        <select id={`products-${param}`} name={param} value={value} onChange={(e) => setValue(e.currentTarget.value)}>
          <option value="">{t.products.any}</option>
          <option value="ohne">{t.products.without}</option>
          {picker.options.map((r) => (
            <option key={r.id} value={r.id}>
              {r.name}
            </option>
          ))}
          {value && value !== 'ohne' && !picker.options.some((r) => r.id === value) ? (
            <option value={value}>{value}</option>
          ) : null}
        </select>
      </div>
      <ReferenceSearch id={`products-${param}-search`} label={label} picker={picker} />
    </>
  );
}
