/** GET /api/admin/products: filters, search, pagination, ordering and channel restrictions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  employeeToken,
  expectProblem,
  type ShopFixture,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { productChannelListings } from './catalog.tables.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;
/** Products by a short key, in creation order. */
const P: Record<string, { id: string; name: string; created_at: string }> = {};
const order: string[] = [];
let cat: { shirts: string; food: string; child: string };
let brand: { a: string; b: string };
let supplier: string;

async function post(url: string, body: unknown) {
  const res = await call(t.app, 'POST', url, { token: owner, body });
  if (res.statusCode !== 201) throw new Error(`${url} failed: ${res.body}`);
  return res.data;
}

async function product(key: string, body: Record<string, unknown>) {
  const p = await post('/api/products', body);
  P[key] = p;
  order.push(p.id);
}

const list = (query: Record<string, string> = {}, token = owner) =>
  call(t.app, 'GET', '/api/admin/products', { token, query });

async function ids(query: Record<string, string>, token = owner): Promise<string[]> {
  const res = await list(query, token);
  if (res.statusCode !== 200) throw new Error(`list failed: ${res.body}`);
  return res.data.products.map((p: { id: string }) => p.id);
}

const keysOf = (idList: string[]) => idList.map((id) => Object.keys(P).find((k) => P[k]?.id === id));

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
  const shirts = await post('/api/admin/categories', { name: 'Shirts' });
  const child = await post('/api/admin/categories', { name: 'Kinder-Shirts', parent_id: shirts.id });
  const food = await post('/api/admin/categories', { name: 'Essen' });
  cat = { shirts: shirts.id, food: food.id, child: child.id };
  brand = {
    a: (await post('/api/admin/brands', { name: 'Marke A' })).id,
    b: (await post('/api/admin/brands', { name: 'Marke B' })).id,
  };
  supplier = (await post('/api/admin/suppliers', { name: 'Lieferant' })).id;

  await product('shirt', {
    name: 'T-Shirt Rot',
    sku: 'TS-ROT',
    status: 'published',
    category_id: cat.shirts,
    brand_id: brand.a,
    supplier_id: supplier,
    variants: [{ sku: 'VAR-ROT-S' }, { sku: 'VAR-ROT-M' }],
  });
  await product('kaese', {
    name: 'Käse aus dem Allgäu',
    sku: 'LM-001',
    status: 'published',
    tax_class: 'food',
    category_id: cat.food,
    brand_id: brand.b,
  });
  await product('slugged', { name: 'Sonderposten', slug: 'geheimer-slug', status: 'archived' });
  await product('ebook', { name: 'E-Book Fotografie', is_digital: true, status: 'published', brand_id: brand.a });
  await product('course', { name: 'Online-Kurs', is_digital: true, category_id: cat.child });
  await product('percent', { name: 'Rabatt 50% Aktion', sku: 'PCT_1' });
  await product('blue', { name: 'T-Shirt Blau', sku: 'TS-BLAU', category_id: cat.shirts, brand_id: brand.b });
});
afterAll(() => t.close());

