/** The token write policy: GET/PUT /api/admin/settings/token-write-policy and its effect on token writes. */
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

let t: TestApp;
let shop: ShopFixture;
let owner: string;
let writer: string;

const URL = '/api/admin/settings/token-write-policy';
const setPolicy = async (body: Record<string, unknown>) => {
  const res = await call(t.app, 'PUT', URL, { token: owner, body });
  if (res.statusCode !== 200) throw new Error(`policy failed: ${res.body}`);
  return res.data;
};
const create = (body: unknown, token = writer) => call(t.app, 'POST', '/api/products', { token, body });
const patch = (id: string, body: unknown, token = writer) =>
  call(t.app, 'PATCH', `/api/products/${id}`, { token, body });
const read = async (id: string) =>
  (await call(t.app, 'GET', `/api/admin/products/${id}`, { token: owner })).data.product;

async function product(body: Record<string, unknown>) {
  const res = await create(body, owner);
  if (res.statusCode !== 201) throw new Error(`create failed: ${res.body}`);
  return res.data;
}

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
  writer = await apiToken(t.app, shop, ['catalog:write']);
});
afterAll(() => t.close());

describe('token write policy settings', () => {
  it('defaults to allowing everything without a limit', async () => {
    const res = await call(t.app, 'GET', URL, { token: owner });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null });
  });

  it('is replaced by PUT and read back', async () => {
    const body = { allow_price_changes: false, allow_status_changes: true, max_price_change_percent: 15 };
    expect(await setPolicy(body)).toEqual(body);
    expect((await call(t.app, 'GET', URL, { token: owner })).data).toEqual(body);
    const admin = await employeeToken(t.app, shop, 'admin');
    const reset = { allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null };
    expect((await call(t.app, 'PUT', URL, { token: admin, body: reset })).data).toEqual(reset);
  });

  it('rejects incomplete or invalid bodies', async () => {
    for (const body of [
      {},
      { allow_price_changes: true, allow_status_changes: true },
      { allow_price_changes: 'yes', allow_status_changes: true, max_price_change_percent: null },
      { allow_price_changes: true, allow_status_changes: true, max_price_change_percent: -1 },
      { allow_price_changes: true, allow_status_changes: true, max_price_change_percent: 12.5 },
      { allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null, extra: 1 },
    ]) {
      expectProblem(await call(t.app, 'PUT', URL, { token: owner, body }), 400, 'validation_failed');
    }
  });

  it('is for owners and admins only', async () => {
    const editor = await employeeToken(t.app, shop, 'catalog_editor');
    expectProblem(await call(t.app, 'GET', URL, { token: editor }), 403, 'role_denied');
    const body = { allow_price_changes: false, allow_status_changes: false, max_price_change_percent: null };
    expectProblem(await call(t.app, 'PUT', URL, { token: editor, body }), 403, 'role_denied');
    expectProblem(await call(t.app, 'PUT', URL, { token: writer, body }), 403, 'scope_denied');
    expect((await call(t.app, 'GET', URL, { token: owner })).data.allow_price_changes).toBe(true);
  });

  it('is per shop', async () => {
    const other = await createShop(t.app);
    await setPolicy({ allow_price_changes: false, allow_status_changes: false, max_price_change_percent: 1 });
    const theirs = await call(t.app, 'GET', URL, { token: other.ownerToken });
    expect(theirs.data).toEqual({
      allow_price_changes: true,
      allow_status_changes: true,
      max_price_change_percent: null,
    });
    await setPolicy({ allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null });
  });
});

