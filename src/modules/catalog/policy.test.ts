/** The token write policy: GET/PUT /api/admin/settings/token-write-policy and its effect on token writes. */
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
import { advance, DAY } from '../partners/vendors.fixtures.js';

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
    expect(res.data).toEqual({
      allow_price_changes: true,
      allow_status_changes: true,
      max_price_change_percent: null,
      price_change_window_hours: 24,
      allow_vendor_tax_changes: false,
    });
  });

  it('is replaced by PUT and read back', async () => {
    const body = {
      allow_price_changes: false,
      allow_status_changes: true,
      max_price_change_percent: 15,
      price_change_window_hours: 48,
      allow_vendor_tax_changes: true,
    };
    expect(await setPolicy(body)).toEqual(body);
    expect((await call(t.app, 'GET', URL, { token: owner })).data).toEqual(body);
    const admin = await employeeToken(t.app, shop, 'admin');
    // the newer fields may be omitted: they fall back to their defaults
    const reset = { allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null };
    expect((await call(t.app, 'PUT', URL, { token: admin, body: reset })).data).toEqual({
      ...reset,
      price_change_window_hours: 24,
      allow_vendor_tax_changes: false,
    });
  });

  it('rejects incomplete or invalid bodies', async () => {
    for (const body of [
      {},
      { allow_price_changes: true, allow_status_changes: true },
      { allow_price_changes: 'yes', allow_status_changes: true, max_price_change_percent: null },
      { allow_price_changes: true, allow_status_changes: true, max_price_change_percent: -1 },
      { allow_price_changes: true, allow_status_changes: true, max_price_change_percent: 12.5 },
      { allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null, extra: 1 },
      {
        allow_price_changes: true,
        allow_status_changes: true,
        max_price_change_percent: 5,
        price_change_window_hours: 0,
      },
      {
        allow_price_changes: true,
        allow_status_changes: true,
        max_price_change_percent: 5,
        price_change_window_hours: 1.5,
      },
      {
        allow_price_changes: true,
        allow_status_changes: true,
        max_price_change_percent: 5,
        allow_vendor_tax_changes: 1,
      },
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
      price_change_window_hours: 24,
      allow_vendor_tax_changes: false,
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
    // one variant over the limit refuses the whole write (1210 is +10 % on the 1100 at window start)
    const mixed = await patch(p.id, {
      variants: [
        { id: v1.id, price_cents: 1210 },
        { id: v2.id, price_cents: 100 },
      ],
    });
    expectProblem(mixed, 403, 'policy_denied');
    expect(mixed.data.errors.map((e: { path: string }) => e.path)).toEqual(['/body/variants/1/price_cents']);
    now = await read(p.id);
    expect(now.variants.map((v: { price_cents: number }) => v.price_cents)).toEqual([1200, 1900]);
    // new products are not measured against a previous price (new variants are: see below)
    expect((await create({ name: 'Neu mit Preis', base_price_cents: 123_456 })).statusCode).toBe(201);
    // from a price of 0 every change is beyond a percentage
    const free = await product({ name: 'Gratis' });
    expectProblem(await patch(free.id, { base_price_cents: 100 }), 403, 'policy_denied');
    await setPolicy({ allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null });
    expect((await patch(free.id, { base_price_cents: 100 })).statusCode).toBe(200);
  });
});

