/** The admin list's count is remembered per filter set and refreshed by every change. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createShop, type ShopFixture, startApp, type TestApp } from '../../../test/helpers/app.js';

let t: TestApp;
let shop: ShopFixture;
beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
});
afterAll(() => t.close());

const count = async (query: Record<string, string>) =>
  (await call(t.app, 'GET', '/api/admin/products', { token: shop.ownerToken, query })).data.count as number;

it('an exact count after creates, status changes, deletes, variant SKU changes and raw SQL writes', async () => {
  const create = async (name: string, extra: Record<string, unknown> = {}) =>
    (await call(t.app, 'POST', '/api/products', { token: shop.ownerToken, body: { name, ...extra } })).data;
  const a = await create('Alpha Tee', { status: 'published' });
  expect(await count({ status: 'published' })).toBe(1);
  expect(await count({ status: 'published', limit: '1', offset: '1' })).toBe(1);
  await create('Beta Tee', { status: 'published' });
  expect(await count({ status: 'published' })).toBe(2);
  await call(t.app, 'PATCH', `/api/products/${a.id}`, { token: shop.ownerToken, body: { status: 'archived' } });
  expect(await count({ status: 'published' })).toBe(1);
  expect(await count({ q: 'zx-99' })).toBe(0);
  await call(t.app, 'PATCH', `/api/products/${a.id}`, {
    token: shop.ownerToken,
    body: { variants: [{ sku: 'ZX-99' }] },
  });
  expect(await count({ q: 'zx-99' })).toBe(1);
  await call(t.app, 'DELETE', `/api/products/${a.id}`, { token: shop.ownerToken });
  expect(await count({ q: 'zx-99' })).toBe(0);
  await t.app.deps.database.db.execute(sql`UPDATE products SET status = 'draft' WHERE shop_id = ${shop.shopId}`);
  expect(await count({ status: 'published' })).toBe(0);
});
