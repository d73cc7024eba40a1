// Builds the web apps — the admin (web/admin/main.tsx → dist/web/admin/), the built-in storefront
// (web/shop/main.tsx → dist/web/shop/) and the vendor and affiliate portals (web/vendor/main.tsx,
// web/affiliate/main.tsx → dist/web/vendor/, dist/web/affiliate/) — with the project's esbuild, each the same way:
// ES modules with code splitting (one lazy chunk per screen), hashed names, minified, one bundled
// stylesheet, an index.html referencing the hashed files (no inline script or style, for the
// Content-Security-Policy), .gz and .br copies of every asset, and esbuild's metafile (meta.json,
// read by the budget test). `node scripts/build-web.mjs` runs it; build-if-needed.mjs calls it.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export const WEB_OUT = 'dist/web/admin';

/** The apps: entry, output folder, URL base, title and the no-script text of index.html. */
const APPS = {
  admin: {
    entry: 'web/admin/main.tsx',
    out: WEB_OUT,
    base: '/admin',
    title: 'Verwaltung',
    noscript: 'Die Verwaltung braucht JavaScript. / The admin needs JavaScript.',
    // where its routes are declared (createRoute + lazyRouteComponent): read for the boot preloads
    routes: 'web/admin',
  },
  shop: {
    entry: 'web/shop/main.tsx',
    out: 'dist/web/shop',
    base: '/shop',
    title: 'Shop',
    noscript: 'Der Shop braucht JavaScript. / The shop needs JavaScript.',
  },
  vendor: {
    entry: 'web/vendor/main.tsx',
    out: 'dist/web/vendor',
    base: '/vendor',
    title: 'Händlerportal',
    noscript: 'Das Händlerportal braucht JavaScript. / The vendor portal needs JavaScript.',
  },
  affiliate: {
    entry: 'web/affiliate/main.tsx',
    out: 'dist/web/affiliate',
    base: '/affiliate',
    title: 'Partnerprogramm',
    noscript: 'Das Partnerprogramm braucht JavaScript. / The affiliate portal needs JavaScript.',
  },
};

/** Builds every web app (npm start, npm run build:web). */
export async function buildAllWeb(esbuild) {
  for (const app of Object.keys(APPS)) await buildWeb(esbuild, { app });
}

/** Builds one app (default the admin); `esbuild` is passed in so that callers decide how (and whether) it is loaded. */
export async function buildWeb(esbuild, { app = 'admin', outdir: into } = {}) {
  const spec = APPS[app];
  const target = into ?? spec.out;
  // built beside the target and moved into place: a running server (or a parallel build) never
  // sees half a build
  const outdir = `${target}.tmp-${process.pid}`;
  rmSync(outdir, { recursive: true, force: true });
  const assets = join(outdir, 'assets');
  const result = await esbuild.build({
    entryPoints: { main: spec.entry },
    outdir: assets,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox111', 'safari16.4'],
    jsx: 'automatic',
    minify: true,
    sourcemap: false,
    entryNames: '[name]-[hash]',
    chunkNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'warning',
  });
  // the metafile names the files where they will be (the target), not in the temporary folder
  const metafile = JSON.parse(JSON.stringify(result.metafile).replaceAll(`${outdir}/`, `${target}/`));
  writeFileSync(join(outdir, 'meta.json'), JSON.stringify(metafile));

  const outputs = Object.entries(result.metafile.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint === spec.entry);
  const js = entry?.[0];
  const css = entry?.[1].cssBundle;
  if (!js || !entry) throw new Error('build-web: no entry output');
  const url = (file) => `${spec.base}/assets/${file.split('/').pop()}`;
  // the entry's static imports, fetched at once instead of one after the other
  const preloads = entry[1].imports.filter((i) => i.kind === 'import-statement').map((i) => i.path);
  const boot = spec.routes ? writeBoot(spec, result.metafile, js, assets) : undefined;
  const html = `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${spec.title}</title>
${css ? `<link rel="stylesheet" href="${url(css)}">\n` : ''}${boot ? `<script type="module" async src="${url(boot)}"></script>\n` : ''}${preloads.map((p) => `<link rel="modulepreload" href="${url(p)}">\n`).join('')}<script type="module" src="${url(js)}"></script>
</head>
<body>
<div id="app"></div>
<noscript>${spec.noscript}</noscript>
</body>
</html>
`;
  writeFileSync(join(outdir, 'index.html'), html);

  for (const name of readdirSync(assets)) {
    const file = join(assets, name);
    const data = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(data, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
      }),
    );
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(outdir, target);
  return metafile;
}

/** Every file under `dir` whose name ends with .ts or .tsx. */
function sources(dir, files = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) sources(p, files);
    else if (/\.tsx?$/.test(entry.name)) files.push(p);
  }
  return files;
}

