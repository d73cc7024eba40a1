/** The cart in the browser: quantities, remove, a provisional subtotal; binding prices come at checkout. */
import { useFormat } from '../../../shared/format.js';
import { useT } from '../../../shared/i18n/index.js';
import { type CartLine, cart, MAX_LINE_QUANTITY, useCart } from '../../cart.js';
import { ShopLink } from '../../shell.js';

export function CartPage() {
  const t = useT();
  const f = useFormat();
  const lines = useCart();
  const currency = lines[0]?.currency ?? 'EUR';
  const estimate = lines.reduce((sum, l) => sum + l.unit_price_cents * l.quantity, 0);
  const label = (l: CartLine) => (l.variant_title ? `${l.name} (${l.variant_title})` : l.name);

  return (
    <section aria-labelledby="cart-title">
      <h1 id="cart-title">{t.shop.cart}</h1>
      {lines.length === 0 ? (
        <>
          <p className="empty">{t.shop.cartEmpty}</p>
          <p>
            <ShopLink to="/">{t.shop.continueShopping}</ShopLink>
          </p>
        </>
      ) : (
        <>
          <div className="cart-scroll">
            <table className="cart-table">
              <thead>
                <tr>
                  <th scope="col">{t.shop.product}</th>
                  <th scope="col" className="num">
                    {t.shop.unitPrice}
                  </th>
                  <th scope="col">{t.shop.quantity}</th>
                  <th scope="col" className="num">
                    {t.shop.lineTotal}
                  </th>
                  <th scope="col">
                    <span className="visually-hidden">{t.shop.remove}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {lines.map((l) => (
                  <tr key={`${l.product_id}|${l.variant_id ?? ''}`}>
                    <th scope="row">
                      <ShopLink to={`/produkt/${encodeURIComponent(l.slug)}`}>{l.name}</ShopLink>
                      {l.variant_title ? <span className="muted block">{l.variant_title}</span> : null}
                    </th>
                    <td className="num">{f.money(l.unit_price_cents, l.currency)}</td>
                    <td>
                      <input
                        className="qty"
                        type="number"
                        min={1}
                        max={MAX_LINE_QUANTITY}
                        value={l.quantity}
                        aria-label={t.shop.quantityOf(label(l))}
                        onChange={(e) => {
                          const n = Number(e.currentTarget.value);
                          if (Number.isFinite(n) && n >= 1) cart.setQuantity(l, n);
                        }}
                      />
                    </td>
                    <td className="num">{f.money(l.unit_price_cents * l.quantity, l.currency)}</td>
                    <td>
                      <button
                        type="button"
                        className="link-button"
                        onClick={() => cart.remove(l)}
                        aria-label={t.shop.removeItem(label(l))}
                      >
                        {t.shop.remove}
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row" colSpan={3}>
                    {t.shop.estimatedTotal}
                  </th>
                  <td className="num strong">{f.money(estimate, currency)}</td>
                  <td />
                </tr>
              </tfoot>
            </table>
          </div>
          <p className="muted">{t.shop.estimateNote}</p>
          <p className="actions-row">
            <ShopLink to="/" className="button">
              {t.shop.continueShopping}
            </ShopLink>
            <ShopLink to="/kasse" className="button primary">
              {t.shop.toCheckout}
            </ShopLink>
          </p>
        </>
      )}
    </section>
  );
}
