/** A fresh, migrated database for one test file: a copy of the template (PostgreSQL) or of the dump (PGlite). */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, type OpenOptions, openDatabase } from '../../src/platform/db/client.js';

export interface TestDatabase {
  database: Database;
  url: string | null;
  drop(): Promise<void>;
}

function adminUrl(url: string, dbName: string): string {
  const u = new URL(url);
  u.pathname = `/${dbName}`;
  return u.toString();
}

/** The `postgres` database of one Citus node (`host:port`), with the template URL's credentials. */
function nodeUrl(template: string, node: string): string {
  const u = new URL(adminUrl(template, 'postgres'));
  [u.hostname, u.port] = node.split(':') as [string, string];
  return u.toString();
}

async function createFromTemplate(adminDb: string, name: string, templateName: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminDb });
  await admin.connect();
  // CREATE DATABASE … TEMPLATE fails while another session touches the template; retry briefly.
  for (let attempt = 0; ; attempt++) {
    try {
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE "${templateName}"`);
      break;
    } catch (err) {
      if (attempt > 50) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  await admin.end();
}

/** Creates a new database (never shared with another file) and opens it. */
export async function freshDatabase(opts: { onStatement?: OpenOptions['onStatement'] } = {}): Promise<TestDatabase> {
  const template = process.env.TEST_DATABASE_URL ? inject('pgTemplateUrl') : null;
  if (template) {
    const templateName = new URL(template).pathname.slice(1);
    const name = `${templateName}_f${randomBytes(5).toString('hex')}`;
    // On Citus the template exists on every node (inject('citusNodes')); copy it on each, workers first.
    const nodes = [...inject('citusNodes')].reverse();
    const admins = nodes.length ? nodes.map((node) => nodeUrl(template, node)) : [adminUrl(template, 'postgres')];
    for (const adminDb of admins) await createFromTemplate(adminDb, name, templateName);
    const url = adminUrl(template, name);
    const database = await openDatabase({ url, dataDir: 'memory', poolSize: 10, onStatement: opts.onStatement });
    return {
      database,
      url,
      async drop() {
        await database.close();
        for (const adminDb of admins) {
          const c = new pg.Client({ connectionString: adminDb });
          await c.connect();
          // FORCE ends the sessions there are; on Citus a node's maintenance daemon (or the
          // coordinator's pooled connection to it) can connect again in between: retry briefly
          for (let attempt = 0; ; attempt++) {
            try {
              await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
              break;
            } catch (err) {
              if (attempt > 30 || (err as { code?: string }).code !== '55006') throw err;
              await new Promise((r) => setTimeout(r, 200));
            }
          }
          await c.end();
        }
      },
    };
  }
  const dump = readFileSync(inject('pgliteDump'));
  const database = await openDatabase({
    url: null,
    dataDir: 'memory',
    loadDataDir: new Blob([dump]),
    onStatement: opts.onStatement,
  });
  return { database, url: null, drop: () => database.close() };
}
