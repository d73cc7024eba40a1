/**
 * Prometheus metrics (prom-client): HTTP requests by route pattern, method and status class with
 * latency histograms, the PostgreSQL pool, the job queue and webhook deliveries (read from the
 * database at scrape time, so every process reports the same queue), and process metrics.
 * Served at GET /metrics with METRICS_TOKEN as Bearer, or on METRICS_PORT only (docs/operations.md).
 */
import { createServer, type Server } from 'node:http';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { publicRoute } from './auth/presets.js';
import type { Clock } from './clock.js';
import { safeEqual } from './crypto.js';
import type { Database } from './db/client.js';
import { query } from './db/tx.js';
import { AppError } from './errors.js';

export interface Metrics {
  registry: Registry;
  /** The exposition text (Prometheus text format 0.0.4). */
  render(): Promise<string>;
}

const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;

/** The metrics of one app (a registry of its own, so several apps can live in one process). */
export function createMetrics(app: FastifyInstance, database: Database, clock: Clock): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status class: latency in seconds (_count = requests)',
    labelNames: ['method', 'route', 'status_class'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // the route pattern, never the raw URL: ids in paths must not multiply the series
    const route = request.routeOptions.url ?? 'unmatched';
    http.observe(
      { method: request.method, route, status_class: statusClass(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  if (database.kind === 'postgres') {
    const pool = database.raw as pg.Pool;
    new Gauge({
      name: 'db_pool_connections',
      help: "Connections of this process's PostgreSQL pool by state (total, idle)",
      labelNames: ['state'],
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_requests',
      help: 'Queries waiting for a free connection of the pool',
      registers: [registry],
      collect() {
        this.set(pool.waitingCount);
      },
    });
  }

  const jobs = new Gauge({
    name: 'jobs',
    help: 'Jobs in the queue by type and status (queued, running, dead)',
    labelNames: ['type', 'status'],
    registers: [registry],
  });
  const oldestDue = new Gauge({
    name: 'jobs_oldest_due_age_seconds',
    help: 'Age of the oldest queued job that is due (business time), by type; 0 when none is due',
    labelNames: ['type'],
    registers: [registry],
  });
  const deliveries = new Gauge({
    name: 'webhook_deliveries',
    help: 'Webhook deliveries kept (WEBHOOK_RETENTION_DAYS) by outcome: pending, succeeded, failed (retry scheduled), dead',
    labelNames: ['outcome'],
    registers: [registry],
  });

  /** The queue and the deliveries as the database has them now, in one round trip each. */
  async function readDatabase(): Promise<void> {
    const now = clock.now().toISOString();
    const [queue, due, sent] = await Promise.all([
      query<{ type: string; status: string; n: number }>(
        database.db,
        sql`SELECT type, status, count(*)::int AS n FROM jobs WHERE status IN ('queued', 'running', 'dead') GROUP BY 1, 2`,
      ),
      query<{ type: string; age: number }>(
        database.db,
        sql`SELECT type, extract(epoch FROM (${now}::timestamptz - min(run_at)))::float8 AS age
              FROM jobs WHERE status = 'queued' AND run_at <= ${now}::timestamptz GROUP BY type`,
      ),
      query<{ outcome: string; n: number }>(
        database.db,
        sql`SELECT status AS outcome, count(*)::int AS n FROM webhook_deliveries GROUP BY 1`,
      ),
    ]);
    jobs.reset();
    oldestDue.reset();
    deliveries.reset();
    for (const outcome of ['pending', 'succeeded', 'failed', 'dead']) deliveries.set({ outcome }, 0);
    for (const r of queue) jobs.set({ type: r.type, status: r.status }, r.n);
    for (const r of queue) if (r.status === 'queued') oldestDue.set({ type: r.type }, 0);
    for (const r of due) oldestDue.set({ type: r.type }, Math.max(0, r.age));
    for (const r of sent) deliveries.set({ outcome: r.outcome }, r.n);
  }

  return {
    registry,
    async render() {
      await readDatabase();
      return registry.metrics();
    },
  };
}

/** GET /metrics on the app's port, for a caller presenting METRICS_TOKEN as Bearer. */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string): void {
  app.get(
    '/metrics',
    {
      // Not an API credential: the scraper's token is checked here, before anything else runs.
      config: publicRoute,
      schema: { hide: true },
      onRequest: async (request) => {
        const header = request.headers.authorization ?? '';
        const given = header.startsWith('Bearer ') ? header.slice(7) : '';
        if (!given || !safeEqual(given, token)) {
          throw new AppError('unauthenticated', 'GET /metrics needs METRICS_TOKEN as Bearer token');
        }
      },
    },
    async (_request, reply) => {
      reply.header('content-type', metrics.registry.contentType);
      reply.header('cache-control', 'no-store');
      return metrics.render();
    },
  );
}

/** A listener that serves only GET /metrics (METRICS_PORT): keep that port off the public network. */
export async function startMetricsServer(metrics: Metrics, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    metrics.render().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => res.writeHead(503, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
