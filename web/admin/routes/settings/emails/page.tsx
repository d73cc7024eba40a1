/**
 * The e-mail outbox: what the shop sent, newest first, paged by the server; status, recipient
 * and kind filters in the URL; failed ones with their last error. The API redacts one-use links
 * and tokens ([redacted]); this page shows the text as the API gives it and adds nothing.
 * There is no resend: the full text of a failed e-mail is deleted after its last attempt.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import type { FormEvent } from 'react';
import type { ApiProblem } from '../../../../shared/api.js';
import { useChannelScope } from '../../../../shared/auth.js';
import { useFormat } from '../../../../shared/format.js';
import { formValues } from '../../../../shared/forms.js';
import { useDictionary, useT } from '../../../../shared/i18n/index.js';
import { Pager, type Paging } from '../../../../shared/list.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { useTitle } from '../../../shell.js';
import { settingsText } from '../i18n.js';
import { EMAIL_STATUSES, type EmailSearch, emailsQuery, emailsRoute } from '../routes.js';

export function EmailsPage() {
  const t = useT();
  const s = useDictionary(settingsText).emails;
  const f = useFormat();
  useTitle(s.title);
  const scope = useChannelScope();
  const search = emailsRoute.useSearch();
  const navigate = useNavigate({ from: emailsRoute.fullPath });
  const query = useQuery({ ...emailsQuery(search), placeholderData: keepPreviousData, enabled: !scope });
  const setPaging = (paging: Paging) => navigate({ search: (prev) => ({ ...prev, ...paging }) });
  const onFilter = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const v = formValues(event.currentTarget);
    void navigate({
      search: (prev) => ({
        ...prev,
        page: 1,
        status: (v.status || undefined) as EmailSearch['status'],
        to: v.to?.trim() || undefined,
        kind: v.kind?.trim() || undefined,
      }),
    });
  };
  const data = query.data;
  const key = JSON.stringify([search.status, search.to, search.kind]);
  return (
    <div className="page">
      <div className="page-head">
        <h1>{s.title}</h1>
        {data ? <p className="muted">{s.count(data.count)}</p> : null}
      </div>
      <p className="muted">{s.intro}</p>
      {scope ? (
        <p className="alert alert-info">{s.restricted}</p>
      ) : (
        <>
          <search aria-label={t.list.filters}>
            <form className="filters" onSubmit={onFilter} key={key}>
              <div className="field">
                <label htmlFor="emails-status">{s.status}</label>
                <select id="emails-status" name="status" defaultValue={search.status ?? ''}>
                  <option value="">{s.anyStatus}</option>
                  {EMAIL_STATUSES.map((k) => (
                    <option key={k} value={k}>
                      {s.statuses[k]}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field field-wide">
                <label htmlFor="emails-to">{s.to}</label>
                <input
                  id="emails-to"
                  name="to"
                  type="email"
                  defaultValue={search.to ?? ''}
                  placeholder={s.toHint}
                  autoComplete="off"
                />
              </div>
              <div className="field">
                <label htmlFor="emails-kind">{s.kind}</label>
                <input id="emails-kind" name="kind" defaultValue={search.kind ?? ''} placeholder={s.kindHint} />
              </div>
              <div className="filter-actions">
                <button type="submit" className="primary">
                  {t.list.apply}
                </button>
              </div>
            </form>
          </search>
          {search.status && s.statusHelp[search.status] ? (
            <p className="alert alert-info">
              {s.statusHelp[search.status]}
              {search.status === 'failed' ? <span className="block">{s.noResend}</span> : null}
            </p>
          ) : null}
          {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
          <div className="table-wrap" aria-busy={query.isFetching || undefined}>
            <table className="data">
              <caption className="visually-hidden">{s.title}</caption>
              <thead>
                <tr>
                  <th scope="col">{s.created}</th>
                  <th scope="col">{s.to}</th>
                  <th scope="col">{s.subject}</th>
                  <th scope="col">{s.status}</th>
                </tr>
              </thead>
              <tbody>
                {data?.emails.map((e) => (
                  <tr key={e.id}>
                    <td>{f.dateTime(e.created_at)}</td>
                    <td className="wrap">
                      {e.to}
                      <span className="muted block small">
                        <code>{e.kind}</code>
                      </span>
                    </td>
                    <td className="wrap email-subject">
                      <details>
                        <summary aria-label={s.textOf(e.subject)}>{e.subject}</summary>
                        <pre className="email-text">{e.text}</pre>
                      </details>
                    </td>
                    <td className="wrap">
                      <span className={`badge badge-email-${e.status}`}>{s.statuses[e.status] ?? e.status}</span>
                      {e.sent_at ? (
                        <span className="muted block small">
                          {s.sentAt}: {f.dateTime(e.sent_at)}
                        </span>
                      ) : null}
                      {e.last_error ? (
                        <span className="block small email-error">
                          {s.error}: {e.last_error}
                        </span>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
            {data && data.emails.length === 0 ? (
              <p className="empty">
                {t.list.empty}{' '}
                <Link to="/settings/emails" search={{ page: 1, limit: search.limit }}>
                  {t.list.reset}
                </Link>
              </p>
            ) : null}
          </div>
          {data ? <Pager count={data.count} paging={search} onChange={setPaging} /> : null}
        </>
      )}
    </div>
  );
}