/**
 * The screens of an app by URL path, read from its sources: every
 * `createRoute({ getParentRoute: () => …, path: '…', … lazyRouteComponent(() => import('…')) })`
 * → `{ path: 'orders/$id', source: 'web/admin/routes/orders/order-detail/page.tsx' }`. The routes
 * hang under the root or the pathless signed-in route, so their path is the URL after the base;
 * a route nested elsewhere, or a lazy screen whose route this cannot read, fails the build (a
 * wrong map would silently preload the wrong screen).
 */
export function screenRoutes(dir) {
  const found = [];
  for (const file of sources(dir)) {
    const text = readFileSync(file, 'utf8');
    const blocks = text.split(/\bcreateRoute\(\{/).slice(1);
    for (const block of blocks) {
      const lazy = /lazyRouteComponent\(\s*\(\)\s*=>\s*import\('([^']+)'\)/.exec(block);
      if (!lazy) continue;
      const parent = /getParentRoute:\s*\(\)\s*=>\s*(\w+)/.exec(block)?.[1];
      const path = /\bpath:\s*'([^']*)'/.exec(block)?.[1];
      if (path === undefined || (parent !== 'rootRoute' && parent !== 'signedInRoute')) {
        throw new Error(`build-web: cannot read the route of the lazy screen ${lazy[1]} in ${file}`);
      }
      const source = join(dirname(file), lazy[1]).replace(/\.js$/, '.tsx');
      found.push({ path: path.replace(/^\/|\/$/g, ''), source: relative('.', source) });
    }
    const lazies = text.match(/lazyRouteComponent\(\s*\(\)\s*=>/g)?.length ?? 0;
    const read = blocks.filter((b) => /lazyRouteComponent\(\s*\(\)\s*=>/.test(b)).length;
    if (lazies !== read) throw new Error(`build-web: a lazy screen outside createRoute({ … }) in ${file}`);
  }
  return found;
}

/**
 * Writes the boot module (assets/boot-<hash>.js), loaded `async` beside the entry: it matches the
 * page's URL against the app's screens and adds a modulepreload for that screen's chunk and its
 * static imports (the area dictionary among them), so they load while the entry is still
 * fetched and parsed instead of after the router asked for them (the chunk waterfall). A plain
 * file with no imports (the Content-Security-Policy allows no inline script). Returns its name.
 */
function writeBoot(spec, metafile, entryJs, assets) {
  const outputs = metafile.outputs;
  const fromEntry = new Set();
  const closure = (file, into) => {
    if (into.has(file)) return;
    into.add(file);
    for (const i of outputs[file]?.imports ?? []) if (i.kind === 'import-statement') closure(i.path, into);
  };
  closure(entryJs, fromEntry);
  const files = [];
  const index = (file) => {
    const name = file.split('/').pop();
    if (!files.includes(name)) files.push(name);
    return files.indexOf(name);
  };
  const routes = [];
  for (const { path, source } of screenRoutes(spec.routes)) {
    const chunk = Object.keys(outputs).find((f) => outputs[f].entryPoint === source);
    if (!chunk) throw new Error(`build-web: no chunk for the screen ${source}`);
    const needed = new Set();
    closure(chunk, needed);
    routes.push([path, [...needed].filter((f) => !fromEntry.has(f)).map(index)]);
  }
  // a fixed segment wins over a parameter (products/new before products/$id), like the router
  const params = (p) => p.split('/').filter((s) => s.startsWith('$')).length;
  routes.sort((a, b) => params(a[0]) - params(b[0]));
  const code = `// Generated by scripts/build-web.mjs: preloads the current screen's chunks beside the entry.
const base = ${JSON.stringify(`${spec.base}/assets/`)};
const files = ${JSON.stringify(files)};
const routes = ${JSON.stringify(routes)};
const inApp = location.pathname === ${JSON.stringify(spec.base)} || location.pathname.startsWith(${JSON.stringify(`${spec.base}/`)});
const here = location.pathname.slice(${spec.base.length}).split('/').filter((s) => s !== '');
if (here.length === 0) here.push('');
for (const [path, chunks] of inApp ? routes : []) {
  const want = path.split('/');
  if (want.length !== here.length) continue;
  if (!want.every((s, i) => (s.startsWith('$') ? here[i] !== '' : s === here[i]))) continue;
  for (const i of chunks) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.href = base + files[i];
    document.head.append(link);
  }
  break;
}
`;
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 8).toUpperCase();
  const name = `boot-${hash}.js`;
  writeFileSync(join(assets, name), code);
  return name;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  mkdirSync('dist', { recursive: true });
  await buildAllWeb(await import('esbuild'));
  process.stdout.write(
    `Built the web apps (${Object.keys(APPS).join(', ')}) in ${Math.round(performance.now() - started)} ms\n`,
  );
}