describe('token writes under the policy', () => {
  it('refuses price changes when prices are locked, and changes nothing', async () => {
    const p = await product({
      name: 'Preis gesperrt',
      base_price_cents: 1000,
      cost_price_cents: 400,
      variants: [{ sku: 'PG-1', price_cents: 1100 }],
    });
    await setPolicy({ allow_price_changes: false, allow_status_changes: true, max_price_change_percent: null });
    const base = await patch(p.id, { name: 'Neuer Name', base_price_cents: 1200 });
    expectProblem(base, 403, 'policy_denied');
    expect(base.data.errors[0].path).toBe('/body/base_price_cents');
    expectProblem(await patch(p.id, { cost_price_cents: 450 }), 403, 'policy_denied');
    expectProblem(await patch(p.id, { cost_price_cents: null }), 403, 'policy_denied');
    expectProblem(await patch(p.id, { variants: [{ id: p.variants[0].id, price_cents: 999 }] }), 403, 'policy_denied');
    expectProblem(await patch(p.id, { variants: [{ id: p.variants[0].id, price_cents: null }] }), 403, 'policy_denied');
    // a new variant with its own price sets a price
    expectProblem(
      await patch(p.id, { variants: [{ id: p.variants[0].id }, { sku: 'PG-2', price_cents: 500 }] }),
      403,
      'policy_denied',
    );
    const after = await read(p.id);
    expect(after).toEqual(p);
    // other changes, and the same price again, pass
    const ok = await patch(p.id, { name: 'Neuer Name', base_price_cents: 1000, variants: [{ id: p.variants[0].id }] });
    expect(ok.statusCode).toBe(200);
    expect(ok.data.name).toBe('Neuer Name');
    // creating with prices counts as a price change; without, it passes
    expectProblem(await create({ name: 'Mit Preis', base_price_cents: 500 }), 403, 'policy_denied');
    expectProblem(await create({ name: 'Mit Variantenpreis', variants: [{ price_cents: 5 }] }), 403, 'policy_denied');
    expect((await create({ name: 'Ohne Preis' })).statusCode).toBe(201);
    // sessions are not bound by the token policy
    const editor = await employeeToken(t.app, shop, 'catalog_editor');
    expect((await patch(p.id, { base_price_cents: 5000 }, editor)).data.base_price_cents).toBe(5000);
    await setPolicy({ allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null });
    expect((await patch(p.id, { base_price_cents: 1 })).data.base_price_cents).toBe(1);
  });

  it('refuses status changes when the status is locked', async () => {
    const p = await product({ name: 'Status gesperrt' });
    await setPolicy({ allow_price_changes: true, allow_status_changes: false, max_price_change_percent: null });
    const res = await patch(p.id, { status: 'published', name: 'Nicht übernommen' });
    expectProblem(res, 403, 'policy_denied');
    expect(res.data.errors[0].path).toBe('/body/status');
    expect(await read(p.id)).toEqual(p);
    // the current status again is no change
    expect((await patch(p.id, { status: 'draft' })).statusCode).toBe(200);
    // creating with a non-draft status counts as a status change
    expectProblem(await create({ name: 'Gleich live', status: 'published' }), 403, 'policy_denied');
    expect((await create({ name: 'Als Entwurf', status: 'draft' })).statusCode).toBe(201);
    expect((await create({ name: 'Mit Preis erlaubt', base_price_cents: 900 })).statusCode).toBe(201);
    await setPolicy({ allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null });
    expect((await patch(p.id, { status: 'archived' })).data.status).toBe('archived');
  });

  it('limits the relative change of each price', async () => {
    const p = await product({
      name: 'Preisgrenze',
      base_price_cents: 1000,
      variants: [{ sku: 'LIM-1' }, { sku: 'LIM-2', price_cents: 2000 }],
    });
    const [v1, v2] = p.variants;
    await setPolicy({ allow_price_changes: true, allow_status_changes: true, max_price_change_percent: 10 });
    expect((await patch(p.id, { base_price_cents: 1100 })).statusCode).toBe(200);
    const tooMuch = await patch(p.id, { base_price_cents: 1300, name: 'Nein' });
    expectProblem(tooMuch, 403, 'policy_denied');
    expect(tooMuch.data.errors[0].path).toBe('/body/base_price_cents');
    const down = await patch(p.id, { base_price_cents: 900 });
    expectProblem(down, 403, 'policy_denied');
    let now = await read(p.id);
    expect(now.base_price_cents).toBe(1100);
    expect(now.name).toBe('Preisgrenze');
    // a variant without own price sells at the base price (1100): 1500 is +36 %
    expectProblem(
      await patch(p.id, { variants: [{ id: v1.id, price_cents: 1500 }, { id: v2.id }] }),
      403,
      'policy_denied',
    );
    expect(
      (
        await patch(p.id, {
          variants: [
            { id: v1.id, price_cents: 1200 },
            { id: v2.id, price_cents: 1900 },
          ],
        })
      ).statusCode,
    ).toBe(200);
    // one variant over the limit refuses the whole write
    const mixed = await patch(p.id, {
      variants: [
        { id: v1.id, price_cents: 1250 },
        { id: v2.id, price_cents: 100 },
      ],
    });
    expectProblem(mixed, 403, 'policy_denied');
    expect(mixed.data.errors.map((e: { path: string }) => e.path)).toEqual(['/body/variants/1/price_cents']);
    now = await read(p.id);
    expect(now.variants.map((v: { price_cents: number }) => v.price_cents)).toEqual([1200, 1900]);
    // new variants and new products are not measured against a previous price
    expect(
      (await patch(p.id, { variants: [{ id: v1.id }, { id: v2.id }, { sku: 'LIM-3', price_cents: 99_999 }] }))
        .statusCode,
    ).toBe(200);
    expect((await create({ name: 'Neu mit Preis', base_price_cents: 123_456 })).statusCode).toBe(201);
    // from a price of 0 every change is beyond a percentage
    const free = await product({ name: 'Gratis' });
    expectProblem(await patch(free.id, { base_price_cents: 100 }), 403, 'policy_denied');
    await setPolicy({ allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null });
    expect((await patch(free.id, { base_price_cents: 100 })).statusCode).toBe(200);
  });
});
