/**
 * The schema distributes on Citus as it is (issue 28; docs/decisions.md, "Keys for Citus"), checked
 * on the migrated test database (PGlite or PostgreSQL) by reading pg_catalog:
 * - every primary key and unique index of a shop-owned table (one with a shop_id column that is
 *   neither coordinator-local nor a reference table) includes shop_id;
 * - every foreign key of a shop-owned table pairs its shop_id with the shop column of the table it
 *   references (shop_id, or shops.id), or references a reference table; a local or reference table
 *   references no distributed table;
 * - no foreign key has an ON DELETE / ON UPDATE SET NULL or SET DEFAULT action;
 * - every public table is named in exactly one list of db/citus/distribute.sql (reference,
 *   distributed, local), the lists name no table that is missing, the local and reference lists
 *   are the ones below (each with its reason), and the distributed list names a referenced table
 *   before the tables that reference it (the order the script distributes them in).
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/platform/db/client.js';
import { distributionScript } from '../../src/platform/db/migrate.js';
import { query } from '../../src/platform/db/tx.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';
import { type DistributionLists, distributionLists } from '../helpers/distribution.js';

/** Coordinator-local tables: never distributed, so their keys need no shop_id. */
const LOCAL_TABLES: Record<string, string> = {
  jobs: 'the job queue: platform jobs have no shop, and workers claim across shops with SKIP LOCKED',
  payment_events: 'provider events are deduplicated by (provider, event_id) before (or without) a shop is known',
  rate_limits: 'counters keyed by a bucket (an IP, a credential), not by a shop',
};

/** Reference tables: replicated to every node; global by design (a shop_id column, if any, is data). */
const REFERENCE_TABLES: Record<string, string> = {
  countries: 'the shared ISO country list every shop reads',
  platform_secrets: 'secrets of the platform itself, no shop',
  clock_state: 'the one simulated clock of the service',
  credential_directory: 'credential hashes → shop: a session, token, key or link is found before its shop is known',
  domain_directory: 'a domain is unique across all shops (spec §2.6) and names the shop of a request',
  employee_email_directory: 'an employee e-mail is unique across shops; sign-in finds the shop by it',
  provider_ref_directory: "a payment provider's reference is unique and names the shop of its webhook",
};

interface Table {
  name: string;
  has_shop: boolean;
}
interface Key {
  table: string;
  name: string;
  primary: boolean;
  columns: (string | null)[];
}
interface ForeignKey {
  table: string;
  name: string;
  references: string;
  on_delete: string;
  on_update: string;
  columns: string[];
  ref_columns: string[];
}

const TABLES = sql`SELECT c.relname::text AS name,
    EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'shop_id' AND NOT a.attisdropped) AS has_shop
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
  ORDER BY 1`;

// key columns in order; an expression is null
const KEYS = sql`SELECT c.relname::text AS "table", ic.relname::text AS name, i.indisprimary AS "primary",
    ARRAY(SELECT a.attname::text FROM unnest(i.indkey) WITH ORDINALITY k(n, o)
          LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = k.n ORDER BY k.o) AS columns
  FROM pg_index i
  JOIN pg_class c ON c.oid = i.indrelid
  JOIN pg_class ic ON ic.oid = i.indexrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND i.indisunique
  ORDER BY 1, 2`;

const FOREIGN_KEYS = sql`SELECT c.relname::text AS "table", co.conname::text AS name, f.relname::text AS "references",
    co.confdeltype::text AS on_delete, co.confupdtype::text AS on_update,
    ARRAY(SELECT a.attname::text FROM unnest(co.conkey) WITH ORDINALITY k(n, o)
          JOIN pg_attribute a ON a.attrelid = co.conrelid AND a.attnum = k.n ORDER BY k.o) AS columns,
    ARRAY(SELECT a.attname::text FROM unnest(co.confkey) WITH ORDINALITY k(n, o)
          JOIN pg_attribute a ON a.attrelid = co.confrelid AND a.attnum = k.n ORDER BY k.o) AS ref_columns
  FROM pg_constraint co
  JOIN pg_class c ON c.oid = co.conrelid
  JOIN pg_class f ON f.oid = co.confrelid
  JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND co.contype = 'f'
  ORDER BY 1, 2`;

