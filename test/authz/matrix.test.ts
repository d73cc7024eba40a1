/**
 * Runs the authorization matrix: for every row (route) and every credential kind, the status the
 * spec requires. Requires a row for every route the app registers (or a reason in rows/no-row.ts).
 * Also proves tenancy: a credential of another shop never reaches this shop's rows.
 */
import { sql } from 'drizzle-orm';
import Fastify, { type RouteOptions } from 'fastify';
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
import {
  type AnyCredential,
  CREDENTIALS,
  type CredentialExpectation,
  DERIVED_CREDENTIALS,
  type DerivedCredential,
  type MatrixFixture,
  type MatrixRow,
} from './matrix.types.js';
import { ALL_ROWS } from './rows/index.js';
import { NO_ROW } from './rows/no-row.js';

let t: TestApp;
/** Every route the app registers (method, URL pattern, config.auth), as its onRoute hook saw it. */
const registered: { method: string; url: string; auth: unknown }[] = [];
const collectRoute = (route: RouteOptions) => {
  for (const method of [route.method].flat()) {
    registered.push({ method, url: route.url ?? '', auth: (route.config as { auth?: unknown } | undefined)?.auth });
  }
};
let shop: ShopFixture;
let other: ShopFixture;
let fixture: MatrixFixture;
type Cred = { token?: string; origin?: string; headers?: Record<string, string> };
const creds = {} as Record<AnyCredential, Cred>;
const DERIVED = Object.keys(DERIVED_CREDENTIALS) as DerivedCredential[];
const isDerived = (c: AnyCredential): c is DerivedCredential => c in DERIVED_CREDENTIALS;

async function sessionOf(kind: 'vendor' | 'affiliate'): Promise<string> {
  const s = await createSession(
    { db: t.app.deps.database.db },
    {
      shopId: shop.shopId,
      kind,
      subjectId: kind === 'vendor' ? 'ven_matrix' : 'aff_matrix',
    },
  );
  return s.token;
}

/** The publishable key with a customer session in X-Customer-Session. */
const withSession = (session: string): Cred => ({
  token: shop.publishableKey,
  origin: STORE_ORIGIN,
  headers: { 'x-customer-session': session },
});

async function mint(c: AnyCredential): Promise<Cred> {
  switch (c) {
    case 'restricted_admin':
      return { token: await employeeToken(t.app, shop, 'admin', [shop.defaultChannelId]) };
    case 'emptied_admin': {
      // restricted to one channel, which is then deleted: the restriction stays, with no channel
      const owner = creds.owner.token;
      const channel = await call(t.app, 'POST', '/api/admin/channels', {
        token: owner,
        body: { name: `Weg ${Math.random().toString(36).slice(2, 8)}`, default_country: 'DE', currency: 'EUR' },
      });
      if (channel.statusCode !== 201) throw new Error(`channel creation failed: ${channel.body}`);
      const token = await employeeToken(t.app, shop, 'admin', [channel.data.id]);
      const gone = await call(t.app, 'DELETE', `/api/admin/channels/${channel.data.id}`, { token: owner });
      if (gone.statusCode !== 204) throw new Error(`channel deletion failed: ${gone.body}`);
      return { token };
    }
    case 'pk_signed_in':
      return withSession(await customerToken(t.app, shop));
    case 'pk_foreign_session':
      return withSession(await customerToken(t.app, other));
    case 'pk_revoked_session': {
      const session = await customerToken(t.app, shop);
      const out = await call(t.app, 'POST', '/api/customer/logout', { token: session });
      if (out.statusCode !== 204) throw new Error(`logout failed: ${out.body}`);
      return withSession(session);
    }
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
  t = await startApp({}, undefined, undefined, collectRoute);
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
  other = await createShop(t.app);
  for (const c of [...CREDENTIALS, ...DERIVED]) creds[c] = await mint(c);
});
afterAll(() => t.close());

async function attempt(row: MatrixRow, cred: Cred) {
  const url = typeof row.url === 'function' ? row.url(fixture) : row.url;
  return call(t.app, row.method, url, {
    token: cred.token,
    headers: { ...(cred.origin ? { origin: cred.origin } : {}), ...cred.headers },
    ...(row.body !== undefined ? { body: row.body } : {}),
  });
}

/** What a credential must get on a row: the row's override, else its base's (derived), else allow/refuse. */
function expectationOf(row: MatrixRow, c: AnyCredential): CredentialExpectation {
  const own = row.expect?.[c];
  if (own) return own;
  if (isDerived(c)) {
    if (row.signedInCustomer && (c === 'pk_foreign_session' || c === 'pk_revoked_session')) {
      return { status: 401, code: 'customer_session_invalid' };
    }
    return expectationOf(row, DERIVED_CREDENTIALS[c]);
  }
  const allowed = row.allow.includes(c);
  return {
    status: allowed ? (row.ok ?? 200) : c === 'none' || c === 'unknown_bearer' ? 401 : 403,
    ...(row.codes?.[c] ? { code: row.codes[c] } : {}),
  };
}

/** The credentials a row runs: every base one, and the derived ones whose base it allows or that it names. */
const credentialsOf = (row: MatrixRow): AnyCredential[] => [
  ...CREDENTIALS,
  ...DERIVED.filter((c) => row.allow.includes(DERIVED_CREDENTIALS[c]) || row.expect?.[c] !== undefined),
];

