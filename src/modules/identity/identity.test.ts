import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  customerToken,
  employeeToken,
  expectProblem,
  mailedToken,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { sha256 } from '../../platform/crypto.js';
import { query } from '../../platform/db/tx.js';

let t: TestApp;
let shop: ShopFixture;

beforeAll(async () => {
  t = await startApp({ ADMIN_ORIGINS: 'https://admin.example' });
  shop = await createShop(t.app);
});
afterAll(() => t.close());

const sessionCookie = (res: { cookies: { name: string; value: string }[] }, name = 'sid') =>
  res.cookies.find((c) => c.name === name);

describe('admin sessions', () => {
  it('logs in with {token, user, shop} and an HttpOnly SameSite=Lax cookie', async () => {
    const res = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: shop.ownerEmail, password: 'owner-password-1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.data.token).toMatch(/^sess_/);
    expect(res.data.user).toMatchObject({ email: shop.ownerEmail, role: 'owner' });
    expect(res.data.shop.id).toBe(shop.shopId);
    const raw = String(res.headers['set-cookie']);
    expect(raw).toContain('HttpOnly');
    expect(raw).toContain('SameSite=Lax');
    expect(raw).not.toContain('Secure');
    const me = await call(t.app, 'GET', '/api/auth/me', { cookies: { sid: res.data.token } });
    expect(me.statusCode).toBe(200);
    expect(me.data.user.email).toBe(shop.ownerEmail);
  });

  it('accepts the e-mail case-insensitively', async () => {
    const res = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: shop.ownerEmail.toUpperCase(), password: 'owner-password-1' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail with the same 401', async () => {
    const wrong = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: shop.ownerEmail, password: 'nope-nope' },
    });
    const unknown = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'ghost@nowhere.test', password: 'nope-nope' },
    });
    expectProblem(wrong, 401, 'invalid_credentials');
    expectProblem(unknown, 401, 'invalid_credentials');
    expect(wrong.data.detail).toBe(unknown.data.detail);
  });

  it('validates the login body', async () => {
    const res = await call(t.app, 'POST', '/api/auth/login', { body: { email: 42 } });
    expectProblem(res, 400, 'validation_failed');
    expect(res.data.errors.map((e: { path: string }) => e.path).sort()).toEqual(['/body/email', '/body/password']);
  });

  it('logout revokes the session', async () => {
    const token = await employeeToken(t.app, shop, 'viewer');
    expect((await call(t.app, 'GET', '/api/auth/me', { token })).statusCode).toBe(200);
    expect((await call(t.app, 'POST', '/api/auth/logout', { token })).statusCode).toBe(204);
    expectProblem(await call(t.app, 'GET', '/api/auth/me', { token }), 401, 'invalid_credential');
  });

  it('an expired session is refused, and use slides the expiry forward', async () => {
    const token = await employeeToken(t.app, shop, 'viewer');
    const db = t.app.deps.database.db;
    const hash = sha256(token);
    await db.execute(
      sql`UPDATE sessions SET last_seen_at = now() - interval '1 hour', expires_at = now() + interval '1 minute' WHERE token_hash = ${hash}`,
    );
    expect((await call(t.app, 'GET', '/api/auth/me', { token })).statusCode).toBe(200);
    const rows = (await db.execute(
      sql`SELECT expires_at - now() > interval '11 hours' AS slid FROM sessions WHERE token_hash = ${hash}`,
    )) as unknown as { rows: { slid: boolean }[] };
    expect(rows.rows[0]?.slid).toBe(true);
    await db.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE kind = 'admin'`);
    expectProblem(await call(t.app, 'GET', '/api/auth/me', { token }), 401, 'invalid_credential');
    // fresh logins for the rest of the file
    shop.ownerToken = (
      await call(t.app, 'POST', '/api/auth/login', { body: { email: shop.ownerEmail, password: 'owner-password-1' } })
    ).data.token;
  });

  it('a password change ends every other session of that employee', async () => {
    const email = `pw-${Date.now()}@shop.test`;
    await call(t.app, 'POST', '/api/admin/employees', {
      token: shop.ownerToken,
      body: { email, password: 'first-password', role: 'admin' },
    });
    const a = (await call(t.app, 'POST', '/api/auth/login', { body: { email, password: 'first-password' } })).data
      .token;
    const b = (await call(t.app, 'POST', '/api/auth/login', { body: { email, password: 'first-password' } })).data
      .token;
    const wrong = await call(t.app, 'POST', '/api/auth/password', {
      token: a,
      body: { current_password: 'not-it', new_password: 'second-password' },
    });
    expectProblem(wrong, 400, 'invalid_credentials');
    const short = await call(t.app, 'POST', '/api/auth/password', {
      token: a,
      body: { current_password: 'first-password', new_password: 'short' },
    });
    expectProblem(short, 400, 'validation_failed');
    const ok = await call(t.app, 'POST', '/api/auth/password', {
      token: a,
      body: { current_password: 'first-password', new_password: 'second-password' },
    });
    expect(ok.statusCode).toBe(204);
    expect((await call(t.app, 'GET', '/api/auth/me', { token: a })).statusCode).toBe(200);
    expectProblem(await call(t.app, 'GET', '/api/auth/me', { token: b }), 401, 'invalid_credential');
    expect(
      (await call(t.app, 'POST', '/api/auth/login', { body: { email, password: 'second-password' } })).statusCode,
    ).toBe(200);
  });
});

// Login throttling: login-throttle.test.ts

describe('CSRF for cookie-authenticated mutations', () => {
  it('refuses a cookie mutation without an allowed Origin, accepts own and ADMIN_ORIGINS, exempts bearer', async () => {
    const body = { name: 'csrf', scopes: ['catalog:read'] };
    const cookies = { sid: shop.ownerToken };
    expectProblem(await call(t.app, 'POST', '/api/admin/api-tokens', { cookies, body }), 403, 'origin_denied');
    expectProblem(
      await call(t.app, 'POST', '/api/admin/api-tokens', {
        cookies,
        body,
        headers: { origin: 'https://evil.example' },
      }),
      403,
      'origin_denied',
    );
    const own = await call(t.app, 'POST', '/api/admin/api-tokens', {
      cookies,
      body,
      headers: { origin: 'http://service.test' },
    });
    expect(own.statusCode).toBe(201);
    const extra = await call(t.app, 'POST', '/api/admin/api-tokens', {
      cookies,
      body,
      headers: { origin: 'https://admin.example' },
    });
    expect(extra.statusCode).toBe(201);
    const bearer = await call(t.app, 'POST', '/api/admin/api-tokens', { token: shop.ownerToken, body });
    expect(bearer.statusCode).toBe(201);
    // reads by cookie need no Origin
    expect((await call(t.app, 'GET', '/api/admin/api-tokens', { cookies })).statusCode).toBe(200);
  });
});

describe('GET /api/auth/origin-check', () => {
  const check = (origin?: string, extra: Record<string, string> = {}) =>
    call(t.app, 'GET', '/api/auth/origin-check', { query: { ...(origin === undefined ? {} : { origin }), ...extra } });

  it('says whether the CSRF rule accepts cookie changes from an origin (PUBLIC_URL, ADMIN_ORIGINS)', async () => {
    for (const [origin, allowed] of [
      ['http://service.test', true],
      ['HTTP://Service.Test:80', true], // normalised like the Origin header
      ['https://admin.example', true],
      ['https://evil.example', false],
      ['http://service.test:8080', false],
      ['not an origin', false],
    ] as const) {
      const res = await check(origin);
      expect(res.statusCode, origin).toBe(200);
      expect(res.data, origin).toEqual({ allowed });
    }
    // answered without a credential, and with one alike
    expect(
      (
        await call(t.app, 'GET', '/api/auth/origin-check', {
          token: shop.ownerToken,
          query: { origin: 'https://admin.example' },
        })
      ).data,
    ).toEqual({ allowed: true });
  });

  it('validates the query', async () => {
    expectProblem(await check(), 400, 'validation_failed');
    expectProblem(await check(''), 400, 'validation_failed');
    expectProblem(await check('https://x.example', { other: '1' }), 400, 'validation_failed');
    expectProblem(await check(`https://${'a'.repeat(2050)}.example`), 400, 'validation_failed');
  });
});

