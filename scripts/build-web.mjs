// Builds the web apps — the admin (web/admin/main.tsx → dist/web/admin/), the built-in storefront
// (web/shop/main.tsx → dist/web/shop/) and the vendor and affiliate portals (web/vendor/main.tsx,
// web/affiliate/main.tsx → dist/web/vendor/, dist/web/affiliate/) — with the project's esbuild, each the same way:
// ES modules with code splitting (one lazy chunk per screen), hashed names, minified, one bundled
// stylesheet, an index.html referencing the hashed files (no inline script or style, for the
// Content-Security-Policy), .gz and .br copies of every asset, and esbuild's metafile (meta.json,
// read by the budget test). `node scripts/build-web.mjs` runs it; build-if-needed.mjs calls it.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  const html = `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${spec.title}</title>
${css ? `<link rel="stylesheet" href="${url(css)}">\n` : ''}${preloads.map((p) => `<link rel="modulepreload" href="${url(p)}">\n`).join('')}<script type="module" src="${url(js)}"></script>
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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = performance.now();
  mkdirSync('dist', { recursive: true });
  await buildAllWeb(await import('esbuild'));
  process.stdout.write(
    `Built the web apps (${Object.keys(APPS).join(', ')}) in ${Math.round(performance.now() - started)} ms\n`,
  );
}
