/** The add-on settings, its gate and subscription plans (docs/digital.md; docs/decisions.md). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  employeeToken,
  expectProblem,
  PLATFORM_TOKEN,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;
let digital: string;
let physical: string;

const base = (over: Record<string, unknown> = {}) => ({
  product_id: digital,
  name: 'Monatlich',
  price_cents: 990,
  interval_unit: 'month',
  ...over,
});
const create = (body: unknown, token = owner) => call(t.app, 'POST', '/api/admin/digital/plaene', { token, body });
const patch = (id: string, body: unknown) =>
  call(t.app, 'PATCH', `/api/admin/digital/plaene/${id}`, { token: owner, body });

async function product(token: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(t.app, 'POST', '/api/products', { token, body: { status: 'published', ...body } });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.data.id;
}

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
  digital = await product(owner, { name: 'Kurs', is_digital: true, base_price_cents: 990 });
  physical = await product(owner, { name: 'Buch', base_price_cents: 1990 });
});
afterAll(() => t.close());

describe('add-on settings (GET/PUT /api/admin/digital/status)', () => {
  it('reads erlaubt/aktiv/abo_provision and activates the add-on', async () => {
    const res = await call(t.app, 'GET', '/api/admin/digital/status', { token: owner });
    expect(res.statusCode).toBe(200);
    expect(res.data).toEqual({ erlaubt: true, aktiv: false, abo_provision: 'erste', abo_provision_monate: null });
    const on = await call(t.app, 'PUT', '/api/admin/digital/status', { token: owner, body: { aktiv: true } });
    expect(on.statusCode).toBe(200);
    expect(on.data.aktiv).toBe(true);
  });

  it('monate needs abo_provision_monate ≥ 1; other modes refuse it', async () => {
    const put = (body: unknown) => call(t.app, 'PUT', '/api/admin/digital/status', { token: owner, body });
    expectProblem(await put({ abo_provision: 'monate' }), 400, 'validation_failed');
    expectProblem(await put({ abo_provision: 'monate', abo_provision_monate: 0 }), 400, 'validation_failed');
    expectProblem(await put({ abo_provision: 'bald' }), 400, 'validation_failed');
    const ok = await put({ abo_provision: 'monate', abo_provision_monate: 6 });
    expect(ok.data).toMatchObject({ abo_provision: 'monate', abo_provision_monate: 6, aktiv: true });
    expectProblem(await put({ abo_provision: 'immer', abo_provision_monate: 3 }), 400, 'validation_failed');
    const immer = await put({ abo_provision: 'immer' });
    expect(immer.data).toMatchObject({ abo_provision: 'immer', abo_provision_monate: null });
    // erlaubt is read-only here
    expectProblem(await put({ erlaubt: false }), 400, 'validation_failed');
    await put({ abo_provision: 'erste' });
  });

  it('viewers read, but only owner/admin change the settings', async () => {
    const viewer = await employeeToken(t.app, shop, 'viewer');
    expect((await call(t.app, 'GET', '/api/admin/digital/status', { token: viewer })).statusCode).toBe(200);
    expectProblem(
      await call(t.app, 'PUT', '/api/admin/digital/status', { token: viewer, body: { aktiv: false } }),
      403,
      'role_denied',
    );
  });
});

describe('the add-on gate', () => {
  it('unavailable (erlaubt false): every digital route is 403 addon_unavailable, PUT status too', async () => {
    const other = await createShop(t.app, { digitalAllowed: false });
    const status = await call(t.app, 'GET', '/api/admin/digital/status', { token: other.ownerToken });
    expect(status.data.erlaubt).toBe(false);
    expectProblem(
      await call(t.app, 'PUT', '/api/admin/digital/status', { token: other.ownerToken, body: { aktiv: true } }),
      403,
      'addon_unavailable',
    );
    for (const url of ['/api/admin/digital/plaene', '/api/admin/digital/abos', '/api/admin/digital/abos/statistik']) {
      expectProblem(await call(t.app, 'GET', url, { token: other.ownerToken }), 403, 'addon_unavailable');
    }
    expectProblem(
      await call(t.app, 'POST', '/api/store/abo-sessions', {
        token: other.publishableKey,
        headers: { origin: STORE_ORIGIN },
        body: {},
      }),
      403,
      'addon_unavailable',
    );
  });

  it('inactive (aktiv false): 403 addon_inactive; withdrawn by the platform: addon_unavailable', async () => {
    const other = await createShop(t.app);
    for (const [method, url] of [
      ['GET', '/api/admin/digital/plaene'],
      ['POST', '/api/admin/digital/plaene'],
      ['GET', '/api/admin/digital/abos'],
      ['GET', '/api/admin/digital/abos/statistik'],
      ['GET', '/api/admin/digital/abos/abo_x'],
      ['POST', '/api/admin/digital/abos/abo_x/kuendigen'],
      ['POST', '/api/admin/digital/abos/abo_x/fortsetzen'],
    ] as const) {
      expectProblem(await call(t.app, method, url, { token: other.ownerToken, body: {} }), 403, 'addon_inactive');
    }
    await call(t.app, 'PUT', '/api/admin/digital/status', { token: other.ownerToken, body: { aktiv: true } });
    expect((await call(t.app, 'GET', '/api/admin/digital/plaene', { token: other.ownerToken })).statusCode).toBe(200);
    await call(t.app, 'PATCH', `/api/platform/shops/${other.shopId}`, {
      token: PLATFORM_TOKEN,
      body: { digital_allowed: false },
    });
    expectProblem(
      await call(t.app, 'GET', '/api/admin/digital/plaene', { token: other.ownerToken }),
      403,
      'addon_unavailable',
    );
  });

  it('no API token scope opens /api/admin/digital/* (even with the add-on active)', async () => {
    for (const scopes of [['catalog:read'], ['catalog:write'], ['finance:read'], ['catalog:write', 'finance:read']]) {
      const token = await apiToken(t.app, shop, scopes);
      for (const [method, url] of [
        ['GET', '/api/admin/digital/status'],
        ['PUT', '/api/admin/digital/status'],
        ['GET', '/api/admin/digital/plaene'],
        ['POST', '/api/admin/digital/plaene'],
        ['GET', '/api/admin/digital/abos'],
      ] as const) {
        const res = await call(t.app, method, url, { token, body: {} });
        expect(res.statusCode, `${scopes} ${method} ${url}`).toBe(403);
        expect(res.data.code).toBe('scope_denied');
      }
    }
  });
});

describe('plans (plaene)', () => {
  it('creates a plan with currency, interval_text, intro and first charge', async () => {
    const res = await create(base({ intro_discount_percent: 15, intro_discount_months: 3 }));
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({
      product_id: digital,
      name: 'Monatlich',
      price_cents: 990,
      currency: 'EUR',
      interval_unit: 'month',
      interval_count: 1,
      interval_text: 'monatlich',
      trial_days: 0,
      intro_discount_percent: 15,
      intro_discount_months: 3,
      intro_price_cents: 842, // 990 × 0.85 = 841.5 → 842 (half up)
      first_charge_cents: 842,
      is_active: true,
    });
    expect(res.data.id).toMatch(/^plan_/);
  });

  it('price_cents 50 to 10,000,000', async () => {
    expectProblem(await create(base({ price_cents: 49 })), 400, 'validation_failed');
    expect((await create(base({ price_cents: 50 }))).statusCode).toBe(201);
    expect((await create(base({ price_cents: 10_000_000 }))).statusCode).toBe(201);
    const over = await create(base({ price_cents: 10_000_001 }));
    expectProblem(over, 400, 'validation_failed');
    expect(over.data.errors[0].path).toBe('/body/price_cents');
    expectProblem(await create(base({ price_cents: '990' })), 400, 'validation_failed');
  });

  it('trial_days 0 to 730 (first charge 0 with a trial)', async () => {
    const ok = await create(base({ trial_days: 730 }));
    expect(ok.statusCode).toBe(201);
    expect(ok.data.first_charge_cents).toBe(0);
    const over = await create(base({ trial_days: 731 }));
    expectProblem(over, 400, 'validation_failed');
    expect(over.data.errors[0].path).toBe('/body/trial_days');
    expectProblem(await create(base({ trial_days: -1 })), 400, 'validation_failed');
  });

  it('interval_count ≥ 1 and at most 1095 days, 156 weeks, 36 months, 3 years', async () => {
    for (const [unit, max, text] of [
      ['day', 1095, 'alle 1095 Tage'],
      ['week', 156, 'alle 156 Wochen'],
      ['month', 36, 'alle 36 Monate'],
      ['year', 3, 'alle 3 Jahre'],
    ] as const) {
      const ok = await create(base({ interval_unit: unit, interval_count: max }));
      expect(ok.statusCode, unit).toBe(201);
      expect(ok.data.interval_text).toBe(text);
      const over = await create(base({ interval_unit: unit, interval_count: max + 1 }));
      expectProblem(over, 400, 'validation_failed');
      expect(over.data.errors).toEqual([
        { path: '/body/interval_count', message: `must be at most ${max} for interval_unit ${unit}` },
      ]);
    }
    expectProblem(await create(base({ interval_count: 0 })), 400, 'validation_failed');
    expectProblem(await create(base({ interval_unit: 'quarter' })), 400, 'validation_failed');
  });

  it('German interval_text', async () => {
    const text = async (interval_unit: string, interval_count: number) =>
      (await create(base({ interval_unit, interval_count }))).data.interval_text;
    expect(await text('day', 1)).toBe('täglich');
    expect(await text('week', 1)).toBe('wöchentlich');
    expect(await text('week', 2)).toBe('alle 2 Wochen');
    expect(await text('month', 3)).toBe('alle 3 Monate');
    expect(await text('year', 1)).toBe('jährlich');
  });

  it('intro discount: percent 1–100 and months ≥ 1, only as a pair', async () => {
    const only = await create(base({ intro_discount_percent: 20 }));
    expectProblem(only, 400, 'validation_failed');
    expect(only.data.errors[0].path).toBe('/body/intro_discount_months');
    const months = await create(base({ intro_discount_months: 2 }));
    expectProblem(months, 400, 'validation_failed');
    expect(months.data.errors[0].path).toBe('/body/intro_discount_percent');
    expectProblem(
      await create(base({ intro_discount_percent: null, intro_discount_months: 2 })),
      400,
      'validation_failed',
    );
    expectProblem(
      await create(base({ intro_discount_percent: 0, intro_discount_months: 2 })),
      400,
      'validation_failed',
    );
    expectProblem(
      await create(base({ intro_discount_percent: 101, intro_discount_months: 2 })),
      400,
      'validation_failed',
    );
    expectProblem(
      await create(base({ intro_discount_percent: 10, intro_discount_months: 0 })),
      400,
      'validation_failed',
    );
    const full = await create(base({ price_cents: 1005, intro_discount_percent: 50, intro_discount_months: 1 }));
    expect(full.data.intro_price_cents).toBe(503); // 502.5 → 503
    const free = await create(base({ intro_discount_percent: 100, intro_discount_months: 1 }));
    expect(free.data).toMatchObject({ intro_price_cents: 0, first_charge_cents: 0 });
    const none = await create(base({ intro_discount_percent: null, intro_discount_months: null }));
    expect(none.data).toMatchObject({ intro_price_cents: null, first_charge_cents: 990 });

    // PATCH: the pair rule holds there too; both null clears the discount
    const id = full.data.id;
    expectProblem(await patch(id, { intro_discount_percent: 30 }), 400, 'validation_failed');
    expectProblem(await patch(id, { intro_discount_months: null }), 400, 'validation_failed');
    const cleared = await patch(id, { intro_discount_percent: null, intro_discount_months: null });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.data).toMatchObject({
      intro_discount_percent: null,
      intro_discount_months: null,
      intro_price_cents: null,
    });
  });

  it('product_id must be an existing, not deleted, digital product of the shop', async () => {
    const physicalPlan = await create(base({ product_id: physical }));
    expectProblem(physicalPlan, 400, 'product_invalid');
    expect(physicalPlan.data.errors[0].path).toBe('/body/product_id');
    expectProblem(await create(base({ product_id: 'prod_unknown' })), 400, 'product_invalid');
    const other = await createShop(t.app);
    const foreign = await product(other.ownerToken, { name: 'Fremd', is_digital: true });
    expectProblem(await create(base({ product_id: foreign })), 400, 'product_invalid');
    const gone = await product(owner, { name: 'Weg', is_digital: true });
    expect((await call(t.app, 'DELETE', `/api/products/${gone}`, { token: owner })).statusCode).toBeLessThan(300);
    expectProblem(await create(base({ product_id: gone })), 400, 'product_invalid');
    expectProblem(await create({ name: 'x', price_cents: 990, interval_unit: 'month' }), 400, 'validation_failed');
  });

  it('the product is immutable: a PATCH naming another product is 400', async () => {
    const plan = (await create(base())).data;
    const other = await product(owner, { name: 'Anderer Kurs', is_digital: true });
    const res = await patch(plan.id, { product_id: other });
    expectProblem(res, 400, 'product_immutable');
    expect(res.data.errors[0].path).toBe('/body/product_id');
    const same = await patch(plan.id, { product_id: digital, name: 'Umbenannt' });
    expect(same.statusCode).toBe(200);
    expect(same.data).toMatchObject({ product_id: digital, name: 'Umbenannt' });
    expect(same.data.hinweis).toBeUndefined();
    expectProblem(await patch('plan_unknown', { name: 'x' }), 404, 'not_found');
  });

  it('a PATCH of price or interval returns hinweis; the limits apply to the merged plan', async () => {
    const plan = (await create(base({ interval_count: 30 }))).data;
    const price = await patch(plan.id, { price_cents: 1290 });
    expect(price.data.price_cents).toBe(1290);
    expect(price.data.hinweis).toMatch(/bestehende Abos behalten ihren Preis/);
    const interval = await patch(plan.id, { interval_count: 2 });
    expect(interval.data).toMatchObject({ interval_count: 2, interval_text: 'alle 2 Monate' });
    expect(interval.data.hinweis).toBeTruthy();
    const samePrice = await patch(plan.id, { price_cents: 1290, is_active: false });
    expect(samePrice.data.hinweis).toBeUndefined();
    expect(samePrice.data.is_active).toBe(false);
    // 37 months is over the maximum, also when only the unit changes
    expectProblem(await patch(plan.id, { interval_count: 37 }), 400, 'validation_failed');
    const years = await patch(plan.id, { interval_count: 30 });
    expect(years.statusCode).toBe(200);
    expectProblem(await patch(plan.id, { interval_unit: 'year' }), 400, 'validation_failed');
    expectProblem(await patch(plan.id, { price_cents: 10_000_001 }), 400, 'validation_failed');
    expectProblem(await patch(plan.id, { currency: 'USD' }), 400, 'validation_failed');
  });

  it('lists plaene newest first with product_name and active_count', async () => {
    const plan = (await create(base({ name: 'Neuester' }))).data;
    const res = await call(t.app, 'GET', '/api/admin/digital/plaene', { token: owner });
    expect(res.statusCode).toBe(200);
    expect(res.data.plaene[0]).toMatchObject({ id: plan.id, product_name: 'Kurs', active_count: 0, currency: 'EUR' });
    const one = await call(t.app, 'GET', `/api/admin/digital/plaene/${plan.id}`, { token: owner });
    expect(one.data.id).toBe(plan.id);
    // another shop never sees it
    const other = await createShop(t.app);
    await call(t.app, 'PUT', '/api/admin/digital/status', { token: other.ownerToken, body: { aktiv: true } });
    const list = await call(t.app, 'GET', '/api/admin/digital/plaene', { token: other.ownerToken });
    expect(list.data.plaene).toEqual([]);
    expectProblem(
      await call(t.app, 'GET', `/api/admin/digital/plaene/${plan.id}`, { token: other.ownerToken }),
      404,
      'not_found',
    );
  });

  it("currency is the default channel's, and follows a switch of the default", async () => {
    const chf = await createShop(t.app);
    await call(t.app, 'PUT', '/api/admin/digital/status', { token: chf.ownerToken, body: { aktiv: true } });
    const p = await product(chf.ownerToken, { name: 'Kurs', is_digital: true });
    const onDefault = await call(t.app, 'POST', '/api/admin/digital/plaene', {
      token: chf.ownerToken,
      body: base({ product_id: p }),
    });
    expect(onDefault.data.currency).toBe('EUR');
    const ch = await call(t.app, 'POST', '/api/admin/channels', {
      token: chf.ownerToken,
      body: { name: 'CH', default_country: 'CH', currency: 'CHF' },
    });
    await call(t.app, 'POST', `/api/admin/channels/${ch.data.id}/set-default`, { token: chf.ownerToken });
    const withChannel = await call(t.app, 'POST', '/api/admin/digital/plaene', {
      token: chf.ownerToken,
      body: base({ product_id: p }),
    });
    expect(withChannel.data.currency).toBe('CHF');
  });

  it('only owner/admin create plans; viewers read them', async () => {
    const viewer = await employeeToken(t.app, shop, 'viewer');
    expectProblem(await create(base(), viewer), 403, 'role_denied');
    expect((await call(t.app, 'GET', '/api/admin/digital/plaene', { token: viewer })).statusCode).toBe(200);
  });
});
