// Compiles src/ to dist/src/ when any source file is newer than the last build (npm start,
// db:migrate), or always with --force (npm run build). esbuild only strips the types, file by
// file (about a second); `npm run typecheck` (tsc) stays the type gate, and CI runs it.
import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const stamp = 'dist/.build-stamp';
const force = process.argv.includes('--force');

function walk(dir, files = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) walk(p, files);
    else files.push(p);
  }
  return files;
}

const all = walk('src');
const sources = Math.max(...all.map((f) => statSync(f).mtimeMs), statSync('tsconfig.json').mtimeMs);
if (force || !existsSync(stamp) || statSync(stamp).mtimeMs < sources) {
  process.stdout.write('Building (esbuild)…\n');
  const started = performance.now();
  const { build } = await import('esbuild');
  rmSync('dist/src', { recursive: true, force: true });
  await build({
    entryPoints: all.filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.fixtures.ts')),
    outdir: 'dist/src',
    outbase: 'src',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  writeFileSync(stamp, new Date().toISOString());
  process.stdout.write(`Built in ${Math.round(performance.now() - started)} ms\n`);
}
