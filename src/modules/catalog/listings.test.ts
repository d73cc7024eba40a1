/** Channel listings of products (docs/catalog.md) and channel prices for checkout, over HTTP on the real database. */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
import { channelPrices } from './index.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;
let de: string;
let ch: string;

async function channel(token: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(t.app, 'POST', '/api/admin/channels', { token, body });
  if (res.statusCode !== 201) throw new Error(`channel creation failed: ${res.body}`);
  return res.data.id;
}

async function product(body: Record<string, unknown>, token = owner) {
  const res = await call(t.app, 'POST', '/api/products', { token, body });
  if (res.statusCode !== 201) throw new Error(`product creation failed: ${res.body}`);
  return res.data;
}

const patch = (productId: string, channelId: string, body: unknown, token = owner) =>
  call(t.app, 'PATCH', `/api/products/${productId}/channels/${channelId}`, { token, body });
const listings = (productId: string, token = owner) =>
  call(t.app, 'GET', `/api/products/${productId}/channels`, { token });

async function listed(productId: string, channelId: string, body: unknown, token = owner) {
  const res = await patch(productId, channelId, body, token);
  if (res.statusCode !== 200) throw new Error(`listing failed: ${res.body}`);
  return res.data;
}

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
  de = await channel(owner, { name: 'Deutschland', default_country: 'DE', currency: 'EUR' });
  ch = await channel(owner, { name: 'Schweiz', default_country: 'CH', currency: 'CHF', path_prefix: 'ch' });
  // products may name only vendors of their shop
  await t.app.deps.database.db.execute(
    sql`INSERT INTO vendors (id, shop_id, name, email, status) VALUES ('ven_x', ${shop.shopId}, 'Vendor', 'ven_x@vendor.test', 'active')`,
  );
});
afterAll(() => t.close());