describe('the policy cannot be walked around', () => {
  const limit = (percent: number, extra: Record<string, unknown> = {}) =>
    setPolicy({ allow_price_changes: true, allow_status_changes: true, max_price_change_percent: percent, ...extra });
  const unlimited = () =>
    setPolicy({ allow_price_changes: true, allow_status_changes: true, max_price_change_percent: null });

  it('measures a replacing variant against the price it replaces, a new one against the base price', async () => {
    const p = await product({
      name: 'Ersatzvariante',
      base_price_cents: 1000,
      options: [{ name: 'Größe', values: ['S', 'M', 'L'] }],
      variants: [
        { sku: 'ERS-S', option_values: { Größe: 'S' } },
        { sku: 'ERS-M', price_cents: 2000, option_values: { Größe: 'M' } },
      ],
    });
    const [s] = p.variants;
    await limit(10);
    // dropping M (2000) and adding a new M (same options) at any price: measured against 2000
    const swap = await patch(p.id, {
      variants: [{ id: s.id }, { sku: 'ERS-M2', price_cents: 9000, option_values: { Größe: 'M' } }],
    });
    expectProblem(swap, 403, 'policy_denied');
    expect(swap.data.errors.map((e: { path: string }) => e.path)).toEqual(['/body/variants/1/price_cents']);
    // a new variant that replaces nothing is measured against the base price (1000)
    const fresh = await patch(p.id, {
      variants: [
        { id: s.id },
        { id: p.variants[1].id },
        { sku: 'ERS-L', price_cents: 99_999, option_values: { Größe: 'L' } },
      ],
    });
    expectProblem(fresh, 403, 'policy_denied');
    expect(fresh.data.errors[0].path).toBe('/body/variants/2/price_cents');
    expect(await read(p.id)).toEqual(p);
    // within the limit both pass
    const ok = await patch(p.id, {
      variants: [
        { id: s.id },
        { sku: 'ERS-M2', price_cents: 2200, option_values: { Größe: 'M' } },
        { sku: 'ERS-L', price_cents: 1050, option_values: { Größe: 'L' } },
      ],
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.data.variants.map((v: { price_cents: number | null }) => v.price_cents)).toEqual([null, 2200, 1050]);
    // replacing again cannot ratchet: the window still starts at the 2000 the first M had
    const again = await patch(p.id, {
      variants: [
        { id: s.id },
        { sku: 'ERS-M3', price_cents: 2400, option_values: { Größe: 'M' } },
        { id: ok.data.variants[2].id },
      ],
    });
    expectProblem(again, 403, 'policy_denied');
    expect(again.data.errors[0].path).toBe('/body/variants/1/price_cents');
    // the same SKU on a new variant names the variant it replaces
    const bySku = await patch(p.id, {
      variants: [{ id: s.id }, { sku: 'ERS-M2', price_cents: 2150, option_values: { Größe: 'M' } }],
    });
    expect(bySku.statusCode).toBe(200);
    await unlimited();
  });

  it('limits the change from the price at the start of the window, not only from the last change', async () => {
    const p = await product({
      name: 'Ratsche',
      base_price_cents: 1000,
      variants: [{ sku: 'RAT-1', price_cents: 2000 }],
    });
    const v = p.variants[0].id;
    await limit(10);
    expect((await patch(p.id, { base_price_cents: 1100 })).statusCode).toBe(200);
    // +9 % on the last change, but +20 % on the 1000 at the start of the window
    const ratchet = await patch(p.id, { base_price_cents: 1200 });
    expectProblem(ratchet, 403, 'policy_denied');
    expect(ratchet.data.errors[0].path).toBe('/body/base_price_cents');
    expect(ratchet.data.errors[0].message).toContain('window');
    expect((await patch(p.id, { variants: [{ id: v, price_cents: 2150 }] })).statusCode).toBe(200);
    expectProblem(await patch(p.id, { variants: [{ id: v, price_cents: 2300 }] }), 403, 'policy_denied');
    // down and up again is measured the same way
    expect((await patch(p.id, { base_price_cents: 1000 })).statusCode).toBe(200);
    expectProblem(await patch(p.id, { base_price_cents: 1150 }), 403, 'policy_denied');
    // a session's change inside the window moves no window start for tokens
    const editor = await employeeToken(t.app, shop, 'catalog_editor');
    expect((await patch(p.id, { base_price_cents: 1050 }, editor)).statusCode).toBe(200);
    expectProblem(await patch(p.id, { base_price_cents: 1150 }), 403, 'policy_denied');
    // once the window has passed, the current price is the start again
    await advance(t, DAY + 60);
    expect((await patch(p.id, { base_price_cents: 1150 })).statusCode).toBe(200);
    expect((await patch(p.id, { variants: [{ id: v, price_cents: 2300 }] })).statusCode).toBe(200);
    // a longer window reaches further back
    await advance(t, DAY + 60);
    expect((await patch(p.id, { base_price_cents: 1250 })).statusCode).toBe(200);
    await limit(10, { price_change_window_hours: 72 });
    expectProblem(await patch(p.id, { base_price_cents: 1300 }), 403, 'policy_denied');
    await limit(10, { price_change_window_hours: 1 });
    await advance(t, 2 * 3600);
    expect((await patch(p.id, { base_price_cents: 1300 })).statusCode).toBe(200);
    await unlimited();
  });

  it('lets tokens change vendor_id and tax_class only with the policy flag; sessions always', async () => {
    await t.app.deps.database.db.execute(
      sql`INSERT INTO vendors (id, shop_id, name, email, status) VALUES ('ven_policy', ${shop.shopId}, 'Händler', 'h@vendor.test', 'active')`,
    );
    const p = await product({ name: 'Zuordnung' });
    const vendor = await patch(p.id, { vendor_id: 'ven_policy', name: 'Nicht übernommen' });
    expectProblem(vendor, 403, 'policy_denied');
    expect(vendor.data.errors).toEqual([{ path: '/body/vendor_id', message: expect.stringContaining('vendor_id') }]);
    const tax = await patch(p.id, { tax_class: 'food' });
    expectProblem(tax, 403, 'policy_denied');
    expect(tax.data.errors[0].path).toBe('/body/tax_class');
    expect(tax.data.detail).toContain('tax_class');
    expect(await read(p.id)).toEqual(p);
    // the current values again are no change
    expect((await patch(p.id, { tax_class: 'standard', vendor_id: null })).statusCode).toBe(200);
    // a session may
    const editor = await employeeToken(t.app, shop, 'catalog_editor');
    const bySession = await patch(p.id, { tax_class: 'food', vendor_id: 'ven_policy' }, editor);
    expect(bySession.statusCode).toBe(200);
    expectProblem(await patch(p.id, { vendor_id: null }), 403, 'policy_denied');
    // with the flag, tokens may too
    await setPolicy({
      allow_price_changes: true,
      allow_status_changes: true,
      max_price_change_percent: null,
      allow_vendor_tax_changes: true,
    });
    const byToken = await patch(p.id, { tax_class: 'standard', vendor_id: null });
    expect(byToken.statusCode).toBe(200);
    expect(byToken.data.tax_class).toBe('standard');
    expect(byToken.data.vendor_id).toBeNull();
    await unlimited();
  });
});
