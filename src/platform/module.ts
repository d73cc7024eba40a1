import type { Config } from '../config.js';
import type { Clock } from './clock.js';
import type { Database } from './db/client.js';
import type { TypedApp } from './http/typed-app.js';
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
  routes(app: TypedApp, deps: AppDeps): Promise<void> | void;
  jobs?(registry: JobRegistry, deps: AppDeps): void;
}
