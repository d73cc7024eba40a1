/** The order's lines with quantity, price and the tax decided per line, and the totals. */
import type { operations } from '../../../../../clients/typescript/schema.js';
import { useFormat } from '../../../../shared/format.js';
import { useT } from '../../../../shared/i18n/index.js';
import { ScrollRegion } from '../../../../shared/widgets/ScrollRegion.js';

export type OrderDetail = operations['getOrder']['responses'][200]['content']['application/json']['order'];

export function OrderLines({ order }: { order: OrderDetail }) {
  const t = useT();
  const f = useFormat();
  const money = (cents: number) => f.money(cents, order.currency);
  return (
    <section aria-labelledby="lines-h" className="panel">
      <h2 id="lines-h">{t.order.lines}</h2>
      <ScrollRegion labelledBy="lines-h">
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
              <th scope="col">{t.orderOps.taxDecision}</th>
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
                  <TaxDecision
                    category={line.tax_category}
                    rate={line.tax_rate}
                    taxCents={line.tax_cents}
                    exemption={line.tax_exemption_reason}
                    currency={order.currency}
                  />
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
              <th scope="row" colSpan={order.shipping_tax_category ? 4 : 5}>
                {t.order.shipping}
              </th>
              {order.shipping_tax_category ? (
                <td>
                  <TaxDecision
                    category={order.shipping_tax_category}
                    rate={order.shipping_tax_rate ?? 0}
                    taxCents={order.shipping_tax_cents}
                    exemption={order.shipping_tax_exemption_reason}
                    currency={order.currency}
                  />
                </td>
              ) : null}
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
      </ScrollRegion>
    </section>
  );
}

export type TaxCategory = OrderDetail['lines'][number]['tax_category'];

/** The tax decided for a line: EN 16931 category with its name, the rate, the tax and the exemption text. */
export function TaxDecision({
  category,
  rate,
  taxCents,
  exemption,
  currency,
}: {
  category: string;
  rate: number;
  taxCents: number;
  exemption: string | null;
  currency: string;
}) {
  const t = useT();
  const f = useFormat();
  const names = t.orderOps.taxCategories as Record<string, string>;
  return (
    <span className="tax-decision">
      <span className="tax-cat">
        <abbr title={names[category] ?? category}>{category}</abbr> {names[category] ?? ''}
      </span>
      <span className="block">
        {f.percent(rate)} · {f.money(taxCents, currency)}
      </span>
      {exemption ? <span className="muted block small">{exemption}</span> : null}
    </span>
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