describe('Idempotency-Key', () => {
  const count = async () =>
    (await call(t.app, 'GET', '/api/admin/api-tokens', { token: shop.ownerToken })).data.api_tokens.length;

  it('replays the first response for the same key and body, and does nothing again', async () => {
    const before = await count();
    const opts = {
      token: shop.ownerToken,
      body: { name: 'idem', scopes: ['catalog:read'] },
      headers: { 'idempotency-key': 'k-1' },
    };
    const first = await call(t.app, 'POST', '/api/admin/api-tokens', opts);
    const second = await call(t.app, 'POST', '/api/admin/api-tokens', opts);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.data).toEqual(first.data);
    expect(await count()).toBe(before + 1);
    // the stored answer holds the token shown once: at rest it is encrypted, never the token itself
    const [stored] = await query<{ response_body: string }>(
      t.app.deps.database.db,
      sql`SELECT response_body FROM idempotency_keys WHERE key = 'k-1' AND shop_id = ${shop.shopId}`,
    );
    expect(stored?.response_body).toMatch(/^v1\./);
    expect(stored?.response_body).not.toContain(first.data.token);
  });

  it('replays an answer stored in plain before answers were encrypted', async () => {
    const opts = {
      token: shop.ownerToken,
      body: { name: 'idem-plain', scopes: ['catalog:read'] },
      headers: { 'idempotency-key': 'k-plain' },
    };
    const first = await call(t.app, 'POST', '/api/admin/api-tokens', opts);
    await t.app.deps.database.db.execute(
      sql`UPDATE idempotency_keys SET response_body = ${first.body} WHERE key = 'k-plain' AND shop_id = ${shop.shopId}`,
    );
    const again = await call(t.app, 'POST', '/api/admin/api-tokens', opts);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.data).toEqual(first.data);
  });

  it('answers 409 idempotency_key_reused for the same key with another body', async () => {
    const headers = { 'idempotency-key': 'k-2' };
    await call(t.app, 'POST', '/api/admin/api-tokens', {
      token: shop.ownerToken,
      body: { name: 'a', scopes: ['catalog:read'] },
      headers,
    });
    const res = await call(t.app, 'POST', '/api/admin/api-tokens', {
      token: shop.ownerToken,
      body: { name: 'b', scopes: ['catalog:read'] },
      headers,
    });
    expectProblem(res, 409, 'idempotency_key_reused');
  });

  it('runs the handler once for concurrent requests with one key', async () => {
    const before = await count();
    const opts = {
      token: shop.ownerToken,
      body: { name: 'conc', scopes: ['catalog:read'] },
      headers: { 'idempotency-key': 'k-3' },
    };
    const results = await Promise.all(
      Array.from({ length: 6 }, () => call(t.app, 'POST', '/api/admin/api-tokens', opts)),
    );
    expect(new Set(results.map((r) => r.statusCode))).toEqual(new Set([201]));
    expect(new Set(results.map((r) => r.data.id)).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });

  it('concurrent retries of a key abandoned by a killed process run the handler once', async () => {
    for (let round = 0; round < 8; round++) {
      const key = `abandoned-${round}`;
      // what a process killed mid-request leaves behind: running, heartbeat long gone
      await t.app.deps.database.db.execute(
        sql`INSERT INTO idempotency_keys (shop_id, principal, key, request_hash, state, expires_at, heartbeat_at)
            VALUES (${shop.shopId}, ${`admin:${shop.ownerId}`}, ${key}, 'hash', 'running',
                    now() + interval '1 hour', now() - interval '1 hour')`,
      );
      const before = await count();
      const opts = {
        token: shop.ownerToken,
        body: { name: key, scopes: ['catalog:read'] },
        headers: { 'idempotency-key': key },
      };
      const results = await Promise.all(
        Array.from({ length: 12 }, () => call(t.app, 'POST', '/api/admin/api-tokens', opts)),
      );
      expect(new Set(results.map((r) => r.statusCode))).toEqual(new Set([201]));
      expect(new Set(results.map((r) => r.data.id)).size).toBe(1);
      expect(await count()).toBe(before + 1);
    }
  });

  it('keys are per caller: another employee may use the same key', async () => {
    const admin = await employeeToken(t.app, shop, 'admin');
    const opts = { body: { name: 'mine', scopes: ['catalog:read'] }, headers: { 'idempotency-key': 'shared' } };
    const a = await call(t.app, 'POST', '/api/admin/api-tokens', { token: shop.ownerToken, ...opts });
    const b = await call(t.app, 'POST', '/api/admin/api-tokens', { token: admin, ...opts });
    expect(a.data.id).not.toBe(b.data.id);
  });

  it('does not store a validation failure as done for another body', async () => {
    const headers = { 'idempotency-key': 'k-4' };
    const bad = await call(t.app, 'POST', '/api/admin/api-tokens', {
      token: shop.ownerToken,
      body: { name: '' },
      headers,
    });
    expectProblem(bad, 400, 'validation_failed');
    const again = await call(t.app, 'POST', '/api/admin/api-tokens', {
      token: shop.ownerToken,
      body: { name: '' },
      headers,
    });
    expectProblem(again, 400, 'validation_failed');
  });
});

