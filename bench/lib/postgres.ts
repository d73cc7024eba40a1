/** Creates and drops the benchmark database through the server's `postgres` maintenance database. */
import pg from 'pg';

export interface BenchDatabaseUrl {
  url: string;
  name: string;
  adminUrl: string;
}

export function parseDatabaseUrl(url: string): BenchDatabaseUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`BENCH_DATABASE_URL is not a URL: ${url}`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new Error(`BENCH_DATABASE_URL must be a postgres:// URL (got ${parsed.protocol})`);
  }
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  // The name goes into DROP/CREATE DATABASE: keep it to plain identifiers.
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    throw new Error(`BENCH_DATABASE_URL must name a database made of letters, digits and _ (got "${name}")`);
  }
  if (name === 'postgres' || name.startsWith('template')) {
    throw new Error(`refusing to use "${name}" as the benchmark database: it is dropped at the end`);
  }
  const admin = new URL(parsed.toString());
  admin.pathname = '/postgres';
  return { url, name, adminUrl: admin.toString() };
}

async function onAdmin<T>(target: BenchDatabaseUrl, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: target.adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function recreateDatabase(target: BenchDatabaseUrl): Promise<string> {
  return onAdmin(target, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${target.name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${target.name}"`);
    const res = await client.query<{ server_version: string }>('SHOW server_version');
    return res.rows[0]?.server_version ?? 'unknown';
  });
}

export async function dropDatabase(target: BenchDatabaseUrl): Promise<void> {
  await onAdmin(target, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS "${target.name}" WITH (FORCE)`);
  });
}
