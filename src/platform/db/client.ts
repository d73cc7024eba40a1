/**
 * Opens the database: PGlite (embedded, `DATA_DIR` or in memory) when no URL is given, else a
 * `pg` pool. Both are wrapped by Drizzle and return the same JS types: int8 and numeric come
 * back as numbers on both drivers (money is integer cents and stays far below 2^53).
 */

import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { prepareDataDir } from './pglite-init.js';
import * as schema from './schema.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** The underlying client, for tests and tooling. */
  raw: PGlite | pg.Pool;
}

const INT8 = 20;
const NUMERIC = 1700;

const toNumber = (v: string) => Number(v);

export interface OpenOptions {
  url: string | null;
  /** A directory for PGlite's files, or `memory`. */
  dataDir: string;
  /** Pool size for PostgreSQL. */
  poolSize?: number;
  /** Preloaded PGlite data directory (tests start from a migrated snapshot). */
  loadDataDir?: Blob;
  /**
   * Called with the text and parameters of every statement sent through Drizzle (every query of
   * the service goes through it: the query builder, `db.execute`, platform/db/prepared.ts), for
   * tools and tests: the statement check (test/foundation/shop-routing.test.ts) reads them.
   */
  onStatement?: (text: string, params: unknown[]) => void;
}

/** Drizzle's logger for `onStatement`, or none. */
const loggerOf = (onStatement: OpenOptions['onStatement']) =>
  onStatement ? { logger: { logQuery: (text: string, params: unknown[]) => onStatement(text, params) } } : {};

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.url) {
    // Drizzle's raw queries fall back to pg's global parsers, so set them there too.
    pg.types.setTypeParser(INT8, toNumber);
    pg.types.setTypeParser(NUMERIC, toNumber);
    const pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      idleTimeoutMillis: 30_000,
      // Every session in UTC, so raw timestamps read the same on both drivers.
      options: '-c TimeZone=UTC',
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8 || oid === NUMERIC
            ? toNumber
            : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client that loses its connection must not crash the process.
    pool.on('error', () => {});
    const db = drizzlePg(pool, { schema, ...loggerOf(opts.onStatement) }) as unknown as Db;
    return { db, kind: 'postgres', raw: pool, close: () => pool.end() };
  }
  const dir = opts.dataDir === 'memory' ? undefined : opts.dataDir;
  // a new directory gets its cluster from a worker thread, renamed into place when complete
  if (dir && !opts.loadDataDir) await prepareDataDir(dir);
  if (dir) mkdirSync(dir, { recursive: true });
  // PGlite is loaded only when it is used: a PostgreSQL deployment never pays for it
  // the extensions the migrations create: pg_trgm and unaccent (0002), btree_gin (0020)
  const [{ PGlite }, { pg_trgm }, { unaccent }, { btree_gin }, { drizzle: drizzlePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/unaccent'),
    import('@electric-sql/pglite/contrib/btree_gin'),
    import('drizzle-orm/pglite'),
  ]);
  const client = await PGlite.create({
    ...(dir ? { dataDir: dir } : {}),
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
    extensions: { pg_trgm, unaccent, btree_gin },
    parsers: { [INT8]: toNumber, [NUMERIC]: toNumber },
  });
  await client.exec(`SET TIME ZONE 'UTC'`);
  const db = drizzlePglite(client, { schema, ...loggerOf(opts.onStatement) }) as unknown as Db;
  return { db, kind: 'pglite', raw: client, close: () => client.close() };
}
