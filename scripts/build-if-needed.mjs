// Compiles src/ to dist/src/ when any source file is newer than the last build (npm start,
// db:migrate), or always with --force (npm run build). esbuild only strips the types, file by
// file (about a second); `npm run typecheck` (tsc) stays the type gate, and CI runs it.
// The admin web app (web/ and the client types it uses) is built the same way, with a stamp of
// its own, into dist/web/admin (scripts/build-web.mjs).
// esbuild is a dev dependency: it is imported only when a build is needed, so a production
// install (`npm ci && npm run build && npm prune --omit=dev && npm start`) starts without it.
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const force = process.argv.includes('--force');
// --web-only: only the web app (tests that serve it; the server build stays with npm start)
const webOnly = process.argv.includes('--web-only');

function walk(dir, files = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) walk(p, files);
    else files.push(p);
  }
  return files;
}

const newest = (files) => Math.max(0, ...files.map((f) => statSync(f).mtimeMs));
const stale = (stamp, sources) => force || !existsSync(stamp) || statSync(stamp).mtimeMs < sources;

let esbuild;
async function loadEsbuild(what) {
  if (esbuild) return esbuild;
  try {
    esbuild = await import('esbuild');
    return esbuild;
  } catch {
    process.stderr.write(
      `${what} must be (re)built, but esbuild is not installed (a production install without dev dependencies).\n` +
        'Build before pruning: npm ci && npm run build && npm prune --omit=dev && npm start\n',
    );
    process.exit(1);
  }
}

mkdirSync('dist', { recursive: true });

const serverStamp = 'dist/.build-stamp';
const all = walk('src');
if (!webOnly && stale(serverStamp, Math.max(newest(all), statSync('tsconfig.json').mtimeMs))) {
  const { build } = await loadEsbuild('The server (src/)');
  process.stdout.write('Building (esbuild)…\n');
  const started = performance.now();
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
  writeFileSync(serverStamp, new Date().toISOString());
  process.stdout.write(`Built in ${Math.round(performance.now() - started)} ms\n`);
}

const webStamp = 'dist/.web-build-stamp';
if (existsSync('web')) {
  // (not package-lock.json: `npm prune` rewrites it, and a production start must not rebuild)
  const webSources = newest([...walk('web'), ...walk('clients/typescript'), 'scripts/build-web.mjs']);
  if (stale(webStamp, webSources)) {
    // one builder at a time (parallel test files, two starts at once): the others wait, then find it built
    const lock = 'dist/.web-build-lock';
    const until = Date.now() + 120_000;
    for (;;) {
      try {
        mkdirSync(lock);
        break;
      } catch {
        if (Date.now() > until) rmSync(lock, { recursive: true, force: true }); // left by a killed build
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    try {
      if (stale(webStamp, webSources)) {
        const bundler = await loadEsbuild('The web apps (web/)');
        process.stdout.write('Building the web apps (esbuild)…\n');
        const started = performance.now();
        const { buildAllWeb } = await import('./build-web.mjs');
        await buildAllWeb(bundler);
        writeFileSync(webStamp, new Date().toISOString());
        process.stdout.write(`Built the web apps in ${Math.round(performance.now() - started)} ms\n`);
      }
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}
