/**
 * The storefront when its cache cannot help much (issue 20): a shop with two channels, each on its
 * own domain (the Origin selects the channel), 10,000 published products × 3 variants listed in
 * both, and a fixed-seed sequence of storefront requests with thousands of distinct URLs — pages
 * 1–50 of the list in three page sizes, category filters, `q` searches (words and SKUs) and product
 * detail by slug, on both channels. The per-process cache (2,000 entries / 32 MB) holds a fraction
 * of them, so most requests are computed. The bare server answers each URL with the app's bytes.
 */
import { sql } from 'drizzle-orm';
import { prng } from '../data/catalog.js';
import { generateStorefrontCatalog } from '../data/storefront.js';
import type { BenchCase, RequestSpec } from '../lib/types.js';

const PRODUCTS = 10_000;
const VARIANTS = 3;
const SEQUENCE = 20_000;
const ORIGINS = ['https://de.bench.test', 'https://at.bench.test'];
const WORDS = [
  'hoodie',
  'jacke',
  'kase',
  'käse',
  'kaffee',
  'schokolade',
  'honig',
  'tee',
  'roman',
  'kochbuch',
  'rucksack',
  'tasse',
  'lampe',
  'kissen',
  'uhr',
  'e-book',
  'online-kurs',
  'horbuch',
  'premium',
  'öko',
  'robust',
  'leicht',
  'baumwolle',
  'leinen',
  'edelstahl',
  'bambus',
  'wolle',
  'leder',
  'premium tasse',
  'öko kaffee',
  'robust jacke',
  'weich schal',
  'glas lampe',
  'klassisch uhr',
  'modern kissen',
  'süß honig',
];

export const storefrontMix: BenchCase = {
  name: 'storefront-mix',
  description: `GET /api/store/products[/:slug], a ${SEQUENCE}-request fixed-seed mix (list pages, categories, q, detail) over 2 channels by Origin; ${PRODUCTS} products × ${VARIANTS} variants`,
  connections: 20,
  durationSeconds: 10,
  async setup(ctx) {
    const shop = await ctx.createShop({ origins: ORIGINS });
    const token = shop.ownerToken;
    const second = await ctx.api('POST', '/api/admin/channels', {
      token,
      body: { name: 'Österreich', default_country: 'AT', currency: 'EUR' },
    });
    if (second.status !== 201) throw new Error(`channel creation failed: ${second.status} ${second.text}`);
    const channelIds = [shop.defaultChannelId, second.data.id as string];
    for (const [i, channelId] of channelIds.entries()) {
      const domain = new URL(ORIGINS[i] as string).host;
      const mapped = await ctx.api('POST', `/api/admin/channels/${channelId}/domains`, { token, body: { domain } });
      if (mapped.status !== 201) throw new Error(`domain mapping failed: ${mapped.status} ${mapped.text}`);
    }

    ctx.log(`loading ${PRODUCTS} products into 2 channels`);
    const catalog = await generateStorefrontCatalog(ctx.db, shop.shopId, channelIds, {
      products: PRODUCTS,
      variants: VARIANTS,
      seed: 23,
    });
    await ctx.db.execute(sql`VACUUM ANALYZE products`);
    await ctx.db.execute(sql`VACUUM ANALYZE product_variants`);
    await ctx.db.execute(sql`VACUUM ANALYZE product_channel_listings`);
    await ctx.db.execute(sql`VACUUM ANALYZE product_images`);
    const rows = (await ctx.db.execute(
      sql`SELECT slug, sku FROM products WHERE shop_id = ${shop.shopId} ORDER BY created_at`,
    )) as unknown as { rows: { slug: string; sku: string }[] };
    const products = rows.rows;

    const rnd = prng(20);
    const sequence: RequestSpec[] = [];
    const list = (query: string) => `/api/store/products?${query}`;
    for (let i = 0; i < SEQUENCE; i++) {
      const channel = rnd.int(0, 1);
      const headers = { authorization: `Bearer ${shop.publishableKey}`, origin: ORIGINS[channel] as string };
      const roll = rnd.next();
      let path: string;
      if (roll < 0.25) {
        const limit = rnd.pick([12, 24, 48]);
        path = list(`limit=${limit}&offset=${(rnd.int(1, 50) - 1) * limit}`);
      } else if (roll < 0.45) {
        const limit = rnd.pick([12, 24]);
        const category = rnd.pick(catalog.categoryIds);
        path = list(`category_id=${category}&limit=${limit}&offset=${(rnd.int(1, 10) - 1) * limit}`);
      } else if (roll < 0.55) {
        path = list(`q=${encodeURIComponent(rnd.pick(WORDS))}&limit=24&offset=${(rnd.int(1, 3) - 1) * 24}`);
      } else if (roll < 0.65) {
        path = list(`q=${encodeURIComponent(rnd.pick(products).sku.toLowerCase())}`);
      } else {
        path = `/api/store/products/${encodeURIComponent(rnd.pick(products).slug)}`;
      }
      sequence.push({ method: 'GET', path, headers });
    }

    const check = await ctx.api('GET', list('limit=24'), {
      headers: { authorization: `Bearer ${shop.publishableKey}`, origin: ORIGINS[1] as string },
    });
    if (check.status !== 200 || check.data.count !== PRODUCTS || check.headers.get('x-channel-id') !== channelIds[1]) {
      throw new Error(`unexpected storefront answer: ${check.status} count=${check.data?.count}`);
    }
    return {
      sequence,
      // the probes filled the app's cache: a catalog change makes every entry stale again
      afterProbe: async () => {
        await ctx.db.execute(sql`UPDATE storefront_versions SET version = version + 1 WHERE shop_id = ${shop.shopId}`);
      },
    };
  },
  targets: { minRatioToBare: 0.1, p99Ms: 25, maxRssMb: 250 },
};
