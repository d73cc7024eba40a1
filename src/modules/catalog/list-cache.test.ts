/**
 * The admin list remembers counts (per filter set) and page ids (per filter set and page) under
 * the catalog version: every change is visible on the next request, and rows are always live.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, createShop, type ShopFixture, startApp, type TestApp } from '../../../test/helpers/app.js';
import type { Ctx } from '../../platform/auth/types.js';
import { query } from '../../platform/db/tx.js';
import { listProducts } from './products.read.js';

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

interface Listed {
  id: string;
  name: string;
  stock_quantity: number;
  variants: { stock_quantity: number }[];
}

const versionOf = async (shopId: string) =>
  Number(
    (
      await query<{ version: number | string }>(
        t.app.deps.database.db,
        sql`SELECT version FROM storefront_versions WHERE shop_id = ${shopId}`,
      )
    )[0]?.version,
  );

it('a page asked for again reads live rows and follows every catalog change', async () => {
  const own = await createShop(t.app);
  const create = async (name: string, extra: Record<string, unknown> = {}) =>
    (
      await call(t.app, 'POST', '/api/products', {
        token: own.ownerToken,
        body: { name, status: 'published', ...extra },
      })
    ).data as Listed;
  const list = async (query: Record<string, string> = { status: 'published', limit: '2' }) => {
    const res = await call(t.app, 'GET', '/api/admin/products', { token: own.ownerToken, query });
    expect(res.statusCode).toBe(200);
    return res.data.products as Listed[];
  };
  const names = async (query?: Record<string, string>) => (await list(query)).map((p) => p.name);
  const a = await create('Anker', { stock_quantity: 1 });
  const b = await create('Boje', { stock_quantity: 2 });
  const c = await create('Kompass', { stock_quantity: 3 });
  expect(await names()).toEqual(['Kompass', 'Boje']);
  expect(await names()).toEqual(['Kompass', 'Boje']);

  // a stock change bumps no version: the remembered page still shows the current stock
  const before = await versionOf(own.shopId);
  await t.app.deps.database.db.execute(sql`UPDATE products SET stock_quantity = 7 WHERE id = ${b.id}`);
  expect(await versionOf(own.shopId)).toBe(before);
  expect((await list()).map((p) => p.stock_quantity)).toEqual([3, 7]);

  // every change of membership or order shows on the next request
  await call(t.app, 'PATCH', `/api/products/${c.id}`, { token: own.ownerToken, body: { status: 'archived' } });
  expect(await names()).toEqual(['Boje', 'Anker']);
  const d = await create('Deich');
  expect(await names()).toEqual(['Deich', 'Boje']);
  expect(await names({ status: 'published', limit: '2', offset: '2' })).toEqual(['Anker']);
  await call(t.app, 'DELETE', `/api/products/${d.id}`, { token: own.ownerToken });
  expect(await names()).toEqual(['Boje', 'Anker']);
  await call(t.app, 'PATCH', `/api/products/${a.id}`, { token: own.ownerToken, body: { name: 'Leuchtturm' } });
  expect(await names({ q: 'leucht' })).toEqual(['Leuchtturm']);
  await t.app.deps.database.db.execute(sql`UPDATE products SET status = 'draft' WHERE id = ${b.id}`);
  expect(await names()).toEqual(['Leuchtturm']);
});

it('a remembered page is not used when a write commits after the credential was read', async () => {
  const own = await createShop(t.app);
  const db = t.app.deps.database.db;
  const versionNow = () => versionOf(own.shopId);
  for (const name of ['Eins', 'Zwei', 'Drei']) {
    await call(t.app, 'POST', '/api/products', { token: own.ownerToken, body: { name } });
  }
  const stale = await versionNow();
  // the request's credential read the version `stale`; the page is remembered under it
  const ctx = {
    shopId: own.shopId,
    db,
    actor: { kind: 'token', tokenId: 'tok_x', scopes: ['catalog:read'], catalogVersion: stale },
  } as unknown as Ctx;
  const first = JSON.parse(await listProducts(ctx, { limit: 2 }));
  expect(first.products.map((p: Listed) => p.name)).toEqual(['Drei', 'Zwei']);
  // a rename commits before this request's page statement runs: the statement sees the new
  // version in its snapshot and the list is read afresh
  await db.execute(sql`UPDATE products SET name = 'Vier' WHERE shop_id = ${own.shopId} AND name = 'Drei'`);
  expect(await versionNow()).not.toBe(stale);
  const second = JSON.parse(await listProducts(ctx, { limit: 2 }));
  expect(second.products.map((p: Listed) => p.name)).toEqual(['Vier', 'Zwei']);
  expect(second.count).toBe(3);
});