describe('API tokens', () => {
  it('shows the secret once; the list shows prefix, scopes, last use and creator', async () => {
    const created = await call(t.app, 'POST', '/api/admin/api-tokens', {
      token: shop.ownerToken,
      body: { name: 'erp', scopes: ['catalog:read', 'finance:read'] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.data.token).toMatch(/^tok_/);
    expect(created.data.token.length).toBeGreaterThan(40);
    const token = created.data.token;
    await call(t.app, 'GET', '/api/admin/publishable-keys', { token });
    const list = await call(t.app, 'GET', '/api/admin/api-tokens', { token: shop.ownerToken });
    const row = list.data.api_tokens.find((x: { id: string }) => x.id === created.data.id);
    expect(row).toMatchObject({
      name: 'erp',
      scopes: ['catalog:read', 'finance:read'],
      prefix: token.slice(0, 12),
      created_by: shop.ownerId,
    });
    expect(row).not.toHaveProperty('token');
    expect(JSON.stringify(list.data)).not.toContain(token);
    expect(row.last_used_at).not.toBeNull();
  });

  it('validates scopes and name', async () => {
    const res = await call(t.app, 'POST', '/api/admin/api-tokens', {
      token: shop.ownerToken,
      body: { name: 'x', scopes: ['catalog:delete'] },
    });
    expectProblem(res, 400, 'validation_failed');
    expectProblem(
      await call(t.app, 'POST', '/api/admin/api-tokens', { token: shop.ownerToken, body: { name: 'x', scopes: [] } }),
      400,
      'validation_failed',
    );
    expectProblem(
      await call(t.app, 'POST', '/api/admin/api-tokens', {
        token: shop.ownerToken,
        body: { name: 'x', scopes: ['catalog:read', 'catalog:read'] },
      }),
      400,
      'validation_failed',
    );
  });

  it('revocation takes effect on the next request', async () => {
    const token = await apiToken(t.app, shop, ['catalog:read']);
    const list = await call(t.app, 'GET', '/api/admin/api-tokens', { token: shop.ownerToken });
    const id = list.data.api_tokens[0].id;
    expect((await call(t.app, 'GET', '/api/admin/publishable-keys', { token })).statusCode).toBe(403);
    expect((await call(t.app, 'DELETE', `/api/admin/api-tokens/${id}`, { token: shop.ownerToken })).statusCode).toBe(
      204,
    );
    expectProblem(await call(t.app, 'GET', '/api/admin/publishable-keys', { token }), 401, 'invalid_credential');
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/api-tokens/${id}`, { token: shop.ownerToken }),
      404,
      'not_found',
    );
  });
});

describe('employees', () => {
  it('creates, changes and removes employees; e-mails are unique', async () => {
    const created = await call(t.app, 'POST', '/api/admin/employees', {
      token: shop.ownerToken,
      body: { email: 'editor@shop.test', password: 'editor-pass', role: 'catalog_editor', channel_ids: ['chan_abc'] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.data).toMatchObject({ role: 'catalog_editor', channel_ids: ['chan_abc'], name: null });
    expectProblem(
      await call(t.app, 'POST', '/api/admin/employees', {
        token: shop.ownerToken,
        body: { email: 'EDITOR@shop.test', password: 'editor-pass', role: 'viewer' },
      }),
      409,
      'email_taken',
    );
    const patched = await call(t.app, 'PATCH', `/api/admin/employees/${created.data.id}`, {
      token: shop.ownerToken,
      body: { role: 'viewer', name: 'Eva' },
    });
    expect(patched.data).toMatchObject({ role: 'viewer', name: 'Eva', channel_ids: ['chan_abc'] });
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/employees/${created.data.id}`, {
        token: shop.ownerToken,
        body: { role: 'god' },
      }),
      400,
      'validation_failed',
    );
    expect(
      (await call(t.app, 'DELETE', `/api/admin/employees/${created.data.id}`, { token: shop.ownerToken })).statusCode,
    ).toBe(204);
    const list = await call(t.app, 'GET', '/api/admin/employees', { token: shop.ownerToken });
    expect(list.data.employees.map((e: { id: string }) => e.id)).not.toContain(created.data.id);
  });

  it('removing an employee ends their sessions', async () => {
    const email = `gone-${Date.now()}@shop.test`;
    const c = await call(t.app, 'POST', '/api/admin/employees', {
      token: shop.ownerToken,
      body: { email, password: 'gone-password', role: 'admin' },
    });
    const token = (await call(t.app, 'POST', '/api/auth/login', { body: { email, password: 'gone-password' } })).data
      .token;
    await call(t.app, 'DELETE', `/api/admin/employees/${c.data.id}`, { token: shop.ownerToken });
    expectProblem(await call(t.app, 'GET', '/api/auth/me', { token }), 401, 'invalid_credential');
  });

  it('the last owner can be neither demoted nor removed', async () => {
    const s = await createShop(t.app);
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/employees/${s.ownerId}`, { token: s.ownerToken, body: { role: 'admin' } }),
      409,
      'last_owner',
    );
    // removing oneself is refused before the last-owner rule is reached
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/employees/${s.ownerId}`, { token: s.ownerToken }),
      409,
      'own_account',
    );
    // with a second owner the first may step down
    await call(t.app, 'POST', '/api/admin/employees', {
      token: s.ownerToken,
      body: { email: `co-${Date.now()}@shop.test`, password: 'co-owner-pw', role: 'owner' },
    });
    const ok = await call(t.app, 'PATCH', `/api/admin/employees/${s.ownerId}`, {
      token: s.ownerToken,
      body: { role: 'admin' },
    });
    expect(ok.statusCode).toBe(200);
  });
});

