/**
 * GET /api/store/products?limit=20: the storefront's first page (the hottest route), with a
 * publishable key and an allowed Origin, on 2,000 published products × 3 variants with an image
 * each, all listed and published in the shop's one (default) channel, every fifth at a custom
 * channel price.
 */
import { generateStorefrontCatalog } from '../data/storefront.js';
import type { BenchCase } from '../lib/types.js';

const PRODUCTS = 2000;
const VARIANTS = 3;

export const storefront: BenchCase = {
  name: 'storefront',
  description: `GET /api/store/products?limit=20 (publishable key + Origin; ${PRODUCTS} products × ${VARIANTS} variants listed in the channel)`,
  connections: 20,
  durationSeconds: 10,
  async setup(ctx) {
    const shop = await ctx.createShop();
    // the shop's default channel (EUR, DE), made with the shop
    const channelId = shop.defaultChannelId;

    ctx.log(`loading ${PRODUCTS} products`);
    await generateStorefrontCatalog(ctx.db, shop.shopId, [channelId], {
      products: PRODUCTS,
      variants: VARIANTS,
      seed: 7,
    });

    const headers = { authorization: `Bearer ${shop.publishableKey}`, origin: shop.storefrontOrigin };
    const check = await ctx.api('GET', '/api/store/products?limit=20', { headers });
    if (check.status !== 200 || check.data.count !== PRODUCTS) {
      throw new Error(`unexpected storefront answer: ${check.status} count=${check.data?.count}`);
    }
    return { method: 'GET', path: '/api/store/products?limit=20', headers };
  },
  targets: { minRatioToBare: 0.5, p99Ms: 20, maxRssMb: 250 },
};
