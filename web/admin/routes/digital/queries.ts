/**
 * The digital screens' server queries from their URL search: one function each, used by the
 * route's loader and by the page, so both share one cache entry.
 */
import { $api } from '../../../shared/api.js';
import { type Paging, serverPaging } from '../../../shared/list.js';

export interface AboListSearch extends Paging {
  q?: string | undefined;
  plan_id?: string | undefined;
  status?: 'alle' | 'laufend' | 'testzeit' | 'zahlung_offen' | 'gekuendigt' | 'beendet' | undefined;
  test?: 'alle' | 'nein' | 'ja' | undefined;
}

export const aboListQuery = (search: AboListSearch) =>
  $api.queryOptions('get', '/api/admin/digital/abos', {
    params: {
      query: {
        ...serverPaging(search),
        q: search.q,
        plan_id: search.plan_id,
        status: search.status,
        test: search.test,
      },
    },
  });

const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * The statistics' range: the URL's, else the last twelve months (UTC days, as the API counts):
 * from the first day of the month eleven months back to the last day of this month (the API's
 * series ends at its today).
 */
export function defaultRange(search: { from?: string | undefined; to?: string | undefined }): {
  from: string;
  to: string;
} {
  const now = new Date();
  const from = search.from ?? isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1)));
  const to = search.to ?? isoDay(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)));
  return { from, to };
}

export const verlaufQuery = (q: { from: string; to: string; test?: 'alle' | 'nein' | 'ja' | undefined }) =>
  $api.queryOptions('get', '/api/admin/digital/abos/statistik/verlauf', {
    params: { query: { from: q.from, to: q.to, test: q.test } },
  });
