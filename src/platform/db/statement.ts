/**
 * Statements written as text with numbered parameters, for the hottest writes (the checkout's
 * reserving statement): building a wide statement through the query builder costs more CPU than
 * PostgreSQL spends running it (docs/performance.md). The text depends only on the statement's
 * shape (which columns, how many rows), so it is prepared once per shape and connection; every
 * value goes as a parameter, encoded by its column as the query builder would.
 */
import { type Column, getTableColumns, getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';

/** The parameters of a statement being written: `add` returns the value's placeholder (`$n`). */
export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

const columnsByTable = new WeakMap<PgTable, Record<string, Column>>();

function columnsOf(table: PgTable): Record<string, Column> {
  let columns = columnsByTable.get(table);
  if (!columns) {
    columns = getTableColumns(table) as Record<string, Column>;
    columnsByTable.set(table, columns);
  }
  return columns;
}

/** A quoted SQL identifier. */
export const ident = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * `INSERT INTO <table> (<columns>) VALUES (<params>)` for the row `values` (keyed by the table's
 * property names, as the query builder takes them). An undefined value leaves its column to the
 * default, as the query builder does; each other value is encoded by its column.
 */
export function insertInto<T extends PgTable>(table: T, values: Partial<T['$inferInsert']>, params: Params): string {
  const columns = columnsOf(table);
  const names: string[] = [];
  const slots: string[] = [];
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const column = columns[key];
    if (!column) throw new Error(`insertInto: ${getTableName(table)} has no column ${key}`);
    names.push(ident(column.name));
    slots.push(params.add(value === null ? null : column.mapToDriverValue(value)));
  }
  return `INSERT INTO ${ident(getTableName(table))} (${names.join(', ')}) VALUES (${slots.join(', ')})`;
}
