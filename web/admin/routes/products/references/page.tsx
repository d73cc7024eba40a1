/**
 * Categories, brands and suppliers: a list with the number of products using each record
 * (server-paged, searchable, in the URL), create, rename and delete. A delete the server refuses
 * with 409 in_use says what still uses the record and links to the product list filtered by it.
 */
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { type ApiProblem, client } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging, serverPaging } from '../../../../shared/list.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { brandsRoute, categoriesRoute, suppliersRoute } from '../../../router.js';
import { useTitle } from '../../../shell.js';
import type { ReferenceKind } from '../shared.js';

interface Row {
  id: string;
  name: string;
  product_count: number;
  subcategory_count?: number;
}
interface Search extends Paging {
  q?: string | undefined;
}

/** The three resources, each through its own typed path of the generated client. */
const api = {
  categories: {
    list: async (query: { limit: number; offset: number; q?: string | undefined }) => {
      const { data, error } = await client.GET('/api/admin/categories', { params: { query } });
      if (error) throw error;
      return { rows: data.categories as Row[], count: data.count };
    },
    create: (name: string) => client.POST('/api/admin/categories', { body: { name } }),
    rename: (id: string, name: string) =>
      client.PATCH('/api/admin/categories/{id}', { params: { path: { id } }, body: { name } }),
    remove: (id: string) => client.DELETE('/api/admin/categories/{id}', { params: { path: { id } } }),
    param: 'category_id' as const,
  },
  brands: {
    list: async (query: { limit: number; offset: number; q?: string | undefined }) => {
      const { data, error } = await client.GET('/api/admin/brands', { params: { query } });
      if (error) throw error;
      return { rows: data.brands as Row[], count: data.count };
    },
    create: (name: string) => client.POST('/api/admin/brands', { body: { name } }),
    rename: (id: string, name: string) =>
      client.PATCH('/api/admin/brands/{id}', { params: { path: { id } }, body: { name } }),
    remove: (id: string) => client.DELETE('/api/admin/brands/{id}', { params: { path: { id } } }),
    param: 'brand_id' as const,
  },
  suppliers: {
    list: async (query: { limit: number; offset: number; q?: string | undefined }) => {
      const { data, error } = await client.GET('/api/admin/suppliers', { params: { query } });
      if (error) throw error;
      return { rows: data.suppliers as Row[], count: data.count };
    },
    create: (name: string) => client.POST('/api/admin/suppliers', { body: { name } }),
    rename: (id: string, name: string) =>
      client.PATCH('/api/admin/suppliers/{id}', { params: { path: { id } }, body: { name } }),
    remove: (id: string) => client.DELETE('/api/admin/suppliers/{id}', { params: { path: { id } } }),
    param: 'supplier_id' as const,
  },
};

const OPS = {
  categories: {
    create: 'POST /api/admin/categories',
    patch: 'PATCH /api/admin/categories/{id}',
    del: 'DELETE /api/admin/categories/{id}',
  },
  brands: {
    create: 'POST /api/admin/brands',
    patch: 'PATCH /api/admin/brands/{id}',
    del: 'DELETE /api/admin/brands/{id}',
  },
  suppliers: {
    create: 'POST /api/admin/suppliers',
    patch: 'PATCH /api/admin/suppliers/{id}',
    del: 'DELETE /api/admin/suppliers/{id}',
  },
} as const;

export function CategoriesPage() {
  return <ReferencePage kind="categories" search={categoriesRoute.useSearch()} from={categoriesRoute.fullPath} />;
}
export function BrandsPage() {
  return <ReferencePage kind="brands" search={brandsRoute.useSearch()} from={brandsRoute.fullPath} />;
}
export function SuppliersPage() {
  return <ReferencePage kind="suppliers" search={suppliersRoute.useSearch()} from={suppliersRoute.fullPath} />;
}

type Pending = { kind: 'rename' | 'delete'; row: Row } | null;

