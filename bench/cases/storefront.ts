/**
 * GET /api/store/products?limit=20: the storefront's first page (the hottest route), with a
 * publishable key and an allowed Origin, on 2,000 published products × 3 variants with an image
 * each, all listed and published in the shop's one (default) channel, every fifth at a custom
 * channel price.
 */
import { sql } from 'drizzle-orm';
import { generateCatalog } from '../data/catalog.js';
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
    await generateCatalog(ctx.db, shop.shopId, PRODUCTS, 7);
    const db = ctx.db;
    // The generator mixes statuses and gives 1–3 variants: publish everything and top every
    // product up to three variants (the option lists follow), with one image each.
    await db.execute(sql`UPDATE products SET status = 'published' WHERE shop_id = ${shop.shopId}`);
    await db.execute(sql`
      INSERT INTO product_variants (id, shop_id, product_id, sku, title, option_values, price_cents, stock_quantity,
                                    track_stock, is_default, position, created_at, updated_at)
      SELECT 'var_' || substr(md5(p.id || '-' || n), 1, 26), p.shop_id, p.id, p.sku || '-X' || n, 'Extra ' || n,
             jsonb_build_object(p.options->0->>'name', 'Extra ' || n), p.base_price_cents + n * 250, 10 * n,
             p.track_stock, false, c.k + n - 1, p.created_at, p.created_at
      FROM products p
      CROSS JOIN LATERAL (SELECT count(*)::int AS k FROM product_variants v WHERE v.product_id = p.id) c
      CROSS JOIN generate_series(1, ${VARIANTS}) n
      WHERE p.shop_id = ${shop.shopId} AND n <= ${VARIANTS} - c.k`);
    await db.execute(sql`
      INSERT INTO catalog_skus (shop_id, sku, product_id, variant_id)
      SELECT shop_id, sku, product_id, id FROM product_variants
      WHERE shop_id = ${shop.shopId} AND title LIKE 'Extra %'`);
    await db.execute(sql`
      UPDATE products p SET options = jsonb_build_array(jsonb_build_object(
        'name', p.options->0->>'name',
        'values', (SELECT jsonb_agg(v.title ORDER BY v.position) FROM product_variants v WHERE v.product_id = p.id)))
      WHERE p.shop_id = ${shop.shopId}`);
    await db.execute(sql`
      INSERT INTO product_images (id, shop_id, product_id, url, alt, position, created_at, updated_at)
      SELECT 'img_' || substr(md5(p.id), 1, 26), p.shop_id, p.id, 'https://img.bench.test/' || p.slug || '.jpg',
             p.name, 0, p.created_at, p.created_at
      FROM products p WHERE p.shop_id = ${shop.shopId}`);
    await db.execute(sql`
      INSERT INTO product_channel_listings (shop_id, product_id, channel_id, variant_id, is_published, price_cents)
      SELECT p.shop_id, p.id, ${channelId}, NULL, true,
             CASE WHEN row_number() OVER (ORDER BY p.id) % 5 = 0 THEN p.base_price_cents - 50 END
      FROM products p WHERE p.shop_id = ${shop.shopId}`);

    const headers = { authorization: `Bearer ${shop.publishableKey}`, origin: shop.storefrontOrigin };
    const check = await ctx.api('GET', '/api/store/products?limit=20', { headers });
    if (check.status !== 200 || check.data.count !== PRODUCTS) {
      throw new Error(`unexpected storefront answer: ${check.status} count=${check.data?.count}`);
    }
    return { method: 'GET', path: '/api/store/products?limit=20', headers };
  },
  targets: { minRatioToBare: 0.5, p99Ms: 20, maxRssMb: 250 },
};
