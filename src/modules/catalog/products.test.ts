/** Product create, read, change and soft delete over HTTP against the real database. */
import { sql } from 'drizzle-orm';
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
import { validatorCompiler } from '../../platform/http/validation.js';
import { ProductList, ProductSchema } from './catalog.schemas.js';
import { slugify } from './catalog.util.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
  // products may name only vendors of their shop
  await t.app.deps.database.db.execute(
    sql`INSERT INTO vendors (id, shop_id, name, email, status) VALUES ('ven_later', ${shop.shopId}, 'Vendor', 'ven_later@vendor.test', 'active')`,
  );
});
afterAll(() => t.close());

const create = (body: unknown, token = owner) => call(t.app, 'POST', '/api/products', { token, body });
const patch = (id: string, body: unknown, token = owner) =>
  call(t.app, 'PATCH', `/api/products/${id}`, { token, body });
const get = (id: string, token = owner) => call(t.app, 'GET', `/api/admin/products/${id}`, { token });

async function created(body: Record<string, unknown>, token = owner) {
  const res = await create(body, token);
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
  return res.data;
}

/** A list body that the response schema accepts, with exactly the schema's keys in its order. */
const listSchemaAccepts = validatorCompiler({ schema: ProductList, httpPart: 'body' } as never) as (
  v: unknown,
) => boolean;
function expectListShape(body: { products: Record<string, unknown>[] }) {
  expect(listSchemaAccepts(body)).toBe(true);
  for (const product of body.products) expect(Object.keys(product)).toEqual(Object.keys(ProductSchema.properties));
}

describe('slugify', () => {
  it('spells out German umlauts, strips other accents and joins words with dashes', () => {
    expect(slugify('Grüße aus Köln')).toBe('gruesse-aus-koeln');
    expect(slugify('ÄRGER über Öl')).toBe('aerger-ueber-oel');
    expect(slugify('Crème brûlée à la façon')).toBe('creme-brulee-a-la-facon');
    expect(slugify('  T-Shirt (rot) / 100% Baumwolle!  ')).toBe('t-shirt-rot-100-baumwolle');
    expect(slugify('Straße')).toBe('strasse');
    expect(slugify('???')).toBe('product');
  });
});

