/**
 * Products: searched, filtered, sorted and paged by the server (100k+ products); every filter,
 * the sort and the page live in the URL. Rows can be selected (one by one or the whole page) for
 * a bulk action whose per-product results are shown after the call.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import type { ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { formValues } from '../../../../shared/forms.js';
import { useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging, SortHeader } from '../../../../shared/list.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { productsRoute } from '../../../router.js';
import { useTitle } from '../../../shell.js';
import { BulkBar } from './bulk.js';
import { ProductFilters } from './filters.js';
import { type ProductListSearch, productListQuery } from './query.js';

function SelectAll({
  checked,
  mixed,
  onChange,
  label,
}: {
  checked: boolean;
  mixed: boolean;
  onChange: (v: boolean) => void;
  label: string;
}) {
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = mixed;
  }, [mixed]);
  return (
    <input
      ref={ref}
      type="checkbox"
      aria-label={label}
      checked={checked}
      onChange={(e) => onChange(e.currentTarget.checked)}
    />
  );
}

export function ProductListPage() {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  useTitle(t.products.title);
  const search = productsRoute.useSearch();
  const navigate = useNavigate({ from: productsRoute.fullPath });
  const query = useQuery({ ...productListQuery(search), placeholderData: keepPreviousData });
  const [selected, setSelected] = useState<Map<string, string>>(new Map());
  const mayBulk = can('POST /api/products/bulk');
  // the selection is kept across pages, but another filter or sort starts a new one (nothing
  // hidden stays selected)
  const { page: _page, limit: _limit, ...filters } = search;
  const filterKey = JSON.stringify(filters);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the filters change
  useEffect(() => setSelected(new Map()), [filterKey]);

  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const setSort = (sort: string) =>
    navigate({ search: (prev) => ({ ...prev, page: 1, sort: sort as ProductListSearch['sort'] }) });
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void navigate({
      search: (prev) => ({
        ...prev,
        page: 1,
        q: v.q?.trim() || undefined,
        status: (v.status || undefined) as ProductListSearch['status'],
        category_id: v.category_id || undefined,
        brand_id: v.brand_id || undefined,
        supplier_id: v.supplier_id || undefined,
        digital: (v.digital || undefined) as ProductListSearch['digital'],
      }),
    });
  };

  const data = query.data;
  const rows = data?.products ?? [];
  const onPage = rows.filter((p) => selected.has(p.id)).length;
  const toggle = (id: string, name: string, on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      if (on) next.set(id, name);
      else next.delete(id);
      return next;
    });
  const toggleAll = (on: boolean) =>
    setSelected((prev) => {
      const next = new Map(prev);
      for (const p of rows) {
        if (on) next.set(p.id, p.name);
        else next.delete(p.id);
      }
      return next;
    });
  const sort = search.sort ?? '-created_at';
  return (
    <div className="page">
      <div className="page-head">
        <h1>{t.products.title}</h1>
        {data ? <p className="muted">{t.products.count(data.count)}</p> : null}
        {can('POST /api/products') ? (
          <Link to="/products/new" className="button primary">
            {t.products.create}
          </Link>
        ) : null}
      </div>
      <ProductFilters search={search} onSubmit={onFilter} />
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {mayBulk ? (
        <BulkBar
          ids={[...selected.keys()]}
          names={Object.fromEntries(selected)}
          onDone={() => setSelected(new Map())}
          onClear={() => setSelected(new Map())}
        />
      ) : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{t.products.title}</caption>
          <thead>
            <tr>
              {mayBulk ? (
                <th scope="col" className="check">
                  <SelectAll
                    label={t.products.selectAll}
                    checked={rows.length > 0 && onPage === rows.length}
                    mixed={onPage > 0 && onPage < rows.length}
                    onChange={toggleAll}
                  />
                </th>
              ) : null}
              <SortHeader label={t.products.name} column="name" sort={sort} onSort={setSort} />
              <SortHeader label={t.products.sku} column="sku" sort={sort} onSort={setSort} />
              <th scope="col">{t.products.status}</th>
              <SortHeader
                label={t.products.price}
                column="base_price_cents"
                sort={sort}
                onSort={setSort}
                className="num"
              />
              <th scope="col" className="num">
                {t.products.stock}
              </th>
              <SortHeader label={t.products.updated} column="updated_at" sort={sort} onSort={setSort} />
              <SortHeader label={t.products.created} column="created_at" sort={sort} onSort={setSort} />
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr key={p.id} aria-selected={mayBulk ? selected.has(p.id) : undefined}>
                {mayBulk ? (
                  <td className="check">
                    <input
                      type="checkbox"
                      aria-label={t.products.select(p.name)}
                      checked={selected.has(p.id)}
                      onChange={(e) => toggle(p.id, p.name, e.currentTarget.checked)}
                    />
                  </td>
                ) : null}
                <th scope="row">
                  <Link to="/products/$id" params={{ id: p.id }}>
                    {p.name}
                  </Link>
                  {p.is_digital ? <span className="tag">{t.products.digital}</span> : null}
                  {p.variants.length ? (
                    <span className="muted block small">
                      {t.products.variants}: {p.variants.length}
                    </span>
                  ) : null}
                </th>
                <td className="mono">{p.sku ?? t.common.none}</td>
                <td>
                  <span className={`badge badge-product-${p.status}`}>{t.products.statuses[p.status]}</span>
                </td>
                <td className="num">{f.money(p.base_price_cents, 'EUR')}</td>
                <td className="num">
                  {p.track_stock
                    ? f.number(
                        p.variants.length ? p.variants.reduce((n, v) => n + v.stock_quantity, 0) : p.stock_quantity,
                      )
                    : t.common.none}
                </td>
                <td>{f.date(p.updated_at)}</td>
                <td>{f.date(p.created_at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {data && rows.length === 0 ? (
          <p className="empty">
            {t.list.empty}{' '}
            <Link to="/products" search={{ page: 1, limit: search.limit }}>
              {t.list.reset}
            </Link>
          </p>
        ) : null}
      </div>
      {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
    </div>
  );
}
