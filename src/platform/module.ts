/**
 * The contract between `app.ts` and the modules: what a module is given (`AppDeps`) and what it
 * hands back (`Module`). It lives here, not in app.ts, so that no module imports the file that
 * imports every module (docs/ARCHITECTURE.md, "Module boundaries").
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Clock } from './clock.js';
import type { Database } from './db/client.js';
import type { JobRegistry, Worker } from './jobs/worker.js';
import type { Metrics } from './metrics.js';

export interface AppDeps {
  config: Config;
  database: Database;
  clock: Clock;
  jobs: JobRegistry;
  worker: Worker;
  /** Prometheus metrics of this process (platform/metrics.ts). */
  metrics: Metrics;
}

/** A module: its routes and jobs. `group` decides which ROLE serves it. */
export interface Module {
  name: string;
  group: 'shop' | 'checkout' | 'always';
  routes(app: FastifyInstance, deps: AppDeps): Promise<void> | void;
  jobs?(registry: JobRegistry, deps: AppDeps): void;
}
