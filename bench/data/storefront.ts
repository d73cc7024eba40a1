/**
 * A storefront catalog for benchmarks: `generateCatalog`'s products, all published, each with
 * exactly `variants` variants (the option lists follow) and one image, listed and published in
 * every channel given. In the first channel every fifth product has a custom channel price; in
 * the others every third has its own.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../src/platform/db/client.js';
import { type GeneratedCatalog, generateCatalog } from './catalog.js';

export async function generateStorefrontCatalog(
  db: Db,
  shopId: string,
  channelIds: string[],
  opts: { products: number; variants: number; seed: number },
): Promise<GeneratedCatalog> {
  const catalog = await generateCatalog(db, shopId, opts.products, opts.seed);
  const variants = opts.variants;
  // The generator mixes statuses and gives 1–3 variants: publish everything and top every
  // product up to `variants` variants, with one image each.
  await db.execute(sql`UPDATE products SET status = 'published' WHERE shop_id = ${shopId}`);
  await db.execute(sql`
    INSERT INTO product_variants (id, shop_id, product_id, sku, title, option_values, price_cents, stock_quantity,
                                  track_stock, is_default, position, created_at, updated_at)
    SELECT 'var_' || substr(md5(p.id || '-' || n), 1, 26), p.shop_id, p.id, p.sku || '-X' || n, 'Extra ' || n,
           jsonb_build_object(p.options->0->>'name', 'Extra ' || n), p.base_price_cents + n * 250, 10 * n,
           p.track_stock, false, c.k + n - 1, p.created_at, p.created_at
    FROM products p
    CROSS JOIN LATERAL (SELECT count(*)::int AS k FROM product_variants v WHERE v.shop_id = p.shop_id AND v.product_id = p.id) c
    CROSS JOIN generate_series(1, ${variants}) n
    WHERE p.shop_id = ${shopId} AND n <= ${variants} - c.k`);
  await db.execute(sql`
    INSERT INTO catalog_skus (shop_id, sku, product_id, variant_id)
    SELECT shop_id, sku, product_id, id FROM product_variants
    WHERE shop_id = ${shopId} AND title LIKE 'Extra %'`);
  await db.execute(sql`
    UPDATE products p SET options = jsonb_build_array(jsonb_build_object(
      'name', p.options->0->>'name',
      'values', (SELECT jsonb_agg(v.title ORDER BY v.position) FROM product_variants v
                 WHERE v.shop_id = p.shop_id AND v.product_id = p.id)))
    WHERE p.shop_id = ${shopId}`);
  await db.execute(sql`
    INSERT INTO product_images (id, shop_id, product_id, url, alt, position, created_at, updated_at)
    SELECT 'img_' || substr(md5(p.id), 1, 26), p.shop_id, p.id, 'https://img.bench.test/' || p.slug || '.jpg',
           p.name, 0, p.created_at, p.created_at
    FROM products p WHERE p.shop_id = ${shopId}`);
  for (const [i, channelId] of channelIds.entries()) {
    const every = i === 0 ? 5 : 3;
    await db.execute(sql`
      INSERT INTO product_channel_listings (shop_id, product_id, channel_id, variant_id, is_published, price_cents)
      SELECT p.shop_id, p.id, ${channelId}, NULL, true,
             CASE WHEN row_number() OVER (ORDER BY p.id) % ${every} = 0 THEN p.base_price_cents - 50 * ${i + 1} END
      FROM products p WHERE p.shop_id = ${shopId}`);
  }
  return catalog;
}
