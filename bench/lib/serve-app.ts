/**
 * The app under test, in its own process: the real buildApp on a loopback port, started like
 * src/server.ts does (worker included for ROLE=all). The config env comes from the harness as
 * JSON in BENCH_APP_ENV, so nothing else from the harness's environment leaks into it.
 */
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { scheduleMaintenance } from '../../src/platform/jobs/maintenance.js';
import { failChild, runChild } from './ipc.js';

try {
  const env = JSON.parse(process.env.BENCH_APP_ENV ?? '{}') as Record<string, string>;
  const config = loadConfig(env);
  // The harness has migrated the database already.
  const app = await buildApp({ config, skipMigrations: true });
  await app.listen({ host: '127.0.0.1', port: 0 });
  if (config.runWorker) {
    await scheduleMaintenance(app.deps.database.db, app.deps.clock.now());
    app.deps.worker.start();
  }
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening on a TCP port');
  runChild({ port: address.port, close: () => app.close() });
} catch (err) {
  failChild(err);
}
