/**
 * The admin search at a million products (issue 20): GET /api/admin/products?q=… on a shop with
 * 1,000,000 products, seeded set-based (INSERT … SELECT FROM generate_series, in steps of 100,000)
 * rather than row by row: names from fixed word lists (so a word matches a known share of the
 * catalog), SKUs in the SKU register, the same `search_text` normalisation as the service.
 * Products without variants; a mix of statuses. Target: p99 under 60 ms at 10 connections.
 */
import { sql } from 'drizzle-orm';
import type { BenchCase } from '../lib/types.js';

const PRODUCTS = 1_000_000;
const STEP = 100_000;

const arr = (items: string[]) => `ARRAY[${items.map((w) => `'${w}'`).join(',')}]`;
const ADJECTIVES = arr([
  'Klassisch',
  'Modern',
  'Öko',
  'Premium',
  'Leicht',
  'Robust',
  'Weich',
  'Große',
  'Süß',
  'Würzig',
]);
const NOUNS = arr([
  'T-Shirt',
  'Hoodie',
  'Jacke',
  'Mütze',
  'Schal',
  'Socken',
  'Käse',
  'Müsli',
  'Kaffee',
  'Schokolade',
  'Honig',
  'Tee',
  'Roman',
  'Kochbuch',
  'Bildband',
  'Reiseführer',
  'Rucksack',
  'Tasse',
  'Lampe',
  'Kissen',
  'Uhr',
  'E-Book',
  'Hörbuch',
]);
const MATERIALS = arr(['Baumwolle', 'Leinen', 'Edelstahl', 'Bambus', 'Glas', 'Wolle', 'Leder']);

export const catalogSearch1m: BenchCase = {
  name: 'catalog-search-1m',
  description: `GET /api/admin/products?q=… (accent-insensitive search, ${PRODUCTS.toLocaleString('en')} products)`,
  connections: 10,
  durationSeconds: 10,
  async setup(ctx) {
    const shop = await ctx.createShop();
    const started = Date.now();
    for (let from = 1; from <= PRODUCTS; from += STEP) {
      const to = Math.min(PRODUCTS, from + STEP - 1);
      ctx.log(`seeding products ${from}–${to}`);
      // g walks the products; the word of each list comes from a different modulus, so the
      // combinations spread evenly. Creation times step one second per product.
      await ctx.db.execute(
        sql.raw(`
        INSERT INTO products (id, shop_id, name, slug, sku, status, tax_class, base_price_cents, is_digital,
                              track_stock, stock_quantity, search_text, created_at, updated_at)
        SELECT 'prd_m' || lpad(g::text, 9, '0'), '${shop.shopId}', x.name, 'm-' || g, 'M-' || lpad(g::text, 7, '0'),
               CASE WHEN g % 10 < 7 THEN 'published' WHEN g % 10 < 9 THEN 'draft' ELSE 'archived' END,
               CASE g % 3 WHEN 0 THEN 'standard' WHEN 1 THEN 'food' ELSE 'books' END,
               99 + (g::bigint * 7919) % 99900, false, true, g % 50,
               lower(f_unaccent(x.name || ' ' || 'M-' || lpad(g::text, 7, '0') || ' m-' || g)),
               timestamptz '2023-01-01' + g * interval '1 second', timestamptz '2023-01-01' + g * interval '1 second'
        FROM generate_series(${from}, ${to}) g
        CROSS JOIN LATERAL (SELECT (${ADJECTIVES})[1 + g % 10] || ' ' || (${NOUNS})[1 + (g / 10) % 23] || ' ' ||
                                   (${MATERIALS})[1 + (g / 230) % 7] || ' ' || g AS name) x`),
      );
      await ctx.db.execute(
        sql.raw(`
        INSERT INTO catalog_skus (shop_id, sku, product_id, variant_id)
        SELECT '${shop.shopId}', 'M-' || lpad(g::text, 7, '0'), 'prd_m' || lpad(g::text, 9, '0'), NULL
        FROM generate_series(${from}, ${to}) g`),
      );
    }
    ctx.log(`seeded in ${((Date.now() - started) / 1000).toFixed(0)} s; VACUUM ANALYZE`);
    await ctx.db.execute(sql`VACUUM ANALYZE products`);
    await ctx.db.execute(sql`VACUUM ANALYZE catalog_skus`);
    const path = '/api/admin/products?q=kase';
    const headers = { authorization: `Bearer ${shop.ownerToken}` };
    const check = await ctx.api('GET', path, { headers });
    if (check.status !== 200 || !(check.data.products?.length > 0)) {
      throw new Error(`unexpected product list answer: ${check.status} ${check.text.slice(0, 200)}`);
    }
    return { method: 'GET', path, headers };
  },
  targets: { p99Ms: 60 },
};
