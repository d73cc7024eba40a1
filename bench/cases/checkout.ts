/**
 * POST /api/store/checkout-sessions: a hosted checkout session for a 3-item cart (one digital,
 * two physical, shipped to DE), with a publishable key and an allowed Origin, on 50 published
 * products listed in the shop's channel. Every request prices the cart, reserves stock and writes
 * a session (plus its expiry job), so the tables grow during the run; that is intended. Stock
 * never runs out: the physical items are tracked with a stock of a billion units. As every
 * connection sends the same cart, their two product rows are hot: the stock UPDATEs wait on each
 * other's row locks (a flash-sale worst case). With track_stock false the route measured about
 * 25 % more req/s and a third of the p99 on the 2-core VM (2026-11-21).
 */
import type { BenchCase } from '../lib/types.js';

const PRODUCTS = 50;
const STOCK = 1_000_000_000;

export const checkout: BenchCase = {
  name: 'checkout',
  description: `POST /api/store/checkout-sessions (publishable key + Origin; 3 items, digital + physical with shipping; ${PRODUCTS} products)`,
  connections: 20,
  durationSeconds: 10,
  async setup(ctx) {
    const shop = await ctx.createShop();
    const token = shop.ownerToken;
    // the shop's default channel (EUR, DE), made with the shop
    const channelId = shop.defaultChannelId;
    const method = await ctx.api('POST', '/api/admin/shipping-methods', {
      token,
      body: { name: 'DHL Paket', price_cents: 490, countries: ['DE', 'AT'] },
    });
    if (method.status !== 201) throw new Error(`shipping method creation failed: ${method.status} ${method.text}`);

    ctx.log(`creating ${PRODUCTS} products through the API`);
    const digital: string[] = [];
    const physical: string[] = [];
    for (let i = 0; i < PRODUCTS; i++) {
      const isDigital = i % 5 === 0;
      const body = isDigital
        ? { name: `Bench E-Book ${i}`, is_digital: true, tax_class: 'books', base_price_cents: 990 + i * 10 }
        : {
            name: `Bench Artikel ${i}`,
            tax_class: i % 3 === 0 ? 'food' : 'standard',
            base_price_cents: 1500 + i * 25,
            track_stock: true,
            stock_quantity: STOCK,
          };
      const p = await ctx.api('POST', '/api/products', { token, body: { status: 'published', ...body } });
      if (p.status !== 201) throw new Error(`product creation failed: ${p.status} ${p.text}`);
      const listing = await ctx.api('PATCH', `/api/products/${p.data.id}/channels/${channelId}`, {
        token,
        // every fourth product at a channel price
        body: { is_published: true, ...(i % 4 === 0 ? { price_cents: 1200 + i * 20 } : {}) },
      });
      if (listing.status !== 200) throw new Error(`listing failed: ${listing.status} ${listing.text}`);
      (isDigital ? digital : physical).push(p.data.id);
    }

    const address = { name: 'Erika Muster', line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' };
    const body = {
      items: [
        { product_id: digital[3], quantity: 1 },
        { product_id: physical[7], quantity: 2 },
        { product_id: physical[21], quantity: 1 },
      ],
      customer: { email: 'bench-buyer@mail.test', billing_address: address },
      shipping_address: address,
      shipping_method_id: method.data.id,
      return_url: `${shop.storefrontOrigin}/danke`,
    };
    const headers = { authorization: `Bearer ${shop.publishableKey}`, origin: shop.storefrontOrigin };
    const check = await ctx.api('POST', '/api/store/checkout-sessions', { headers, body });
    if (check.status !== 201 || check.data.lines?.length !== 3 || !check.data.requires_shipping) {
      throw new Error(`unexpected checkout answer: ${check.status} ${check.text}`);
    }
    return { method: 'POST', path: '/api/store/checkout-sessions', headers, body };
  },
  targets: { minRps: 500, minRatioToBare: 0.08, p99Ms: 50 },
};
