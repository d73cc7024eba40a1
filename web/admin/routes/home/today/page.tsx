/**
 * Heute: the admin's home. What needs doing today (one read: GET /api/admin/overview), each count
 * with the list it opens, and the revenue of today and this month per currency (test payments
 * apart). Tiles the role may not see are null and not shown.
 */
import { Link } from '@tanstack/react-router';
import { $api, type ApiProblem } from '../../../../shared/api.js';
import { useFormat } from '../../../../shared/format.js';
import { useT } from '../../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../../shared/widgets/ProblemAlert.js';
import { useTitle } from '../../../shell.js';
import { RevenueTable } from './revenue.js';
import { screenOf, TILE_KEYS } from './tiles.js';

export function HomePage() {
  const t = useT();
  const f = useFormat();
  useTitle(t.home.title);
  const query = $api.useQuery('get', '/api/admin/overview', {}, { refetchInterval: 60_000 });
  const data = query.data;
  const tiles = data
    ? TILE_KEYS.flatMap((key) => {
        const tile = data.tiles[key];
        return tile ? [{ key, ...tile }] : [];
      })
    : [];
  const allDone = data !== undefined && tiles.every((tile) => tile.count === 0);
  return (
    <div className="page">
      <div className="page-head">
        <h1>{t.home.title}</h1>
        {data ? <p className="muted">{f.date(data.now)}</p> : null}
      </div>
      {query.error ? <ProblemAlert problem={query.error as ApiProblem} /> : null}
      {!data && query.isPending ? <p className="muted">{t.common.loading}</p> : null}
      {data ? (
        <>
          <section aria-labelledby="todo-h">
            <h2 id="todo-h">{t.home.todo}</h2>
            {allDone ? (
              <p className="alert alert-success" role="status">
                {t.home.allDone}
              </p>
            ) : null}
            <ul className="tiles">
              {tiles.map((tile) => {
                const label = t.home.tiles[tile.key];
                const screen = screenOf(tile.link);
                return (
                  <li key={tile.key} className={tile.count === 0 ? 'tile tile-done' : 'tile'}>
                    <h3>
                      {screen && tile.count > 0 ? (
                        <Link {...screen} aria-label={t.home.openList(label)}>
                          {label}
                        </Link>
                      ) : (
                        label
                      )}
                    </h3>
                    <p className="tile-count">{f.number(tile.count)}</p>
                    {!screen && tile.count > 0 ? <p className="muted small">{t.home.noScreen}</p> : null}
                  </li>
                );
              })}
            </ul>
          </section>
          {data.revenue ? (
            <section aria-labelledby="revenue-h" className="revenue">
              <h2 id="revenue-h">{t.home.revenue}</h2>
              <div className="columns">
                <RevenueTable
                  title={t.home.today}
                  from={data.revenue.today_from}
                  rows={data.revenue.today}
                  id="today"
                />
                <RevenueTable
                  title={t.home.month}
                  from={data.revenue.month_from}
                  rows={data.revenue.month}
                  id="month"
                />
              </div>
              <p className="muted small">{t.home.timeZone(data.time_zone)}</p>
            </section>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
