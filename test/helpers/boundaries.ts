/**
 * The module boundaries of `src/` (docs/ARCHITECTURE.md, "Module boundaries"), checked from the
 * import statements alone: `ts.preProcessFile` lists every static import, re-export, type-only
 * import and dynamic import of a file without type-checking, so the whole tree takes well under a
 * second. test/foundation/boundaries.test.ts runs it in `npm test`;
 * `npx tsx test/helpers/boundaries.ts` prints the findings.
 *
 * Rules:
 * - nothing under modules/, adapters/ or platform/ imports src/app.ts (the `Module` contract lives
 *   in platform/module.ts);
 * - a module (or an adapter) imports another module only through that module's `index.ts`; the
 *   one exception is a table file importing another module's table file (`*.tables.ts` →
 *   `*.tables.ts`), which a foreign key needs. Adapters (payment, mail, accounting, VIES) are
 *   infrastructure below the modules: modules may import any of their files;
 * - platform/ imports no module, except platform/db/schema.ts assembling the tables (adapters it
 *   may: they sit beside it, below the modules);
 * - no import cycle between files (type-only imports included), and none between modules;
 * - no module reads or writes another module's tables (docs/ARCHITECTURE.md, "Cross-module table
 *   reads"): outside table files, a module file names no other module's table in SQL text
 *   (`FROM`, `JOIN`, `UPDATE`, `INTO` followed by the table's name) and imports no table object
 *   from another module's index. A read that has to stay would be listed, with its reason, in
 *   `TABLE_READ_ALLOWLIST` (empty now); an entry that no longer occurs is a finding too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface Finding {
  rule: 'app-import' | 'deep-import' | 'platform-import' | 'file-cycle' | 'module-cycle' | 'table-read' | 'stale-allow';
  detail: string;
}

export interface Graph {
  /** file (relative to src/, e.g. `modules/orders/index.ts`) → the src files it imports */
  files: Map<string, string[]>;
}

function listTs(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) listTs(p, out);
    else if (e.name.endsWith('.ts') && !/\.(test|fixtures|d)\.ts$/.test(e.name)) out.push(p);
  }
  return out;
}

/** The import graph of `srcDir`; tests and their fixtures (`*.fixtures.ts`) are left out: no runtime code imports them. */
export function importGraph(srcDir: string, read: (file: string) => string = (f) => readFileSync(f, 'utf8')): Graph {
  const files = new Map<string, string[]>();
  const all = listTs(srcDir);
  const known = new Set(all.map((f) => relative(srcDir, f)));
  for (const abs of all) {
    const info = ts.preProcessFile(read(abs), true, true);
    const targets: string[] = [];
    for (const ref of info.importedFiles) {
      const spec = ref.fileName;
      if (!spec.startsWith('.')) continue;
      const base = relative(srcDir, resolve(dirname(abs), spec));
      const candidates = [base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
      const hit = candidates.find((c) => known.has(c));
      if (hit) targets.push(hit);
    }
    files.set(relative(srcDir, abs), [...new Set(targets)]);
  }
  return { files };
}

/** `modules/orders`, `adapters/mail`, `platform`, or `root` (app.ts, server.ts, config.ts …). */
export function unitOf(file: string): string {
  const parts = file.split('/');
  if ((parts[0] === 'modules' || parts[0] === 'adapters') && parts.length > 2) return `${parts[0]}/${parts[1]}`;
  if (parts[0] === 'platform') return 'platform';
  return 'root';
}

const isTables = (f: string) => f.endsWith('.tables.ts');
const isComponent = (u: string) => u.startsWith('modules/') || u.startsWith('adapters/');

/** Strongly connected components of size > 1 (or with a self edge), each sorted. */
function cycles(graph: Map<string, Iterable<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v) ?? 0, idx.get(w) ?? 0));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      const selfLoop = [...(graph.get(v) ?? [])].includes(v);
      if (comp.length > 1 || selfLoop) out.push(comp.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out;
}