describe('POST /api/products', () => {
  it('creates a product with the documented defaults', async () => {
    const res = await create({ name: 'Einfaches Produkt' });
    expect(res.statusCode).toBe(201);
    const p = res.data;
    expect(p.id).toMatch(/^prod_/);
    expect(p).toMatchObject({
      name: 'Einfaches Produkt',
      slug: 'einfaches-produkt',
      sku: null,
      status: 'draft',
      type: 'STANDARD',
      tax_class: 'standard',
      base_price_cents: 0,
      cost_price_cents: null,
      category_id: null,
      brand_id: null,
      supplier_id: null,
      vendor_id: null,
      is_digital: false,
      track_stock: true,
      stock_quantity: 0,
      description: null,
      short_description: null,
      options: [],
      variants: [],
      images: [],
    });
    expect(new Date(p.created_at).toISOString()).toBe(p.created_at);
    expect(p.updated_at).toBe(p.created_at);
  });

  it('defaults track_stock to false for digital products, unless given', async () => {
    const digital = await created({ name: 'E-Book Defaults', is_digital: true });
    expect(digital.track_stock).toBe(false);
    const limited = await created({ name: 'Lizenz Defaults', is_digital: true, track_stock: true });
    expect(limited.track_stock).toBe(true);
  });

  it('writes quotes, backslashes, control characters and any script as JSON in the list and the read', async () => {
    const name = 'Zitat "Ä" \\ back\tslash – 日本 😀';
    const p = await created({
      name,
      description: 'Zeile 1\nZeile 2\r\n\u0001 </script>',
      short_description: null,
      options: [{ name: 'Farbe "hell"', values: ['Weiß\\Grau'] }],
      variants: [{ sku: 'Q"1\\', title: 'Ä\tB', option_values: { 'Farbe "hell"': 'Weiß\\Grau' } }],
      images: [{ url: 'https://img.test/a%20b.jpg?x=%221%22&y=1', alt: '\u2028' }],
    });
    expect(p.name).toBe(name);
    const listed = await call(t.app, 'GET', '/api/admin/products', { token: owner, query: { q: 'zitat' } });
    expect(listed.statusCode).toBe(200);
    expect(JSON.parse(listed.body)).toEqual(listed.data);
    expectListShape(listed.data);
    expect(listed.data.products).toEqual([p]);
    expect((await get(p.id)).data.product).toEqual(p);
  });

  it('stores every field, variants with options and images', async () => {
    const brand = await call(t.app, 'POST', '/api/admin/brands', { token: owner, body: { name: 'Marke Full' } });
    const cat = await call(t.app, 'POST', '/api/admin/categories', { token: owner, body: { name: 'Kat Full' } });
    const sup = await call(t.app, 'POST', '/api/admin/suppliers', { token: owner, body: { name: 'Lieferant Full' } });
    // every scalar field (and the options) the product is created with and read back with
    const fields = {
      slug: 'shirt-full-custom',
      sku: 'FULL-1',
      status: 'published',
      type: 'ASSEMBLY',
      tax_class: 'food',
      base_price_cents: 1999,
      cost_price_cents: 500,
      category_id: cat.data.id,
      brand_id: brand.data.id,
      supplier_id: sup.data.id,
      vendor_id: 'ven_later',
      description: 'Lang',
      short_description: 'Kurz',
      stock_quantity: 7,
      options: [{ name: 'Größe', values: ['S', 'M'] }],
    };
    const p = await created({
      name: 'Shirt Full',
      ...fields,
      variants: [
        { sku: 'FULL-1-S', option_values: { Größe: 'S' }, stock_quantity: 3 },
        { sku: 'FULL-1-M', option_values: { Größe: 'M' }, price_cents: 2199, is_default: true, track_stock: false },
      ],
      images: [
        { url: 'https://img.test/a.jpg', alt: 'A' },
        { url: 'https://img.test/b.jpg', variant_index: 1 },
      ],
    });
    expect(p).toMatchObject(fields);
    expect(p.variants).toHaveLength(2);
    const [s, m] = p.variants;
    expect(s).toMatchObject({
      sku: 'FULL-1-S',
      title: 'S',
      option_values: { Größe: 'S' },
      price_cents: null,
      effective_price_cents: 1999,
      stock_quantity: 3,
      track_stock: true,
      is_default: false,
      position: 0,
    });
    expect(s.id).toMatch(/^var_/);
    expect(m).toMatchObject({ price_cents: 2199, effective_price_cents: 2199, is_default: true, track_stock: false });
    expect(p.images.map((i: { url: string }) => i.url)).toEqual(['https://img.test/a.jpg', 'https://img.test/b.jpg']);
    expect(p.images[0]).toMatchObject({ alt: 'A', position: 0, variant_id: null });
    expect(p.images[1]).toMatchObject({ alt: null, position: 1, variant_id: m.id });
    expect(p.images[0].id).toMatch(/^img_/);
    const read = await get(p.id);
    expect(read.statusCode).toBe(200);
    expect(read.data.product).toEqual(p);
    // the list's JSON is written by the database and sent without the schema's serializer
    const listed = await call(t.app, 'GET', '/api/admin/products', { token: owner, query: { q: 'FULL-1-M' } });
    expect(listed.headers['content-type']).toBe('application/json; charset=utf-8');
    expectListShape(listed.data);
    expect(listed.data.products).toEqual([p]);
  });

  it('makes the first variant the default when none is chosen', async () => {
    const p = await created({ name: 'Default Variant', variants: [{ title: 'Eins' }, { title: 'Zwei' }] });
    expect(p.variants.map((v: { is_default: boolean }) => v.is_default)).toEqual([true, false]);
    expect(p.variants[0].title).toBe('Eins');
  });

  it('generates unique slugs with -2, -3 … and refuses a given slug that is taken', async () => {
    const a = await created({ name: 'Käse & Wein' });
    const b = await created({ name: 'Käse & Wein' });
    const c = await created({ name: 'KÄSE — Wein' });
    expect([a.slug, b.slug, c.slug]).toEqual(['kaese-wein', 'kaese-wein-2', 'kaese-wein-3']);
    const taken = await create({ name: 'Anderes', slug: 'kaese-wein-2' });
    expectProblem(taken, 409, 'slug_taken');
    const patched = await patch(a.id, { slug: 'kaese-wein-3' });
    expectProblem(patched, 409, 'slug_taken');
    // keeping one's own slug is no conflict
    expect((await patch(a.id, { slug: 'kaese-wein' })).statusCode).toBe(200);
  });

  it('refuses a SKU used by another product or variant (409 sku_taken)', async () => {
    await created({ name: 'SKU Owner', sku: 'DUP-1', variants: [{ sku: 'DUP-1-V' }] });
    expectProblem(await create({ name: 'Same product SKU', sku: 'DUP-1' }), 409, 'sku_taken');
    // a variant SKU colliding with a product SKU
    expectProblem(await create({ name: 'Variant vs product', variants: [{ sku: 'DUP-1' }] }), 409, 'sku_taken');
    // a product SKU colliding with a variant SKU
    expectProblem(await create({ name: 'Product vs variant', sku: 'DUP-1-V' }), 409, 'sku_taken');
    // the same SKU twice in one request
    const twice = await create({ name: 'Twice', sku: 'TWICE', variants: [{ sku: 'TWICE' }] });
    expectProblem(twice, 409, 'sku_taken');
    expect(twice.data.errors[0].path).toBe('/body/variants/0/sku');
    // SKUs are case-sensitive identifiers
    expect((await create({ name: 'Lowercase', sku: 'dup-1' })).statusCode).toBe(201);
    // nothing of the refused products was stored
    const list = await call(t.app, 'GET', '/api/admin/products', { token: owner, query: { q: 'Twice' } });
    expect(list.data.count).toBe(0);
  });

  it('of two concurrent creates with one SKU exactly one succeeds', async () => {
    const results = await Promise.all([
      create({ name: 'Concurrent A', sku: 'RACE-1' }),
      create({ name: 'Concurrent B', variants: [{ sku: 'RACE-1' }] }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(results.find((r) => r.statusCode === 409)?.data.code).toBe('sku_taken');
    // and under heavier contention: never two owners, never a 500
    const many = await Promise.all(
      Array.from({ length: 6 }, (_, i) => create({ name: `Race ${i}`, variants: [{ sku: 'RACE-2' }] })),
    );
    const codes = many.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(5);
  });

  it('gives concurrent creates with one name distinct generated slugs', async () => {
    // more writers than the retries on a taken slug: they wait for each other instead
    const results = await Promise.all(Array.from({ length: 12 }, () => create({ name: 'Gleicher Name' })));
    expect(results.map((r) => r.statusCode)).toEqual(Array(12).fill(201));
    expect(results.map((r) => r.data.slug).sort()).toEqual(
      ['gleicher-name', ...Array.from({ length: 11 }, (_, i) => `gleicher-name-${i + 2}`)].sort(),
    );
  });

  it('rejects invalid bodies with 400 and field paths', async () => {
    const cases: [unknown, string][] = [
      [{}, '/body/name'],
      [{ name: '' }, '/body/name'],
      [{ name: '   ' }, '/body/name'],
      [{ name: 'X', base_price_cents: '100' }, '/body/base_price_cents'],
      [{ name: 'X', base_price_cents: 12.5 }, '/body/base_price_cents'],
      [{ name: 'X', base_price_cents: -1 }, '/body/base_price_cents'],
      [{ name: 'X', cost_price_cents: -5 }, '/body/cost_price_cents'],
      [{ name: 'X', status: 'live' }, '/body/status'],
      [{ name: 'X', type: 'standard' }, '/body/type'],
      [{ name: 'X', tax_class: 'reduced' }, '/body/tax_class'],
      [{ name: 'X', colour: 'red' }, '/body/colour'],
      [{ name: 'X', is_digital: 'ja' }, '/body/is_digital'],
      [{ name: 'X', slug: 'Not A Slug' }, '/body/slug'],
      [{ name: 'X', sku: ' padded ' }, '/body/sku'],
      [{ name: 'X', variants: [{ price_cents: -1 }] }, '/body/variants/0/price_cents'],
      [{ name: 'X', variants: [{ id: 'var_x' }] }, '/body/variants/0/id'],
      [{ name: 'X', images: [{ url: 'ftp://x/y.jpg' }] }, '/body/images/0/url'],
      [{ name: 'X', images: [{ alt: 'no url' }] }, '/body/images/0/url'],
      [{ name: 'X', images: [{ url: 'https://x.test/a.jpg', variant_index: 0 }] }, '/body/images/0/variant_index'],
      [{ name: 'X', category_id: 'cat_missing' }, '/body/category_id'],
      [{ name: 'X', options: [{ name: 'Größe', values: [] }] }, '/body/options/0/values'],
      [
        {
          name: 'X',
          options: [
            { name: 'Größe', values: ['S'] },
            { name: 'Größe', values: ['M'] },
          ],
        },
        '/body/options/1/name',
      ],
      [
        { name: 'X', options: [{ name: 'Größe', values: ['S'] }], variants: [{ option_values: { Größe: 'XL' } }] },
        '/body/variants/0/option_values/Größe',
      ],
      [{ name: 'X', variants: [{ option_values: { Farbe: 'rot' } }] }, '/body/variants/0/option_values/Farbe'],
      [
        {
          name: 'X',
          options: [{ name: 'Größe', values: ['S'] }],
          variants: [{ option_values: { Größe: 'S' } }, { option_values: { Größe: 'S' } }],
        },
        '/body/variants/1/option_values',
      ],
      [{ name: 'X', variants: [{ is_default: true }, { is_default: true }] }, '/body/variants/1/is_default'],
    ];
    for (const [body, path] of cases) {
      const res = await create(body);
      expectProblem(res, 400, 'validation_failed');
      expect(
        res.data.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    const list = await call(t.app, 'GET', '/api/admin/products', { token: owner, query: { q: 'X' } });
    expect(list.data.products.filter((p: { name: string }) => p.name === 'X')).toEqual([]);
  });

  it('refuses a malformed JSON body and a non-JSON content type', async () => {
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/products',
      headers: { authorization: `Bearer ${owner}`, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body).code).toBe('malformed_json');
  });
});

describe('PATCH /api/products/:id', () => {
  it('changes only the given fields', async () => {
    const p = await created({ name: 'Patch Me', sku: 'PM-1', base_price_cents: 1000, description: 'alt' });
    const res = await patch(p.id, { base_price_cents: 1200, description: null });
    expect(res.statusCode).toBe(200);
    expect(res.data).toMatchObject({ name: 'Patch Me', sku: 'PM-1', base_price_cents: 1200, description: null });
    expect(res.data.slug).toBe(p.slug);
    expect(res.data.created_at).toBe(p.created_at);
    expect(new Date(res.data.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(p.updated_at).getTime());
    // an empty body changes nothing
    const same = await patch(p.id, {});
    expect(same.statusCode).toBe(200);
    expect(same.data.base_price_cents).toBe(1200);
    // a renamed product keeps its slug (stable URLs)
    const renamed = await patch(p.id, { name: 'Neuer Name' });
    expect(renamed.data.slug).toBe(p.slug);
  });

  it('accepts only a vendor of the shop as vendor_id (400 unknown_vendor), on create and change', async () => {
    const other = await createShop(t.app);
    await t.app.deps.database.db.execute(
      sql`INSERT INTO vendors (id, shop_id, name, email, status) VALUES ('ven_foreign', ${other.shopId}, 'Fremd', 'f@vendor.test', 'invited')`,
    );
    for (const vendor_id of ['ven_unknown', 'ven_foreign']) {
      const bad = await create({ name: `Vendor ${vendor_id}`, vendor_id });
      expectProblem(bad, 400, 'unknown_vendor');
      expect(bad.data.errors).toEqual([{ path: '/body/vendor_id', message: 'is not a vendor of this shop' }]);
    }
    const p = await created({ name: 'Vendor Product', vendor_id: 'ven_later' });
    expect(p.vendor_id).toBe('ven_later');
    const bad = await patch(p.id, { vendor_id: 'ven_foreign' });
    expectProblem(bad, 400, 'unknown_vendor');
    expect((await get(p.id)).data.product.vendor_id).toBe('ven_later');
    // the same vendor again and clearing it need no check
    expect((await patch(p.id, { vendor_id: 'ven_later', name: 'Vendor Product 2' })).statusCode).toBe(200);
    expect((await patch(p.id, { vendor_id: null })).data.vendor_id).toBeNull();
  });

  it('treats variants as the complete new list: update by id, create without id, delete the rest', async () => {
    const p = await created({
      name: 'Variant List',
      base_price_cents: 1000,
      options: [{ name: 'Größe', values: ['S', 'M', 'L'] }],
      variants: [
        { sku: 'VL-S', option_values: { Größe: 'S' }, stock_quantity: 1 },
        { sku: 'VL-M', option_values: { Größe: 'M' }, stock_quantity: 2 },
      ],
      images: [{ url: 'https://img.test/s.jpg', variant_index: 0 }],
    });
    const [s, m] = p.variants;
    const res = await patch(p.id, {
      variants: [
        { id: m.id, price_cents: 1500 },
        { sku: 'VL-L', option_values: { Größe: 'L' } },
      ],
    });
    expect(res.statusCode).toBe(200);
    const vs = res.data.variants;
    expect(vs).toHaveLength(2);
    // M kept its id and untouched fields, got the new price and moved to the front
    expect(vs[0]).toMatchObject({ id: m.id, sku: 'VL-M', stock_quantity: 2, price_cents: 1500, position: 0 });
    expect(vs[1]).toMatchObject({ sku: 'VL-L', title: 'L', price_cents: null, effective_price_cents: 1000 });
    expect(vs.map((v: { id: string }) => v.id)).not.toContain(s.id);
    // the old default (S) is gone, so the first variant is the default now
    expect(vs.map((v: { is_default: boolean }) => v.is_default)).toEqual([true, false]);
    // the image linked to the deleted variant stays, unlinked
    expect(res.data.images).toHaveLength(1);
    expect(res.data.images[0].variant_id).toBeNull();
    // the deleted variant's SKU is free again
    expect((await create({ name: 'Reuse VL-S', sku: 'VL-S' })).statusCode).toBe(201);
    // omitting variants leaves them untouched
    const untouched = await patch(p.id, { name: 'Variant List 2' });
    expect(untouched.data.variants).toEqual(vs);
    // an empty list deletes every variant
    const none = await patch(p.id, { variants: [] });
    expect(none.data.variants).toEqual([]);
  });

  it('treats images as the complete new list and links them to variants', async () => {
    const p = await created({
      name: 'Image List',
      variants: [{ sku: 'IL-A' }, { sku: 'IL-B' }],
      images: [{ url: 'https://img.test/1.jpg', alt: 'eins' }, { url: 'https://img.test/2.jpg' }],
    });
    const [one, two] = p.images;
    const [, b] = p.variants;
    const res = await patch(p.id, {
      images: [
        { id: two.id, variant_id: b.id },
        { url: 'https://img.test/3.jpg', alt: 'drei', position: 5 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.images).toHaveLength(2);
    expect(res.data.images[0]).toMatchObject({
      id: two.id,
      url: 'https://img.test/2.jpg',
      variant_id: b.id,
      position: 0,
    });
    expect(res.data.images[1]).toMatchObject({ url: 'https://img.test/3.jpg', alt: 'drei', position: 5 });
    expect(res.data.images.map((i: { id: string }) => i.id)).not.toContain(one.id);
    // unknown ids are refused and nothing changes
    const bad = await patch(p.id, { images: [{ id: 'img_unknown' }], name: 'Should not stick' });
    expectProblem(bad, 400, 'validation_failed');
    expect(bad.data.errors[0].path).toBe('/body/images/0/id');
    const foreignVariant = await patch(p.id, { images: [{ url: 'https://img.test/x.jpg', variant_id: 'var_other' }] });
    expectProblem(foreignVariant, 400, 'validation_failed');
    expect((await get(p.id)).data.product.name).toBe('Image List');
    expect((await get(p.id)).data.product.images).toHaveLength(2);
  });

  it('refuses unknown variant ids, option mismatches and SKU conflicts without changing anything', async () => {
    const other = await created({ name: 'Other SKU holder', sku: 'HOLD-1' });
    const p = await created({
      name: 'Guarded',
      options: [{ name: 'Farbe', values: ['rot', 'blau'] }],
      variants: [{ sku: 'GD-R', option_values: { Farbe: 'rot' } }],
    });
    const unknown = await patch(p.id, { variants: [{ id: 'var_nope' }] });
    expectProblem(unknown, 400, 'validation_failed');
    expect(unknown.data.errors[0].path).toBe('/body/variants/0/id');
    // options that no longer hold a value a variant uses
    const shrink = await patch(p.id, { options: [{ name: 'Farbe', values: ['blau'] }] });
    expectProblem(shrink, 400, 'validation_failed');
    expect(shrink.data.errors[0].path).toBe('/body/options');
    const clash = await patch(p.id, { variants: [{ id: p.variants[0].id, sku: 'HOLD-1' }] });
    expectProblem(clash, 409, 'sku_taken');
    const clash2 = await patch(p.id, { sku: 'HOLD-1' });
    expectProblem(clash2, 409, 'sku_taken');
    const after = (await get(p.id)).data.product;
    expect(after.variants[0].sku).toBe('GD-R');
    expect(after.sku).toBeNull();
    expect(other.sku).toBe('HOLD-1');
    // a variant of another product cannot be adopted
    const foreign = await created({ name: 'Foreign variants', variants: [{ sku: 'FV-1' }] });
    const adopt = await patch(p.id, { variants: [{ id: foreign.variants[0].id }] });
    expectProblem(adopt, 400, 'validation_failed');
  });

  it('validates the body like create (wrong types, negative prices, unknown fields)', async () => {
    const p = await created({ name: 'Validate Patch' });
    for (const body of [
      { base_price_cents: '100' },
      { base_price_cents: -1 },
      { status: 'gone' },
      { name: null },
      { slug: null },
      { unknown_field: 1 },
      { variants: [{ price_cents: '5' }] },
    ]) {
      expectProblem(await patch(p.id, body), 400, 'validation_failed');
    }
  });

  it('answers 404 for unknown and deleted products', async () => {
    expectProblem(await patch('prod_unknown', { name: 'x' }), 404, 'not_found');
  });
});

describe('DELETE /api/products/:id (soft delete)', () => {
  it('hides the product everywhere and frees its slug and SKUs', async () => {
    const p = await created({ name: 'Gelöscht', sku: 'DEL-1', variants: [{ sku: 'DEL-1-V' }] });
    const del = await call(t.app, 'DELETE', `/api/products/${p.id}`, { token: owner });
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expectProblem(await get(p.id), 404, 'not_found');
    expectProblem(await patch(p.id, { name: 'zombie' }), 404, 'not_found');
    expectProblem(await call(t.app, 'DELETE', `/api/products/${p.id}`, { token: owner }), 404, 'not_found');
    const list = await call(t.app, 'GET', '/api/admin/products', { token: owner, query: { q: 'DEL-1' } });
    expect(list.data.count).toBe(0);
    // slug and SKUs are reusable
    const again = await created({ name: 'Gelöscht', sku: 'DEL-1', variants: [{ sku: 'DEL-1-V' }] });
    expect(again.slug).toBe('geloescht');
    expect(again.id).not.toBe(p.id);
    // the row is kept (soft delete)
    const rows = await t.app.deps.database.db.execute(sql`SELECT deleted_at FROM products WHERE id = ${p.id}`);
    expect((rows as unknown as { rows: { deleted_at: unknown }[] }).rows[0]?.deleted_at).not.toBeNull();
  });
});

describe('credentials and tenancy', () => {
  it('lets catalog writers and catalog:write tokens write; refuses viewers and read tokens', async () => {
    const editor = await employeeToken(t.app, shop, 'catalog_editor');
    const viewer = await employeeToken(t.app, shop, 'viewer');
    const write = await apiToken(t.app, shop, ['catalog:write']);
    const read = await apiToken(t.app, shop, ['catalog:read']);
    const byEditor = await create({ name: 'Von Editor' }, editor);
    expect(byEditor.statusCode).toBe(201);
    expect((await create({ name: 'Von Token' }, write)).statusCode).toBe(201);
    expectProblem(await create({ name: 'Von Viewer' }, viewer), 403, 'role_denied');
    expectProblem(await patch(byEditor.data.id, { name: 'x' }, viewer), 403, 'role_denied');
    expectProblem(
      await call(t.app, 'DELETE', `/api/products/${byEditor.data.id}`, { token: viewer }),
      403,
      'role_denied',
    );
    expectProblem(await create({ name: 'Von Read' }, read), 403, 'scope_denied');
    // reads are open to viewers and read tokens
    expect((await get(byEditor.data.id, viewer)).statusCode).toBe(200);
    expect((await get(byEditor.data.id, read)).statusCode).toBe(200);
    expect((await get(byEditor.data.id, write)).statusCode).toBe(200);
    expect((await get(byEditor.data.id)).data.product.name).toBe('Von Editor');
  });

  it("answers another shop's products and references with 404 and changes nothing", async () => {
    const other = await createShop(t.app);
    const theirs = await created({ name: 'Fremd', sku: 'FOREIGN-1' }, other.ownerToken);
    const theirCat = await call(t.app, 'POST', '/api/admin/categories', {
      token: other.ownerToken,
      body: { name: 'Fremde Kategorie' },
    });
    expectProblem(await get(theirs.id), 404, 'not_found');
    expectProblem(await patch(theirs.id, { name: 'gekapert' }), 404, 'not_found');
    expectProblem(await call(t.app, 'DELETE', `/api/products/${theirs.id}`, { token: owner }), 404, 'not_found');
    // a foreign category cannot be referenced
    const ref = await create({ name: 'Mit fremder Kategorie', category_id: theirCat.data.id });
    expectProblem(ref, 400, 'validation_failed');
    // SKUs are per shop: the same SKU is free here
    expect((await create({ name: 'Eigener', sku: 'FOREIGN-1' })).statusCode).toBe(201);
    const still = await get(theirs.id, other.ownerToken);
    expect(still.data.product.name).toBe('Fremd');
    const list = await call(t.app, 'GET', '/api/admin/products', { token: owner, query: { q: 'Fremd' } });
    expect(list.data.products.map((p: { id: string }) => p.id)).not.toContain(theirs.id);
  });
});
