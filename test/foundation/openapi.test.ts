/**
 * The OpenAPI document as clients consume it: the same full document in every ROLE, a unique
 * operationId, a summary and a tag on every operation, `security: []` on public operations, and
 * Redocly's recommended ruleset without errors.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import type { Role } from '../../src/config.js';
import { ERROR_CODES } from '../../src/platform/error-codes.js';
import { assignOperationIds, deriveOperationId } from '../../src/platform/http/operation-ids.js';
import { call, startApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
const others = new Map<Role, App>();
beforeAll(async () => {
  t = await startApp();
  for (const role of ['shop', 'checkout', 'worker'] as const) {
    others.set(
      role,
      await buildApp({
        config: { ...t.config, role, runWorker: role === 'worker' },
        database: t.db.database,
        skipMigrations: true,
        logger: false,
      }),
    );
  }
  // four apps: slow on a busy machine
}, 180_000);
afterAll(async () => {
  for (const app of others.values()) await app.close();
  await t.close();
});

type Op = { operationId?: string; summary?: string; tags?: string[]; security?: unknown[] };
const operations = (doc: { paths: Record<string, Record<string, Op>> }) =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

describe('one document in every process', () => {
  it('serves the same full /openapi.json and /docs whatever the ROLE', async () => {
    const all = await call(t.app, 'GET', '/openapi.json');
    expect(all.statusCode).toBe(200);
    expect(all.data.paths['/api/store/checkout-sessions'].post).toBeDefined();
    expect(all.data.paths['/api/admin/products'].get).toBeDefined();
    for (const [role, app] of others) {
      const res = await call(app, 'GET', '/openapi.json');
      expect(res.statusCode, role).toBe(200);
      expect(res.body, `ROLE=${role}`).toBe(all.body);
      const docs = await call(app, 'GET', '/docs/json');
      expect(docs.statusCode, role).toBe(200);
      expect(docs.data, role).toEqual(all.data);
      const first = await call(app, 'GET', '/docs/');
      const page = first.statusCode === 302 ? await call(app, 'GET', String(first.headers.location)) : first;
      expect(page.statusCode, role).toBe(200);
      expect(page.body, role).toContain('swagger');
    }
  });

  it('still serves only its own ROLE: routes of another ROLE answer 404 like unknown ones', async () => {
    const shop = others.get('shop') as App;
    const checkout = others.get('checkout') as App;
    const worker = others.get('worker') as App;
    const body = { items: [] };
    expect((await call(t.app, 'POST', '/api/store/checkout-sessions', { body })).statusCode).toBe(401);
    expect((await call(shop, 'POST', '/api/store/checkout-sessions', { body })).statusCode).toBe(404);
    expect((await call(shop, 'GET', '/pay/cs_x')).statusCode).toBe(404);
    expect((await call(shop, 'GET', '/api/admin/products')).statusCode).toBe(401);
    expect((await call(checkout, 'GET', '/api/admin/products')).statusCode).toBe(404);
    expect((await call(checkout, 'POST', '/api/store/checkout-sessions', { body })).statusCode).toBe(401);
    expect((await call(worker, 'GET', '/api/admin/products')).statusCode).toBe(404);
    const unknown = await call(shop, 'GET', '/api/no-such-route');
    const elsewhere = await call(shop, 'GET', '/pay/cs_x');
    expect(elsewhere.data).toMatchObject({ status: 404, code: unknown.data.code });
    expect((await call(worker, 'GET', '/health')).data).toEqual({ status: 'ok', role: 'worker' });
  });
});

describe('a document clients can be generated from', () => {
  it('gives every operation a unique operationId, a summary and a declared tag', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).data;
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(150);
    const ids = new Set<string>();
    const declared = new Set((doc.tags as { name: string }[]).map((x) => x.name));
    for (const { path, method, op } of ops) {
      const where = `${method.toUpperCase()} ${path}`;
      expect(op.operationId, where).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(ids.has(op.operationId as string), `${where}: duplicate ${op.operationId}`).toBe(false);
      ids.add(op.operationId as string);
      expect(op.summary, where).toBeTruthy();
      expect(op.tags?.length, where).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) expect(declared.has(tag), `${where}: tag ${tag}`).toBe(true);
      expect(Array.isArray(op.security), `${where}: security stated`).toBe(true);
    }
    expect(doc.paths['/api/admin/products'].get.operationId).toBe('listProducts');
    expect(doc.paths['/api/store/checkout-sessions'].post.operationId).toBe('createCheckoutSession');
    expect(doc.paths['/api/admin/digital/abos/{id}/kuendigen'].post.operationId).toBe('kuendigenAbo');
  });

  it('declares security: [] on exactly the public operations', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).data;
    const open = operations(doc)
      .filter(({ op }) => op.security?.length === 0)
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    for (const op of [
      'POST /api/auth/login',
      'GET /pay/{id}',
      'POST /pay/{id}',
      'GET /api/checkout/abo/{token}',
      'POST /api/vendor/auth/accept',
      'POST /api/webhooks/stripe',
      'GET /ready',
    ]) {
      expect(open).toContain(op);
    }
    // the credentials accepted by a public route are none: calling it without one is not 401
    for (const op of open) {
      const [method, path] = op.split(' ') as [string, string];
      const url = path.replace(/\{[^}]+\}/g, 'x');
      const res = await call(t.app, method, url, method === 'GET' ? {} : { body: {} });
      expect(res.statusCode, op).not.toBe(401);
    }
    expect(doc.paths['/api/admin/products'].get.security.length).toBeGreaterThan(0);
  });

  it('states per operation who may call it (x-credentials, x-roles, x-scope), derived from config.auth', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).data;
    type Access = { 'x-credentials'?: string[]; 'x-roles'?: string[]; 'x-scope'?: string; security?: unknown[] };
    const op = (method: string, path: string) => doc.paths[path][method] as Access;
    for (const { op: o, method, path } of operations(doc)) {
      const a = o as Access;
      expect(Array.isArray(a['x-credentials']), `${method} ${path}`).toBe(true);
      // public operations accept no credential; every admin-session operation names its roles
      if (a.security?.length === 0) expect(a['x-credentials'], `${method} ${path}`).toEqual([]);
      if (a['x-credentials']?.includes('admin_session'))
        expect(a['x-roles']?.length, `${method} ${path}`).toBeGreaterThan(0);
      else expect(a['x-roles'], `${method} ${path}`).toBeUndefined();
    }
    expect(op('get', '/api/admin/orders')).toMatchObject({
      'x-credentials': ['admin_session'],
      'x-roles': ['owner', 'admin', 'catalog_editor', 'viewer'],
    });
    // manageMoney: owner and admin, API tokens blocked
    expect(op('post', '/api/admin/orders/{id}/cancel')).toMatchObject({
      'x-credentials': ['admin_session'],
      'x-roles': ['owner', 'admin'],
    });
    // writeCatalog: catalog writers, or an API token with catalog:write
    expect(op('post', '/api/products')).toMatchObject({
      'x-credentials': ['admin_session', 'api_token'],
      'x-roles': ['owner', 'admin', 'catalog_editor'],
      'x-scope': 'catalog:write',
    });
    expect(op('get', '/api/admin/employees')['x-roles']).toEqual(['owner']);
    expect(op('post', '/api/auth/login')['x-credentials']).toEqual([]);
    expect(op('get', '/api/store/products')['x-credentials']).toEqual(['publishable_key']);
  });

  it('documents the answers of the hosted payment page: 303 to return_url, 402 declined, 410 expired', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).data;
    const page = doc.paths['/pay/{id}'];
    expect(Object.keys(page.post.responses)).toEqual(expect.arrayContaining(['200', '303', '402', '410']));
    expect(Object.keys(page.get.responses)).toEqual(expect.arrayContaining(['200', '303', '410']));
    expect(page.post.responses['303'].content).toBeUndefined();
  });

  it('lists the table of error codes (x-error-codes) and enumerates them in Problem.code', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).data;
    const listed = doc['x-error-codes'] as { code: string; status: number; meaning: string }[];
    expect(listed.map((e) => e.code).sort()).toEqual(Object.keys(ERROR_CODES).sort());
    expect(listed.find((e) => e.code === 'domain_taken')).toMatchObject({ status: 409 });
    expect(listed.find((e) => e.code === 'invalid_credentials')).toMatchObject({ status: 401, also_status: 400 });
    const problem = doc.components.schemas.Problem;
    expect([...problem.properties.code.enum].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('derives unique names for routes without a curated one', () => {
    expect(deriveOperationId('get', '/api/admin/widgets')).toBe('listWidgets');
    expect(deriveOperationId('get', '/api/admin/widgets/{id}')).toBe('getWidget');
    expect(deriveOperationId('post', '/api/admin/widgets')).toBe('createWidget');
    expect(deriveOperationId('post', '/api/admin/widgets/{id}/archive')).toBe('archiveWidget');
    expect(deriveOperationId('delete', '/api/admin/widgets/{id}')).toBe('deleteWidget');
    const paths: Record<string, Record<string, { operationId?: string }>> = {
      '/api/store/products': { get: {} },
      '/api/admin/store/products': { get: {} },
      '/api/admin/widgets/{id}': { get: {}, patch: {} },
    };
    assignOperationIds(paths);
    expect(paths['/api/store/products']?.get?.operationId).toBe('listStoreProducts');
    // its derived name is taken by the curated one: spelled out from the whole path instead
    expect(paths['/api/admin/store/products']?.get?.operationId).toBe('getApiAdminStoreProducts');
    expect(paths['/api/admin/widgets/{id}']?.patch?.operationId).toBe('updateWidget');
  });

  it('passes `redocly lint` with the recommended ruleset without errors', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).data;
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    try {
      const file = join(dir, 'openapi.json');
      writeFileSync(file, JSON.stringify(doc, null, 1));
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['node_modules/@redocly/cli/bin/cli.js', 'lint', '--extends=recommended', '--format=json', file],
        {
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
          maxBuffer: 64 * 1024 * 1024,
        },
      );
      const report = JSON.parse(stdout) as { totals: { errors: number }; problems: { ruleId: string }[] };
      expect(report.problems.filter((p) => p.ruleId !== 'info-license')).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
