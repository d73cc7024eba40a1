/** GET /metrics: Prometheus text with HTTP, pool, queue, webhook and process metrics; protected. */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { enqueue } from '../../src/platform/jobs/queue.js';
import { startMetricsServer } from '../../src/platform/metrics.js';
import {
  call,
  createShop,
  expectProblem,
  PLATFORM_TOKEN,
  type ShopFixture,
  startApp,
  type TestApp,
} from '../helpers/app.js';

const TOKEN = 'metrics-token-0123456789';
let t: TestApp;
let shop: ShopFixture;
beforeAll(async () => {
  t = await startApp({ METRICS_TOKEN: TOKEN });
  shop = await createShop(t.app);
});
afterAll(() => t.close());

const scrape = () => call(t.app, 'GET', '/metrics', { token: TOKEN });

/** The value of one sample line, e.g. `jobs{type="x",status="queued"}`. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const body = line.slice(name.length + 1, line.lastIndexOf('}'));
    const has = Object.entries(labels).every(([k, v]) => body.includes(`${k}="${v}"`));
    if (has) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /metrics', () => {
  it('refuses a missing or wrong token, and every API credential', async () => {
    expectProblem(await call(t.app, 'GET', '/metrics'), 401, 'unauthenticated');
    expectProblem(await call(t.app, 'GET', '/metrics', { token: 'metrics-token-wrong-000' }), 401, 'unauthenticated');
    expectProblem(await call(t.app, 'GET', '/metrics', { token: PLATFORM_TOKEN }), 401, 'unauthenticated');
    expectProblem(await call(t.app, 'GET', '/metrics', { token: shop.ownerToken }), 401, 'unauthenticated');
    expectProblem(
      await call(t.app, 'GET', '/metrics', { headers: { authorization: `Basic ${TOKEN}` } }),
      401,
      'unauthenticated',
    );
  });

  it('reports requests by route pattern, method and status class with latency buckets', async () => {
    await call(t.app, 'GET', '/health');
    await call(t.app, 'GET', '/api/admin/products/prod_doesnotexist', { token: shop.ownerToken });
    await call(t.app, 'GET', '/api/admin/products', { token: shop.ownerToken });
    await call(t.app, 'GET', '/no/such/route');
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.headers['content-type']).toContain('version=0.0.4');
    const text = res.body;
    expect(text).toContain('# TYPE http_request_duration_seconds histogram');
    const count = (route: string, status: string) =>
      sample(text, 'http_request_duration_seconds_count', { method: 'GET', route, status_class: status });
    expect(count('/health', '2xx')).toBeGreaterThanOrEqual(1);
    // the pattern, not the id: one series for every product
    expect(count('/api/admin/products/:id', '4xx')).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain('prod_doesnotexist');
    expect(count('/api/admin/products', '2xx')).toBeGreaterThanOrEqual(1);
    expect(count('unmatched', '4xx')).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'http_request_duration_seconds_bucket', {
        route: '/health',
        status_class: '2xx',
        le: '+Inf',
      }),
    ).toBeGreaterThanOrEqual(1);
    // process metrics
    expect(text).toContain('process_cpu_seconds_total');
    expect(text).toContain('process_resident_memory_bytes');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('reports the job queue by type and the age of the oldest due job', async () => {
    const db = t.app.deps.database.db;
    const now = t.app.deps.clock.now();
    await enqueue(db, 'metrics.test', {}, { now, runAt: new Date(now.getTime() - 120_000) });
    await enqueue(db, 'metrics.test', {}, { now, runAt: new Date(now.getTime() + 3_600_000) });
    const text = (await scrape()).body;
    expect(sample(text, 'jobs', { type: 'metrics.test', status: 'queued' })).toBe(2);
    const age = sample(text, 'jobs_oldest_due_age_seconds', { type: 'metrics.test' }) as number;
    expect(age).toBeGreaterThanOrEqual(119);
    expect(age).toBeLessThan(600);
  });

  it('reports webhook deliveries by outcome', async () => {
    const before = sample((await scrape()).body, 'webhook_deliveries', { outcome: 'pending' });
    expect(before).toBe(0);
    const put = await call(t.app, 'PUT', '/api/admin/checkout/webhook', {
      token: shop.ownerToken,
      body: { url: 'http://127.0.0.1:9/hook' },
    });
    expect([200, 201]).toContain(put.statusCode);
    const sent = await call(t.app, 'POST', '/api/admin/checkout/webhook/test', { token: shop.ownerToken });
    expect(sent.statusCode).toBeLessThan(300);
    const text = (await scrape()).body;
    const total = ['pending', 'succeeded', 'failed', 'dead']
      .map((outcome) => sample(text, 'webhook_deliveries', { outcome }) ?? Number.NaN)
      .reduce((a, b) => a + b, 0);
    expect(total).toBe(1);
  });

  it('reports the PostgreSQL pool (on PostgreSQL)', async () => {
    const text = (await scrape()).body;
    if (t.app.deps.database.kind !== 'postgres') {
      expect(text).not.toContain('db_pool_connections');
      return;
    }
    expect(sample(text, 'db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'db_pool_connections', { state: 'idle' })).toBeGreaterThanOrEqual(0);
    expect(text).toMatch(/^db_pool_waiting_requests \d+$/m);
  });
});

describe('METRICS_PORT', () => {
  it('serves /metrics only on its own port; the app port does not serve it', async () => {
    const other = await startApp({ METRICS_TOKEN: TOKEN, METRICS_PORT: '9464' });
    try {
      expect((await call(other.app, 'GET', '/metrics', { token: TOKEN })).statusCode).toBe(404);
      const server = await startMetricsServer(other.app.deps.metrics, 0, '127.0.0.1');
      const port = (server.address() as AddressInfo).port;
      const get = (path: string) =>
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
      const ok = await get('/metrics');
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('# TYPE jobs gauge');
      expect((await get('/api/admin/products')).status).toBe(404);
      server.close();
    } finally {
      await other.close();
    }
  }, 120_000);

  it('is configured with checked values', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({}).metricsPort).toBeNull();
    expect(loadConfig({ METRICS_PORT: '9464' }).metricsPort).toBe(9464);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be at least 16/);
    expect(() => loadConfig({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT must be an integer/);
    expect(() => loadConfig({ METRICS_PORT: '3000' })).toThrow(/METRICS_PORT must differ from PORT/);
  });

  it('is not served at all without METRICS_TOKEN or METRICS_PORT', async () => {
    const plain = await startApp();
    try {
      expect((await call(plain.app, 'GET', '/metrics')).statusCode).toBe(404);
    } finally {
      await plain.close();
    }
  }, 120_000);
});