describe('GET /api/admin/products', () => {
  it('lists the whole catalog newest first with count, limit and offset', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    expect(res.data.count).toBe(order.length);
    expect(res.data.limit).toBe(50);
    expect(res.data.offset).toBe(0);
    expect(res.data.products.map((p: { id: string }) => p.id)).toEqual([...order].reverse());
    // sorted by created_at desc, ties by id desc
    const rows = res.data.products as { id: string; created_at: string }[];
    for (let i = 1; i < rows.length; i++) {
      const a = rows[i - 1] as { id: string; created_at: string };
      const b = rows[i] as { id: string; created_at: string };
      expect(a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id)).toBe(true);
    }
    // products come complete, with variants
    const shirt = res.data.products.find((p: { id: string }) => p.id === P.shirt?.id);
    expect(shirt.variants.map((v: { sku: string }) => v.sku)).toEqual(['VAR-ROT-S', 'VAR-ROT-M']);
  });

  it('pages with limit and offset; count stays the total', async () => {
    const all = [...order].reverse();
    const pages: string[] = [];
    for (let offset = 0; offset < all.length + 2; offset += 3) {
      const res = await list({ limit: '3', offset: String(offset) });
      expect(res.statusCode).toBe(200);
      expect(res.data.count).toBe(all.length);
      expect(res.data.limit).toBe(3);
      expect(res.data.offset).toBe(offset);
      pages.push(...res.data.products.map((p: { id: string }) => p.id));
    }
    expect(pages).toEqual(all);
    const beyond = await list({ offset: '1000' });
    expect(beyond.data.products).toEqual([]);
    expect(beyond.data.count).toBe(all.length);
    expect((await list({ limit: '1' })).data.products).toHaveLength(1);
    expect((await list({ limit: '200' })).statusCode).toBe(200);
  });

  it('rejects invalid pagination and unknown parameters with 400', async () => {
    const queries: Record<string, string>[] = [
      { limit: '0' },
      { limit: '201' },
      { limit: '-1' },
      { limit: 'abc' },
      { limit: '1.5' },
      { offset: '-1' },
      { offset: 'x' },
      { status: 'live' },
      { digital: 'nein' },
      { sort: 'price' },
      { sort: '--name' },
      { sort: 'NAME' },
    ];
    for (const query of queries) {
      const res = await list(query);
      expectProblem(res, 400, 'validation_failed');
      expect(res.data.errors[0].path).toBe(`/query/${Object.keys(query)[0]}`);
    }
  });

  it('searches name, SKU, slug and variant SKU', async () => {
    expect(keysOf(await ids({ q: 'Shirt Rot' }))).toEqual(['shirt']);
    expect(keysOf(await ids({ q: 'TS-ROT' }))).toEqual(['shirt']);
    expect(keysOf(await ids({ q: 'geheimer-slug' }))).toEqual(['slugged']);
    expect(keysOf(await ids({ q: 'VAR-ROT-M' }))).toEqual(['shirt']);
    expect(keysOf(await ids({ q: 'lm-001' }))).toEqual(['kaese']);
    // several words must all match, in any order
    expect(keysOf(await ids({ q: 'rot t-shirt' }))).toEqual(['shirt']);
    expect(keysOf(await ids({ q: 't-shirt' }))).toEqual(['blue', 'shirt']);
    expect(await ids({ q: 'nirgendwo' })).toEqual([]);
    // a blank search is no search
    expect(await ids({ q: '   ' })).toHaveLength(order.length);
  });

  it('searches case- and accent-insensitively', async () => {
    for (const q of ['Kase', 'käse', 'KÄSE', 'kaese', 'ALLGAU', 'allgäu']) {
      expect(keysOf(await ids({ q })), q).toEqual(['kaese']);
    }
    expect(keysOf(await ids({ q: 'e-book' }))).toEqual(['ebook']);
  });

  it('treats LIKE wildcards in the search literally', async () => {
    expect(keysOf(await ids({ q: '50%' }))).toEqual(['percent']);
    expect(keysOf(await ids({ q: 'PCT_1' }))).toEqual(['percent']);
    expect(await ids({ q: '%' })).toEqual([P.percent?.id]);
    expect(await ids({ q: '_' })).toEqual([P.percent?.id]);
  });

  it('filters by status', async () => {
    expect(keysOf(await ids({ status: 'published' }))).toEqual(['ebook', 'kaese', 'shirt']);
    expect(keysOf(await ids({ status: 'archived' }))).toEqual(['slugged']);
    expect(keysOf(await ids({ status: 'draft' }))).toEqual(['blue', 'percent', 'course']);
  });

  it('filters by category, brand and supplier, with ohne for none', async () => {
    expect(keysOf(await ids({ category_id: cat.shirts }))).toEqual(['blue', 'shirt']);
    // exact category: the subcategory's products are not included
    expect(keysOf(await ids({ category_id: cat.child }))).toEqual(['course']);
    expect(keysOf(await ids({ category_id: 'ohne' }))).toEqual(['percent', 'ebook', 'slugged']);
    expect(keysOf(await ids({ brand_id: brand.a }))).toEqual(['ebook', 'shirt']);
    expect(keysOf(await ids({ brand_id: 'ohne' }))).toEqual(['percent', 'course', 'slugged']);
    expect(keysOf(await ids({ supplier_id: supplier }))).toEqual(['shirt']);
    expect((await ids({ supplier_id: 'ohne' })).length).toBe(order.length - 1);
    expect(await ids({ category_id: 'cat_unknown' })).toEqual([]);
  });

  it('filters digital products with digital=ja; alle (default) lists everything', async () => {
    expect(keysOf(await ids({ digital: 'ja' }))).toEqual(['course', 'ebook']);
    expect((await ids({ digital: 'alle' })).length).toBe(order.length);
  });

  it('combines filters, and count follows the filters', async () => {
    const res = await list({ q: 't-shirt', brand_id: brand.b, category_id: cat.shirts, status: 'draft' });
    expect(keysOf(res.data.products.map((p: { id: string }) => p.id))).toEqual(['blue']);
    expect(res.data.count).toBe(1);
    expect(keysOf(await ids({ digital: 'ja', status: 'published', brand_id: brand.a }))).toEqual(['ebook']);
    expect(keysOf(await ids({ digital: 'ja', category_id: 'ohne' }))).toEqual(['ebook']);
    expect(await ids({ digital: 'ja', q: 'shirt' })).toEqual([]);
    const paged = await list({ status: 'published', limit: '1', offset: '1' });
    expect(paged.data.count).toBe(3);
    expect(keysOf(paged.data.products.map((p: { id: string }) => p.id))).toEqual(['kaese']);
  });

  it('shows a channel-restricted employee only products listed in their channels, with an exact count', async () => {
    const db = t.app.deps.database.db;
    const shirtVariant = (P.shirt as unknown as { variants: { id: string }[] }).variants[0]?.id as string;
    const channel = async (name: string) =>
      (
        await call(t.app, 'POST', '/api/admin/channels', {
          token: owner,
          body: { name, default_country: 'DE', currency: 'EUR' },
        })
      ).data.id as string;
    const chanA = await channel('A');
    const chanB = await channel('B');
    const chanOther = await channel('Other');
    await db.insert(productChannelListings).values([
      // a variant-level listing counts as a listing of the product
      { shopId: shop.shopId, productId: P.shirt?.id as string, channelId: chanA, variantId: shirtVariant },
      { shopId: shop.shopId, productId: P.kaese?.id as string, channelId: chanB, isPublished: false },
      { shopId: shop.shopId, productId: P.ebook?.id as string, channelId: chanOther, isPublished: true },
    ]);
    const restricted = await employeeToken(t.app, shop, 'viewer', [chanA, chanB]);
    const res = await list({}, restricted);
    expect(res.statusCode).toBe(200);
    expect(keysOf(res.data.products.map((p: { id: string }) => p.id))).toEqual(['kaese', 'shirt']);
    expect(res.data.count).toBe(2);
    // pages stay full and count exact under the restriction
    const page = await list({ limit: '1' }, restricted);
    expect(page.data.products).toHaveLength(1);
    expect(page.data.count).toBe(2);
    // filters apply on top of the restriction
    expect(keysOf(await ids({ q: 'käse' }, restricted))).toEqual(['kaese']);
    expect(await ids({ digital: 'ja' }, restricted)).toEqual([]);
    const onlyA = await employeeToken(t.app, shop, 'catalog_editor', [chanA]);
    expect(keysOf(await ids({}, onlyA))).toEqual(['shirt']);
    // unrestricted employees and tokens see everything
    const viewer = await employeeToken(t.app, shop, 'viewer');
    expect((await ids({}, viewer)).length).toBe(order.length);
    const token = await apiToken(t.app, shop, ['catalog:read']);
    expect((await ids({}, token)).length).toBe(order.length);
  });

  it('sorts on the server by name, SKU, price, created_at and updated_at, both directions, ties by id', async () => {
    const all = [...order].reverse();
    expect(await ids({})).toEqual(all);
    expect(await ids({ sort: '-created_at' })).toEqual(all);
    expect(await ids({ sort: 'created_at' })).toEqual(order);
    // name ignores case and accents: Käse sorts as "kase"
    expect(keysOf(await ids({ sort: 'name' }))).toEqual([
      'ebook',
      'kaese',
      'course',
      'percent',
      'slugged',
      'blue',
      'shirt',
    ]);
    expect(keysOf(await ids({ sort: '-name' }))).toEqual([
      'shirt',
      'blue',
      'slugged',
      'percent',
      'course',
      'kaese',
      'ebook',
    ]);
    // without a SKU: last ascending, first descending (then by id in the same direction)
    const withSku = ['kaese', 'percent', 'blue', 'shirt'];
    const noSku = ['slugged', 'ebook', 'course'].map((k) => P[k]?.id as string).sort();
    expect(keysOf(await ids({ sort: 'sku' }))).toEqual([...withSku, ...keysOf(noSku)]);
    expect(keysOf(await ids({ sort: '-sku' }))).toEqual([...keysOf([...noSku].reverse()), ...[...withSku].reverse()]);
    // price: all 0 here but one; ties by id
    await call(t.app, 'PATCH', `/api/products/${P.blue?.id}`, { token: owner, body: { base_price_cents: 1999 } });
    const byPrice = await ids({ sort: 'base_price_cents' });
    expect(byPrice.at(-1)).toBe(P.blue?.id);
    expect(byPrice.slice(0, -1)).toEqual(order.filter((id) => id !== P.blue?.id).sort());
    expect((await ids({ sort: '-base_price_cents' }))[0]).toBe(P.blue?.id);
    // the PATCH above made blue the most recently updated
    expect((await ids({ sort: '-updated_at' }))[0]).toBe(P.blue?.id);
    expect((await ids({ sort: 'updated_at' })).at(-1)).toBe(P.blue?.id);
  });

  it('sorts within filters and pages; count and remembered pages follow the sort', async () => {
    const full = await ids({ sort: 'name', status: 'published' });
    expect(keysOf(full)).toEqual(['ebook', 'kaese', 'shirt']);
    const pages: string[] = [];
    for (const offset of ['0', '1', '2']) {
      const res = await list({ sort: 'name', status: 'published', limit: '1', offset });
      expect(res.data.count).toBe(3);
      pages.push(...res.data.products.map((p: { id: string }) => p.id));
    }
    expect(pages).toEqual(full);
    // the same page under another sort is another page (remembered page ids are per sort)
    const first = await list({ sort: '-name', status: 'published', limit: '1' });
    expect(keysOf(first.data.products.map((p: { id: string }) => p.id))).toEqual(['shirt']);
    const again = await list({ sort: 'name', status: 'published', limit: '1' });
    expect(keysOf(again.data.products.map((p: { id: string }) => p.id))).toEqual(['ebook']);
    // a rename moves the product at once (the catalog version keys the remembered ids)
    await call(t.app, 'PATCH', `/api/products/${P.ebook?.id}`, { token: owner, body: { name: 'Zauber E-Book' } });
    expect(keysOf(await ids({ sort: 'name', status: 'published' }))).toEqual(['kaese', 'shirt', 'ebook']);
    await call(t.app, 'PATCH', `/api/products/${P.ebook?.id}`, { token: owner, body: { name: 'E-Book Fotografie' } });
  });

  it('keeps deleted products and other shops out of the list', async () => {
    const other = await createShop(t.app);
    await call(t.app, 'POST', '/api/products', { token: other.ownerToken, body: { name: 'T-Shirt Fremd' } });
    const extra = await post('/api/products', { name: 'T-Shirt Weg' });
    expect(await ids({ q: 't-shirt' })).toContain(extra.id);
    await call(t.app, 'DELETE', `/api/products/${extra.id}`, { token: owner });
    expect(keysOf(await ids({ q: 't-shirt' }))).toEqual(['blue', 'shirt']);
    expect((await list()).data.count).toBe(order.length);
  });
});
