/** The public catalog over HTTP on the real database: channel resolution, visibility, search, paging, caching. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  call,
  createShop,
  expectProblem,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { type App, buildApp } from '../../app.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;
/** Channels: de (default, EUR), ch (domain ch.example, prefix ch, CHF), at (inactive, domain at.example, prefix at). */
let de: string;
let ch: string;
let at: string;

const CH_ORIGIN = 'https://ch.example';
const AT_ORIGIN = 'https://at.example';

interface StoreCall {
  origin?: string | null;
  referer?: string;
  prefix?: string;
  key?: string;
  app?: App;
}

function store(path: string, opts: StoreCall = {}) {
  const headers: Record<string, string> = {};
  if (opts.origin !== null) headers.origin = opts.origin ?? STORE_ORIGIN;
  if (opts.referer) headers.referer = opts.referer;
  const url = `${opts.prefix ? `/${opts.prefix}` : ''}/api/store/products${path}`;
  return call(opts.app ?? t.app, 'GET', url, { token: opts.key ?? shop.publishableKey, headers });
}

async function ok(path: string, opts: StoreCall = {}) {
  const res = await store(path, opts);
  if (res.statusCode !== 200) throw new Error(`store call failed: ${res.statusCode} ${res.body}`);
  return res;
}

const ids = (res: { data: { products: { id: string }[] } }) => res.data.products.map((p) => p.id);

async function channel(body: Record<string, unknown>, token = owner): Promise<string> {
  const res = await call(t.app, 'POST', '/api/admin/channels', { token, body });
  if (res.statusCode !== 201) throw new Error(`channel creation failed: ${res.body}`);
  return res.data.id;
}

/** A shop's main channel: created, then made the default (a new shop's own default is left aside). */
async function defaultChannel(body: Record<string, unknown>, token = owner): Promise<string> {
  const id = await channel(body, token);
  const res = await call(t.app, 'POST', `/api/admin/channels/${id}/set-default`, { token });
  if (res.statusCode !== 200) throw new Error(`set-default failed: ${res.body}`);
  return id;
}

async function product(body: Record<string, unknown>, token = owner) {
  const res = await call(t.app, 'POST', '/api/products', { token, body: { status: 'published', ...body } });
  if (res.statusCode !== 201) throw new Error(`product creation failed: ${res.body}`);
  return res.data;
}

async function list(productId: string, channelId: string, body: Record<string, unknown> = { is_published: true }) {
  const res = await call(t.app, 'PATCH', `/api/products/${productId}/channels/${channelId}`, { token: owner, body });
  if (res.statusCode !== 200) throw new Error(`listing failed: ${res.body}`);
  return res.data;
}

