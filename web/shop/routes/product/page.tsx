/** A product: picture, description, variants (price per variant as the server gives it), add to cart. */
import { type FormEvent, useId, useState } from 'react';
import { type ApiProblem, idempotencyKey } from '../../../shared/api.js';
import { useFormat } from '../../../shared/format.js';
import { fieldErrors } from '../../../shared/forms.js';
import { useT } from '../../../shared/i18n/index.js';
import { Field } from '../../../shared/widgets/Field.js';
import { ProblemAlert } from '../../../shared/widgets/ProblemAlert.js';
import { toast } from '../../../shared/widgets/Toasts.js';
import { $store } from '../../api.js';
import { cart, clampQuantity, MAX_LINE_QUANTITY } from '../../cart.js';
import { Price, ProductImage, shownPrice } from '../../price.js';
import { referralField } from '../../referral.js';
import { productRoute } from '../../router.js';
import { offeredPlans, ShopLink } from '../../shell.js';

export function ProductPage() {
  const t = useT();
  const { slug } = productRoute.useParams();
  const query = $store.useQuery('get', '/api/store/products/{idOrSlug}', { params: { path: { idOrSlug: slug } } });
  const product = query.data?.product;
  const [variantId, setVariantId] = useState<string | null>(null);
  const [added, setAdded] = useState(false);

  if (query.error) {
    return (
      <section>
        <h1>{query.error.status === 404 ? t.shop.productNotFound : t.errorPage.title}</h1>
        {query.error.status === 404 ? null : <ProblemAlert problem={query.error} />}
        <p>
          <ShopLink to="/">{t.shop.backToCatalog}</ShopLink>
        </p>
      </section>
    );
  }
  if (!product) return <p aria-live="polite">{t.common.loading}</p>;

  const variants = product.variants;
  const chosen = variants.find((v) => v.id === variantId) ?? variants.find((v) => v.is_default) ?? variants[0] ?? null;
  const inStock = chosen ? chosen.in_stock : product.in_stock;

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const quantity = clampQuantity(Number(new FormData(e.currentTarget).get('quantity')));
    cart.add({
      product_id: product.id,
      variant_id: chosen?.id ?? null,
      slug: product.slug,
      name: product.name,
      variant_title: chosen && variants.length > 1 ? chosen.title : null,
      unit_price_cents: shownPrice(product, chosen?.id).cents,
      currency: product.channel.currency,
      is_digital: product.is_digital,
      quantity,
    });
    setAdded(true);
    toast(t.shop.added(product.name));
  };

  return (
    <article className="product-detail" aria-labelledby="product-title">
      <p className="breadcrumb">
        <ShopLink to="/">{t.shop.backToCatalog}</ShopLink>
      </p>
      <div className="product-layout">
        <ProductImage product={product} large />
        <div>
          <h1 id="product-title">{product.name}</h1>
          {product.is_digital ? <p className="badge">{t.shop.digital}</p> : null}
          <Price product={product} variantId={chosen?.id ?? null} />
          <p className={inStock ? 'stock in' : 'stock out'}>{inStock ? t.shop.inStock : t.shop.outOfStock}</p>
          <form className="add-form" onSubmit={onSubmit}>
            {variants.length > 1 ? (
              <fieldset className="variants">
                <legend>{t.shop.variant}</legend>
                {variants.map((v) => (
                  <label key={v.id} className="variant-option">
                    <input
                      type="radio"
                      name="variant"
                      value={v.id}
                      checked={chosen?.id === v.id}
                      onChange={() => {
                        setVariantId(v.id);
                        setAdded(false);
                      }}
                    />
                    <span>{v.title}</span>
                    {v.in_stock ? null : <span className="muted"> ({t.shop.outOfStock})</span>}
                  </label>
                ))}
              </fieldset>
            ) : null}
            <div className="field quantity-field">
              <label htmlFor="quantity">{t.shop.quantity}</label>
              <input
                id="quantity"
                name="quantity"
                type="number"
                min={1}
                max={MAX_LINE_QUANTITY}
                defaultValue={1}
                required
              />
            </div>
            <button type="submit" className="primary large" disabled={!inStock}>
              {t.shop.addToCart}
            </button>
          </form>
          {added ? (
            <p className="added" role="status">
              {t.shop.added(product.name)} <ShopLink to="/warenkorb">{t.shop.toCart}</ShopLink>
            </p>
          ) : null}
          <Plans productId={product.id} currency={product.channel.currency} />
          {product.description ? <div className="description">{product.description}</div> : null}
        </div>
      </div>
    </article>
  );
}

/**
 * The subscription plans the shop offers for this product (its storefront settings, from the
 * bootstrap: spec §4.3 rule 5 has no public plan list). Subscribing creates an abo session
 * (POST /api/store/abo-sessions) and goes to its hosted page, which collects the billing details.
 */
function Plans({ productId, currency }: { productId: string; currency: string }) {
  const t = useT();
  const f = useFormat();
  const plans = offeredPlans().filter((p) => p.product_id === productId);
  const create = $store.useMutation('post', '/api/store/abo-sessions');
  const ids = useId();
  if (plans.length === 0) return null;
  const problem = create.error as ApiProblem | null;
  const errors = fieldErrors(problem, ['customer_email'], t);
  const subscribe = (planId: string, form: HTMLFormElement) => {
    const email = String(new FormData(form).get('customer_email') ?? '');
    create.mutate(
      {
        params: { header: { 'Idempotency-Key': idempotencyKey() } } as never,
        body: {
          plan_id: planId,
          customer_email: email,
          return_url: `${window.location.origin}/shop/danke?abo=1`,
          ...referralField(),
        },
      },
      { onSuccess: (session) => window.location.assign(session.url) },
    );
  };
  return (
    <section className="plans" aria-labelledby={`${ids}-plans`}>
      <h2 id={`${ids}-plans`}>{t.shop.planTitle}</h2>
      {problem ? <ProblemAlert problem={problem} extra={errors.other} /> : null}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const submitter = (e.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
          subscribe(submitter?.value ?? plans[0]?.id ?? '', e.currentTarget);
        }}
        noValidate
      >
        <Field
          label={t.shop.planEmail}
          name="customer_email"
          type="email"
          autoComplete="email"
          required
          error={errors.fields.customer_email}
        />
        <ul className="plan-list">
          {plans.map((p) => (
            <li key={p.id} className="plan">
              <p className="plan-name">{p.name}</p>
              <p className="price">
                <span className="price-now">{f.money(p.price_cents, p.currency || currency)}</span>{' '}
                <span className="price-note">
                  {t.shop.planInterval(p.interval_count, p.interval_unit)} · {t.shop.priceNote}
                </span>
              </p>
              {p.trial_days > 0 ? <p className="badge">{t.shop.planTrial(p.trial_days)}</p> : null}
              <button type="submit" name="plan" value={p.id} className="button" disabled={create.isPending}>
                {t.shop.planSubscribe(p.name)}
              </button>
            </li>
          ))}
        </ul>
        <p className="muted small">{t.shop.planNote}</p>
      </form>
    </section>
  );
}