const ACTION: Record<string, string> = { n: 'SET NULL', d: 'SET DEFAULT' };

/** Every way the database's schema would not distribute as the script says; empty when it does. */
async function schemaViolations(db: Db, lists: DistributionLists): Promise<string[]> {
  const [tables, keys, fks] = await Promise.all([
    query<Table>(db, TABLES),
    query<Key>(db, KEYS),
    query<ForeignKey>(db, FOREIGN_KEYS),
  ]);
  const out: string[] = [];
  const local = new Set(lists.local);
  const reference = new Set(lists.reference);
  const distributed = new Set(lists.distributed);
  const hasShop = new Map(tables.map((t) => [t.name, t.has_shop]));
  /** The column a distributed table is sharded on. */
  const shardColumn = (table: string) => (table === 'shops' ? 'id' : 'shop_id');
  const shopOwned = (table: string) => hasShop.get(table) === true && !local.has(table) && !reference.has(table);

  // the script names every table once, and only tables that exist
  const named = [...lists.reference, ...lists.distributed, ...lists.local];
  for (const t of tables) {
    const n = named.filter((x) => x === t.name).length;
    if (n === 0) out.push(`${t.name}: not named in db/citus/distribute.sql`);
    if (n > 1) out.push(`${t.name}: named ${n} times in db/citus/distribute.sql`);
    if (distributed.has(t.name) && t.name !== 'shops' && !t.has_shop)
      out.push(`${t.name}: distributed on shop_id but has no shop_id column`);
    if (shopOwned(t.name) && !distributed.has(t.name) && n > 0)
      out.push(`${t.name}: has shop_id but is not in the distributed list`);
  }
  for (const name of new Set(named)) {
    if (!hasShop.has(name)) out.push(`${name}: named in db/citus/distribute.sql but no such table`);
  }

  for (const k of keys) {
    if (!shopOwned(k.table) || k.columns.includes('shop_id')) continue;
    const what = k.primary ? 'primary key' : 'unique index';
    out.push(`${k.table}: ${what} ${k.name} (${k.columns.map((c) => c ?? 'expr').join(', ')}) lacks shop_id`);
  }

  const position = new Map(lists.distributed.map((t, i) => [t, i]));
  for (const fk of fks) {
    const action = ACTION[fk.on_delete] ?? ACTION[fk.on_update];
    if (action)
      out.push(`${fk.table}: foreign key ${fk.name} has ON ${ACTION[fk.on_delete] ? 'DELETE' : 'UPDATE'} ${action}`);
    const from = distributed.has(fk.table) || shopOwned(fk.table);
    const to = distributed.has(fk.references) || shopOwned(fk.references);
    if (reference.has(fk.references)) continue;
    if (!from) {
      out.push(
        `${fk.table}: foreign key ${fk.name} of a ${local.has(fk.table) ? 'local' : 'reference'} table references ${fk.references}`,
      );
      continue;
    }
    if (!to) {
      out.push(`${fk.table}: foreign key ${fk.name} references ${fk.references}, which is not distributed`);
      continue;
    }
    const i = fk.columns.indexOf(shardColumn(fk.table));
    if (i < 0 || fk.ref_columns[i] !== shardColumn(fk.references)) {
      out.push(
        `${fk.table}: foreign key ${fk.name} (${fk.columns.join(', ')}) → ${fk.references} (${fk.ref_columns.join(', ')}) does not pair shop_id`,
      );
    }
    const a = position.get(fk.table);
    const b = position.get(fk.references);
    if (a !== undefined && b !== undefined && b > a)
      out.push(`${fk.table}: distributed before ${fk.references}, which its foreign key ${fk.name} references`);
  }
  return out;
}

let t: TestDatabase;
let lists: DistributionLists;

