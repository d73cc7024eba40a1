/**
 * Affiliate material (links, banners, texts the affiliate portal shows): filtered by kind and paged
 * by the server (in the URL); "publish" with the API's fields (which ones a kind needs is the
 * server's rule, its 400 lands at the field) and "delete", each said in a dialog first.
 */
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useCan } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { fieldErrors, formValues } from '../../../../shared/forms.js';
import { useDictionary, useErrorMessage, useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging, serverPaging } from '../../../../shared/list.js';
import { Dialog } from '../../../../shared/widgets/Dialog.js';
import { Field } from '../../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../../shared/widgets/Toasts.js';
import { useTitle } from '../../../shell.js';
import { partnersText } from '../i18n.js';
import { affiliateContentRoute, CONTENT_KINDS } from '../routes.js';
import { useRefreshPartners } from '../shared.js';

type Search = ReturnType<typeof affiliateContentRoute.useSearch>;
type Kind = (typeof CONTENT_KINDS)[number];
interface ContentRow {
  id: string;
  kind: Kind;
  title: string;
  url: string | null;
  image_url: string | null;
  body: string | null;
  created_at: string;
}

export function AffiliateContentPage() {
  const s = useDictionary(partnersText);
  const t = useT();
  const f = useFormat();
  const can = useCan();
  const message = useErrorMessage();
  useTitle(s.content.title);
  const search = affiliateContentRoute.useSearch();
  const navigate = useNavigate({ from: affiliateContentRoute.fullPath });
  const allowed = can('GET /api/admin/affiliate-content');
  const query = $api.useQuery(
    'get',
    '/api/admin/affiliate-content',
    { params: { query: { ...serverPaging(search), kind: search.kind } } },
    { placeholderData: keepPreviousData, enabled: allowed },
  );
  const [removing, setRemoving] = useState<ContentRow | null>(null);
  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void navigate({
      search: (prev) => ({ ...prev, page: 1, kind: (v.kind || undefined) as Search['kind'] }),
    });
  };
  if (!allowed) {
    return (
      <div className="page">
        <h1>{s.content.title}</h1>
        <div className="alert alert-error" role="alert">
          <p>{message('role_denied')}</p>
        </div>
      </div>
    );
  }
  const data = query.data;
  const canDelete = can('DELETE /api/admin/affiliate-content/{id}');
  return (
    <div className="page">
      <div className="page-head">
        <h1>{s.content.title}</h1>
        {data ? <p className="muted">{s.content.count(data.count)}</p> : null}
      </div>
      <p className="muted">{s.content.intro}</p>
      {can('POST /api/admin/affiliate-content') ? <CreateContent /> : null}
      <search aria-label={t.list.filters}>
        <form className="filters" onSubmit={onFilter} key={search.kind ?? ''}>
          <div className="field">
            <label htmlFor="content-kind-filter">{s.content.kind}</label>
            <select id="content-kind-filter" name="kind" defaultValue={search.kind ?? ''}>
              <option value="">{s.content.anyKind}</option>
              {CONTENT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {s.content.kinds[k]}
                </option>
              ))}
            </select>
          </div>
          <div className="filter-actions">
            <button type="submit" className="primary">
              {t.list.apply}
            </button>
          </div>
        </form>
      </search>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      <div className="table-wrap" aria-busy={query.isFetching || undefined}>
        <table className="data content-table">
          <caption className="visually-hidden">{s.content.title}</caption>
          <thead>
            <tr>
              <th scope="col">{s.content.titleLabel}</th>
              <th scope="col">{s.content.kind}</th>
              <th scope="col">{s.content.content}</th>
              <th scope="col">{s.content.created}</th>
              {canDelete ? <th scope="col">{s.common.actions}</th> : null}
            </tr>
          </thead>
          <tbody>
            {data?.content.map((c) => (
              <tr key={c.id}>
                <th scope="row">{c.title}</th>
                <td>{s.content.kinds[c.kind] ?? c.kind}</td>
                <td className="content-cell">
                  {c.image_url ? (
                    <img src={c.image_url} alt={s.content.image(c.title)} className="content-thumb" loading="lazy" />
                  ) : null}
                  {c.url ? (
                    <div>
                      <a href={c.url} target="_blank" rel="noopener noreferrer">
                        {c.url}
                      </a>
                    </div>
                  ) : null}
                  {c.body ? <p className="content-body">{c.body}</p> : null}
                </td>
                <td>{f.dateTime(c.created_at)}</td>
                {canDelete ? (
                  <td>
                    <button
                      type="button"
                      className="small-button danger"
                      aria-label={s.content.removeOne(c.title)}
                      onClick={() => setRemoving(c)}
                    >
                      {s.content.remove}
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
        {data && data.content.length === 0 ? (
          <p className="empty">
            {search.kind ? (
              <>
                {t.list.empty}{' '}
                <Link to="/partners/affiliate-content" search={{ page: 1, limit: search.limit }}>
                  {t.list.reset}
                </Link>
              </>
            ) : (
              s.content.none
            )}
          </p>
        ) : null}
      </div>
      {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
      {removing ? <RemoveContent item={removing} onClose={() => setRemoving(null)} /> : null}
    </div>
  );
}

function RemoveContent({ item, onClose }: { item: ContentRow; onClose: () => void }) {
  const s = useDictionary(partnersText);
  const message = useErrorMessage();
  const refresh = useRefreshPartners();
  const remove = $api.useMutation('delete', '/api/admin/affiliate-content/{id}', {
    onSuccess: async () => {
      onClose();
      toast(s.content.removedMsg(item.title));
      await refresh();
    },
  });
  const problem = remove.error as ApiProblem | null;
  return (
    <Dialog
      open
      title={s.content.removeOne(item.title)}
      onClose={onClose}
      confirm={{
        label: s.content.remove,
        danger: true,
        busy: remove.isPending,
        onConfirm: () => remove.mutate({ params: { path: { id: item.id } } }),
      }}
    >
      <p>{s.content.confirmRemove(item.title)}</p>
      {problem ? (
        <p className="field-error" role="alert">
          {message(problem.code)}
        </p>
      ) : null}
    </Dialog>
  );
}

interface Draft {
  kind: Kind;
  title: string;
  url?: string;
  image_url?: string;
  body?: string;
}

function CreateContent() {
  const s = useDictionary(partnersText);
  const t = useT();
  const refresh = useRefreshPartners();
  const [kind, setKind] = useState<Kind>('link');
  const [pending, setPending] = useState<Draft | null>(null);
  const [formKey, setFormKey] = useState(0);
  const create = $api.useMutation('post', '/api/admin/affiliate-content', {
    onSuccess: async (created) => {
      setPending(null);
      setFormKey((k) => k + 1);
      toast(s.content.createdMsg(created.title));
      await refresh();
    },
    onError: () => setPending(null),
  });
  const problem = create.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['kind', 'title', 'url', 'image_url', 'body'], t);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    create.reset();
    const text = (key: string) => {
      const value = v[key]?.trim();
      return value ? value : undefined;
    };
    setPending({
      kind,
      title: v.title?.trim() ?? '',
      ...(text('url') ? { url: text('url') } : {}),
      ...(text('image_url') ? { image_url: text('image_url') } : {}),
      ...(text('body') ? { body: text('body') } : {}),
    });
  };
  const bodyError = errors.fields.body;
  return (
    <section aria-labelledby="content-create-h" className="panel">
      <h2 id="content-create-h">{s.content.create}</h2>
      <form key={formKey} className="form-grid content-form" onSubmit={onSubmit} noValidate>
        <div className="field">
          <label htmlFor="content-kind">{s.content.kind}</label>
          <span id="content-kind-hint" className="hint">
            {s.content.need[kind]}
          </span>
          <select
            id="content-kind"
            name="kind"
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as Kind)}
            aria-describedby="content-kind-hint"
          >
            {CONTENT_KINDS.map((k) => (
              <option key={k} value={k}>
                {s.content.kinds[k]}
              </option>
            ))}
          </select>
        </div>
        <Field
          label={s.content.titleLabel}
          name="title"
          required
          maxLength={200}
          autoComplete="off"
          error={errors.fields.title}
        />
        <Field
          label={s.content.url}
          name="url"
          type="url"
          required={kind !== 'text'}
          maxLength={2000}
          autoComplete="off"
          error={errors.fields.url}
        />
        {kind === 'banner' ? (
          <Field
            label={s.content.imageUrl}
            name="image_url"
            type="url"
            required
            maxLength={2000}
            autoComplete="off"
            error={errors.fields.image_url}
          />
        ) : null}
        <div className="field field-wide">
          <label htmlFor="content-body">{s.content.body}</label>
          <textarea
            id="content-body"
            name="body"
            rows={3}
            maxLength={10_000}
            required={kind === 'text'}
            aria-invalid={bodyError ? true : undefined}
            aria-describedby={bodyError ? 'content-body-error' : undefined}
          />
          {bodyError ? (
            <span id="content-body-error" className="field-error">
              {bodyError}
            </span>
          ) : null}
        </div>
        <div className="filter-actions">
          <button type="submit" className="primary">
            {s.content.create}
          </button>
        </div>
      </form>
      {problem && errors.other.length > 0 ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      {problem && Object.keys(errors.fields).length === 0 && errors.other.length === 0 ? (
        <ProblemAlert problem={problem} />
      ) : null}
      <Dialog
        open={pending !== null}
        title={s.content.create}
        onClose={() => setPending(null)}
        confirm={{
          label: s.content.create,
          busy: create.isPending,
          onConfirm: () => {
            if (pending) create.mutate({ body: pending });
          },
        }}
      >
        <p>{pending ? s.content.confirmCreate(pending.title || '—') : null}</p>
      </Dialog>
    </section>
  );
}
