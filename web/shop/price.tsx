/** A product's price as the store API gives it for the channel (gross for consumers), and its picture. */
import { useState } from 'react';
import { useFormat } from '../shared/format.js';
import { useT } from '../shared/i18n/index.js';
import type { StoreProduct } from './api.js';

/**
 * The price a product sells at in the channel without choosing: the default variant's
 * `price_cents` (already resolved by the server for the channel), else the product's channel
 * price, else its base price — the order docs/storefront.md gives; no tax is computed here.
 */
export function shownPrice(p: StoreProduct, variantId?: string | null) {
  const variant = p.variants.find((v) => v.id === variantId) ?? p.variants.find((v) => v.is_default) ?? null;
  if (variant) return { cents: variant.price_cents, compare: variant.compare_at_price_cents };
  return { cents: p.channel.price_cents ?? p.base_price_cents, compare: p.channel.compare_at_price_cents };
}

export function Price({ product, variantId }: { product: StoreProduct; variantId?: string | null }) {
  const f = useFormat();
  const t = useT();
  const { cents, compare } = shownPrice(product, variantId);
  const currency = product.channel.currency;
  return (
    <p className="price">
      <span className="price-now">{f.money(cents, currency)}</span>{' '}
      {compare && compare > cents ? <s className="price-was">{t.shop.compareAt(f.money(compare, currency))}</s> : null}{' '}
      <span className="price-note">{t.shop.priceNote}</span>
    </p>
  );
}

/** The product's first image, or a calm placeholder with the initial (decorative). */
export function ProductImage({ product, large = false }: { product: StoreProduct; large?: boolean }) {
  const image = [...product.images].sort((a, b) => a.position - b.position)[0];
  // an image that does not load (elsewhere, which the page's CSP refuses, or gone) shows the placeholder
  const [failed, setFailed] = useState(false);
  if (image && !failed) {
    return (
      <img
        className={large ? 'product-image large' : 'product-image'}
        src={image.url}
        alt={image.alt ?? ''}
        loading="lazy"
        onError={() => setFailed(true)}
      />
    );
  }
  return (
    <div className={large ? 'product-image placeholder large' : 'product-image placeholder'} aria-hidden="true">
      {product.name.slice(0, 1)}
    </div>
  );
}