describe('GET /api/products/:id/channels and PATCH /api/products/:id/channels/:channelId', () => {
  it('creates the listing when absent (unpublished, no custom price) and changes it afterwards', async () => {
    const p = await product({ name: 'Upsert Tasse', base_price_cents: 1200 });
    const empty = await listings(p.id);
    expect(empty.statusCode).toBe(200);
    expect(empty.data).toEqual({ listings: [] });

    const created = await patch(p.id, de, {});
    expect(created.statusCode).toBe(200);
    expect(created.data).toMatchObject({
      channel_id: de,
      channel_name: 'Deutschland',
      variant_id: null,
      is_published: false,
      price_cents: null,
      compare_at_price_cents: null,
      effective_price_cents: 1200,
      currency: 'EUR',
    });
    expect(new Date(created.data.created_at).toISOString()).toBe(created.data.created_at);

    const changed = await listed(p.id, de, { is_published: true });
    expect(changed).toMatchObject({ is_published: true, price_cents: null, created_at: created.data.created_at });
    const again = await listings(p.id);
    expect(again.data.listings).toEqual([changed]);
  });

  it('price_cents sets the custom price; null removes it and the base price applies; compare_at may be null', async () => {
    const p = await product({ name: 'Preis Tasse', base_price_cents: 1000 });
    expect(await listed(p.id, de, { price_cents: 850, compare_at_price_cents: 1000 })).toMatchObject({
      price_cents: 850,
      compare_at_price_cents: 1000,
      effective_price_cents: 850,
      is_published: false,
    });
    // fields not sent keep their value
    expect(await listed(p.id, de, { is_published: true })).toMatchObject({
      price_cents: 850,
      compare_at_price_cents: 1000,
    });
    expect(await listed(p.id, de, { compare_at_price_cents: null })).toMatchObject({
      price_cents: 850,
      compare_at_price_cents: null,
    });
    expect(await listed(p.id, de, { price_cents: null })).toMatchObject({
      price_cents: null,
      effective_price_cents: 1000,
      is_published: true,
    });
    // the fallback follows the base price
    await call(t.app, 'PATCH', `/api/products/${p.id}`, { token: owner, body: { base_price_cents: 1100 } });
    expect((await listings(p.id)).data.listings[0].effective_price_cents).toBe(1100);
  });

  it('keeps one listing per channel: channels in list order (default first), each in its currency', async () => {
    const p = await product({ name: 'Zwei Kanäle', base_price_cents: 500 });
    await listed(p.id, ch, { price_cents: 700 });
    await listed(p.id, de, { is_published: true });
    const res = await listings(p.id);
    expect(res.data.listings.map((l: { channel_id: string; currency: string }) => [l.channel_id, l.currency])).toEqual([
      [de, 'EUR'],
      [ch, 'CHF'],
    ]);
    expect(res.data.listings[1]).toMatchObject({
      channel_name: 'Schweiz',
      price_cents: 700,
      effective_price_cents: 700,
    });
  });

  it('variant listings carry variant channel prices: variant listing → variant → product listing → base', async () => {
    const p = await product({
      name: 'Varianten Shirt',
      base_price_cents: 1000,
      options: [{ name: 'Größe', values: ['S', 'M'] }],
      variants: [
        { sku: 'VL-S', option_values: { Größe: 'S' } },
        { sku: 'VL-M', option_values: { Größe: 'M' }, price_cents: 1500 },
      ],
    });
    const [s, m] = p.variants;
    await listed(p.id, de, { is_published: true, price_cents: 900 });

    const sListing = await listed(p.id, de, { variant_id: s.id });
    // a variant listing starts published; S has no own price: the product's channel price applies
    expect(sListing).toMatchObject({
      variant_id: s.id,
      is_published: true,
      price_cents: null,
      effective_price_cents: 900,
    });
    expect(await listed(p.id, de, { variant_id: m.id })).toMatchObject({ effective_price_cents: 1500 });
    expect(await listed(p.id, de, { variant_id: s.id, price_cents: 800 })).toMatchObject({
      price_cents: 800,
      effective_price_cents: 800,
    });
    expect(await listed(p.id, de, { variant_id: s.id, price_cents: null })).toMatchObject({
      price_cents: null,
      effective_price_cents: 900,
    });
    // without the product's channel price, S falls back to the base price
    await listed(p.id, de, { price_cents: null });
    const all = (await listings(p.id)).data.listings;
    expect(
      all.map((l: { variant_id: string | null; effective_price_cents: number }) => [
        l.variant_id,
        l.effective_price_cents,
      ]),
    ).toEqual([
      [null, 1000],
      [s.id, 1000],
      [m.id, 1500],
    ]);
    // variant_id null is the product's own listing
    expect(await listed(p.id, de, { variant_id: null, price_cents: 990 })).toMatchObject({
      variant_id: null,
      price_cents: 990,
    });
  });

  it('refuses a variant_id that is not a variant of this product with 400, and changes nothing', async () => {
    const a = await product({
      name: 'Variante A',
      options: [{ name: 'F', values: ['x'] }],
      variants: [{ option_values: { F: 'x' } }],
    });
    const b = await product({ name: 'Variante B' });
    const res = await patch(b.id, de, { variant_id: a.variants[0].id, price_cents: 100 });
    expectProblem(res, 400, 'validation_failed');
    expect(res.data.errors).toEqual([{ path: '/body/variant_id', message: 'is not a variant of this product' }]);
    expectProblem(await patch(b.id, de, { variant_id: 'var_unknown' }), 400, 'validation_failed');
    expect((await listings(b.id)).data.listings).toEqual([]);
  });

  it('validates the body: non-negative integer prices, booleans, no unknown fields', async () => {
    const p = await product({ name: 'Validierung' });
    for (const body of [
      { price_cents: -1 },
      { price_cents: 12.5 },
      { price_cents: '100' },
      { compare_at_price_cents: -5 },
      { is_published: 'yes' },
      { is_published: null },
      { price: 100 },
      { variant_id: '' },
    ]) {
      expectProblem(await patch(p.id, de, body), 400, 'validation_failed');
    }
    const res = await patch(p.id, de, { price_cents: -1, color: 'red' });
    expect([...new Set(res.data.errors.map((e: { path: string }) => e.path))].sort()).toEqual([
      '/body/color',
      '/body/price_cents',
    ]);
    expect((await listings(p.id)).data.listings).toEqual([]);
  });

  it('answers 404 for an unknown, deleted or foreign product and an unknown or foreign channel', async () => {
    const p = await product({ name: 'Gelöscht' });
    await listed(p.id, de, { is_published: true });
    expect((await call(t.app, 'DELETE', `/api/products/${p.id}`, { token: owner })).statusCode).toBe(204);
    expectProblem(await listings(p.id), 404, 'not_found');
    expectProblem(await patch(p.id, de, {}), 404, 'not_found');
    expectProblem(await listings('prod_unknown'), 404, 'not_found');
    expectProblem(await patch('prod_unknown', de, {}), 404, 'not_found');

    const live = await product({ name: 'Lebendig' });
    expectProblem(await patch(live.id, 'chan_unknown', {}), 404, 'not_found');

    const other = await createShop(t.app);
    const otherChannel = await channel(other.ownerToken, { name: 'Fremd', default_country: 'AT', currency: 'EUR' });
    const foreign = await call(t.app, 'POST', '/api/products', { token: other.ownerToken, body: { name: 'Fremd' } });
    expectProblem(await listings(foreign.data.id), 404, 'not_found');
    expectProblem(await patch(foreign.data.id, de, { is_published: true }), 404, 'not_found');
    expectProblem(await patch(live.id, otherChannel, { is_published: true }), 404, 'not_found');
    expect((await listings(live.id)).data.listings).toEqual([]);
    expect((await listings(foreign.data.id, other.ownerToken)).data.listings).toEqual([]);
  });

  it('reading: any employee or a catalog token; writing: catalog roles or a catalog:write token', async () => {
    const p = await product({ name: 'Rechte' });
    const viewer = await employeeToken(t.app, shop, 'viewer');
    const editor = await employeeToken(t.app, shop, 'catalog_editor');
    const read = await apiToken(t.app, shop, ['catalog:read']);
    const write = await apiToken(t.app, shop, ['catalog:write']);
    const finance = await apiToken(t.app, shop, ['finance:read']);
    expect((await listings(p.id, viewer)).statusCode).toBe(200);
    expect((await listings(p.id, read)).statusCode).toBe(200);
    expect((await listings(p.id, write)).statusCode).toBe(200);
    expectProblem(await listings(p.id, finance), 403, 'scope_denied');
    expectProblem(await patch(p.id, de, { is_published: true }, viewer), 403, 'role_denied');
    expectProblem(await patch(p.id, de, { is_published: true }, read), 403, 'scope_denied');
    expectProblem(
      await call(t.app, 'PATCH', `/api/products/${p.id}/channels/${de}`, {
        token: shop.publishableKey,
        headers: { origin: 'https://store.example' },
        body: {},
      }),
      403,
      'credential_denied',
    );
    expect((await listings(p.id)).data.listings).toEqual([]);
    expect((await patch(p.id, de, { is_published: true }, editor)).statusCode).toBe(200);
    expect((await patch(p.id, de, { price_cents: 100 }, write)).statusCode).toBe(200);
  });
});

