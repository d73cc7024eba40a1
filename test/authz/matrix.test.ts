/**
 * Runs the authorization matrix: for every row (route) and every credential kind, the status the
 * spec requires. Also proves tenancy: a credential of another shop never reaches this shop's rows.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../src/modules/identity/sessions.js';
import {
  apiToken,
  call,
  createShop,
  customerToken,
  employeeToken,
  PLATFORM_TOKEN,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../helpers/app.js';
import { CREDENTIALS, type Credential, type MatrixFixture, type MatrixRow } from './matrix.types.js';
import { ALL_ROWS } from './rows/index.js';

let t: TestApp;
let shop: ShopFixture;
let fixture: MatrixFixture;
const creds = {} as Record<Credential, { token?: string; origin?: string }>;

async function sessionOf(kind: 'vendor' | 'affiliate'): Promise<string> {
  const s = await createSession(t.app.deps.database.db, {
    shopId: shop.shopId,
    kind,
    subjectId: kind === 'vendor' ? 'ven_matrix' : 'aff_matrix',
  });
  return s.token;
}

async function mint(c: Credential): Promise<{ token?: string; origin?: string }> {
  switch (c) {
    case 'none':
      return {};
    case 'unknown_bearer':
      return { token: 'sess_does-not-exist' };
    case 'platform':
      return { token: PLATFORM_TOKEN };
    case 'owner':
      return {
        token: (
          await call(t.app, 'POST', '/api/auth/login', {
            body: { email: shop.ownerEmail, password: 'owner-password-1' },
          })
        ).data.token,
      };
    case 'admin':
    case 'catalog_editor':
    case 'viewer':
      return { token: await employeeToken(t.app, shop, c) };
    case 'tok_catalog_read':
      return { token: await apiToken(t.app, shop, ['catalog:read']) };
    case 'tok_catalog_write':
      return { token: await apiToken(t.app, shop, ['catalog:write']) };
    case 'tok_finance_read':
      return { token: await apiToken(t.app, shop, ['finance:read']) };
    case 'pk_allowed_origin':
      return { token: shop.publishableKey, origin: STORE_ORIGIN };
    case 'pk_other_origin':
      return { token: shop.publishableKey, origin: 'https://evil.example' };
    case 'customer':
      return { token: await customerToken(t.app, shop) };
    case 'vendor':
      return { token: await sessionOf('vendor') };
    case 'affiliate':
      return { token: await sessionOf('affiliate') };
  }
}

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  fixture = { shopId: shop.shopId, ids: {} };
  // the vendor and affiliate the portal sessions belong to
  const db = t.app.deps.database.db;
  await db.execute(
    sql`INSERT INTO vendors (id, shop_id, name, email, status) VALUES ('ven_matrix', ${shop.shopId}, 'Matrix Vendor', 'vendor@matrix.test', 'active')`,
  );
  await db.execute(
    sql`INSERT INTO affiliates (id, shop_id, name, email, code, commission_percent, status)
        VALUES ('aff_matrix', ${shop.shopId}, 'Matrix Affiliate', 'affiliate@matrix.test', 'MATRIX', 10, 'active')`,
  );
  for (const c of CREDENTIALS) creds[c] = await mint(c);
});
afterAll(() => t.close());

async function attempt(row: MatrixRow, c: Credential, cred: { token?: string; origin?: string }) {
  const url = typeof row.url === 'function' ? row.url(fixture) : row.url;
  return call(t.app, row.method, url, {
    token: cred.token,
    headers: cred.origin ? { origin: cred.origin } : {},
    ...(row.body !== undefined ? { body: row.body } : {}),
  });
}

describe('authorization matrix', () => {
  for (const { module, rows } of ALL_ROWS) {
    for (const row of rows) {
      const label =
        typeof row.url === 'function'
          ? row.url({ shopId: ':shop', ids: new Proxy({}, { get: (_t, k) => `:${String(k)}` }) })
          : row.url;
      it(`${module}: ${row.method} ${label}`, async () => {
        const problems: string[] = [];
        await row.setup?.({
          fixture,
          asOwner: (method, url, body) => call(t.app, method, url, { token: creds.owner.token, body }),
        });
        for (const c of CREDENTIALS) {
          const cred = row.consumesSession && row.allow.includes(c) ? await mint(c) : creds[c];
          const res = await attempt(row, c, cred);
          const allowed = row.allow.includes(c);
          const expected = allowed ? (row.ok ?? 200) : c === 'none' || c === 'unknown_bearer' ? 401 : 403;
          if (res.statusCode !== expected) {
            problems.push(`${c}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
            continue;
          }
          const code = row.codes?.[c];
          if (code && res.data?.code !== code) problems.push(`${c}: expected code ${code}, got ${res.data?.code}`);
        }
        expect(problems).toEqual([]);
      });
    }
  }

  it('counts the matrix', () => {
    const routes = ALL_ROWS.reduce((n, m) => n + m.rows.length, 0);
    expect(routes * CREDENTIALS.length).toBeGreaterThan(0);
  });
});

describe('tenancy', () => {
  it('a session of shop A never reads or changes shop B (404)', async () => {
    const other = await createShop(t.app);
    const tokenB = await apiToken(t.app, other, ['catalog:read']);
    const listB = await call(t.app, 'GET', '/api/admin/api-tokens', { token: other.ownerToken });
    const idB = listB.data.api_tokens[0].id as string;
    const revoke = await call(t.app, 'DELETE', `/api/admin/api-tokens/${idB}`, { token: shop.ownerToken });
    expect(revoke.statusCode).toBe(404);
    const patchKey = await call(t.app, 'PATCH', `/api/admin/publishable-keys/${other.publishableKeyId}`, {
      token: shop.ownerToken,
      body: { name: 'hijacked' },
    });
    expect(patchKey.statusCode).toBe(404);
    const patchEmployee = await call(t.app, 'PATCH', `/api/admin/employees/${other.ownerId}`, {
      token: shop.ownerToken,
      body: { role: 'viewer' },
    });
    expect(patchEmployee.statusCode).toBe(404);
    const mine = await call(t.app, 'GET', '/api/admin/employees', { token: shop.ownerToken });
    expect(mine.data.employees.map((e: { id: string }) => e.id)).not.toContain(other.ownerId);
    // shop B's data is unchanged
    const still = await call(t.app, 'GET', '/api/admin/api-tokens', { token: other.ownerToken });
    expect(still.data.api_tokens.map((x: { id: string }) => x.id)).toContain(idB);
    expect(tokenB).toMatch(/^tok_/);
    const rows = await t.app.deps.database.db.execute(sql`SELECT role FROM users WHERE id = ${other.ownerId}`);
    expect((rows as unknown as { rows: { role: string }[] }).rows[0]?.role).toBe('owner');
  });
});