/** A row's URL with the fixture's ids shown as `:name` (for test names and for finding its route). */
const labelOf = (row: MatrixRow): string =>
  typeof row.url === 'function'
    ? row.url({ shopId: ':shop', ids: new Proxy({}, { get: (_t, k) => `:${String(k)}` }) })
    : row.url;

describe('authorization matrix', () => {
  for (const { module, rows } of ALL_ROWS) {
    for (const row of rows) {
      const label = labelOf(row);
      it(`${module}: ${row.method} ${label}`, async () => {
        const problems: string[] = [];
        await row.setup?.({
          fixture,
          asOwner: (method, url, body) => call(t.app, method, url, { token: creds.owner.token, body }),
          call: (method, url, opts) => call(t.app, method, url, opts),
          publishableKey: shop.publishableKey,
          defaultChannelId: shop.defaultChannelId,
        });
        for (const c of credentialsOf(row)) {
          const base = isDerived(c) ? DERIVED_CREDENTIALS[c] : c;
          const cred = row.consumesSession && row.allow.includes(base) ? await mint(c) : creds[c];
          const res = await attempt(row, cred);
          const expected = expectationOf(row, c);
          if (res.statusCode !== expected.status) {
            problems.push(`${c}: expected ${expected.status}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
            continue;
          }
          if (expected.code && res.data?.code !== expected.code) {
            problems.push(`${c}: expected code ${expected.code}, got ${res.data?.code}`);
          }
          if (expected.body && !expected.body(res.data, fixture)) {
            problems.push(`${c}: unexpected body ${res.body.slice(0, 300)}`);
          }
        }
        expect(problems).toEqual([]);
      });
    }
  }

  it('counts the matrix', () => {
    const routes = ALL_ROWS.reduce((n, m) => n + m.rows.length, 0);
    expect(routes * CREDENTIALS.length).toBeGreaterThan(0);
    // the derived credentials meet rows that tell them apart from their base
    const rows = ALL_ROWS.flatMap((m) => m.rows);
    expect(rows.filter((r) => r.signedInCustomer).length).toBeGreaterThanOrEqual(2);
    for (const c of ['restricted_admin', 'emptied_admin'] as const) {
      expect(rows.some((r) => r.expect?.[c] !== undefined)).toBe(true);
    }
  });
});

/**
 * The route (`METHOD /pattern`) each row's request reaches: the registered routes put into a bare
 * Fastify router with the app's router options, each answering its own pattern, so a row finds
 * its route as the app's router would (a static segment before a parameter).
 */
async function routeOfEachRow(routes: { method: string; url: string }[]): Promise<Map<MatrixRow, string | null>> {
  const router = Fastify({ routerOptions: { ignoreTrailingSlash: true, maxParamLength: 16_384 } });
  for (const r of routes) {
    router.route({ method: r.method as 'GET', url: r.url, handler: async () => ({ route: `${r.method} ${r.url}` }) });
  }
  const found = new Map<MatrixRow, string | null>();
  for (const row of ALL_ROWS.flatMap((m) => m.rows)) {
    const res = await router.inject({ method: row.method, url: labelOf(row) });
    found.set(row, res.statusCode === 200 ? (res.json() as { route: string }).route : null);
  }
  await router.close();
  return found;
}

describe('every registered route is in the matrix', () => {
  it('has a row for each route the app registers, or a reason in rows/no-row.ts', async () => {
    // HEAD is Fastify's copy of each GET; OPTIONS * is the CORS preflight (in NO_ROW)
    const gets = new Set(registered.filter((r) => r.method === 'GET').map((r) => r.url));
    const routes = [
      ...new Map(
        registered.filter((r) => !(r.method === 'HEAD' && gets.has(r.url))).map((r) => [`${r.method} ${r.url}`, r]),
      ).values(),
    ];
    expect(routes.length).toBeGreaterThan(150);
    const found = await routeOfEachRow(routes);
    const covered = new Set(found.values());
    const missing = routes
      .filter((r) => !covered.has(`${r.method} ${r.url}`) && !NO_ROW.some((n) => n.matches(r.method, r.url)))
      .map((r) => `${r.method} ${r.url}  (config.auth ${JSON.stringify(r.auth)})`);
    expect(
      missing.length,
      `${missing.length} registered route(s) have no authorization-matrix row: add a row to test/authz/rows/<module>.rows.ts (or, for a route no credential decides, an entry with its reason to test/authz/rows/no-row.ts):\n  ${missing.join('\n  ')}\n`,
    ).toBe(0);
    // and every row reaches a registered route (a row for a removed or renamed route is stale)
    const stale = [...found].filter(([, route]) => route === null).map(([row]) => `${row.method} ${labelOf(row)}`);
    expect(stale, `rows whose request reaches no registered route:\n  ${stale.join('\n  ')}\n`).toEqual([]);
    // an allowlisted route still exists (the list does not outlive its routes)
    const unused = NO_ROW.filter((n) => !routes.some((r) => n.matches(r.method, r.url))).map((n) => n.route);
    expect(unused, 'rows/no-row.ts names routes the app no longer registers').toEqual([]);
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
