/**
 * A new PGlite data directory on first start. PostgreSQL's initdb, run in WebAssembly, is the
 * longest step of a first start (about 5 s of CPU); it runs here in a worker thread, so the main
 * thread loads and builds the app meanwhile, and it writes into a sibling directory
 * (`<dir>.initdb`) that is renamed into place only once complete: a crash or kill during the
 * first start leaves no half-initialised `DATA_DIR`, and the next start simply does it again.
 */

import { existsSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';

/** True when `dir` holds no database yet and is absent or empty (the case prepared here). */
export function needsInitdb(dir: string): boolean {
  if (existsSync(join(dir, 'PG_VERSION'))) return false;
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

// CommonJS, so that the worker needs no file of its own under dist/ (nor a TypeScript loader).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { PGlite } = require(workerData.pglite);
PGlite.create({ dataDir: workerData.dir })
  .then((pg) => pg.close())
  .then(() => parentPort.postMessage('done'));
`;

const pending = new Map<string, Promise<void>>();

/**
 * Creates the PostgreSQL cluster of a new data directory `dir` (no-op when it holds one or is
 * not empty). The same promise is returned for the same directory, so the service can start it
 * before loading its modules and the database layer await it later.
 */
export function prepareDataDir(dir: string): Promise<void> {
  const key = resolve(dir);
  let p = pending.get(key);
  if (!p) {
    p = needsInitdb(key) ? initdbInWorker(key) : Promise.resolve();
    pending.set(key, p);
    // a failure is reported where the database is opened; here it must not be unhandled
    p.catch(() => pending.delete(key));
  }
  return p;
}

async function initdbInWorker(dir: string): Promise<void> {
  const staging = `${dir}.initdb`;
  rmSync(staging, { recursive: true, force: true });
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const worker = new Worker(WORKER, { eval: true, workerData: { dir: staging, pglite } });
  try {
    await new Promise<void>((done, fail) => {
      worker.once('message', () => done());
      worker.once('error', fail);
      worker.once('exit', (code) =>
        code === 0 ? done() : fail(new Error(`PGlite initdb worker exited with code ${code}`)),
      );
    });
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  } finally {
    await worker.terminate();
  }
  if (existsSync(dir)) rmdirSync(dir); // empty (needsInitdb); fails rather than replace anything
  renameSync(staging, dir);
}
