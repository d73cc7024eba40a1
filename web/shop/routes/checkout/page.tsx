/**
 * Checkout: contact, buyer type (a business gives company and VAT ID), billing address, shipping
 * for physical goods, the waiver for digital goods with its legal text. "Continue" creates the
 * checkout session (POST /api/store/checkout-sessions); the summary shows the server's prices —
 * reverse charge included — before the buyer goes to the hosted payment page.
 */
import { type FormEvent, useId, useState } from 'react';
import { type ApiProblem, idempotencyKey } from '../../../shared/api.js';
import { useFormat } from '../../../shared/format.js';
import { fieldErrors } from '../../../shared/forms.js';
import { useLanguage, useT } from '../../../shared/i18n/index.js';
import { Field } from '../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { $store, type CheckoutSession } from '../../api.js';
import { useCart } from '../../cart.js';
import { referralField } from '../../referral.js';
import { ShopLink } from '../../shell.js';

const COUNTRIES = ['DE', 'AT', 'CH', 'NL', 'FR', 'BE', 'LU', 'IT', 'ES', 'DK', 'PL'] as const;
const FIELDS = [
  'customer.email',
  'customer.billing_address.company',
  'customer.billing_address.vat_id',
  'customer.billing_address.name',
  'customer.billing_address.line1',
  'customer.billing_address.postal_code',
  'customer.billing_address.city',
  'customer.billing_address.country',
  'shipping_method_id',
  'widerruf_verzicht',
  'items',
] as const;

export function CheckoutPage() {
  const t = useT();
  const f = useFormat();
  const language = useLanguage();
  const lines = useCart();
  const [business, setBusiness] = useState(false);
  const [country, setCountry] = useState<string>('DE');
  const [session, setSession] = useState<CheckoutSession & { url: string | null }>();
  const [key] = useState(idempotencyKey);
  const [attempt, setAttempt] = useState(0);
  const ids = useId();
  const create = $store.useMutation('post', '/api/store/checkout-sessions');
  const physical = lines.some((l) => !l.is_digital);
  const digital = lines.some((l) => l.is_digital);
  const methods = $store.useQuery(
    'get',
    '/api/store/shipping-methods',
    { params: { query: { country } } },
    { enabled: physical },
  );
  const countryName = new Intl.DisplayNames([language], { type: 'region' });
  const problem = create.error as ApiProblem | null;
  const errors = fieldErrors(problem, FIELDS, t);
  const err = (name: (typeof FIELDS)[number]) => errors.fields[name];

  if (lines.length === 0 && !session) {
    return (
      <section>
        <h1>{t.shop.checkout}</h1>
        <p className="empty">{t.shop.cartEmpty}</p>
        <ShopLink to="/">{t.shop.continueShopping}</ShopLink>
      </section>
    );
  }

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const v = Object.fromEntries(new FormData(e.currentTarget)) as Record<string, string>;
    const address = {
      name: v.name ?? '',
      line1: v.line1 ?? '',
      postal_code: v.postal_code ?? '',
      city: v.city ?? '',
      country,
      ...(business ? { company: v.company ?? '', vat_id: v.vat_id ?? '' } : {}),
    };
    create.mutate(
      {
        // a retry of this form resumes the same session; a changed form is a new attempt
        params: { header: { 'Idempotency-Key': `${key}-${attempt}` } } as never,
        body: {
          items: lines.map((l) => ({
            product_id: l.product_id,
            ...(l.variant_id ? { variant_id: l.variant_id } : {}),
            quantity: l.quantity,
          })),
          customer: { email: v.email ?? '', billing_address: address },
          ...(physical ? { shipping_address: address, shipping_method_id: v.shipping_method_id ?? '' } : {}),
          ...(digital ? { widerruf_verzicht: v.widerruf_verzicht === 'on' } : {}),
          return_url: `${window.location.origin}/shop/danke`,
          ...referralField(),
        },
      },
      {
        onSuccess: (data) => {
          setSession(data);
          setAttempt((n) => n + 1);
          window.scrollTo(0, 0);
        },
        onError: () => setAttempt((n) => n + 1),
      },
    );
  };

  if (session) return <Summary session={session} onChange={() => setSession(undefined)} />;

  return (
    <section aria-labelledby="checkout-title">
      <h1 id="checkout-title">{t.shop.checkout}</h1>
      {problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <form className="checkout-form" onSubmit={onSubmit} noValidate>
        <fieldset>
          <legend>{t.shop.contact}</legend>
          <Field
            label={t.shop.email}
            name="email"
            type="email"
            autoComplete="email"
            required
            error={err('customer.email')}
          />
          <fieldset className="radio-row">
            <legend>{t.shop.buyerType}</legend>
            <label>
              <input
                type="radio"
                name="buyer"
                value="consumer"
                checked={!business}
                onChange={() => setBusiness(false)}
              />{' '}
              {t.shop.consumer}
            </label>
            <label>
              <input type="radio" name="buyer" value="business" checked={business} onChange={() => setBusiness(true)} />{' '}
              {t.shop.business}
            </label>
          </fieldset>
          {business ? (
            <>
              <Field
                label={t.shop.company}
                name="company"
                autoComplete="organization"
                required
                error={err('customer.billing_address.company')}
              />
              <Field
                label={t.shop.vatId}
                name="vat_id"
                hint={t.shop.vatIdHint}
                required
                error={err('customer.billing_address.vat_id')}
              />
            </>
          ) : null}
        </fieldset>
        <fieldset>
          <legend>{t.shop.billingAddress}</legend>
          <Field
            label={t.shop.name}
            name="name"
            autoComplete="name"
            required
            error={err('customer.billing_address.name')}
          />
          <Field
            label={t.shop.line1}
            name="line1"
            autoComplete="address-line1"
            required
            error={err('customer.billing_address.line1')}
          />
          <div className="field-row">
            <Field
              label={t.shop.postalCode}
              name="postal_code"
              autoComplete="postal-code"
              required
              error={err('customer.billing_address.postal_code')}
            />
            <Field
              label={t.shop.city}
              name="city"
              autoComplete="address-level2"
              required
              error={err('customer.billing_address.city')}
            />
          </div>
          <div className="field">
            <label htmlFor={`${ids}-country`}>{t.shop.country}</label>
            <select
              id={`${ids}-country`}
              name="country"
              autoComplete="country"
              value={country}
              onChange={(e) => setCountry(e.currentTarget.value)}
            >
              {COUNTRIES.map((c) => (
                <option key={c} value={c}>
                  {countryName.of(c) ?? c}
                </option>
              ))}
            </select>
          </div>
        </fieldset>
        {physical ? (
          <fieldset>
            <legend>{t.shop.shipping}</legend>
            <p className="muted">{t.shop.shippingSame}</p>
            {methods.data && methods.data.shipping_methods.length === 0 ? (
              <p className="alert alert-error">{t.shop.noShippingMethods}</p>
            ) : null}
            {methods.data?.shipping_methods.length ? (
              <fieldset className="radio-list">
                <legend>{t.shop.shippingMethod}</legend>
                {methods.data.shipping_methods.map((m, i) => (
                  <label key={m.id}>
                    <input type="radio" name="shipping_method_id" value={m.id} defaultChecked={i === 0} /> {m.name} —{' '}
                    {f.money(m.price_cents, lines[0]?.currency ?? 'EUR')}
                  </label>
                ))}
              </fieldset>
            ) : null}
            {err('shipping_method_id') ? <p className="field-error">{err('shipping_method_id')}</p> : null}
          </fieldset>
        ) : null}
        {digital ? (
          <fieldset>
            <legend>{t.shop.widerrufTitle}</legend>
            <label className="checkbox">
              <input type="checkbox" name="widerruf_verzicht" required aria-describedby={`${ids}-widerruf-error`} />{' '}
              {t.shop.widerrufText}
            </label>
            {err('widerruf_verzicht') ? (
              <p className="field-error" id={`${ids}-widerruf-error`}>
                {err('widerruf_verzicht')}
              </p>
            ) : null}
          </fieldset>
        ) : null}
        <button type="submit" className="primary large" disabled={create.isPending}>
          {create.isPending ? t.shop.reviewing : t.shop.review}
        </button>
      </form>
    </section>
  );
}