/** Every broken rule, in a stable order. */
export function checkBoundaries(graph: Graph): Finding[] {
  const findings: Finding[] = [];
  const units = new Map<string, Set<string>>();
  for (const [from, targets] of graph.files) {
    const fu = unitOf(from);
    for (const to of targets) {
      const tu = unitOf(to);
      const edge = `${from} → ${to}`;
      if (to === 'app.ts' && fu !== 'root') findings.push({ rule: 'app-import', detail: edge });
      if (fu === 'platform' && tu.startsWith('modules/')) {
        if (!(from === 'platform/db/schema.ts' && isTables(to)))
          findings.push({ rule: 'platform-import', detail: edge });
      }
      if (isComponent(fu) && isComponent(tu) && fu !== tu) {
        const viaIndex = to === `${tu}/index.ts`;
        const allowed = viaIndex || tu.startsWith('adapters/') || (isTables(from) && isTables(to));
        if (!allowed) findings.push({ rule: 'deep-import', detail: edge });
        const set = units.get(fu) ?? new Set<string>();
        set.add(tu);
        units.set(fu, set);
      }
    }
  }
  for (const c of cycles(graph.files)) findings.push({ rule: 'file-cycle', detail: c.join(' ↔ ') });
  for (const c of cycles(units)) findings.push({ rule: 'module-cycle', detail: c.join(' ↔ ') });
  return findings;
}

/**
 * The cross-module table reads not yet replaced by functions of the owner (docs/ARCHITECTURE.md,
 * "Cross-module table reads"): file (relative to src/) → the foreign tables it names, each entry
 * with a one-line reason. Empty: every module reads other modules' data through their exports.
 */
export const TABLE_READ_ALLOWLIST: Record<string, string[]> = {};

/** Table name and exported constant of every module table: `{ name, constant, owner }`. */
function moduleTables(files: string[], srcDir: string, read: (file: string) => string) {
  const out: { name: string; constant: string; owner: string }[] = [];
  for (const abs of files) {
    const rel = relative(srcDir, abs);
    if (!rel.startsWith('modules/') || !isTables(rel)) continue;
    for (const m of read(abs).matchAll(/export const (\w+) = pgTable\(\s*'([a-z0-9_]+)'/g)) {
      out.push({ constant: m[1] as string, name: m[2] as string, owner: unitOf(rel) });
    }
  }
  return out;
}

/** The text of a file without its comments (block comments and whole-line `//` comments). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/**
 * Every module file (not a table file) that names another module's table in SQL text or imports
 * a table object from another module's index, minus `allow`; plus every entry of `allow` that
 * no longer occurs. Findings read `modules/x/file.ts → table (modules/owner)`.
 */
export function checkTableReads(
  srcDir: string,
  read: (file: string) => string = (f) => readFileSync(f, 'utf8'),
  allow: Record<string, string[]> = TABLE_READ_ALLOWLIST,
): Finding[] {
  const files = listTs(srcDir);
  const tables = moduleTables(files, srcDir, read);
  const byName = new Map(tables.map((t) => [t.name, t]));
  const seen = new Set<string>();
  const findings: Finding[] = [];
  for (const abs of files) {
    const rel = relative(srcDir, abs);
    if (!rel.startsWith('modules/') || isTables(rel)) continue;
    const unit = unitOf(rel);
    const text = withoutComments(read(abs));
    const named = new Set<string>();
    for (const m of text.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+([a-z_][a-z0-9_]*)\b/g)) {
      const t = byName.get(m[1] as string);
      if (t && t.owner !== unit) named.add(t.name);
    }
    for (const m of text.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'\.\.\/([a-z-]+)\/index\.js'/g)) {
      const owner = `modules/${m[2]}`;
      const names = (m[1] as string).split(',').map(
        (n) =>
          n
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0],
      );
      for (const t of tables) if (t.owner === owner && names.includes(t.constant)) named.add(t.name);
    }
    for (const name of [...named].sort()) {
      const key = `${rel} → ${name}`;
      seen.add(key);
      if (!allow[rel]?.includes(name)) {
        findings.push({ rule: 'table-read', detail: `${key} (${byName.get(name)?.owner})` });
      }
    }
  }
  for (const [rel, names] of Object.entries(allow)) {
    for (const name of names) {
      if (!seen.has(`${rel} → ${name}`)) findings.push({ rule: 'stale-allow', detail: `${rel} → ${name}` });
    }
  }
  return findings;
}

export const SRC_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const findings = [...checkBoundaries(importGraph(SRC_DIR)), ...checkTableReads(SRC_DIR)];
  for (const f of findings) console.log(`${f.rule}: ${f.detail}`);
  console.log(`${findings.length} finding(s)`);
  process.exitCode = findings.length ? 1 : 0;
}