beforeAll(async () => {
  t = await freshDatabase();
  lists = distributionLists(readFileSync(distributionScript(), 'utf8'));
});
afterAll(async () => {
  await t.drop();
});

describe('the schema distributes on Citus as it is', () => {
  it('has every key of a shop-owned table with shop_id, no SET NULL, every table named in distribute.sql', async () => {
    expect(await schemaViolations(t.database.db, lists)).toEqual([]);
  });

  it('keeps the local and reference lists of distribute.sql the ones this test gives reasons for', () => {
    expect([...lists.local].sort()).toEqual(Object.keys(LOCAL_TABLES).sort());
    expect([...lists.reference].sort()).toEqual(Object.keys(REFERENCE_TABLES).sort());
    expect(lists.distributed[0]).toBe('shops');
  });

  it('finds each kind of violation (a temporary violating schema)', async () => {
    const db = t.database.db;
    const probe = [
      sql`CREATE TABLE citus_probe_parent (id text PRIMARY KEY, shop_id text NOT NULL REFERENCES shops (id), token text)`,
      sql`CREATE UNIQUE INDEX citus_probe_token_uq ON citus_probe_parent (lower(token))`,
      sql`CREATE UNIQUE INDEX citus_probe_shop_token_uq ON citus_probe_parent (shop_id, token)`,
      sql`CREATE TABLE citus_probe_child (shop_id text NOT NULL, id text NOT NULL, parent_id text, other_id text,
            PRIMARY KEY (shop_id, id),
            CONSTRAINT citus_probe_child_parent_fk FOREIGN KEY (parent_id) REFERENCES citus_probe_parent (id),
            CONSTRAINT citus_probe_child_self_fk FOREIGN KEY (shop_id, other_id) REFERENCES citus_probe_child (shop_id, id) ON DELETE SET NULL,
            CONSTRAINT citus_probe_child_swapped_fk FOREIGN KEY (other_id, shop_id) REFERENCES citus_probe_child (shop_id, id))`,
      sql`ALTER TABLE rate_limits ADD COLUMN probe_shop text REFERENCES shops (id)`,
    ];
    const probeLists: DistributionLists = {
      ...lists,
      // the parent is listed after the child that references it; a name with no table
      distributed: [...lists.distributed, 'citus_probe_child', 'citus_probe_parent', 'citus_probe_gone'],
    };
    try {
      for (const stmt of probe) await db.execute(stmt);
      expect((await schemaViolations(db, probeLists)).sort()).toEqual(
        [
          'citus_probe_parent: primary key citus_probe_parent_pkey (id) lacks shop_id',
          'citus_probe_parent: unique index citus_probe_token_uq (expr) lacks shop_id',
          'citus_probe_child: foreign key citus_probe_child_parent_fk (parent_id) → citus_probe_parent (id) does not pair shop_id',
          'citus_probe_child: distributed before citus_probe_parent, which its foreign key citus_probe_child_parent_fk references',
          'citus_probe_child: foreign key citus_probe_child_self_fk has ON DELETE SET NULL',
          'citus_probe_child: foreign key citus_probe_child_swapped_fk (other_id, shop_id) → citus_probe_child (shop_id, id) does not pair shop_id',
          'citus_probe_gone: named in db/citus/distribute.sql but no such table',
          'rate_limits: foreign key rate_limits_probe_shop_fkey of a local table references shops',
        ].sort(),
      );
      // a table the script does not name
      expect(await schemaViolations(db, lists)).toEqual(
        expect.arrayContaining([
          'citus_probe_parent: not named in db/citus/distribute.sql',
          'citus_probe_child: not named in db/citus/distribute.sql',
        ]),
      );
    } finally {
      await db.execute(sql`ALTER TABLE rate_limits DROP COLUMN IF EXISTS probe_shop`);
      await db.execute(sql`DROP TABLE IF EXISTS citus_probe_child, citus_probe_parent`);
    }
    expect(await schemaViolations(db, lists)).toEqual([]);
  });
});
