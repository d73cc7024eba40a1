/**
 * Transpiles the service (src/) and the server entry points (bench/lib/) to plain JavaScript in
 * bench/results/.build/, laid out like the sources, so the measured processes run the way
 * `npm start` runs them: no TypeScript loader in the process. (A `--import tsx` process carries
 * tsx's loader thread: about 75 MB more RSS and source-mapped stack traces.)
 *
 * Type checking is not the job here (`npm run typecheck` does it); each file is transpiled on its
 * own, which the tsconfig's `isolatedModules` guarantees is sound.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

type TypeScript = typeof import('typescript');
const ts = createRequire(import.meta.url)('typescript') as TypeScript;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function tsFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFiles(path));
    else if (/(?<!\.d|\.test)\.ts$/.test(entry.name)) out.push(path);
  }
  return out;
}

/** Builds into `outDir` and returns the path of each entry point's JavaScript, in order. */
export function compileServers(outDir: string, entries: URL[]): string[] {
  rmSync(outDir, { recursive: true, force: true });
  // All of src/, and the entry points with their sibling modules.
  const dirs = new Set(entries.map((e) => dirname(fileURLToPath(e))));
  const files = [...tsFiles(join(ROOT, 'src')), ...[...dirs].flatMap((d) => tsFiles(d))];
  const options: import('typescript').CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    verbatimModuleSyntax: true,
    sourceMap: false,
  };
  for (const file of files) {
    const rel = relative(ROOT, file);
    const { outputText, diagnostics } = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: options,
      fileName: file,
      reportDiagnostics: true,
    });
    const errors = (diagnostics ?? []).filter((d) => d.category === ts.DiagnosticCategory.Error);
    if (errors.length > 0) {
      const text = errors.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n');
      throw new Error(`cannot transpile ${rel}:\n${text}`);
    }
    const target = join(outDir, rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  // The code finds its migrations by walking up from its own file to a db/migrations folder.
  symlinkSync(join(ROOT, 'db'), join(outDir, 'db'), 'dir');
  // node_modules resolves by walking up from outDir to the repository's node_modules.
  return entries.map((e) => join(outDir, relative(ROOT, fileURLToPath(e)).replace(/\.ts$/, '.js')));
}
