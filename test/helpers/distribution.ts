/** The three table lists of db/citus/distribute.sql, read by the schema test and the statement check. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface DistributionLists {
  reference: string[];
  distributed: string[];
  local: string[];
}

/** Parses `<kind>_tables text[] := ARRAY[...]` of the script's text (comments ignored). */
export function distributionLists(text: string): DistributionLists {
  const list = (kind: string) => {
    const m = new RegExp(`${kind}_tables text\\[\\] := ARRAY\\[([\\s\\S]*?)\\];`).exec(text);
    if (!m?.[1]) throw new Error(`db/citus/distribute.sql has no ${kind}_tables list`);
    const body = m[1].replace(/--[^\n]*/g, '');
    return [...body.matchAll(/'([a-z0-9_]+)'/g)].map((x) => x[1] as string);
  };
  return { reference: list('reference'), distributed: list('distributed'), local: list('local') };
}

/** The lists of the committed script. */
export function committedDistributionLists(): DistributionLists {
  return distributionLists(readFileSync(join(import.meta.dirname, '../../db/citus/distribute.sql'), 'utf8'));
}
