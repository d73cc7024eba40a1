/** The filter bar of the orders list: native controls in a search form, values from the URL. */
import type { FormEvent } from 'react';
import { $api } from '../../../../shared/api.js';
import { useCan, useChannelScope } from '../../../../shared/auth.js';
import { useT } from '../../../../shared/i18n/index.js';
import { ORDER_STATUSES } from '../../../router.js';
import type { OrderListSearch } from './page.js';

/** The channels the employee may filter by (a channel-restricted employee: only theirs). */
function useChannels() {
  const can = useCan();
  const scope = useChannelScope();
  const query = $api.useQuery('get', '/api/admin/channels', {}, { enabled: can('GET /api/admin/channels') });
  const all = query.data?.channels ?? [];
  return scope ? all.filter((c) => scope.includes(c.id)) : all;
}

export function OrderFilters({
  search,
  onSubmit,
}: {
  search: OrderListSearch;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const t = useT();
  const channels = useChannels();
  // keyed by the URL: back/forward and links reset the controls to what the list shows
  const key = JSON.stringify([search.q, search.status, search.from, search.to, search.channel, search.paid]);
  return (
    <search aria-label={t.list.filters}>
      <form className="filters" onSubmit={onSubmit} key={key}>
        <div className="field field-wide">
          <label htmlFor="orders-q">{t.orderOps.searchLabel}</label>
          <input
            id="orders-q"
            name="q"
            type="search"
            defaultValue={search.q ?? ''}
            placeholder={t.orderOps.searchHint}
          />
        </div>
        <div className="field">
          <label htmlFor="orders-status">{t.orders.status}</label>
          <select id="orders-status" name="status" defaultValue={search.status ?? ''}>
            <option value="">{t.orders.anyStatus}</option>
            {ORDER_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t.orders.statuses[s]}
              </option>
            ))}
          </select>
        </div>
        {channels.length > 1 || search.channel ? (
          <div className="field">
            <label htmlFor="orders-channel">{t.orderOps.channel}</label>
            {/* re-mounted when the channels arrive (its default needs its options), alone: what
                was typed into the other controls meanwhile stays */}
            <select id="orders-channel" name="channel" defaultValue={search.channel ?? ''} key={channels.length}>
              <option value="">{t.orderOps.anyChannel}</option>
              {channels.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="field">
          <label htmlFor="orders-paid">{t.orderOps.payment}</label>
          <select id="orders-paid" name="paid" defaultValue={search.paid ?? ''}>
            <option value="">{t.orderOps.anyPayment}</option>
            <option value="true">{t.orderOps.paidOnly}</option>
            <option value="false">{t.orderOps.unpaidOnly}</option>
          </select>
        </div>
        <div className="field">
          <label htmlFor="orders-from">{t.orders.from}</label>
          <input id="orders-from" name="from" type="date" defaultValue={search.from ?? ''} />
        </div>
        <div className="field">
          <label htmlFor="orders-to">{t.orders.to}</label>
          <input id="orders-to" name="to" type="date" defaultValue={search.to ?? ''} />
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
