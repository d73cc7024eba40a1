/** Starts the service: loads the config, builds the app, listens, and shuts down gracefully. */
import type { App } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { prepareDataDir } from './platform/db/pglite-init.js';
import { listenWhileStarting, type StartingServer } from './platform/http/starting-server.js';

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

// On the embedded database the port answers /health at once and a new data directory's cluster
// is created in a worker thread while the app's modules load (docs/operations.md, First start).
let starting: StartingServer | null = null;
if (!config.databaseUrl) {
  try {
    starting = await listenWhileStarting(config.port, config.host, config.role);
  } catch (err) {
    process.stderr.write(`Cannot listen on ${config.host}:${config.port}: ${(err as Error).message}\n`);
    process.exit(1);
  }
  if (['trace', 'debug', 'info'].includes(config.logLevel)) {
    const msg = `listening on port ${starting.port} while starting: /health answers, other requests wait for the database`;
    process.stdout.write(`${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, msg })}\n`);
  }
  if (config.dataDir !== 'memory') prepareDataDir(config.dataDir).catch(() => {});
}

const [{ buildApp }, { printDemo, seedDemo }, { scheduleMaintenance }, { startMetricsServer }] = await Promise.all([
  import('./app.js'),
  import('./demo.js'),
  import('./platform/jobs/maintenance.js'),
  import('./platform/metrics.js'),
]);
const app: App = await buildApp({ config });

if (config.demo) {
  const creds = await seedDemo(app);
  if (creds) printDemo(creds, config.publicUrl, Boolean(config.platformToken));
}

if (starting) {
  // the port stays the starting server's: held requests, then every request, go to the app
  await app.ready();
  starting.serve(app.routing);
  app.log.info(`Server listening at http://${config.host}:${starting.port}`);
} else {
  await app.listen({ port: config.port, host: config.host });
}
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
    await starting?.close();
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'error during shutdown');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
