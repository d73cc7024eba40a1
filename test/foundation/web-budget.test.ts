/**
 * The web apps' size budgets (issue 27, issue 30): the JavaScript and CSS a first visit loads — the
 * entry, its static imports, the lazy chunks of the screens named with their static imports, and
 * any other file index.html loads (the admin's boot module) —
 * gzipped: the admin's sign-in and orders list at most 200 KB; each portal's sign-in and its main
 * list at most 150 KB. Computed from esbuild's metafile of a fresh build (into a folder of its own,
 * so it never races the build npm start or the browser tests use).
 */
import { readFileSync, rmSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { buildWeb } from '../../scripts/build-web.mjs';

const BUDGET = 200 * 1024;
const PORTAL_BUDGET = 150 * 1024;
// relative, like the metafile's paths
const out = `dist/web-budget-${process.pid}`;
afterAll(() => rmSync(out, { recursive: true, force: true }));

type Output = {
  entryPoint?: string;
  cssBundle?: string;
  imports: { path: string; kind: string }[];
};

/** Gzipped bytes of what `entry` and the lazy `screens` load (static imports followed), with a line per file. */
async function firstLoad(app: string, entry: string, screens: string[]): Promise<number> {
  const dir = `${out}-${app}`;
  const meta = (await buildWeb(esbuild, { app, outdir: dir })) as { outputs: Record<string, Output> };
  const outputs = meta.outputs;
  const needed = new Set<string>();
  const add = (file: string) => {
    if (needed.has(file)) return;
    needed.add(file);
    const o = outputs[file];
    if (!o) return;
    if (o.cssBundle) needed.add(o.cssBundle);
    for (const i of o.imports) if (i.kind === 'import-statement') add(i.path);
  };
  const byEntry = (e: string) => Object.keys(outputs).find((f) => outputs[f]?.entryPoint === e);
  const main = byEntry(entry);
  expect(main, entry).toBeDefined();
  add(main as string);
  // the lazy chunks of the routes (dynamic imports of the router)
  for (const screen of screens) {
    const chunk = byEntry(screen);
    expect(chunk, screen).toBeDefined();
    add(chunk as string);
  }
  // and what index.html loads beside them that esbuild did not build (the admin's boot module)
  const html = readFileSync(`${dir}/index.html`, 'utf8');
  const names = new Set([...needed].map((f) => f.split('/').pop()));
  for (const [, name] of html.matchAll(/\/assets\/([\w.-]+\.(?:js|css))"/g)) {
    if (name && !names.has(name)) needed.add(`${dir}/assets/${name}`);
  }
  let gzipped = 0;
  const sizes: string[] = [];
  for (const file of needed) {
    if (!/\.(js|css)$/.test(file)) continue;
    const size = gzipSync(readFileSync(file), { level: 9 }).length;
    gzipped += size;
    sizes.push(`${file.split('/').pop()}: ${(size / 1024).toFixed(1)} KB`);
  }
  console.log(`${app} ${screens.join(' + ')}: ${(gzipped / 1024).toFixed(1)} KB gzipped\n  ${sizes.join('\n  ')}`);
  return gzipped;
}

describe('bundle budgets', () => {
  afterAll(() => {
    for (const app of ['admin', 'vendor', 'affiliate']) rmSync(`${out}-${app}`, { recursive: true, force: true });
  });

  it('admin: sign-in and the orders list load at most 200 KB of JS and CSS, gzipped', async () => {
    const size = await firstLoad('admin', 'web/admin/main.tsx', [
      'web/admin/routes/sign-in/page.tsx',
      'web/admin/routes/orders/order-list/page.tsx',
    ]);
    expect(size).toBeLessThanOrEqual(BUDGET);
  }, 60_000);

  it('vendor portal: sign-in, overview and orders load at most 150 KB, gzipped', async () => {
    const size = await firstLoad('vendor', 'web/vendor/main.tsx', [
      'web/portal/auth.tsx',
      'web/vendor/routes/dashboard.tsx',
      'web/vendor/routes/orders.tsx',
    ]);
    expect(size).toBeLessThanOrEqual(PORTAL_BUDGET);
  }, 60_000);

  it('affiliate portal: sign-in, overview and commissions load at most 150 KB, gzipped', async () => {
    const size = await firstLoad('affiliate', 'web/affiliate/main.tsx', [
      'web/portal/auth.tsx',
      'web/affiliate/routes/overview.tsx',
      'web/affiliate/routes/earnings.tsx',
    ]);
    expect(size).toBeLessThanOrEqual(PORTAL_BUDGET);
  }, 60_000);

  it("admin: the boot module preloads the screen of the page's URL with its static imports (none for another URL)", async () => {
    const dir = `${out}-admin`;
    const html = readFileSync(`${dir}/index.html`, 'utf8');
    const boot = /<script type="module" async src="\/admin\/assets\/(boot-\w+\.js)"><\/script>/.exec(html)?.[1];
    expect(boot).toBeDefined();
    const code = readFileSync(`${dir}/assets/${boot}`, 'utf8');
    const meta = JSON.parse(readFileSync(`${dir}/meta.json`, 'utf8')) as { outputs: Record<string, Output> };
    const chunkOf = (source: string) =>
      Object.keys(meta.outputs)
        .find((f) => meta.outputs[f]?.entryPoint === source)
        ?.split('/')
        .pop();
    /** Runs the boot module for a path; the hrefs it preloads. */
    const preloads = (pathname: string) => {
      const hrefs: string[] = [];
      const document = {
        createElement: () => ({ rel: '', href: '' }),
        head: { append: (link: { rel: string; href: string }) => hrefs.push(`${link.rel} ${link.href}`) },
      };
      runInNewContext(code, { location: { pathname }, document });
      return hrefs;
    };
    const orderList = chunkOf('web/admin/routes/orders/order-list/page.tsx');
    const orderDetail = chunkOf('web/admin/routes/orders/order-detail/page.tsx');
    const productEdit = chunkOf('web/admin/routes/products/product-edit/page.tsx');
    const customers = chunkOf('web/admin/routes/customers/customer-list/page.tsx');
    expect(preloads('/admin/orders')[0]).toBe(`modulepreload /admin/assets/${orderList}`);
    expect(preloads('/admin/orders/')[0]).toBe(`modulepreload /admin/assets/${orderList}`);
    expect(preloads('/admin/orders/ord_1')[0]).toBe(`modulepreload /admin/assets/${orderDetail}`);
    // a fixed segment before a parameter
    expect(preloads('/admin/products/new')[0]).toBe(`modulepreload /admin/assets/${productEdit}`);
    expect(preloads('/admin/products/prod_1')[0]).toBe(`modulepreload /admin/assets/${productEdit}`);
    // the screen's static imports that the entry does not already load (its area dictionary among them)
    const entryFiles = new Set(
      [...html.matchAll(/\/admin\/assets\/([\w.-]+\.js)/g)].map((m) => m[1]).filter((f) => !f?.startsWith('boot-')),
    );
    const list = preloads('/admin/customers');
    expect(list[0]).toBe(`modulepreload /admin/assets/${customers}`);
    const customerChunk = Object.keys(meta.outputs).find((f) => f.endsWith(`/${customers}`)) as string;
    const staticImports = (meta.outputs[customerChunk]?.imports ?? [])
      .filter((i) => i.kind === 'import-statement')
      .map((i) => i.path.split('/').pop() as string);
    for (const name of staticImports) {
      if (!entryFiles.has(name)) expect(list).toContain(`modulepreload /admin/assets/${name}`);
    }
    expect(list.some((h) => entryFiles.has(h.split('/').pop() as string))).toBe(false);
    expect(preloads('/admin/nothing/here/at/all')).toEqual([]);
    expect(preloads('/shop/orders')).toEqual([]);
    expect(preloads('/administration')).toEqual([]);
    expect(preloads('/admin')[0]).toBe(
      `modulepreload /admin/assets/${chunkOf('web/admin/routes/home/today/page.tsx')}`,
    );
  });

  it('the portals add nothing to the admin bundle (their strings are area dictionaries)', async () => {
    const meta = JSON.parse(readFileSync(`${out}-admin/meta.json`, 'utf8')) as {
      inputs: Record<string, unknown>;
    };
    const portalInputs = Object.keys(meta.inputs).filter((f) => /^web\/(portal|vendor|affiliate)\//.test(f));
    expect(portalInputs).toEqual([]);
  });
});
