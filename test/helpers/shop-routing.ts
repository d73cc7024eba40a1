/**
 * The statement check's reading of SQL (test/foundation/shop-routing.test.ts): which shop-owned
 * tables a statement touches, and which of them it names no shop for. On Citus, sharded by shop,
 * a statement runs on one shard (a router query) only when every shop-owned table in it is
 * constrained to one shop: `shop_id = <value>`, or `shop_id` equal to another such table's
 * `shop_id` (a join on the distribution column). docs/ARCHITECTURE.md "Routing by shop".
 *
 * A reading of the text, not a parser: the app's statements are Drizzle's (quoted identifiers,
 * columns qualified by table) and hand-written raw SQL (short aliases). It errs towards flagging:
 * a statement it cannot place is reported, and an allowlist entry says why it may stay.
 */
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import * as schema from '../../src/platform/db/schema.js';
import { committedDistributionLists } from './distribution.js';

/** Tables with a shop_id column that stay on the coordinator (docs/decisions.md): never sharded. */
export const LOCAL_TABLES = new Set(['jobs', 'payment_events', 'rate_limits']);

/** Every table of the catalogue with a `shop_id` column, less the coordinator-local ones and the reference tables (directories). */
export function shopOwnedTables(): Set<string> {
  const reference = new Set(committedDistributionLists().reference);
  const names = new Set<string>();
  for (const value of Object.values(schema)) {
    if (!value || typeof value !== 'object' || !(Symbol.for('drizzle:IsDrizzleTable') in value)) continue;
    const config = getTableConfig(value as PgTable);
    if (
      config.columns.some((c) => c.name === 'shop_id') &&
      !LOCAL_TABLES.has(config.name) &&
      !reference.has(config.name)
    )
      names.add(config.name);
  }
  return names;
}

/** The statement as the check reads it: string literals emptied, identifiers unquoted, lower case, one space. */
export function normalize(text: string): string {
  return text
    .replace(/'(?:[^']|'')*'/g, "''")
    .replace(/"([a-z_][a-z0-9_]*)"/gi, '$1')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** Words that can follow a table name where an alias could stand, so are not aliases. */
const NOT_ALIAS = new Set([
  'where',
  'on',
  'set',
  'left',
  'right',
  'inner',
  'outer',
  'full',
  'cross',
  'join',
  'natural',
  'group',
  'order',
  'limit',
  'offset',
  'for',
  'values',
  'returning',
  'union',
  'select',
  'using',
  'as',
  'default',
  'overriding',
  'having',
  'window',
  'except',
  'intersect',
  'fetch',
  'tablesample',
  'only',
  'lateral',
  'do',
]);

export interface TableRef {
  table: string;
  alias: string;
  kind: 'insert' | 'other';
}

/** The shop-owned tables a (normalized) statement reads or writes, with the alias each goes by. */
export function tableRefs(sql: string, owned: Set<string>): TableRef[] {
  const refs: TableRef[] = [];
  // the alias is looked at, not consumed: the next match starts right after the table's name
  const re =
    /\b(from|join|update|into|using|,)\s+(?:only\s+)?([a-z_][a-z0-9_]*)(?=(?:\s+(?:as\s+)?([a-z_][a-z0-9_]*))?)/g;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    const [, keyword, table = '', next] = m;
    if (!owned.has(table)) continue;
    // `, name` is a table only inside a FROM list; elsewhere (a select list, VALUES) a column
    if (keyword === ',' && !/\bfrom\b[^()]*$/.test(sql.slice(0, m.index))) continue;
    // a column that happens to carry a table's name: `… from products.x` does not occur; `extract(x from col)` might
    const after = sql[m.index + m[0].length];
    if ((after === '.' || after === '(') && keyword !== 'into') continue;
    const alias = next && !NOT_ALIAS.has(next) ? next : table;
    refs.push({ table, alias, kind: keyword === 'into' ? 'insert' : 'other' });
  }
  return refs;
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whether the statement constrains the reference's `shop_id` by equality (a value, or another table's shop_id). */
function routed(sql: string, ref: TableRef): boolean {
  if (ref.kind === 'insert') {
    // INSERT INTO t (…, shop_id, …): the row names its shop (and so its shard)
    const columns = new RegExp(`\\binto ${escapeRegExp(ref.table)}(?: (?:as )?[a-z_][a-z0-9_]*)? ?\\(([^)]*)\\)`).exec(
      sql,
    );
    return !!columns?.[1]?.split(',').some((c) => c.trim() === 'shop_id');
  }
  const a = escapeRegExp(ref.alias);
  // a.shop_id = <value or column> (not = ANY(…): that names several shops), or <column> = a.shop_id
  if (new RegExp(`(?<![\\w.])${a}\\.shop_id ?=(?! ?any\\b)(?! ?all\\b)|= ?${a}\\.shop_id\\b`).test(sql)) return true;
  // a row-value form: (a.shop_id, a.id) = (…)
  if (new RegExp(`\\((?:${a}\\.)?shop_id, [^)]*\\) ?=(?! ?any\\b)`).test(sql)) return true;
  // an unqualified shop_id = … counts for a table that goes by its own name
  return ref.alias === ref.table && /(?<![\w.])shop_id ?=(?! ?any\b)(?! ?all\b)/.test(sql);
}

export interface Violation {
  table: string;
  sql: string;
}

/** The shop-owned tables of a statement without a shop_id condition on them (none: the statement routes by shop). */
export function unroutedTables(text: string, owned: Set<string>): Violation[] {
  const sql = normalize(text);
  const refs = tableRefs(sql, owned);
  const out: Violation[] = [];
  for (const ref of refs) if (!routed(sql, ref)) out.push({ table: ref.table, sql });
  return out;
}

/** A statement that may stay unrouted: the table, a piece of its normalized text that identifies it, and why. */
export interface AllowEntry {
  table: string;
  contains: string;
  reason: string;
}

export function allowedBy(v: Violation, list: readonly AllowEntry[]): AllowEntry | undefined {
  return list.find((e) => e.table === v.table && v.sql.includes(e.contains));
}
