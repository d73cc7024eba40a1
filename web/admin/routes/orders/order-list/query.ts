/**
 * The orders list's server query from the URL search: one function, used by the route's loader
 * (fetched in parallel with the session check) and by the page, so both share one cache entry.
 */
import { $api } from '../../../../shared/api.js';
import { dayBound, type Paging, serverPaging } from '../../../../shared/list.js';

export interface OrderListSearch extends Paging {
  q?: string | undefined;
  status?: 'pending_payment' | 'paid' | 'fulfilled' | 'cancelled' | 'partially_refunded' | 'refunded' | undefined;
  from?: string | undefined;
  to?: string | undefined;
  channel?: string | undefined;
  paid?: 'true' | 'false' | undefined;
  sort?: '-created_at' | 'created_at' | '-total_cents' | 'total_cents' | '-number' | 'number' | undefined;
}

export const orderListQuery = (search: OrderListSearch) =>
  $api.queryOptions('get', '/api/admin/orders', {
    params: {
      query: {
        ...serverPaging(search),
        q: search.q,
        status: search.status,
        created_from: dayBound(search.from),
        created_to: dayBound(search.to, true),
        channel_id: search.channel,
        paid: search.paid === undefined ? undefined : search.paid === 'true',
        sort: search.sort,
      },
    },
  });
