import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectProblem, PLATFORM_TOKEN, startApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

const shopBody = (email: string) => ({
  name: 'Bäckerei Müller',
  owner_email: email,
  owner_password: 'a-long-password',
  digital_allowed: false,
  storefront_origins: ['HTTPS://Shop.Example:443'],
});

describe('platform routes', () => {
  it('creates a shop with its owner and a publishable key, and the owner can sign in', async () => {
    const res = await call(t.app, 'POST', '/api/platform/shops', {
      token: PLATFORM_TOKEN,
      body: shopBody('boss@mueller.test'),
    });
    expect(res.statusCode).toBe(201);
    expect(res.data.shop).toMatchObject({ name: 'Bäckerei Müller', digital_allowed: false });
    expect(res.data.shop.id).toMatch(/^shop_[0-9a-z]{26}$/);
    expect(res.data.owner).toMatchObject({ email: 'boss@mueller.test', role: 'owner' });
    expect(res.data.owner).not.toHaveProperty('password_hash');
    expect(res.data.publishable_key.key).toMatch(/^pk_/);
    expect(res.data.publishable_key.allowed_origins).toEqual(['https://shop.example']);
    const login = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'boss@mueller.test', password: 'a-long-password' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.data.shop.id).toBe(res.data.shop.id);
    const hash = await t.app.deps.database.db.execute(
      (await import('drizzle-orm')).sql`SELECT password_hash FROM users WHERE email = 'boss@mueller.test'`,
    );
    expect((hash as unknown as { rows: { password_hash: string }[] }).rows[0]?.password_hash).toMatch(/^\$argon2id\$/);
  });

  it('refuses a second shop with the same owner e-mail and creates nothing', async () => {
    const before = await call(t.app, 'GET', '/api/platform/shops', { token: PLATFORM_TOKEN });
    const res = await call(t.app, 'POST', '/api/platform/shops', {
      token: PLATFORM_TOKEN,
      body: shopBody('BOSS@mueller.test'),
    });
    expectProblem(res, 409, 'email_taken');
    const after = await call(t.app, 'GET', '/api/platform/shops', { token: PLATFORM_TOKEN });
    expect(after.data.count).toBe(before.data.count);
  });

  it('validates the shop body', async () => {
    const res = await call(t.app, 'POST', '/api/platform/shops', {
      token: PLATFORM_TOKEN,
      body: { name: '', owner_email: 'not-an-email', owner_password: 'short', digital_allowed: 'yes' },
    });
    expectProblem(res, 400, 'validation_failed');
    const paths = res.data.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['/body/digital_allowed', '/body/name', '/body/owner_email', '/body/owner_password']);
    const origins = await call(t.app, 'POST', '/api/platform/shops', {
      token: PLATFORM_TOKEN,
      body: { ...shopBody('x@y.test'), storefront_origins: ['https://ok.example', 'https://bad.example/path'] },
    });
    expectProblem(origins, 400, 'validation_failed');
  });

  it('lists shops with pagination', async () => {
    await call(t.app, 'POST', '/api/platform/shops', { token: PLATFORM_TOKEN, body: shopBody('second@shop.test') });
    const page = await call(t.app, 'GET', '/api/platform/shops?limit=1&offset=0', { token: PLATFORM_TOKEN });
    expect(page.statusCode).toBe(200);
    expect(page.data).toMatchObject({ limit: 1, offset: 0 });
    expect(page.data.count).toBeGreaterThanOrEqual(2);
    expect(page.data.shops).toHaveLength(1);
    expectProblem(
      await call(t.app, 'GET', '/api/platform/shops?limit=0', { token: PLATFORM_TOKEN }),
      400,
      'validation_failed',
    );
    expectProblem(
      await call(t.app, 'GET', '/api/platform/shops?limit=201', { token: PLATFORM_TOKEN }),
      400,
      'validation_failed',
    );
    expectProblem(
      await call(t.app, 'GET', '/api/platform/shops?offset=-1', { token: PLATFORM_TOKEN }),
      400,
      'validation_failed',
    );
  });

  it('sets digital_allowed (erlaubt) and answers 404 for an unknown shop', async () => {
    const list = await call(t.app, 'GET', '/api/platform/shops', { token: PLATFORM_TOKEN });
    const id = list.data.shops[0].id;
    const res = await call(t.app, 'PATCH', `/api/platform/shops/${id}`, {
      token: PLATFORM_TOKEN,
      body: { digital_allowed: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.digital_allowed).toBe(true);
    expectProblem(
      await call(t.app, 'PATCH', '/api/platform/shops/shop_nope', {
        token: PLATFORM_TOKEN,
        body: { digital_allowed: true },
      }),
      404,
      'not_found',
    );
    expectProblem(
      await call(t.app, 'PATCH', `/api/platform/shops/${id}`, { token: PLATFORM_TOKEN, body: { digital_allowed: 1 } }),
      400,
      'validation_failed',
    );
  });

  it('refuses a missing or wrong platform token with 401', async () => {
    expectProblem(await call(t.app, 'GET', '/api/platform/shops'), 401, 'unauthenticated');
    expectProblem(await call(t.app, 'GET', '/api/platform/shops', { token: 'wrong' }), 401, 'invalid_credential');
    expectProblem(
      await call(t.app, 'POST', '/api/platform/shops', { token: `${PLATFORM_TOKEN}x`, body: shopBody('z@z.test') }),
      401,
      'invalid_credential',
    );
  });

  it('advances the simulated clock', async () => {
    const before = t.app.deps.clock.now().getTime();
    const res = await call(t.app, 'POST', '/api/platform/clock/advance', {
      token: PLATFORM_TOKEN,
      body: { seconds: 86_400 },
    });
    expect(res.statusCode).toBe(200);
    expect(new Date(res.data.now).getTime() - before).toBeGreaterThanOrEqual(86_400_000);
    expectProblem(
      await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: 0 } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: '10' } }),
      400,
      'validation_failed',
    );
  });
});

describe('platform routes without PLATFORM_TOKEN or simulated clock', () => {
  let u: TestApp;
  beforeAll(async () => {
    u = await startApp({ PLATFORM_TOKEN: '', CLOCK: 'real' });
  });
  afterAll(() => u.close());

  it('answers 401 when PLATFORM_TOKEN is unset', async () => {
    expectProblem(
      await call(u.app, 'GET', '/api/platform/shops', { token: PLATFORM_TOKEN }),
      401,
      'invalid_credential',
    );
    expectProblem(await call(u.app, 'GET', '/api/platform/shops', { token: '' }), 401, 'unauthenticated');
  });
});

describe('clock advance on the real clock', () => {
  let u: TestApp;
  beforeAll(async () => {
    u = await startApp({ CLOCK: 'real' });
  });
  afterAll(() => u.close());

  it('is 404', async () => {
    expectProblem(
      await call(u.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: 10 } }),
      404,
      'not_found',
    );
  });
});