describe('token write policy on listings', () => {
  const policy = (body: Record<string, unknown>) =>
    call(t.app, 'PUT', '/api/admin/settings/token-write-policy', { token: owner, body });
  const defaults = { allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null };

  it('allow_price_changes false: a token may publish but not change prices (403 policy_denied, nothing changes)', async () => {
    const token = await apiToken(t.app, shop, ['catalog:write']);
    const p = await product({ name: 'Policy Preis', base_price_cents: 1000 });
    await listed(p.id, de, { price_cents: 900, compare_at_price_cents: 1000 });
    await policy({ ...defaults, allow_price_changes: false });
    try {
      const res = await patch(p.id, de, { is_published: true, price_cents: 800 }, token);
      expectProblem(res, 403, 'policy_denied');
      expect(res.data.errors.map((e: { path: string }) => e.path)).toEqual(['/body/price_cents']);
      expectProblem(await patch(p.id, de, { price_cents: null }, token), 403, 'policy_denied');
      expectProblem(await patch(p.id, de, { compare_at_price_cents: null }, token), 403, 'policy_denied');
      expectProblem(await patch(p.id, ch, { price_cents: 800 }, token), 403, 'policy_denied');
      expect((await listings(p.id)).data.listings).toHaveLength(1);
      expect((await listings(p.id)).data.listings[0]).toMatchObject({ is_published: false, price_cents: 900 });
      // the same values again are no change; publishing is not a price change
      expect(
        (await patch(p.id, de, { is_published: true, price_cents: 900, compare_at_price_cents: 1000 }, token)).data,
      ).toMatchObject({ is_published: true, price_cents: 900 });
      // sessions are governed by roles, not by the policy
      expect((await patch(p.id, de, { price_cents: 500 })).statusCode).toBe(200);
    } finally {
      await policy(defaults);
    }
  });

  it('max_price_change_percent measures against the price that applies in the channel', async () => {
    const token = await apiToken(t.app, shop, ['catalog:write']);
    const p = await product({
      name: 'Policy Prozent',
      base_price_cents: 1000,
      options: [{ name: 'G', values: ['a'] }],
      variants: [{ option_values: { G: 'a' }, price_cents: 2000 }],
    });
    await policy({ ...defaults, max_price_change_percent: 10 });
    try {
      // a new custom price is measured against the fallback (base 1000)
      expectProblem(await patch(p.id, de, { price_cents: 1200 }, token), 403, 'policy_denied');
      expect((await patch(p.id, de, { price_cents: 1050 }, token)).statusCode).toBe(200);
      expectProblem(await patch(p.id, de, { price_cents: 1200 }, token), 403, 'policy_denied');
      // removing it returns to 1000: a change of 4.8 %
      expect((await patch(p.id, de, { price_cents: null }, token)).statusCode).toBe(200);
      // a variant's channel price is measured against the variant's price (2000)
      const v = p.variants[0].id;
      expectProblem(await patch(p.id, de, { variant_id: v, price_cents: 1000 }, token), 403, 'policy_denied');
      expect((await patch(p.id, de, { variant_id: v, price_cents: 1900 }, token)).statusCode).toBe(200);
      // a first compare-at price has nothing to be measured against
      expect((await patch(p.id, de, { compare_at_price_cents: 5000 }, token)).statusCode).toBe(200);
      expectProblem(await patch(p.id, de, { compare_at_price_cents: 9000 }, token), 403, 'policy_denied');
    } finally {
      await policy(defaults);
    }
  });
});