async function admin(method: string, url: string, body?: unknown) {
  const res = await call(t.app, method, url, { token: owner, ...(body !== undefined ? { body } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} failed: ${res.statusCode} ${res.body}`);
  return res.data;
}

/** A product published and listed in `de`, so the storefront shows it. */
async function shown(body: Record<string, unknown>) {
  const p = await product(body);
  await list(p.id, de);
  return p;
}

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app, {
    origins: [STORE_ORIGIN, CH_ORIGIN, AT_ORIGIN, 'https://de.example'],
  });
  owner = shop.ownerToken;
  // products may name only vendors of their shop
  await t.app.deps.database.db.execute(
    sql`INSERT INTO vendors (id, shop_id, name, email, status) VALUES ('ven_secret', ${shop.shopId}, 'Vendor', 'ven_secret@vendor.test', 'active')`,
  );
  de = await defaultChannel({ name: 'Deutschland', default_country: 'DE', currency: 'EUR' });
  ch = await channel({ name: 'Schweiz', default_country: 'CH', currency: 'CHF', path_prefix: 'ch' });
  at = await channel({
    name: 'Österreich',
    default_country: 'AT',
    currency: 'EUR',
    path_prefix: 'at',
    is_active: false,
  });
  await admin('POST', `/api/admin/channels/${ch}/domains`, { domain: 'ch.example' });
  await admin('POST', `/api/admin/channels/${at}/domains`, { domain: 'at.example' });
  await admin('POST', `/api/admin/channels/${ch}/domains`, { domain: 'mapped-only.example' });
});
afterAll(() => t.close());

describe('channel resolution (docs/storefront.md)', () => {
  let everywhere: { id: string };
  beforeAll(async () => {
    everywhere = await shown({ name: 'Überall Tasse', base_price_cents: 1000 });
    await list(everywhere.id, ch, { is_published: true, price_cents: 1100 });
    await list(everywhere.id, at, { is_published: true, price_cents: 1200 });
  });

  it('without a matching domain or prefix: the default channel', async () => {
    const res = await ok('');
    expect(res.headers['x-channel-id']).toBe(de);
    expect(res.headers['access-control-allow-origin']).toBe(STORE_ORIGIN);
    const p = res.data.products.find((x: { id: string }) => x.id === everywhere.id);
    expect(p.channel).toEqual({ id: de, currency: 'EUR', price_cents: null, compare_at_price_cents: null });
  });

  it('(a) the channel whose domain is the Origin host', async () => {
    const res = await ok('', { origin: CH_ORIGIN });
    expect(res.headers['x-channel-id']).toBe(ch);
    expect(res.data.products[0].channel).toMatchObject({ id: ch, currency: 'CHF', price_cents: 1100 });
    // the Origin wins over a path prefix
    expect((await ok('', { origin: CH_ORIGIN, prefix: 'de-x' })).headers['x-channel-id']).toBe(ch);
  });

  it('(a) else the Referer host', async () => {
    const res = await ok('', { referer: 'https://ch.example/produkte/tasse?x=1' });
    expect(res.headers['x-channel-id']).toBe(ch);
    expect((await ok(`/${everywhere.id}`, { referer: 'https://ch.example/' })).headers['x-channel-id']).toBe(ch);
  });

  it('(b) else the channel with the path prefix, on list and detail', async () => {
    const res = await ok('', { prefix: 'ch' });
    expect(res.headers['x-channel-id']).toBe(ch);
    const detail = await ok(`/${everywhere.id}`, { prefix: 'ch' });
    expect(detail.headers['x-channel-id']).toBe(ch);
    expect(detail.data.product.channel.price_cents).toBe(1100);
    // an unknown prefix falls through to the default
    expect((await ok('', { prefix: 'fr' })).headers['x-channel-id']).toBe(de);
    expectProblem(await store('', { prefix: 'Not_A_Prefix' }), 400, 'validation_failed');
  });

  it('skips an inactive channel that matches by domain or prefix', async () => {
    expect((await ok('', { origin: AT_ORIGIN })).headers['x-channel-id']).toBe(de);
    expect((await ok('', { prefix: 'at' })).headers['x-channel-id']).toBe(de);
    expect((await ok('', { referer: 'https://at.example/x' })).headers['x-channel-id']).toBe(de);
  });

  it('refuses an Origin that is not on the key allowlist, even when its domain maps to a channel', async () => {
    expectProblem(await store('', { origin: 'https://mapped-only.example' }), 403, 'origin_denied');
    expectProblem(await store(`/${everywhere.id}`, { origin: 'https://mapped-only.example' }), 403, 'origin_denied');
    expectProblem(await store('', { origin: null }), 403, 'origin_denied');
    // a Referer never stands in for the Origin
    expectProblem(await store('', { origin: null, referer: 'https://store.example/' }), 403, 'origin_denied');
  });

  it('a fresh shop answers at once from the default channel it was created with', async () => {
    const fresh = await createShop(t.app);
    const res = await store('', { key: fresh.publishableKey });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-channel-id']).toBe(fresh.defaultChannelId);
    expect(res.data.products).toEqual([]);
    expectProblem(await store('/anything', { key: fresh.publishableKey }), 404, 'not_found');
  });

  it('needs a publishable key: no credential 401, other credentials 403', async () => {
    expect((await call(t.app, 'GET', '/api/store/products', { headers: { origin: STORE_ORIGIN } })).statusCode).toBe(
      401,
    );
    expectProblem(await store('', { key: owner }), 403, 'credential_denied');
    expectProblem(await store('', { key: 'pk_unknown' }), 401, 'invalid_credential');
  });
});

describe('visibility (docs/storefront.md)', () => {
  it('shows published, live products whose own listing in the channel is published', async () => {
    const visible = await shown({ name: 'Sichtbar' });
    const draft = await product({ name: 'Entwurf', status: 'draft' });
    await list(draft.id, de);
    const archived = await product({ name: 'Archiviert', status: 'archived' });
    await list(archived.id, de);
    const unpublishedListing = await product({ name: 'Nicht veröffentlicht' });
    await list(unpublishedListing.id, de, { is_published: false });
    const unlisted = await product({ name: 'Ungelistet' });
    const deleted = await shown({ name: 'Gelöscht' });
    await admin('DELETE', `/api/products/${deleted.id}`);
    const otherChannel = await product({ name: 'Nur Schweiz' });
    await list(otherChannel.id, ch);
    const variantOnly = await product({
      name: 'Nur Variante',
      options: [{ name: 'G', values: ['S'] }],
      variants: [{ option_values: { G: 'S' } }],
    });
    await list(variantOnly.id, de, { variant_id: variantOnly.variants[0].id, is_published: true });

    const res = await ok('?limit=200');
    const shownIds = ids(res);
    expect(shownIds).toContain(visible.id);
    for (const hidden of [draft, archived, unpublishedListing, unlisted, deleted, otherChannel, variantOnly]) {
      expect(shownIds).not.toContain(hidden.id);
      expectProblem(await store(`/${hidden.id}`), 404, 'not_found');
    }
    expect(ids(await ok('?limit=200', { origin: CH_ORIGIN }))).toContain(otherChannel.id);
    expect((await ok(`/${otherChannel.id}`, { origin: CH_ORIGIN })).data.product.id).toBe(otherChannel.id);
  });

  it('reads one product by id or slug', async () => {
    const p = await shown({ name: 'Detail Käse', slug: 'detail-kaese' });
    const byId = await ok(`/${p.id}`);
    const bySlug = await ok('/detail-kaese');
    expect(byId.data.product.id).toBe(p.id);
    expect(bySlug.data).toEqual(byId.data);
    expect(byId.headers['x-channel-id']).toBe(de);
    expectProblem(await store('/no-such-product'), 404, 'not_found');
  });

  it('never shows another shop’s products', async () => {
    const other = await createShop(t.app);
    const otherDe = await defaultChannel({ name: 'Fremd', default_country: 'DE', currency: 'EUR' }, other.ownerToken);
    const foreign = await call(t.app, 'POST', '/api/products', {
      token: other.ownerToken,
      body: { name: 'Fremdes Produkt', status: 'published', slug: 'fremdes-produkt' },
    });
    await call(t.app, 'PATCH', `/api/products/${foreign.data.id}/channels/${otherDe}`, {
      token: other.ownerToken,
      body: { is_published: true },
    });
    expect(ids(await ok('?limit=200'))).not.toContain(foreign.data.id);
    expectProblem(await store(`/${foreign.data.id}`), 404, 'not_found');
    expectProblem(await store('/fremdes-produkt'), 404, 'not_found');
    const theirs = await ok('', { key: other.publishableKey });
    expect(ids(theirs)).toEqual([foreign.data.id]);
  });
});

describe('the public product', () => {
  it('has public fields only, channel prices per variant, and no private data', async () => {
    const brand = await admin('POST', '/api/admin/brands', { name: 'Marke Öffentlich' });
    const category = await admin('POST', '/api/admin/categories', { name: 'Kat Öffentlich' });
    const supplier = await admin('POST', '/api/admin/suppliers', { name: 'Lieferant Geheim' });
    const p = await product({
      name: 'Öffentliches Shirt',
      sku: 'PUB-1',
      base_price_cents: 2000,
      cost_price_cents: 700,
      supplier_id: supplier.id,
      vendor_id: 'ven_secret',
      brand_id: brand.id,
      category_id: category.id,
      tax_class: 'standard',
      description: 'Lang',
      short_description: 'Kurz',
      stock_quantity: 3,
      options: [{ name: 'Größe', values: ['S', 'M', 'L'] }],
      variants: [
        { sku: 'PUB-1-S', option_values: { Größe: 'S' }, stock_quantity: 0, cost_price_cents: 600 },
        { sku: 'PUB-1-M', option_values: { Größe: 'M' }, price_cents: 2500, stock_quantity: 9, is_default: true },
        { sku: 'PUB-1-L', option_values: { Größe: 'L' }, stock_quantity: 5 },
      ],
      images: [
        { url: 'https://img.test/pub.jpg', alt: 'Vorne' },
        { url: 'https://img.test/pub-s.jpg', variant_index: 0 },
        { url: 'https://img.test/pub-l.jpg', variant_index: 2 },
      ],
    });
    const [s, m, l] = p.variants;
    await list(p.id, de, { is_published: true, price_cents: 1800, compare_at_price_cents: 2400 });
    await list(p.id, de, { variant_id: m.id, price_cents: 2300 });
    await list(p.id, de, { variant_id: l.id, is_published: false });

    const res = await ok(`/${p.id}`);
    const out = res.data.product;
    expect(Object.keys(out).sort()).toEqual(
      [
        'id',
        'name',
        'slug',
        'sku',
        'type',
        'is_digital',
        'tax_class',
        'description',
        'short_description',
        'category_id',
        'brand_id',
        'base_price_cents',
        'in_stock',
        'channel',
        'options',
        'variants',
        'images',
      ].sort(),
    );
    expect(out).toMatchObject({
      id: p.id,
      name: 'Öffentliches Shirt',
      slug: p.slug,
      sku: 'PUB-1',
      type: 'STANDARD',
      is_digital: false,
      tax_class: 'standard',
      description: 'Lang',
      short_description: 'Kurz',
      category_id: category.id,
      brand_id: brand.id,
      base_price_cents: 2000,
      in_stock: true,
      channel: { id: de, currency: 'EUR', price_cents: 1800, compare_at_price_cents: 2400 },
      options: [{ name: 'Größe', values: ['S', 'M', 'L'] }],
    });
    // L is hidden in the channel, with its image; S sells at the product's channel price
    expect(out.variants).toEqual([
      {
        id: s.id,
        sku: 'PUB-1-S',
        title: 'S',
        option_values: { Größe: 'S' },
        price_cents: 1800,
        compare_at_price_cents: 2400,
        is_default: false,
        in_stock: false,
      },
      {
        id: m.id,
        sku: 'PUB-1-M',
        title: 'M',
        option_values: { Größe: 'M' },
        price_cents: 2300,
        compare_at_price_cents: null,
        is_default: true,
        in_stock: true,
      },
    ]);
    expect(out.images.map((i: { url: string; variant_id: string | null }) => [i.url, i.variant_id])).toEqual([
      ['https://img.test/pub.jpg', null],
      ['https://img.test/pub-s.jpg', s.id],
    ]);
    expect(Object.keys(out.images[0]).sort()).toEqual(['alt', 'id', 'position', 'url', 'variant_id']);
    const secrets = ['cost_price_cents', 'supplier_id', 'vendor_id', 'stock_quantity', 'track_stock', 'status'];
    for (const secret of [...secrets, 'ven_secret', supplier.id, l.id, 'pub-l.jpg']) {
      expect(res.body).not.toContain(secret);
    }
    // the list shows the same product
    const listed = (await ok('?limit=200')).data.products.find((x: { id: string }) => x.id === p.id);
    expect(listed).toEqual(out);
  });

  it('in_stock: untracked products are always in stock, tracked ones while stock lasts', async () => {
    const none = await shown({ name: 'Leer', stock_quantity: 0 });
    const untracked = await shown({ name: 'Digital', is_digital: true, stock_quantity: 0 });
    const some = await shown({ name: 'Vorrat', stock_quantity: 2 });
    const get = async (id: string) => (await ok(`/${id}`)).data.product.in_stock;
    expect([await get(none.id), await get(untracked.id), await get(some.id)]).toEqual([false, true, true]);
  });
});

describe('list: search, filters and pagination', () => {
  let shop2: ShopFixture;
  let chan: string;
  const made: string[] = [];
  const storeOf = (query: string) => store(query, { key: shop2.publishableKey });

  beforeAll(async () => {
    shop2 = await createShop(t.app);
    const token = shop2.ownerToken;
    chan = await defaultChannel({ name: 'Hauptkanal', default_country: 'DE', currency: 'EUR' }, token);
    const cat = await call(t.app, 'POST', '/api/admin/categories', { token, body: { name: 'Käsesorten' } });
    for (const [name, extra] of [
      ['Bergkäse würzig', { category_id: cat.data.id, sku: 'KAESE-1' }],
      ['Schafskäse mild', { category_id: cat.data.id }],
      ['Kaffee 50% Arabica', {}],
      ['Tee_Grün', {}],
      ['Honig', { variants: [{ sku: 'HONIG-GLAS-500' }] }],
    ] as const) {
      const p = await product({ name, ...extra }, token);
      await call(t.app, 'PATCH', `/api/products/${p.id}/channels/${chan}`, { token, body: { is_published: true } });
      made.unshift(p.id); // newest first
    }
    const hidden = await product({ name: 'Käse versteckt', status: 'draft' }, token);
    await call(t.app, 'PATCH', `/api/products/${hidden.id}/channels/${chan}`, { token, body: { is_published: true } });
  });

  it('lists newest first with count, default limit 50 and offset 0', async () => {
    const res = await storeOf('');
    expect(res.statusCode).toBe(200);
    expect(ids(res)).toEqual(made);
    expect(res.data).toMatchObject({ count: 5, limit: 50, offset: 0 });
  });

  it('pages with limit and offset; count stays the total, also past the end', async () => {
    const first = await storeOf('?limit=2');
    expect(ids(first)).toEqual(made.slice(0, 2));
    expect(first.data).toMatchObject({ count: 5, limit: 2, offset: 0 });
    expect(ids(await storeOf('?limit=2&offset=4'))).toEqual(made.slice(4));
    const past = await storeOf('?limit=2&offset=5');
    expect(past.data).toEqual({ products: [], count: 5, limit: 2, offset: 5 });
    expect((await storeOf('?offset=1000')).data).toMatchObject({ products: [], count: 5 });
    expect((await storeOf('?limit=200')).data.count).toBe(5);
  });

  it('rejects invalid pagination and unknown parameters with 400', async () => {
    for (const q of ['?limit=0', '?limit=201', '?limit=abc', '?offset=-1', '?status=draft', '?digital=ja']) {
      expectProblem(await storeOf(q), 400, 'validation_failed');
    }
  });

  it('searches name, SKU, slug and variant SKU, case- and accent-insensitively; % and _ are literal', async () => {
    const names = async (q: string) =>
      (await storeOf(`?q=${encodeURIComponent(q)}`)).data.products.map((p: { name: string }) => p.name).sort();
    expect(await names('käse')).toEqual(['Bergkäse würzig', 'Schafskäse mild']);
    expect(await names('KASE')).toEqual(['Bergkäse würzig', 'Schafskäse mild']);
    expect(await names('kaese')).toEqual(['Bergkäse würzig', 'Schafskäse mild']); // through the slug
    expect(await names('berg würzig')).toEqual(['Bergkäse würzig']);
    expect(await names('kaese-1')).toEqual(['Bergkäse würzig']);
    expect(await names('glas-500')).toEqual(['Honig']);
    expect(await names('50%')).toEqual(['Kaffee 50% Arabica']);
    expect(await names('e_g')).toEqual(['Tee_Grün']);
    expect(await names('versteckt')).toEqual([]);
    const res = await storeOf(`?q=${encodeURIComponent('käse')}&limit=1`);
    expect(res.data).toMatchObject({ count: 2, limit: 1 });
  });

  it('filters by category', async () => {
    const cats = await call(t.app, 'GET', '/api/admin/categories', { token: shop2.ownerToken });
    const id = cats.data.categories[0].id;
    const res = await storeOf(`?category_id=${id}`);
    expect(res.data.count).toBe(2);
    expect((await storeOf('?category_id=cat_unknown')).data).toMatchObject({ products: [], count: 0 });
  });
});

describe('caching: a change shows on the next request after it commits', () => {
  let shop3: ShopFixture;
  let token: string;
  let main: string;
  let second: string;
  let p: { id: string; variants: [{ id: string }]; slug: string };
  const get = (opts: StoreCall = {}) => ok('', { key: shop3.publishableKey, ...opts });
  const first = async (opts: StoreCall = {}) => (await get(opts)).data.products[0];
  const write = async (method: string, url: string, body?: unknown) => {
    const res = await call(t.app, method, url, { token, ...(body !== undefined ? { body } : {}) });
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.data;
  };

  beforeAll(async () => {
    shop3 = await createShop(t.app, { origins: [STORE_ORIGIN, 'https://second.example'] });
    token = shop3.ownerToken;
    main = await defaultChannel({ name: 'Main', default_country: 'DE', currency: 'EUR' }, token);
    second = await channel({ name: 'Second', default_country: 'AT', currency: 'EUR', path_prefix: 'zwei' }, token);
    p = await product(
      {
        name: 'Cache Produkt',
        base_price_cents: 1000,
        stock_quantity: 1,
        options: [{ name: 'G', values: ['S', 'M'] }],
        variants: [{ option_values: { G: 'S' }, stock_quantity: 1 }],
      },
      token,
    );
    await write('PATCH', `/api/products/${p.id}/channels/${main}`, { is_published: true });
    await write('PATCH', `/api/products/${p.id}/channels/${second}`, { is_published: true, price_cents: 2000 });
  });

  it('answers a repeated request from the cache (no channel or catalog query)', async () => {
    const db = t.app.deps.database.db;
    const spy = vi.spyOn(db, 'execute');
    try {
      await get({ prefix: 'cache-probe' });
      const miss = spy.mock.calls.length;
      spy.mockClear();
      const res = await get({ prefix: 'cache-probe' });
      expect(res.headers['x-channel-id']).toBe(main);
      // the miss also resolved the channel and read the catalog; the hit only checked the version
      expect(miss - spy.mock.calls.length).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('product, variant and image writes', async () => {
    await get();
    await write('PATCH', `/api/products/${p.id}`, { name: 'Cache Produkt Neu' });
    expect((await first()).name).toBe('Cache Produkt Neu');
    await write('PATCH', `/api/products/${p.id}`, {
      variants: [{ id: p.variants[0].id, price_cents: 1234 }, { option_values: { G: 'M' } }],
    });
    expect((await first()).variants.map((v: { price_cents: number }) => v.price_cents)).toEqual([1234, 1000]);
    await write('PATCH', `/api/products/${p.id}`, { images: [{ url: 'https://img.test/cache.jpg' }] });
    expect((await first()).images.map((i: { url: string }) => i.url)).toEqual(['https://img.test/cache.jpg']);
    await write('PATCH', `/api/products/${p.id}`, { status: 'draft' });
    expect((await get()).data.count).toBe(0);
    await write('PATCH', `/api/products/${p.id}`, { status: 'published' });
    expect((await get()).data.count).toBe(1);
  });

  it('concurrent requests share the key lookup and still see every write committed before they arrived', async () => {
    const before = (await first()).name;
    for (let round = 0; round < 3; round++) {
      const name = `Gleichzeitig ${round}`;
      await write('PATCH', `/api/products/${p.id}`, { name });
      const answers = await Promise.all(Array.from({ length: 12 }, () => first()));
      expect(answers.map((a: { name: string }) => a.name)).toEqual(Array(12).fill(name));
    }
    await write('PATCH', `/api/products/${p.id}`, { name: before });
  });

  it('listing writes', async () => {
    await get();
    await write('PATCH', `/api/products/${p.id}/channels/${main}`, { price_cents: 999 });
    expect((await first()).channel.price_cents).toBe(999);
    await write('PATCH', `/api/products/${p.id}/channels/${main}`, { is_published: false });
    expect((await get()).data.count).toBe(0);
    await write('PATCH', `/api/products/${p.id}/channels/${main}`, { is_published: true, price_cents: null });
    expect((await first()).channel.price_cents).toBeNull();
  });

  it('channel, domain and default-channel writes', async () => {
    expect((await get({ prefix: 'zwei' })).headers['x-channel-id']).toBe(second);
    await write('PATCH', `/api/admin/channels/${second}`, { path_prefix: 'drei' });
    expect((await get({ prefix: 'zwei' })).headers['x-channel-id']).toBe(main);
    expect((await get({ prefix: 'drei' })).headers['x-channel-id']).toBe(second);

    const origin = 'https://second.example';
    expect((await get({ origin })).headers['x-channel-id']).toBe(main);
    const domain = await write('POST', `/api/admin/channels/${second}/domains`, { domain: 'second.example' });
    expect((await get({ origin })).headers['x-channel-id']).toBe(second);
    await write('PATCH', `/api/admin/channels/${second}`, { is_active: false });
    expect((await get({ origin })).headers['x-channel-id']).toBe(main);
    await write('PATCH', `/api/admin/channels/${second}`, { is_active: true });
    expect((await get({ origin })).headers['x-channel-id']).toBe(second);
    await write('DELETE', `/api/admin/channels/${second}/domains/${domain.id}`);
    expect((await get({ origin })).headers['x-channel-id']).toBe(main);

    expect((await first()).channel.currency).toBe('EUR');
    await write('PATCH', `/api/admin/channels/${main}`, { currency: 'CHF' });
    expect((await first()).channel.currency).toBe('CHF');

    await write('POST', `/api/admin/channels/${second}/set-default`);
    const res = await get();
    expect(res.headers['x-channel-id']).toBe(second);
    expect(res.data.products[0].channel.price_cents).toBe(2000);
    await write('POST', `/api/admin/channels/${main}/set-default`);
    expect((await get()).headers['x-channel-id']).toBe(main);
  });

  it('reference records: deleting a category clears it on the product', async () => {
    const cat = await write('POST', '/api/admin/categories', { name: 'Vergänglich' });
    await write('PATCH', `/api/products/${p.id}`, { category_id: cat.id });
    expect((await first()).category_id).toBe(cat.id);
    await write('PATCH', `/api/products/${p.id}`, { category_id: null });
    await write('DELETE', `/api/admin/categories/${cat.id}`);
    expect((await first()).category_id).toBeNull();
  });

  it('stock written by SQL (checkout reservations): in_stock follows when it crosses zero', async () => {
    const db = t.app.deps.database.db;
    const version = async () =>
      (
        (await db.execute(sql`SELECT version FROM storefront_versions WHERE shop_id = ${shop3.shopId}`)) as unknown as {
          rows: { version: number }[];
        }
      ).rows[0]?.version;
    const variant = p.variants[0].id;
    await db.execute(sql`UPDATE product_variants SET stock_quantity = 5 WHERE id = ${variant}`);
    expect((await first()).variants[0].in_stock).toBe(true);
    const before = await version();
    // 5 → 2: still in stock, the storefront does not change, nor does its version
    await db.execute(sql`UPDATE product_variants SET stock_quantity = 2 WHERE id = ${variant}`);
    expect(await version()).toBe(before);
    await db.execute(sql`UPDATE product_variants SET stock_quantity = 0 WHERE id = ${variant}`);
    expect(await version()).toBeGreaterThan(before as number);
    expect((await first()).variants[0].in_stock).toBe(false);
    // a rolled-back change bumps nothing
    const now = await version();
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`UPDATE products SET name = 'Nie' WHERE id = ${p.id}`);
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await version()).toBe(now);
  });

  it('deleting the product', async () => {
    const extra = await product({ name: 'Cache Weg' }, token);
    await write('PATCH', `/api/products/${extra.id}/channels/${main}`, { is_published: true });
    expect(ids(await get())).toContain(extra.id);
    expect((await ok(`/${extra.id}`, { key: shop3.publishableKey })).statusCode).toBe(200);
    await write('DELETE', `/api/products/${extra.id}`);
    expect(ids(await get())).not.toContain(extra.id);
    expectProblem(await store(`/${extra.id}`, { key: shop3.publishableKey }), 404, 'not_found');
  });

  it('pages of one filter share its id list: a change shows on the next request for any page, size or filter', async () => {
    const page = (query: string, app?: App) => ok(query, { key: shop3.publishableKey, ...(app ? { app } : {}) });
    const cat = await write('POST', '/api/admin/categories', { name: 'Geteilt' });
    const a = await product({ name: 'Geteilt A', category_id: cat.id }, token);
    await write('PATCH', `/api/products/${a.id}/channels/${main}`, { is_published: true });
    // fill the id lists of the whole list and of the category (one page size each)
    const all = (await page('?limit=1')).data.count;
    expect(ids(await page(`?category_id=${cat.id}&limit=1`))).toEqual([a.id]);

    // a new product: first on pages of other sizes and offsets, counted everywhere
    const b = await product({ name: 'Geteilt B', category_id: cat.id }, token);
    await write('PATCH', `/api/products/${b.id}/channels/${main}`, { is_published: true });
    const two = await page('?limit=2');
    expect(two.data.count).toBe(all + 1);
    expect(ids(two)[0]).toBe(b.id);
    expect(ids(await page('?limit=1&offset=1'))).toEqual([ids(two)[1]]);
    expect((await page(`?category_id=${cat.id}&limit=5`)).data).toMatchObject({ count: 2 });
    expect(ids(await page(`?category_id=${cat.id}&limit=1&offset=1`))).toEqual([a.id]);

    // leaving the category, unpublishing the listing, and a search that matches
    await write('PATCH', `/api/products/${a.id}`, { category_id: null });
    expect(ids(await page(`?category_id=${cat.id}&limit=3`))).toEqual([b.id]);
    expect(ids(await page('?q=geteilt&limit=4'))).toEqual([b.id, a.id]);
    await write('PATCH', `/api/products/${b.id}/channels/${main}`, { is_published: false });
    expect((await page(`?category_id=${cat.id}&limit=4`)).data).toMatchObject({ products: [], count: 0 });
    expect(ids(await page('?q=geteilt&limit=5'))).toEqual([a.id]);
    expect((await page('?limit=3')).data.count).toBe(all);

    // in every process: the second app's id lists follow writes made through the first
    const other = await buildApp({ config: t.config, database: t.db.database, skipMigrations: true, logger: false });
    try {
      expect(ids(await page('?q=geteilt&limit=6', other))).toEqual([a.id]);
      expect((await page('?limit=6', other)).data.count).toBe(all);
      await write('PATCH', `/api/products/${b.id}/channels/${main}`, { is_published: true });
      expect(ids(await page('?q=geteilt&limit=7', other))).toEqual([b.id, a.id]);
      expect((await page('?limit=7', other)).data.count).toBe(all + 1);
      await write('DELETE', `/api/products/${a.id}`);
      expect(ids(await page('?q=geteilt&limit=8', other))).toEqual([b.id]);
      expect((await page('?limit=8', other)).data.count).toBe(all);
    } finally {
      await other.close();
    }
    await write('DELETE', `/api/products/${b.id}`);
  });

  it('product fragments: pages and details share each product; a change shows on the next request of any URL', async () => {
    const page = (query: string, app?: App) => ok(query, { key: shop3.publishableKey, ...(app ? { app } : {}) });
    const detail = (idOrSlug: string, app?: App) =>
      store(`/${idOrSlug}`, { key: shop3.publishableKey, ...(app ? { app } : {}) });
    const a = await product({ name: 'Fragment A' }, token);
    await write('PATCH', `/api/products/${a.id}/channels/${main}`, { is_published: true });
    const fresh = await buildApp({ config: t.config, database: t.db.database, skipMigrations: true, logger: false });
    try {
      // the list fills the fragments; another page size (a new URL) and the detail by slug and id
      // are answered from them, byte for byte what an app that holds nothing computes
      const listed = await page('?q=fragment&limit=1');
      expect(ids(listed)).toEqual([a.id]);
      expect(Object.keys(JSON.parse(listed.body))).toEqual(['products', 'count', 'limit', 'offset']);
      const bySlug = await detail(a.slug);
      expect(bySlug.statusCode).toBe(200);
      expect(bySlug.body).toBe((await detail(a.slug, fresh)).body);
      expect((await detail(a.id)).body).toBe(bySlug.body);
      expect(Object.keys(JSON.parse(bySlug.body))).toEqual(['product']);
      expect(JSON.stringify(JSON.parse(listed.body).products[0])).toBe(JSON.stringify(bySlug.data.product));
      const other = await page('?q=fragment&limit=2');
      expect(other.body).toBe((await page('?q=fragment&limit=2', fresh)).body);

      // a rename, a new slug, a price: every URL shows it on the next request, in both processes
      await write('PATCH', `/api/products/${a.id}`, { name: 'Fragment A2', slug: 'fragment-a-neu' });
      expect((await page('?q=fragment&limit=3')).data.products[0]).toMatchObject({ name: 'Fragment A2' });
      expectProblem(await detail(a.slug), 404, 'not_found');
      expect((await detail('fragment-a-neu')).data.product).toMatchObject({ id: a.id, name: 'Fragment A2' });
      expect((await detail(a.id, fresh)).data.product.name).toBe('Fragment A2');
      await write('PATCH', `/api/products/${a.id}/channels/${main}`, { price_cents: 4321 });
      expect((await detail(a.id)).data.product.channel.price_cents).toBe(4321);
      expect((await page('?q=fragment&limit=4')).data.products[0].channel.price_cents).toBe(4321);
      expect((await detail('fragment-a-neu', fresh)).data.product.channel.price_cents).toBe(4321);

      // unpublished in the channel: gone from pages and details everywhere
      await write('PATCH', `/api/products/${a.id}/channels/${main}`, { is_published: false });
      expect((await page('?q=fragment&limit=5')).data).toMatchObject({ products: [], count: 0 });
      expectProblem(await detail(a.id), 404, 'not_found');
      expectProblem(await detail('fragment-a-neu', fresh), 404, 'not_found');
    } finally {
      await fresh.close();
    }
    await write('DELETE', `/api/products/${a.id}`);
  });

  it('in every process: a second app on the same database sees a write made through the first', async () => {
    const other = await buildApp({ config: t.config, database: t.db.database, skipMigrations: true, logger: false });
    try {
      const before = await first({ app: other });
      await first();
      await write('PATCH', `/api/products/${p.id}`, { name: `${before.name} B` });
      expect((await first({ app: other })).name).toBe(`${before.name} B`);
      await write('PATCH', `/api/products/${p.id}`, { short_description: 'Zweiter Prozess' });
      expect((await first({ app: other })).short_description).toBe('Zweiter Prozess');
      expect((await first()).short_description).toBe('Zweiter Prozess');
    } finally {
      await other.close();
    }
  });
});