/** The server's pricing of the session: lines with their tax, shipping, totals; then pay. */
function Summary({ session, onChange }: { session: CheckoutSession & { url: string | null }; onChange: () => void }) {
  const t = useT();
  const f = useFormat();
  const money = (cents: number) => f.money(cents, session.currency);
  const reverseCharge = session.lines.some((l) => l.tax_category === 'AE');
  return (
    <section aria-labelledby="summary-title">
      <h1 id="summary-title">{t.shop.summary}</h1>
      <p>{t.shop.summaryIntro}</p>
      <table className="cart-table">
        <thead>
          <tr>
            <th scope="col">{t.shop.product}</th>
            <th scope="col" className="num">
              {t.shop.quantity}
            </th>
            <th scope="col" className="num">
              {t.shop.unitPrice}
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
              <td className="num">{money(l.unit_price_cents)}</td>
              <td className="num">{money(l.line_total_cents)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              {t.shop.subtotal}
            </th>
            <td className="num">{money(session.subtotal_cents)}</td>
          </tr>
          {session.requires_shipping ? (
            <tr>
              <th scope="row" colSpan={3}>
                {t.shop.shippingCost}
              </th>
              <td className="num">{money(session.shipping_cents)}</td>
            </tr>
          ) : null}
          <tr>
            <th scope="row" colSpan={3}>
              {reverseCharge ? t.shop.taxNet : t.shop.taxIncluded}
            </th>
            <td className="num">{money(session.tax_cents)}</td>
          </tr>
          <tr className="total-row">
            <th scope="row" colSpan={3}>
              {t.shop.total}
            </th>
            <td className="num">{money(session.total_cents)}</td>
          </tr>
        </tfoot>
      </table>
      {reverseCharge ? (
        <p className="alert alert-info">
          {t.shop.reverseCharge}
          {session.lines.find((l) => l.tax_exemption_reason)?.tax_exemption_reason
            ? ` (${session.lines.find((l) => l.tax_exemption_reason)?.tax_exemption_reason})`
            : ''}
        </p>
      ) : null}
      {session.vat_id_status ? <p className="muted">{t.shop.vatIdStatus(session.vat_id_status)}</p> : null}
      <p className="muted">{t.shop.expires(f.dateTime(session.expires_at))}</p>
      <p className="actions-row">
        <button type="button" className="button" onClick={onChange}>
          {t.shop.change}
        </button>
        {session.url ? (
          <a className="button primary large" href={session.url}>
            {t.shop.pay}
          </a>
        ) : null}
      </p>
    </section>
  );
}
