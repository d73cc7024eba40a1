/** The order's lines with quantity, price and the tax decided per line, and the totals. */
import type { operations } from '../../../../../clients/typescript/schema.js';
import { useFormat } from '../../../../shared/format.js';
import { useT } from '../../../../shared/i18n/index.js';

export type OrderDetail = operations['getOrder']['responses'][200]['content']['application/json']['order'];

export function OrderLines({ order }: { order: OrderDetail }) {
  const t = useT();
  const f = useFormat();
  const money = (cents: number) => f.money(cents, order.currency);
  return (
    <section aria-labelledby="lines-h" className="panel">
      <h2 id="lines-h">{t.order.lines}</h2>
      <div className="table-wrap">
        <table className="data">
          <thead>
            <tr>
              <th scope="col">{t.order.product}</th>
              <th scope="col">{t.order.sku}</th>
              <th scope="col" className="num">
                {t.order.quantity}
              </th>
              <th scope="col" className="num">
                {t.order.unitPrice}
              </th>
              <th scope="col">{t.order.tax}</th>
              <th scope="col" className="num">
                {t.order.lineTotal}
              </th>
            </tr>
          </thead>
          <tbody>
            {order.lines.map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: lines have no id of their own and never reorder
              <tr key={i}>
                <th scope="row">{line.name}</th>
                <td>{line.sku ?? t.common.none}</td>
                <td className="num">{f.number(line.quantity)}</td>
                <td className="num">{money(line.unit_price_cents)}</td>
                <td>
                  {line.tax_category} · {f.percent(line.tax_rate)} · {money(line.tax_cents)}
                  {line.tax_exemption_reason ? <span className="muted block">{line.tax_exemption_reason}</span> : null}
                </td>
                <td className="num">{money(line.line_total_cents)}</td>
              </tr>
            ))}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={5}>
                {t.order.subtotal}
              </th>
              <td className="num">{money(order.subtotal_cents)}</td>
            </tr>
            <tr>
              <th scope="row" colSpan={5}>
                {t.order.shipping}
              </th>
              <td className="num">{money(order.shipping_cents)}</td>
            </tr>
            <tr>
              <th scope="row" colSpan={5}>
                {t.order.taxTotal}
              </th>
              <td className="num">{money(order.tax_cents)}</td>
            </tr>
            <tr className="total">
              <th scope="row" colSpan={5}>
                {t.order.total}
              </th>
              <td className="num">{money(order.total_cents)}</td>
            </tr>
          </tfoot>
        </table>
      </div>
    </section>
  );
}

export function Address({ address }: { address: OrderDetail['billing_address'] }) {
  const t = useT();
  if (!address) return <p className="muted">{t.order.noAddress}</p>;
  return (
    <address>
      {address.company ? (
        <>
          {address.company}
          <br />
        </>
      ) : null}
      {address.name}
      <br />
      {address.line1}
      <br />
      {address.line2 ? (
        <>
          {address.line2}
          <br />
        </>
      ) : null}
      {address.postal_code} {address.city}
      <br />
      {address.country}
      {address.vat_id ? (
        <>
          <br />
          {address.vat_id}
        </>
      ) : null}
    </address>
  );
}
