/**
 * The shop's promotional material (GET /api/affiliate/content, paged, kind in the URL). Images on
 * other origins are not embedded (the pages' Content-Security-Policy allows only their own): each
 * banner links its image.
 */
import type { FormEvent } from 'react';
import { portalText } from '../../portal/i18n.js';
import { PortalLink, usePortalSearch } from '../../portal/nav.js';
import { applyFilters, Loaded, UrlPager } from '../../portal/parts.js';
import { usePortalTitle } from '../../portal/shell.js';
import { $api } from '../../shared/api.js';
import { useFormat } from '../../shared/format.js';
import { useDictionary } from '../../shared/i18n/index.js';
import { serverPaging } from '../../shared/list.js';
import { affiliateText } from '../i18n.js';
import { contentSearch } from '../search.js';

export function ContentPage() {
  const a = useDictionary(affiliateText);
  const s = useDictionary(portalText);
  const f = useFormat();
  usePortalTitle(a.content.title);
  const search = usePortalSearch(contentSearch);
  const query = $api.useQuery('get', '/api/affiliate/content', {
    params: { query: { ...serverPaging(search), ...(search.kind ? { kind: search.kind } : {}) } },
  });
  const onFilter = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    applyFilters('/content', e.currentTarget, { limit: search.limit });
  };
  return (
    <>
      <h1>{a.content.title}</h1>
      <p className="muted">{a.content.intro}</p>
      <form className="filters" aria-label={s.filters} onSubmit={onFilter}>
        <div className="field">
          <label htmlFor="filter-kind">{a.content.kind}</label>
          <select id="filter-kind" name="kind" defaultValue={search.kind ?? ''}>
            <option value="">{s.all}</option>
            {(['link', 'banner', 'text'] as const).map((k) => (
              <option key={k} value={k}>
                {a.content.kinds[k]}
              </option>
            ))}
          </select>
        </div>
        <div className="filter-actions">
          <button type="submit">{s.apply}</button> <PortalLink to="/content">{s.reset}</PortalLink>
        </div>
      </form>
      <Loaded query={query}>
        {(d) =>
          d.content.length === 0 ? (
            <p>{s.empty}</p>
          ) : (
            <>
              <ul className="content-list">
                {d.content.map((c) => (
                  <li key={c.id} className="panel">
                    <h2>{c.title}</h2>
                    <p className="muted small">
                      {a.content.kinds[c.kind] ?? c.kind} · {f.date(c.created_at)}
                    </p>
                    {c.body ? <blockquote>{c.body}</blockquote> : null}
                    {c.url ? (
                      <p>
                        <a href={c.url} rel="noopener noreferrer" target="_blank">
                          {c.url}
                        </a>
                      </p>
                    ) : null}
                    {c.image_url ? (
                      <p>
                        <a href={c.image_url} rel="noopener noreferrer" target="_blank">
                          {a.content.image}
                        </a>
                      </p>
                    ) : null}
                  </li>
                ))}
              </ul>
              <UrlPager count={d.count} search={search} />
            </>
          )
        }
      </Loaded>
    </>
  );
}
