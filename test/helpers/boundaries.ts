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
 * - no import cycle between files (type-only imports included), and none between modules.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export interface Finding {
  rule: 'app-import' | 'deep-import' | 'platform-import' | 'file-cycle' | 'module-cycle';
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

export const SRC_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const findings = checkBoundaries(importGraph(SRC_DIR));
  for (const f of findings) console.log(`${f.rule}: ${f.detail}`);
  console.log(`${findings.length} finding(s)`);
  process.exitCode = findings.length ? 1 : 0;
}
