/** GET /ready: the readiness probe, which queries the database (SELECT 1 and the migrations table). */
import type { BenchCase } from '../lib/types.js';

export const health: BenchCase = {
  name: 'health',
  description: 'GET /ready (database round trips, no authentication)',
  connections: 20,
  durationSeconds: 10,
  async setup() {
    return { method: 'GET', path: '/ready' };
  },
  targets: { p99Ms: 50, maxRssMb: 256 },
};