describe('channel currency lock', () => {
  it('a custom listing price locks the channel currency (409 currency_locked) until it is removed', async () => {
    const at = await channel(owner, { name: 'Österreich', default_country: 'AT', currency: 'EUR' });
    const setCurrency = (currency: string) =>
      call(t.app, 'PATCH', `/api/admin/channels/${at}`, { token: owner, body: { currency } });
    const p = await product({ name: 'Währung', base_price_cents: 100 });
    await listed(p.id, at, { is_published: true });
    expect((await setCurrency('CHF')).statusCode).toBe(200);
    await listed(p.id, at, { price_cents: 120 });
    const locked = await setCurrency('EUR');
    expectProblem(locked, 409, 'currency_locked');
    expect(locked.data.detail).toContain('listings with custom prices');
    // the same currency again is no change
    expect((await setCurrency('CHF')).statusCode).toBe(200);
    await listed(p.id, at, { price_cents: null, compare_at_price_cents: 150 });
    expectProblem(await setCurrency('EUR'), 409, 'currency_locked');
    await listed(p.id, at, { compare_at_price_cents: null });
    expect((await setCurrency('EUR')).data.currency).toBe('EUR');
    // a deleted product's listing no longer locks it
    await listed(p.id, at, { price_cents: 99 });
    await call(t.app, 'DELETE', `/api/products/${p.id}`, { token: owner });
    expect((await setCurrency('CHF')).statusCode).toBe(200);
  });
});

