/**
 * Prepares one migrated database that every test file copies: on PostgreSQL the database of
 * TEST_DATABASE_URL becomes a template; on PGlite a migrated data directory is dumped to a file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/platform/db/client.js';
import { migrate } from '../../src/platform/db/migrate.js';

export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const database = await openDatabase({ url, dataDir: 'memory', poolSize: 1 });
    await migrate(database.db);
    await database.close();
    project.provide('pgTemplateUrl', url);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'commerce-test-'));
  const database = await openDatabase({ url: null, dataDir: 'memory' });
  await migrate(database.db);
  const dump = await (database.raw as import('@electric-sql/pglite').PGlite).dumpDataDir('none');
  await database.close();
  const file = join(dir, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteDump', file);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgTemplateUrl: string;
    pgliteDump: string;
  }
}
