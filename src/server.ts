/** Starts the service: loads the config, builds the app, listens, and shuts down gracefully. */
import { type App, buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { printDemo, seedDemo } from './demo.js';
import { scheduleMaintenance } from './platform/jobs/maintenance.js';
import { startMetricsServer } from './platform/metrics.js';

const started = performance.now();
let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (err) {
  if (err instanceof ConfigError) {
    process.stderr.write(`Configuration error: ${err.message}\n`);
    process.exit(1);
  }
  throw err;
}

const app: App = await buildApp({ config });

if (config.demo) {
  const creds = await seedDemo(app);
  if (creds) printDemo(creds, config.publicUrl, Boolean(config.platformToken));
}

await app.listen({ port: config.port, host: config.host });
const metricsServer = config.metricsPort
  ? await startMetricsServer(app.deps.metrics, config.metricsPort, config.host)
  : null;
if (metricsServer) app.log.info({ port: config.metricsPort }, 'metrics served on their own port');
if (config.runWorker) {
  await scheduleMaintenance(app.deps.database.db, app.deps.clock.now());
  app.deps.worker.start();
}
app.log.info(
  { role: config.role, database: app.deps.database.kind, startup_ms: Math.round(performance.now() - started) },
  'service started',
);

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: draining requests, stopping the worker, closing the database');
  const force = setTimeout(() => {
    app.log.error('shutdown took longer than 30 s; exiting');
    process.exit(1);
  }, 30_000);
  force.unref();
  try {
    metricsServer?.close();
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'error during shutdown');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
