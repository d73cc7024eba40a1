/** The filter bar of the orders list: native controls in a search form, values from the URL. */
import type { FormEvent } from 'react';
import { useT } from '../../../../shared/i18n/index.js';
import { ORDER_STATUSES } from '../../../router.js';
import type { OrderListSearch } from './page.js';

export function OrderFilters({
  search,
  onSubmit,
}: {
  search: OrderListSearch;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
}) {
  const t = useT();
  // keyed by the URL: back/forward and links reset the controls to what the list shows
  const key = JSON.stringify([search.q, search.status, search.from, search.to]);
  return (
    <search aria-label={t.list.filters}>
      <form className="filters" onSubmit={onSubmit} key={key}>
        <div className="field">
          <label htmlFor="orders-q">{t.orders.search}</label>
          <input id="orders-q" name="q" type="search" defaultValue={search.q ?? ''} placeholder={t.orders.searchHint} />
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
