/**
 * Prepares one migrated database that every test file copies: on PostgreSQL the database of
 * TEST_DATABASE_URL becomes a template; on PGlite a migrated data directory is dumped to a file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
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
    project.provide('citusNodes', await freezeCitusTemplate(url));
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

/**
 * On a Citus cluster the template is a database of the same name on the coordinator and on every
 * worker (the shards live on the workers). Returns the nodes' ports, coordinator first, and closes
 * the template to connections on each node so `CREATE DATABASE … TEMPLATE` can copy it (Citus's
 * maintenance daemon would otherwise hold a connection). [] on plain PostgreSQL.
 */
async function freezeCitusTemplate(url: string): Promise<string[]> {
  const name = new URL(url).pathname.slice(1);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const citus = await client.query(`SELECT 1 FROM pg_extension WHERE extname = 'citus'`);
  const nodes =
    citus.rowCount === 0
      ? []
      : (
          await client.query<{ node: string }>(
            `SELECT nodename || ':' || nodeport AS node FROM pg_dist_node WHERE isactive ORDER BY groupid`,
          )
        ).rows.map((r) => r.node);
  await client.end();
  for (const node of nodes) {
    const u = new URL(url);
    [u.hostname, u.port] = node.split(':') as [string, string];
    u.pathname = '/postgres';
    const admin = new pg.Client({ connectionString: u.toString() });
    await admin.connect();
    await admin.query(`ALTER DATABASE "${name}" WITH ALLOW_CONNECTIONS false`);
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [name]);
    await admin.end();
  }
  return nodes;
}

declare module 'vitest' {
  export interface ProvidedContext {
    citusNodes: string[];
    pgTemplateUrl: string;
    pgliteDump: string;
  }
}