function ReferencePage({
  kind,
  search,
  from,
}: {
  kind: ReferenceKind;
  search: Search;
  from: '/categories' | '/brands' | '/suppliers';
}) {
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const r = t.catalogRefs;
  const message = useErrorMessage();
  const title = r.titles[kind];
  useTitle(title);
  const navigate = useNavigate({ from });
  const queryClient = useQueryClient();
  const queryKey = ['reference', kind, search];
  const query = useQuery({
    queryKey,
    queryFn: () => api[kind].list({ ...serverPaging(search), q: search.q }),
    placeholderData: keepPreviousData,
  });
  const [pending, setPending] = useState<Pending>(null);
  const [createError, setCreateError] = useState<ApiProblem | null>(null);
  const [renameError, setRenameError] = useState<ApiProblem | null>(null);
  const [inUse, setInUse] = useState<{ row: Row; problem: ApiProblem } | null>(null);
  const [busy, setBusy] = useState(false);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['reference', kind] });
    await queryClient.invalidateQueries({ queryKey: ['get', `/api/admin/${kind}`] });
  };

  const onCreate = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = formValues(form).name ?? '';
    setBusy(true);
    const { error } = await api[kind].create(name);
    setBusy(false);
    if (error) return setCreateError(error as ApiProblem);
    setCreateError(null);
    form.reset();
    toast(r.created);
    await refresh();
  };
  const onRename = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!pending) return;
    const name = formValues(event.currentTarget).name ?? '';
    setBusy(true);
    const { error } = await api[kind].rename(pending.row.id, name);
    setBusy(false);
    if (error) return setRenameError(error as ApiProblem);
    setRenameError(null);
    setPending(null);
    toast(r.renamed);
    await refresh();
  };
  const onDelete = async () => {
    if (!pending) return;
    const row = pending.row;
    setBusy(true);
    const { error } = await api[kind].remove(row.id);
    setBusy(false);
    setPending(null);
    if (error) {
      const problem = error as ApiProblem;
      if (problem.code === 'in_use') setInUse({ row, problem });
      else toast(message(problem.code), 'error');
      await refresh();
      return;
    }
    setInUse(null);
    toast(r.deleted);
    await refresh();
  };

  const createErrors = fieldErrors(createError, ['name'], t);
  const renameErrors = fieldErrors(renameError, ['name'], t);
  const data = query.data;
  const mayCreate = can(OPS[kind].create);
  const mayRename = can(OPS[kind].patch);
  const mayDelete = can(OPS[kind].del);
  const param = api[kind].param;
  return (
    <div className="page">
      <div className="page-head">
        <h1>{title}</h1>
        {data ? <p className="muted">{r.count(data.count)}</p> : null}
      </div>
      {inUse ? (
        <div className="alert alert-warning" role="alert">
          <p>{r.inUse(inUse.row.name)}</p>
          <ul>
            {inUse.row.product_count > 0 ? (
              <li>
                {r.usedBy(inUse.row.product_count)}:{' '}
                <Link to="/products" search={{ page: 1, limit: 25, [param]: inUse.row.id }}>
                  {r.showProducts(inUse.row.product_count)}
                </Link>
              </li>
            ) : null}
            {inUse.row.subcategory_count ? <li>{r.subcategoriesBlock(inUse.row.subcategory_count)}</li> : null}
          </ul>
        </div>
      ) : null}
      {mayCreate ? (
        <section className="panel" aria-labelledby="ref-create-h">
          <h2 id="ref-create-h">{r.createTitle(r.singular[kind])}</h2>
          {createError && !createErrors.fields.name ? (
            <ProblemAlert problem={createError} extra={createErrors.other} />
          ) : null}
          <form className="inline-form" onSubmit={onCreate}>
            <Field
              label={r.name}
              name="name"
              required
              maxLength={200}
              error={
                createErrors.fields.name ?? (createError?.code === 'name_taken' ? message('name_taken') : undefined)
              }
            />
            <div className="filter-actions">
              <button type="submit" className="primary" disabled={busy}>
                {r.create}
              </button>
            </div>
          </form>
        </section>
      ) : null}
      <search aria-label={t.list.filters}>
        <form
          className="filters"
          key={search.q ?? ''}
          onSubmit={(e) => {
            e.preventDefault();
            const q = formValues(e.currentTarget).q?.trim() || undefined;
            void navigate({ search: (prev) => ({ ...prev, page: 1, q }) });
          }}
        >
          <div className="field">
            <label htmlFor="ref-q">{r.search}</label>
            <input id="ref-q" name="q" type="search" defaultValue={search.q ?? ''} />
          </div>
          <div className="filter-actions">
            <button type="submit">{t.list.apply}</button>
          </div>
        </form>
      </search>
      {query.error ? <ProblemAlert problem={query.error as unknown as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">{r.name}</th>
              <th scope="col" className="num">
                {r.products}
              </th>
              {kind === 'categories' ? (
                <th scope="col" className="num">
                  {r.subcategories}
                </th>
              ) : null}
              {mayRename || mayDelete ? <th scope="col">{r.actions}</th> : null}
            </tr>
          </thead>
          <tbody>
            {data?.rows.map((row) => (
              <tr key={row.id}>
                <th scope="row">{row.name}</th>
                <td className="num">
                  {row.product_count > 0 ? (
                    <Link
                      to="/products"
                      search={{ page: 1, limit: 25, [param]: row.id }}
                      aria-label={`${r.showProducts(row.product_count)}: ${row.name}`}
                    >
                      {f.number(row.product_count)}
                    </Link>
                  ) : (
                    f.number(0)
                  )}
                </td>
                {kind === 'categories' ? <td className="num">{f.number(row.subcategory_count ?? 0)}</td> : null}
                {mayRename || mayDelete ? (
                  <td className="row-actions">
                    {mayRename ? (
                      <button
                        type="button"
                        aria-label={r.rename(row.name)}
                        onClick={() => {
                          setRenameError(null);
                          setPending({ kind: 'rename', row });
                        }}
                      >
                        {r.renameShort}
                      </button>
                    ) : null}
                    {mayDelete ? (
                      <button
                        type="button"
                        className="danger"
                        aria-label={r.delete(row.name)}
                        onClick={() => setPending({ kind: 'delete', row })}
                      >
                        {r.deleteShort}
                      </button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {data && data.rows.length === 0 ? <p className="empty">{t.list.empty}</p> : null}
      </div>
      {data ? (
        <Pager
          count={data.count}
          paging={search}
          onChange={(p) => navigate({ search: (prev) => ({ ...prev, ...p }) })}
        />
      ) : null}
      <Dialog
        open={pending?.kind === 'delete'}
        title={pending ? r.delete(pending.row.name) : ''}
        onClose={() => setPending(null)}
        confirm={{ label: r.deleteShort, danger: true, busy, onConfirm: () => void onDelete() }}
      >
        <p>{pending ? r.confirmDelete(pending.row.name) : ''}</p>
      </Dialog>
      <Dialog
        open={pending?.kind === 'rename'}
        title={pending ? r.rename(pending.row.name) : ''}
        onClose={() => setPending(null)}
      >
        {pending?.kind === 'rename' ? (
          <form onSubmit={onRename} key={pending.row.id} id="rename-form">
            {renameError && !renameErrors.fields.name ? (
              <ProblemAlert problem={renameError} extra={renameErrors.other} />
            ) : null}
            <Field
              label={r.newName}
              name="name"
              required
              maxLength={200}
              defaultValue={pending.row.name}
              error={
                renameErrors.fields.name ?? (renameError?.code === 'name_taken' ? message('name_taken') : undefined)
              }
            />
            <button type="submit" className="primary" disabled={busy}>
              {r.renameShort}
            </button>
          </form>
        ) : null}
      </Dialog>
    </div>
  );
}
