/**
 * The admin product list at catalog scale (issue 4): 100,000 products loaded once and shared by
 * both cases — an accent-insensitive search (`q`) and a deep page of a status filter.
 * Target: p99 under 30 ms at 10 connections.
 */
import { sql } from 'drizzle-orm';
import { generateCatalog } from '../data/catalog.js';
import type { BenchCase, BenchContext } from '../lib/types.js';

const PRODUCTS = 100_000;

let loaded: Promise<{ token: string; word: string }> | null = null;

function load(ctx: BenchContext) {
  loaded ??= (async () => {
    const shop = await ctx.createShop();
    ctx.log(`loading ${PRODUCTS} products`);
    const catalog = await generateCatalog(ctx.db, shop.shopId, PRODUCTS, 11);
    // a freshly loaded table has no visibility map yet; autovacuum would do this in production
    await ctx.db.execute(sql`VACUUM ANALYZE products`);
    await ctx.db.execute(sql`VACUUM ANALYZE product_variants`);
    // a word that occurs in names, searched without its accents
    const word = (catalog.sampleWords.find((w) => /[äöüÄÖÜ]/.test(w)) ?? catalog.sampleWords[0] ?? 'Premium')
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
    return { token: shop.ownerToken, word };
  })();
  return loaded;
}

async function request(ctx: BenchContext, path: (word: string) => string) {
  const { token, word } = await load(ctx);
  const headers = { authorization: `Bearer ${token}` };
  const check = await ctx.api('GET', path(word), { headers });
  if (check.status !== 200 || !(check.data.products?.length > 0)) {
    throw new Error(`unexpected product list answer: ${check.status} ${check.text.slice(0, 200)}`);
  }
  return { method: 'GET' as const, path: path(word), headers };
}

export const catalogSearch: BenchCase = {
  name: 'catalog-search',
  description: `GET /api/admin/products?q=… (accent-insensitive search, ${PRODUCTS} products)`,
  connections: 10,
  durationSeconds: 10,
  setup: (ctx) => request(ctx, (word) => `/api/admin/products?q=${encodeURIComponent(word)}`),
  targets: { p99Ms: 30 },
};

export const catalogPage: BenchCase = {
  name: 'catalog-page',
  description: `GET /api/admin/products?status=published&limit=50&offset=5000 (${PRODUCTS} products)`,
  connections: 10,
  durationSeconds: 10,
  setup: (ctx) => request(ctx, () => '/api/admin/products?status=published&limit=50&offset=5000'),
  targets: { p99Ms: 30 },
};

export const catalogSorted: BenchCase = {
  name: 'catalog-sorted',
  description: `GET /api/admin/products?sort=name&limit=50&offset=5000 (${PRODUCTS} products, sorted by name)`,
  connections: 10,
  durationSeconds: 10,
  setup: (ctx) => request(ctx, () => '/api/admin/products?sort=name&limit=50&offset=5000'),
  targets: { p99Ms: 30 },
};
