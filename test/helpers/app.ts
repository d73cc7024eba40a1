/**
 * Builds the real app on a fresh database for a test file, and small helpers to call it over
 * HTTP (Fastify's inject) with each kind of credential.
 */
import type { Writable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { type App, buildApp } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import { type Ctx, systemCtx } from '../../src/platform/auth/types.js';
import { freshDatabase, type TestDatabase } from './db.js';

export const PLATFORM_TOKEN = 'test-platform-token-0123456789abcdef';
export const STORE_ORIGIN = 'https://store.example';

export interface TestApp {
  app: App;
  db: TestDatabase;
  config: Config;
  close(): Promise<void>;
}

export async function startApp(
  env: Record<string, string> = {},
  extend?: Parameters<typeof buildApp>[0]['extend'],
  /** Where the app's log lines go (at LOG_LEVEL, default info), for tests that read the log. */
  logStream?: Writable,
  onRoute?: Parameters<typeof buildApp>[0]['onRoute'],
  /** Receives every statement the app sends (test/foundation/shop-routing.test.ts). */
  onStatement?: (text: string, params: unknown[]) => void,
): Promise<TestApp> {
  const db = await freshDatabase({ onStatement });
  const config = loadConfig({
    DATA_DIR: 'memory',
    CLOCK: 'simulated',
    DEMO: '0',
    PLATFORM_TOKEN,
    PUBLIC_URL: 'http://service.test',
    WEBHOOK_ALLOW_PRIVATE: '1',
    LOG_LEVEL: 'silent',
    MASTER_KEY: '0'.repeat(64),
    ...env,
  });
  const app = await buildApp({
    config,
    database: db.database,
    skipMigrations: true,
    logger: logStream
      ? { level: env.LOG_LEVEL ?? 'info', stream: logStream }
      : env.LOG_LEVEL
        ? { level: env.LOG_LEVEL }
        : false,
    extend,
    onRoute,
  });
  return {
    app,
    db,
    config,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

export interface CallOptions {
  token?: string;
  body?: unknown;
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  query?: Record<string, string>;
}

export type Response = LightMyRequestResponse & { data: any };

/** One HTTP call; `data` is the parsed JSON body (or null). */
export async function call(app: App, method: string, url: string, opts: CallOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  const req: InjectOptions = { method: method as InjectOptions['method'], url, headers };
  if (opts.body !== undefined) req.payload = opts.body as InjectOptions['payload'];
  if (opts.cookies) req.cookies = opts.cookies;
  if (opts.query) req.query = opts.query;
  const res = (await app.inject(req)) as Response;
  const type = String(res.headers['content-type'] ?? '');
  res.data = type.includes('json') && res.body ? JSON.parse(res.body) : null;
  return res;
}

export interface ShopFixture {
  shopId: string;
  ownerToken: string;
  ownerId: string;
  ownerEmail: string;
  publishableKey: string;
  publishableKeyId: string;
  /** The channel every shop is created with (DESIGN §2): EUR, DE, active, the default. */
  defaultChannelId: string;
}

let shopCounter = 0;

/** Creates a shop through the platform route and signs its owner in. */
export async function createShop(
  app: App,
  opts: { digitalAllowed?: boolean; origins?: string[]; name?: string } = {},
): Promise<ShopFixture> {
  const n = ++shopCounter;
  const email = `owner${n}-${Math.random().toString(36).slice(2, 8)}@shop.test`;
  const created = await call(app, 'POST', '/api/platform/shops', {
    token: PLATFORM_TOKEN,
    body: {
      name: opts.name ?? `Shop ${n}`,
      owner_email: email,
      owner_password: 'owner-password-1',
      digital_allowed: opts.digitalAllowed ?? true,
      storefront_origins: opts.origins ?? [STORE_ORIGIN],
    },
  });
  if (created.statusCode !== 201) throw new Error(`shop creation failed: ${created.body}`);
  const login = await call(app, 'POST', '/api/auth/login', {
    body: { email, password: 'owner-password-1' },
  });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  return {
    shopId: created.data.shop.id,
    ownerToken: login.data.token,
    ownerId: created.data.owner.id,
    ownerEmail: email,
    publishableKey: created.data.publishable_key.key,
    publishableKeyId: created.data.publishable_key.id,
    defaultChannelId: created.data.default_channel.id,
  };
}

/** Adds an employee with a role and returns their session token. */
export async function employeeToken(
  app: App,
  shop: ShopFixture,
  role: 'owner' | 'admin' | 'catalog_editor' | 'viewer',
  channelIds?: string[],
): Promise<string> {
  const email = `${role}-${Math.random().toString(36).slice(2, 10)}@shop.test`;
  const res = await call(app, 'POST', '/api/admin/employees', {
    token: shop.ownerToken,
    body: { email, password: 'employee-pass-1', role, ...(channelIds ? { channel_ids: channelIds } : {}) },
  });
  if (res.statusCode !== 201) throw new Error(`employee creation failed: ${res.body}`);
  const login = await call(app, 'POST', '/api/auth/login', { body: { email, password: 'employee-pass-1' } });
  return login.data.token;
}

/** Creates an API token with the given scopes. */
export async function apiToken(app: App, shop: ShopFixture, scopes: string[]): Promise<string> {
  const res = await call(app, 'POST', '/api/admin/api-tokens', {
    token: shop.ownerToken,
    body: { name: `t-${scopes.join('+')}`, scopes },
  });
  if (res.statusCode !== 201) throw new Error(`token creation failed: ${res.body}`);
  return res.data.token;
}

/**
 * Registers a customer through the storefront, verifies the e-mail with the token of the
 * verification e-mail (which signs the account in) and returns that session token. An account
 * has no session before its e-mail is verified (docs/decisions.md).
 */
export async function customerToken(app: App, shop: ShopFixture, opts: { email?: string } = {}): Promise<string> {
  const email = opts.email ?? `c-${Math.random().toString(36).slice(2, 10)}@mail.test`;
  const res = await call(app, 'POST', '/api/customer/register', {
    token: shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: { email, password: 'customer-pass-1' },
  });
  if (res.statusCode !== 202) throw new Error(`customer registration failed: ${res.body}`);
  const token = await mailedToken(app, shop, email, 'customer_verify_email');
  const verified = await call(app, 'POST', '/api/customer/verify-email', {
    token: shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: { token, password: 'customer-pass-1' },
  });
  if (verified.statusCode !== 200) throw new Error(`customer verification failed: ${verified.body}`);
  return verified.data.token;
}

/** The token of the newest e-mail of `kind` to `to` in the shop's mail outbox. */
export async function mailedToken(app: App, shop: ShopFixture, to: string, kind: string): Promise<string> {
  const res = await call(app, 'GET', '/api/admin/emails', { token: shop.ownerToken, query: { to, kind } });
  const text: string = res.data?.emails?.[0]?.text ?? '';
  const m = /Token: (\S+)/.exec(text);
  if (!m?.[1]) throw new Error(`no ${kind} e-mail to ${to}: ${res.body}`);
  return m[1];
}

export function expectProblem(res: Response, status: number, code: string): void {
  if (res.statusCode !== status || res.data?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.statusCode} ${res.body}`);
  }
  if (!String(res.headers['content-type']).startsWith('application/problem+json')) {
    throw new Error(`expected application/problem+json, got ${res.headers['content-type']}`);
  }
}

/** The context a job of the shop would get (no actor): for calling services directly. */
export function shopCtx(app: App, shopId: string): Ctx {
  const { database, clock, config } = app.deps;
  return systemCtx({ db: database.db, clock, config }, shopId, app.log);
}
