/** POST /api/products/bulk and DELETE /api/products/:id/channels/:channelId (docs/catalog.md, "Bulk actions"). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  employeeToken,
  expectProblem,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;

async function ok(method: string, url: string, body?: unknown, token = owner) {
  const res = await call(t.app, method, url, { token, ...(body !== undefined ? { body } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} failed: ${res.statusCode} ${res.body}`);
  return res.data;
}

const product = async (name: string, extra: Record<string, unknown> = {}) =>
  (await ok('POST', '/api/products', { name, ...extra })).id as string;

const bulk = (body: unknown, token = owner, headers: Record<string, string> = {}) =>
  call(t.app, 'POST', '/api/products/bulk', { token, body, headers });

const read = async (id: string) => (await ok('GET', `/api/admin/products/${id}`)).product;

const storeIds = async () => {
  const res = await call(t.app, 'GET', '/api/store/products', {
    token: shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
  });
  expect(res.statusCode).toBe(200);
  return res.data.products.map((p: { id: string }) => p.id) as string[];
};

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
});
afterAll(() => t.close());

describe('POST /api/products/bulk', () => {
  it('adds three products to a channel and publishes them; the storefront lists them at once', async () => {
    const ids = [await product('Bulk Eins'), await product('Bulk Zwei'), await product('Bulk Drei')];
    // warm the storefront caches first: the bulk writes must make them stale
    expect(await storeIds()).toEqual([]);
    const added = await bulk({ ids, action: 'add_to_channel', channel_id: shop.defaultChannelId });
    expect(added.statusCode).toBe(200);
    expect(added.data).toEqual({ results: ids.map((id) => ({ id, ok: true })), succeeded: 3, failed: 0 });
    // listed but drafts: not visible yet
    expect(await storeIds()).toEqual([]);
    const published = await bulk({ ids, action: 'publish' });
    expect(published.data).toEqual({ results: ids.map((id) => ({ id, ok: true })), succeeded: 3, failed: 0 });
    expect((await storeIds()).sort()).toEqual([...ids].sort());
    for (const id of ids) expect((await read(id)).status).toBe('published');
    const listings = await ok('GET', `/api/products/${ids[0]}/channels`);
    expect(listings.listings).toMatchObject([{ channel_id: shop.defaultChannelId, is_published: true }]);

    // archive takes them out of the storefront; the admin list counts follow at once
    const before = (await ok('GET', '/api/admin/products?status=archived')).count;
    const archived = await bulk({ ids: ids.slice(0, 2), action: 'archive' });
    expect(archived.data.succeeded).toBe(2);
    expect(await storeIds()).toEqual([ids[2]]);
    expect((await ok('GET', '/api/admin/products?status=archived')).count).toBe(before + 2);

    // remove_from_channel drops the product's listing and its variants' listings
    const res = await bulk({ ids: [ids[2]], action: 'remove_from_channel', channel_id: shop.defaultChannelId });
    expect(res.data).toEqual({ results: [{ id: ids[2], ok: true }], succeeded: 1, failed: 0 });
    expect(await storeIds()).toEqual([]);
    expect((await ok('GET', `/api/products/${ids[2]}/channels`)).listings).toEqual([]);
  });

  it('reports each product: a policy refusal or a missing product fails alone, the others commit', async () => {
    const token = await apiToken(t.app, shop, ['catalog:write']);
    const live1 = await product('Schon live 1', { status: 'published' });
    const live2 = await product('Schon live 2', { status: 'published' });
    const draft = await product('Entwurf');
    await ok('PUT', '/api/admin/settings/token-write-policy', {
      allow_price_changes: true,
      allow_status_changes: false,
      max_price_change_percent: null,
    });
    const res = await bulk({ ids: [live1, draft, 'prod_missing', live2], action: 'publish' }, token);
    expect(res.statusCode).toBe(200);
    expect(res.data.succeeded).toBe(2);
    expect(res.data.failed).toBe(2);
    expect(res.data.results[0]).toEqual({ id: live1, ok: true });
    expect(res.data.results[1]).toMatchObject({
      id: draft,
      ok: false,
      code: 'policy_denied',
      detail: expect.stringContaining('status'),
      errors: [{ path: '/body/status', message: expect.any(String) }],
    });
    expect(res.data.results[2]).toEqual({
      id: 'prod_missing',
      ok: false,
      code: 'not_found',
      detail: 'Product not found',
    });
    expect(res.data.results[3]).toEqual({ id: live2, ok: true });
    expect((await read(draft)).status).toBe('draft');
    // a session is not bound by the token policy
    const bySession = await bulk({ ids: [draft], action: 'publish' });
    expect(bySession.data.succeeded).toBe(1);
    await ok('PUT', '/api/admin/settings/token-write-policy', {
      allow_price_changes: true,
      allow_status_changes: true,
      max_price_change_percent: null,
    });
  });

  it('sets and clears category, brand and supplier; a deleted product is not found', async () => {
    const cat = (await ok('POST', '/api/admin/categories', { name: 'Bulk-Kategorie' })).id;
    const brand = (await ok('POST', '/api/admin/brands', { name: 'Bulk-Marke' })).id;
    const supplier = (await ok('POST', '/api/admin/suppliers', { name: 'Bulk-Lieferant' })).id;
    const a = await product('Ref A');
    const b = await product('Ref B');
    const gone = await product('Ref weg');
    await ok('DELETE', `/api/products/${gone}`);
    const set = await bulk({ ids: [a, b, gone], action: 'set_category', category_id: cat });
    expect(set.data.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, false]);
    expect(set.data.results[2].code).toBe('not_found');
    expect((await bulk({ ids: [a, b], action: 'set_brand', brand_id: brand })).data.succeeded).toBe(2);
    expect((await bulk({ ids: [a], action: 'set_supplier', supplier_id: supplier })).data.succeeded).toBe(1);
    expect(await read(a)).toMatchObject({ category_id: cat, brand_id: brand, supplier_id: supplier });
    expect(await read(b)).toMatchObject({ category_id: cat, brand_id: brand, supplier_id: null });
    // the list's "without" filter sees the change at once
    const without = await ok('GET', `/api/admin/products?category_id=ohne&q=ref`);
    expect(without.count).toBe(0);
    expect((await bulk({ ids: [b], action: 'set_category', category_id: null })).data.succeeded).toBe(1);
    expect((await read(b)).category_id).toBeNull();
    expect((await ok('GET', `/api/admin/products?category_id=ohne&q=ref`)).count).toBe(1);
  });

  it('refuses a body that does not fit its action, or names an unknown record, with 400 and changes nothing', async () => {
    const id = await product('Unverändert');
    const cases: [unknown, string][] = [
      [{}, '/body/ids'],
      [{ ids: [], action: 'publish' }, '/body/ids'],
      [{ ids: Array.from({ length: 201 }, (_, i) => `prod_${i}`), action: 'publish' }, '/body/ids'],
      [{ ids: [id, id], action: 'publish' }, '/body/ids'],
      [{ ids: [42], action: 'publish' }, '/body/ids/0'],
      [{ ids: [''], action: 'publish' }, '/body/ids/0'],
      [{ ids: [id], action: 'delete' }, '/body/action'],
      [{ ids: [id] }, '/body/action'],
      [{ ids: [id], action: 'publish', extra: 1 }, '/body/extra'],
      [{ ids: [id], action: 'set_category' }, '/body/category_id'],
      [{ ids: [id], action: 'set_brand', category_id: null }, '/body/brand_id'],
      [{ ids: [id], action: 'publish', channel_id: shop.defaultChannelId }, '/body/channel_id'],
      [{ ids: [id], action: 'add_to_channel' }, '/body/channel_id'],
      [{ ids: [id], action: 'set_category', category_id: 'cat_unknown' }, '/body/category_id'],
      [{ ids: [id], action: 'set_brand', brand_id: 'brand_unknown' }, '/body/brand_id'],
      [{ ids: [id], action: 'set_supplier', supplier_id: 'sup_unknown' }, '/body/supplier_id'],
      [{ ids: [id], action: 'add_to_channel', channel_id: 'chan_unknown' }, '/body/channel_id'],
      [{ ids: [id], action: 'remove_from_channel', channel_id: 'chan_unknown' }, '/body/channel_id'],
    ];
    for (const [body, path] of cases) {
      const res = await bulk(body);
      expectProblem(res, 400, 'validation_failed');
      expect(
        res.data.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect(await read(id)).toMatchObject({ status: 'draft', category_id: null, brand_id: null });
    expect((await ok('GET', `/api/products/${id}/channels`)).listings).toEqual([]);
  });

  it('refuses credentials that may not write products', async () => {
    const body = { ids: ['prod_x'], action: 'publish' };
    expect((await bulk(body, '')).statusCode).toBe(401);
    expectProblem(await bulk(body, 'sess_unknown'), 401, 'invalid_credential');
    expectProblem(await bulk(body, await employeeToken(t.app, shop, 'viewer')), 403, 'role_denied');
    expectProblem(await bulk(body, await apiToken(t.app, shop, ['catalog:read'])), 403, 'scope_denied');
    expectProblem(await bulk(body, await apiToken(t.app, shop, ['finance:read'])), 403, 'scope_denied');
    const editor = await bulk(body, await employeeToken(t.app, shop, 'catalog_editor'));
    expect(editor.statusCode).toBe(200);
    expect(editor.data.results[0].code).toBe('not_found');
    // another shop's product is answered like a missing one
    const other = await createShop(t.app);
    const foreign = await product('Fremd');
    const res = await bulk({ ids: [foreign], action: 'publish' }, other.ownerToken);
    expect(res.data.results[0]).toMatchObject({ ok: false, code: 'not_found' });
    expect((await read(foreign)).status).toBe('draft');
  });

  it('keeps a channel-restricted employee to products and channels of their channels', async () => {
    const mine = (
      await ok('POST', '/api/admin/channels', { name: 'Mein Kanal', default_country: 'DE', currency: 'EUR' })
    ).id;
    const inMine = await product('In meinem Kanal');
    const elsewhere = await product('Anderswo');
    await ok('PATCH', `/api/products/${inMine}/channels/${mine}`, { is_published: false });
    await ok('PATCH', `/api/products/${elsewhere}/channels/${shop.defaultChannelId}`, { is_published: false });
    const restricted = await employeeToken(t.app, shop, 'admin', [mine]);
    const res = await bulk({ ids: [inMine, elsewhere], action: 'publish' }, restricted);
    expect(res.data.results).toEqual([
      { id: inMine, ok: true },
      { id: elsewhere, ok: false, code: 'not_found', detail: 'Product not found' },
    ]);
    expect((await read(elsewhere)).status).toBe('draft');
    // listing writes: only their channels (another is answered like a missing one)
    expectProblem(
      await bulk({ ids: [elsewhere], action: 'add_to_channel', channel_id: shop.defaultChannelId }, restricted),
      400,
      'validation_failed',
    );
    const added = await bulk({ ids: [elsewhere], action: 'add_to_channel', channel_id: mine }, restricted);
    expect(added.data.succeeded).toBe(1);
  });

  it('honours Idempotency-Key: a repeated request is answered from the first, once', async () => {
    const a = await product('Idem A');
    const headers = { 'idempotency-key': 'bulk-key-1' };
    const first = await bulk({ ids: [a], action: 'publish' }, owner, headers);
    expect(first.data.succeeded).toBe(1);
    // changed meanwhile: a replay must not publish it again
    await ok('PATCH', `/api/products/${a}`, { status: 'draft' });
    const again = await bulk({ ids: [a], action: 'publish' }, owner, headers);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.data).toEqual(first.data);
    expect((await read(a)).status).toBe('draft');
    expectProblem(await bulk({ ids: [a], action: 'archive' }, owner, headers), 409, 'idempotency_key_reused');
  });
});

describe('DELETE /api/products/:id/channels/:channelId', () => {
  it('takes the product and its variants out of the channel; nothing listed is no change', async () => {
    const p = await ok('POST', '/api/products', {
      name: 'Mit Varianten',
      status: 'published',
      variants: [{ sku: 'DEL-V1' }, { sku: 'DEL-V2' }],
    });
    await ok('PATCH', `/api/products/${p.id}/channels/${shop.defaultChannelId}`, { is_published: true });
    await ok('PATCH', `/api/products/${p.id}/channels/${shop.defaultChannelId}`, {
      variant_id: p.variants[0].id,
      price_cents: 500,
    });
    expect((await ok('GET', `/api/products/${p.id}/channels`)).listings).toHaveLength(2);
    const res = await call(t.app, 'DELETE', `/api/products/${p.id}/channels/${shop.defaultChannelId}`, {
      token: owner,
    });
    expect(res.statusCode).toBe(204);
    expect((await ok('GET', `/api/products/${p.id}/channels`)).listings).toEqual([]);
    const again = await call(t.app, 'DELETE', `/api/products/${p.id}/channels/${shop.defaultChannelId}`, {
      token: owner,
    });
    expect(again.statusCode).toBe(204);
    expectProblem(
      await call(t.app, 'DELETE', `/api/products/prod_missing/channels/${shop.defaultChannelId}`, { token: owner }),
      404,
      'not_found',
    );
    expectProblem(
      await call(t.app, 'DELETE', `/api/products/${p.id}/channels/chan_missing`, { token: owner }),
      404,
      'not_found',
    );
    expectProblem(
      await call(t.app, 'DELETE', `/api/products/${p.id}/channels/${shop.defaultChannelId}`, {
        token: await employeeToken(t.app, shop, 'viewer'),
      }),
      403,
      'role_denied',
    );
  });

  it('refuses a token dropping a custom price when the policy refuses price changes', async () => {
    const token = await apiToken(t.app, shop, ['catalog:write']);
    const id = await product('Kanalpreis', { base_price_cents: 1000 });
    await ok('PATCH', `/api/products/${id}/channels/${shop.defaultChannelId}`, { price_cents: 800 });
    await ok('PUT', '/api/admin/settings/token-write-policy', {
      allow_price_changes: false,
      allow_status_changes: true,
      max_price_change_percent: null,
    });
    const res = await call(t.app, 'DELETE', `/api/products/${id}/channels/${shop.defaultChannelId}`, { token });
    expectProblem(res, 403, 'policy_denied');
    expect((await ok('GET', `/api/products/${id}/channels`)).listings).toHaveLength(1);
    const viaBulk = await bulk({ ids: [id], action: 'remove_from_channel', channel_id: shop.defaultChannelId }, token);
    expect(viaBulk.data.results[0]).toMatchObject({ ok: false, code: 'policy_denied' });
    await ok('PUT', '/api/admin/settings/token-write-policy', {
      allow_price_changes: true,
      allow_status_changes: true,
      max_price_change_percent: null,
    });
    expect(
      (await call(t.app, 'DELETE', `/api/products/${id}/channels/${shop.defaultChannelId}`, { token })).statusCode,
    ).toBe(204);
  });
});
