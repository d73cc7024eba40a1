/**
 * Saved views of the orders list, stored per employee on the server (resource 'orders', the query
 * is the list's URL search without the page): each a link that applies it, renamed or deleted in
 * a dialog; "save" stores the filters, sort and page size the list shows now.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { parseSearch, stringifySearch } from '../../../../shared/list.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import type { OrderListSearch } from './page.js';

type View = { id: string; name: string; query: string };

/** The list's search as a view stores it: everything but the page, keys sorted, without the leading '?'. */
export function viewQuery(search: Partial<OrderListSearch>): string {
  const { page: _page, ...rest } = search;
  const sorted = Object.fromEntries(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
  return stringifySearch(sorted).replace(/^\?/, '');
}

export function SavedViews({ search }: { search: OrderListSearch }) {
  const t = useT();
  const can = useCan();
  const message = useErrorMessage();
  const queryClient = useQueryClient();
  const params = { params: { query: { resource: 'orders' as const } } };
  const views = $api.useQuery('get', '/api/admin/saved-views', params, {
    enabled: can('GET /api/admin/saved-views'),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['get', '/api/admin/saved-views'] });
  const [problem, setProblem] = useState<ApiProblem | null>(null);
  const [renaming, setRenaming] = useState<View | null>(null);
  const [removing, setRemoving] = useState<View | null>(null);
  const [renameProblem, setRenameProblem] = useState<ApiProblem | null>(null);

  const create = $api.useMutation('post', '/api/admin/saved-views', {
    onSuccess: async (view, _vars) => {
      setProblem(null);
      toast(t.orderOps.viewSaved(view.name));
      await refresh();
    },
    onError: (p: ApiProblem) => setProblem(p),
  });
  const rename = $api.useMutation('patch', '/api/admin/saved-views/{id}', {
    onSuccess: async () => {
      setRenaming(null);
      setRenameProblem(null);
      toast(t.orderOps.renamed);
      await refresh();
    },
    onError: (p: ApiProblem) => setRenameProblem(p),
  });
  const remove = $api.useMutation('delete', '/api/admin/saved-views/{id}', {
    onSuccess: async () => {
      setRemoving(null);
      toast(t.orderOps.removed);
      await refresh();
    },
    onError: (p: ApiProblem) => {
      setRemoving(null);
      toast(message(p.code), 'error');
    },
  });

  if (!can('GET /api/admin/saved-views')) return null;
  const errors = fieldErrors(problem, ['name'], t);
  const renameErrors = fieldErrors(renameProblem, ['name'], t);
  const current = viewQuery(search);
  const list = views.data?.views ?? [];

  const onSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const name = formValues(form).name?.trim() ?? '';
    create.mutate({ body: { resource: 'orders', name, query: current } }, { onSuccess: () => form.reset() });
  };
  const onRename = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!renaming) return;
    const name = formValues(event.currentTarget).name?.trim() ?? '';
    rename.mutate({ params: { path: { id: renaming.id } }, body: { name } });
  };

  return (
    <section aria-labelledby="views-h" className="views">
      <h2 id="views-h" className="views-title">
        {t.orderOps.views}
      </h2>
      {list.length === 0 ? (
        views.isPending ? null : (
          <p className="muted small">{t.orderOps.noViews}</p>
        )
      ) : (
        <ul className="view-list">
          {list.map((view) => (
            <li key={view.id}>
              <Link
                to="/orders"
                search={() => ({ ...(parseSearch(view.query) as Partial<OrderListSearch>), page: 1 })}
                aria-current={
                  viewQuery(parseSearch(view.query) as Partial<OrderListSearch>) === current ? 'true' : undefined
                }
                className="view-link"
              >
                {view.name}
              </Link>
              <button
                type="button"
                className="link small"
                aria-label={t.orderOps.rename(view.name)}
                onClick={() => {
                  setRenameProblem(null);
                  setRenaming(view);
                }}
              >
                ✎
              </button>
              <button
                type="button"
                className="link small"
                aria-label={t.orderOps.remove(view.name)}
                onClick={() => setRemoving(view)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      {can('POST /api/admin/saved-views') ? (
        <form className="view-save" onSubmit={onSave}>
          <Field
            label={t.orderOps.viewName}
            name="name"
            required
            maxLength={100}
            autoComplete="off"
            error={errors.fields.name ?? (problem && !errors.fields.name ? message(problem.code) : undefined)}
          />
          <button type="submit" disabled={create.isPending}>
            {t.orderOps.saveView}
          </button>
        </form>
      ) : null}
      <Dialog open={renaming !== null} title={t.orderOps.renameTitle} onClose={() => setRenaming(null)}>
        {renaming ? (
          <form id="rename-view" onSubmit={onRename}>
            <Field
              label={t.orderOps.newName}
              name="name"
              required
              maxLength={100}
              defaultValue={renaming.name}
              autoComplete="off"
              error={
                renameErrors.fields.name ??
                (renameProblem && !renameErrors.fields.name ? message(renameProblem.code) : undefined)
              }
            />
            <button type="submit" className="primary" disabled={rename.isPending}>
              {t.common.save}
            </button>
          </form>
        ) : null}
      </Dialog>
      <Dialog
        open={removing !== null}
        title={t.orderOps.removeTitle}
        onClose={() => setRemoving(null)}
        confirm={{
          label: t.orderOps.deleteLabel,
          danger: true,
          busy: remove.isPending,
          onConfirm: () => removing && remove.mutate({ params: { path: { id: removing.id } } }),
        }}
      >
        <p>{removing ? t.orderOps.removeText(removing.name) : null}</p>
      </Dialog>
    </section>
  );
}
