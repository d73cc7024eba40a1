/**
 * Where return_url leads (`/shop/danke?session_id=…`): the session as the server has it, and once
 * paid the order by its number (`order_number`, what the buyer quotes), not its id.
 */
import { useEffect } from 'react';
import { useFormat } from '../../../shared/format.js';
import { useT } from '../../../shared/i18n/index.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { $store } from '../../api.js';
import { cart } from '../../cart.js';
import { thanksSearch, useShopSearch } from '../../router.js';
import { ShopLink } from '../../shell.js';

export function ThanksPage() {
  const t = useT();
  const f = useFormat();
  const { session_id, abo } = useShopSearch(thanksSearch);
  const query = $store.useQuery(
    'get',
    '/api/store/checkout-sessions/{id}',
    { params: { path: { id: session_id ?? '' } } },
    {
      enabled: Boolean(session_id) && !abo,
      // the provider's confirmation may come a moment after the redirect
      refetchInterval: (q) => (q.state.data && q.state.data.status === 'open' ? 2000 : false),
    },
  );
  const session = query.data;
  const paid = session?.status === 'complete';
  useEffect(() => {
    if (paid) cart.clear();
  }, [paid]);

  // an abo session's hosted page returns here with ?abo=1 (its details come by e-mail and in the account)
  if (abo && session_id) {
    return (
      <section aria-labelledby="thanks-title" className="thanks">
        <h1 id="thanks-title">{t.shop.thanksTitle}</h1>
        <p role="status">{t.shop.aboThanks}</p>
        <ShopLink to="/">{t.shop.continueShopping}</ShopLink>
      </section>
    );
  }
  if (!session_id || query.error) {
    return (
      <section>
        <h1>{t.shop.sessionMissing}</h1>
        {query.error && query.error.status !== 404 ? <ProblemAlert problem={query.error} /> : null}
        <ShopLink to="/">{t.shop.continueShopping}</ShopLink>
      </section>
    );
  }
  if (!session) return <p aria-live="polite">{t.common.loading}</p>;
  const money = (cents: number) => f.money(cents, session.currency);
  return (
    <section aria-labelledby="thanks-title" className="thanks">
      <h1 id="thanks-title">{session.status === 'expired' ? t.shop.thanksExpired : t.shop.thanksTitle}</h1>
      <p role="status">{paid ? t.shop.thanksPaid : session.status === 'open' ? t.shop.thanksPending : ''}</p>
      {session.order_number ? <p className="order-ref">{t.shop.orderNumber(session.order_number)}</p> : null}
      <table className="cart-table">
        <thead>
          <tr>
            <th scope="col">{t.shop.product}</th>
            <th scope="col" className="num">
              {t.shop.quantity}
            </th>
            <th scope="col" className="num">
              {t.shop.lineTotal}
            </th>
          </tr>
        </thead>
        <tbody>
          {session.lines.map((l) => (
            <tr key={`${l.product_id}|${l.variant_id ?? ''}`}>
              <th scope="row">{l.name}</th>
              <td className="num">{l.quantity}</td>
              <td className="num">{money(l.line_total_cents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          {session.requires_shipping ? (
            <tr>
              <th scope="row" colSpan={2}>
                {t.shop.shippingCost}
              </th>
              <td className="num">{money(session.shipping_cents)}</td>
            </tr>
          ) : null}
          <tr>
            <th scope="row" colSpan={2}>
              {session.lines.some((l) => l.tax_category === 'AE') ? t.shop.taxNet : t.shop.taxIncluded}
            </th>
            <td className="num">{money(session.tax_cents)}</td>
          </tr>
          <tr className="total-row">
            <th scope="row" colSpan={2}>
              {t.shop.total}
            </th>
            <td className="num">{money(session.total_cents)}</td>
          </tr>
        </tfoot>
      </table>
      <p>
        <ShopLink to="/">{t.shop.continueShopping}</ShopLink>
      </p>
    </section>
  );
}
