/** The demo catalog (seedDemoCatalog) and the benchmark generator produce valid, searchable data. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCatalog } from '../../../bench/data/catalog.js';
import { call, createShop, expectProblem, startApp, type TestApp } from '../../../test/helpers/app.js';
import type { Ctx } from '../../platform/auth/types.js';
import { seedDemoCatalog } from './index.js';

let t: TestApp;

beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const ctxOf = (shopId: string): Ctx => ({
  shopId,
  actor: null,
  db: t.app.deps.database.db,
  clock: t.app.deps.clock,
  config: t.config,
  log: t.app.log,
});

describe('seedDemoCatalog', () => {
  it('creates a small realistic catalog through the service', async () => {
    const shop = await createShop(t.app);
    const demo = await seedDemoCatalog(ctxOf(shop.shopId));
    expect(demo.productIds).toHaveLength(8);
    const list = await call(t.app, 'GET', '/api/admin/products', { token: shop.ownerToken, query: { limit: '200' } });
    expect(list.data.count).toBe(8);
    const products = list.data.products as {
      name: string;
      tax_class: string;
      is_digital: boolean;
      status: string;
      variants: { option_values: Record<string, string> }[];
      images: { variant_id: string | null }[];
    }[];
    const digital = products.filter((p) => p.is_digital);
    expect(digital).toHaveLength(3);
    expect(digital.every((p) => p.status === 'published')).toBe(true);
    expect(products.some((p) => p.tax_class === 'books')).toBe(true);
    expect(products.some((p) => p.tax_class === 'food')).toBe(true);
    const shirt = products.find((p) => p.name.startsWith('Basic T-Shirt'));
    expect(shirt?.variants.map((v) => v.option_values.Größe)).toEqual(['S', 'M', 'L']);
    const hoodie = products.find((p) => p.name.startsWith('Kapuzenpullover'));
    expect(hoodie?.images.every((i) => i.variant_id !== null)).toBe(true);
    const cats = await call(t.app, 'GET', '/api/admin/categories', { token: shop.ownerToken });
    expect(cats.data.categories.some((c: { parent_id: string | null }) => c.parent_id !== null)).toBe(true);
    const digitalOnly = await call(t.app, 'GET', '/api/admin/products', {
      token: shop.ownerToken,
      query: { digital: 'ja' },
    });
    expect(digitalOnly.data.count).toBe(3);
    const kaese = await call(t.app, 'GET', '/api/admin/products', { token: shop.ownerToken, query: { q: 'kase' } });
    expect(kaese.data.count).toBe(2);
  });
});

describe('bench generateCatalog', () => {
  it('bulk-loads a deterministic catalog that the API reads like any other', async () => {
    const shop = await createShop(t.app);
    const gen = await generateCatalog(t.app.deps.database.db, shop.shopId, 2100, 7);
    expect(gen.products).toBe(2100);
    expect(gen.variants).toBeGreaterThanOrEqual(2100);
    expect(gen.variants).toBeLessThanOrEqual(6300);
    const token = shop.ownerToken;
    const list = await call(t.app, 'GET', '/api/admin/products', { token, query: { limit: '5' } });
    expect(list.statusCode).toBe(200);
    expect(list.data.count).toBe(2100);
    // newest first: the last generated product leads
    expect(list.data.products[0].sku).toBe('B7-0002100');
    const statuses = await Promise.all(
      ['published', 'draft', 'archived'].map(
        async (status) =>
          (await call(t.app, 'GET', '/api/admin/products', { token, query: { status, limit: '1' } })).data.count,
      ),
    );
    expect(statuses.every((n) => n > 0)).toBe(true);
    expect(statuses.reduce((a, b) => a + b, 0)).toBe(2100);
    const bySku = await call(t.app, 'GET', '/api/admin/products', {
      token,
      query: { q: gen.sampleVariantSkus[1] as string },
    });
    expect(bySku.data.count).toBe(1);
    const digital = await call(t.app, 'GET', '/api/admin/products', { token, query: { digital: 'ja', limit: '1' } });
    expect(digital.data.count).toBeGreaterThan(0);
    // the SKU register is filled: a generated SKU cannot be taken again
    const dup = await call(t.app, 'POST', '/api/products', { token, body: { name: 'Dup', sku: gen.sampleSkus[0] } });
    expectProblem(dup, 409, 'sku_taken');
    // the same seed gives the same catalog
    const other = await createShop(t.app);
    await generateCatalog(t.app.deps.database.db, other.shopId, 50, 7);
    const fingerprint = async (shopId: string) =>
      (
        (await t.app.deps.database.db.execute(
          sql`SELECT name, sku, status, base_price_cents FROM products WHERE shop_id = ${shopId} ORDER BY sku LIMIT 50`,
        )) as unknown as { rows: unknown[] }
      ).rows;
    expect(await fingerprint(other.shopId)).toEqual(await fingerprint(shop.shopId));
  });
});