describe('suspending an employee and the own account', () => {
  it('a suspended employee loses their sessions and cannot sign in until restored', async () => {
    const s = await createShop(t.app);
    const email = `paused-${Date.now()}@shop.test`;
    const c = await call(t.app, 'POST', '/api/admin/employees', {
      token: s.ownerToken,
      body: { email, password: 'paused-password', role: 'viewer' },
    });
    expect(c.data.suspended_at).toBeNull();
    const login = () => call(t.app, 'POST', '/api/auth/login', { body: { email, password: 'paused-password' } });
    const token = (await login()).data.token;
    const suspended = await call(t.app, 'POST', `/api/admin/employees/${c.data.id}/suspend`, { token: s.ownerToken });
    expect(suspended.statusCode).toBe(200);
    expect(typeof suspended.data.suspended_at).toBe('string');
    expectProblem(await call(t.app, 'GET', '/api/auth/me', { token }), 401, 'invalid_credential');
    expectProblem(await login(), 403, 'employee_suspended');
    // a wrong password still says only that
    expectProblem(
      await call(t.app, 'POST', '/api/auth/login', { body: { email, password: 'wrong-password' } }),
      401,
      'invalid_credentials',
    );
    // suspending again keeps the date
    const again = await call(t.app, 'POST', `/api/admin/employees/${c.data.id}/suspend`, { token: s.ownerToken });
    expect(again.data.suspended_at).toBe(suspended.data.suspended_at);
    const listed = await call(t.app, 'GET', '/api/admin/employees', { token: s.ownerToken });
    expect(listed.data.employees.find((e: { id: string }) => e.id === c.data.id).suspended_at).toBe(
      suspended.data.suspended_at,
    );
    const restored = await call(t.app, 'POST', `/api/admin/employees/${c.data.id}/restore`, { token: s.ownerToken });
    expect(restored.statusCode).toBe(200);
    expect(restored.data.suspended_at).toBeNull();
    expect((await login()).statusCode).toBe(200);
  });

  it('the owner can neither remove nor suspend their own account, even with a second owner', async () => {
    const s = await createShop(t.app);
    await call(t.app, 'POST', '/api/admin/employees', {
      token: s.ownerToken,
      body: { email: `co2-${Date.now()}@shop.test`, password: 'co-owner-pw', role: 'owner' },
    });
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/employees/${s.ownerId}`, { token: s.ownerToken }),
      409,
      'own_account',
    );
    expectProblem(
      await call(t.app, 'POST', `/api/admin/employees/${s.ownerId}/suspend`, { token: s.ownerToken }),
      409,
      'own_account',
    );
    expect((await call(t.app, 'GET', '/api/auth/me', { token: s.ownerToken })).statusCode).toBe(200);
  });

  it('suspend and restore answer 404 for an employee of another shop', async () => {
    const other = await createShop(t.app);
    const s = await createShop(t.app);
    for (const action of ['suspend', 'restore']) {
      expectProblem(
        await call(t.app, 'POST', `/api/admin/employees/${other.ownerId}/${action}`, { token: s.ownerToken }),
        404,
        'not_found',
      );
    }
  });
});

describe('publishable keys and storefront origin checks', () => {
  it('normalises origins and refuses anything that is not an origin', async () => {
    const created = await call(t.app, 'POST', '/api/admin/publishable-keys', {
      token: shop.ownerToken,
      body: {
        name: 'web',
        allowed_origins: ['HTTPS://Shop.Example:443', 'http://localhost:8080/', 'https://shop.example'],
      },
    });
    expect(created.statusCode).toBe(201);
    expect(created.data.allowed_origins).toEqual(['https://shop.example', 'http://localhost:8080']);
    const bad = await call(t.app, 'POST', '/api/admin/publishable-keys', {
      token: shop.ownerToken,
      body: { name: 'web', allowed_origins: ['https://ok.example', 'ftp://x.example', 'https://x.example/path'] },
    });
    expectProblem(bad, 400, 'validation_failed');
    expect(bad.data.errors.map((e: { path: string }) => e.path)).toEqual([
      '/body/allowed_origins/1',
      '/body/allowed_origins/2',
    ]);
    const patched = await call(t.app, 'PATCH', `/api/admin/publishable-keys/${created.data.id}`, {
      token: shop.ownerToken,
      body: { allowed_origins: ['https://new.example'] },
    });
    expect(patched.data.allowed_origins).toEqual(['https://new.example']);
  });

  it('a storefront call needs the key and an allowed Origin; CORS answers allowed origins only', async () => {
    const body = { email: `s-${Date.now()}@mail.test`, password: 'customer-pass' };
    expectProblem(
      await call(t.app, 'POST', '/api/customer/register', { token: shop.publishableKey, body }),
      403,
      'origin_denied',
    );
    expectProblem(
      await call(t.app, 'POST', '/api/customer/register', {
        token: shop.publishableKey,
        body,
        headers: { origin: 'https://evil.example' },
      }),
      403,
      'origin_denied',
    );
    const ok = await call(t.app, 'POST', '/api/customer/register', {
      token: shop.publishableKey,
      body,
      headers: { origin: STORE_ORIGIN },
    });
    expect(ok.statusCode).toBe(202);
    expect(ok.headers['access-control-allow-origin']).toBe(STORE_ORIGIN);
    const preflight = await call(t.app, 'OPTIONS', '/api/customer/register', {
      headers: { origin: STORE_ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(STORE_ORIGIN);
    const denied = await call(t.app, 'OPTIONS', '/api/customer/register', {
      headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('a revoked key is refused', async () => {
    const s = await createShop(t.app);
    expect(
      (await call(t.app, 'DELETE', `/api/admin/publishable-keys/${s.publishableKeyId}`, { token: s.ownerToken }))
        .statusCode,
    ).toBe(204);
    expectProblem(
      await call(t.app, 'POST', '/api/customer/login', {
        token: s.publishableKey,
        headers: { origin: STORE_ORIGIN },
        body: { email: 'a@b.test', password: 'whatever1' },
      }),
      401,
      'invalid_credential',
    );
  });
});

describe('customer accounts', () => {
  it('register, verify, login, me, logout; e-mail unique per shop only', async () => {
    const email = `kunde-${Date.now()}@mail.test`;
    const headers = { origin: STORE_ORIGIN };
    const reg = await call(t.app, 'POST', '/api/customer/register', {
      token: shop.publishableKey,
      headers,
      body: { email, password: 'customer-pass', name: 'Kim' },
    });
    expect(reg.statusCode, reg.body).toBe(202);
    expect(reg.data).toEqual({ status: 'accepted' });
    expect(reg.headers['set-cookie']).toBeUndefined();
    // the same address again: answered alike (no 409 email_taken), and nothing changes
    const again = await call(t.app, 'POST', '/api/customer/register', {
      token: shop.publishableKey,
      headers,
      body: { email, password: 'other-pass-1' },
    });
    expect(again.statusCode).toBe(202);
    expect(again.data).toEqual({ status: 'accepted' });
    const other = await createShop(t.app);
    const elsewhere = await call(t.app, 'POST', '/api/customer/register', {
      token: other.publishableKey,
      headers,
      body: { email, password: 'customer-pass' },
    });
    expect(elsewhere.statusCode).toBe(202);
    // no sign-in before the e-mail is verified: answered like a wrong password
    const early = await call(t.app, 'POST', '/api/customer/login', {
      token: shop.publishableKey,
      headers,
      body: { email, password: 'customer-pass' },
    });
    expectProblem(early, 401, 'invalid_credentials');
    const verifyToken = await mailedToken(t.app, shop, email, 'customer_verify_email');
    const verified = await call(t.app, 'POST', '/api/customer/verify-email', {
      token: shop.publishableKey,
      headers,
      body: { token: verifyToken, password: 'customer-pass' },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.data.token).toMatch(/^csess_/);
    expect(verified.data.customer).toMatchObject({ email, name: 'Kim', email_verified: true });
    const login = await call(t.app, 'POST', '/api/customer/login', {
      token: shop.publishableKey,
      headers,
      body: { email, password: 'customer-pass' },
    });
    expect(login.statusCode).toBe(200);
    expect(login.data.customer.id).toBe(verified.data.customer.id);
    // the second registration's password did not replace the first
    expectProblem(
      await call(t.app, 'POST', '/api/customer/login', {
        token: shop.publishableKey,
        headers,
        body: { email, password: 'other-pass-1' },
      }),
      401,
      'invalid_credentials',
    );
    const me = await call(t.app, 'GET', '/api/customer/me', { token: login.data.token });
    expect(me.data.customer).toMatchObject({ email, name: 'Kim' });
    expectProblem(
      await call(t.app, 'POST', '/api/customer/login', {
        token: shop.publishableKey,
        headers,
        body: { email, password: 'wrong-pass' },
      }),
      401,
      'invalid_credentials',
    );
    expect((await call(t.app, 'POST', '/api/customer/logout', { token: login.data.token })).statusCode).toBe(204);
    expectProblem(await call(t.app, 'GET', '/api/customer/me', { token: login.data.token }), 401, 'invalid_credential');
  });

  it('a customer session never passes for an admin session, not even as the sid cookie', async () => {
    const token = await customerToken(t.app, shop);
    expectProblem(await call(t.app, 'GET', '/api/auth/me', { token }), 403, 'credential_denied');
    expectProblem(await call(t.app, 'GET', '/api/auth/me', { cookies: { sid: token } }), 401, 'invalid_credential');
    expect(sessionCookie({ cookies: [] })).toBeUndefined();
  });
});