describe('channelPrices (for checkout)', () => {
  it('resolves variants, visibility and the price fallback for many refs in one query', async () => {
    const plain = await product({
      name: 'Plain Kaffee',
      sku: 'CP-PLAIN',
      base_price_cents: 800,
      status: 'published',
      tax_class: 'food',
      stock_quantity: 4,
      vendor_id: 'ven_x',
    });
    await listed(plain.id, de, { is_published: true, price_cents: 750, compare_at_price_cents: 900 });
    const shirt = await product({
      name: 'Shirt CP',
      sku: 'CP-SHIRT',
      base_price_cents: 2000,
      status: 'published',
      options: [{ name: 'G', values: ['S', 'M', 'L'] }],
      variants: [
        { sku: 'CP-S', option_values: { G: 'S' }, stock_quantity: 2 },
        { sku: 'CP-M', option_values: { G: 'M' }, price_cents: 2500, is_default: true, track_stock: false },
        { option_values: { G: 'L' } },
      ],
    });
    const [s, m, l] = shirt.variants;
    await listed(shirt.id, de, { is_published: true, price_cents: 1800, compare_at_price_cents: 2200 });
    await listed(shirt.id, de, { variant_id: s.id, price_cents: 1700 });
    await listed(shirt.id, de, { variant_id: l.id, is_published: false });
    const draft = await product({ name: 'Entwurf CP', base_price_cents: 100 });
    await listed(draft.id, de, { is_published: true });
    const unlisted = await product({ name: 'Ungelistet CP', status: 'published' });
    const hidden = await product({ name: 'Versteckt CP', status: 'published' });
    await listed(hidden.id, de, { is_published: false });
    const gone = await product({ name: 'Weg CP', status: 'published' });
    await listed(gone.id, de, { is_published: true });
    await call(t.app, 'DELETE', `/api/products/${gone.id}`, { token: owner });
    const other = await createShop(t.app);
    const foreign = await call(t.app, 'POST', '/api/products', { token: other.ownerToken, body: { name: 'Fremd CP' } });

    const db = t.app.deps.database.db;
    const spy = vi.spyOn(db, 'execute');
    const prices = await channelPrices({ db, shopId: shop.shopId }, de, [
      { product_id: plain.id },
      { product_id: shirt.id },
      { product_id: shirt.id, variant_id: s.id },
      { product_id: shirt.id, variant_id: l.id },
      { product_id: draft.id },
      { product_id: unlisted.id },
      { product_id: hidden.id },
      { product_id: gone.id },
      { product_id: 'prod_unknown' },
      { product_id: plain.id, variant_id: s.id },
      { product_id: foreign.data.id },
    ]);
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();

    expect(prices[0]).toEqual({
      product_id: plain.id,
      variant_id: null,
      variant_title: null,
      visible: true,
      name: 'Plain Kaffee',
      sku: 'CP-PLAIN',
      is_digital: false,
      tax_class: 'food',
      track_stock: true,
      stock_quantity: 4,
      unit_price_cents: 750,
      compare_at_price_cents: 900,
      vendor_id: 'ven_x',
    });
    // no variant asked: the default (M) with its own price; the product listing's compare-at does not apply
    expect(prices[1]).toMatchObject({
      variant_id: m.id,
      variant_title: 'M',
      visible: true,
      sku: 'CP-M',
      unit_price_cents: 2500,
      compare_at_price_cents: null,
      track_stock: false,
    });
    expect(prices[2]).toMatchObject({ variant_id: s.id, unit_price_cents: 1700, sku: 'CP-S', stock_quantity: 2 });
    // L has no own price: the product's channel price and compare-at apply, but L is hidden in the channel
    expect(prices[3]).toMatchObject({
      variant_id: l.id,
      visible: false,
      unit_price_cents: 1800,
      compare_at_price_cents: 2200,
    });
    expect(prices[3]?.sku).toBe('CP-SHIRT');
    expect(prices.slice(4, 8).map((p) => p?.visible)).toEqual([false, false, false, false]);
    expect(prices[4]?.unit_price_cents).toBe(100);
    expect(prices.slice(8)).toEqual([null, null, null]);
    // another channel: nothing listed there
    const inCh = await channelPrices({ db, shopId: shop.shopId }, ch, [{ product_id: plain.id }]);
    expect(inCh[0]).toMatchObject({ visible: false, unit_price_cents: 800 });
    expect(await channelPrices({ db, shopId: shop.shopId }, de, [])).toEqual([]);
  });
});
