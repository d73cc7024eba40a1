/**
 * The web apps' size budgets (issue 27, issue 30): the JavaScript and CSS a first visit loads — the
 * entry, its static imports, and the lazy chunks of the screens named with their static imports —
 * gzipped: the admin's sign-in and orders list at most 200 KB; each portal's sign-in and its main
 * list at most 150 KB. Computed from esbuild's metafile of a fresh build (into a folder of its own,
 * so it never races the build npm start or the browser tests use).
 */
import { readFileSync, rmSync } from 'node:fs';
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
  const meta = (await buildWeb(esbuild, { app, outdir: `${out}-${app}` })) as { outputs: Record<string, Output> };
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

  it('the portals add nothing to the admin bundle (their strings are area dictionaries)', async () => {
    const meta = JSON.parse(readFileSync(`${out}-admin/meta.json`, 'utf8')) as {
      inputs: Record<string, unknown>;
    };
    const portalInputs = Object.keys(meta.inputs).filter((f) => /^web\/(portal|vendor|affiliate)\//.test(f));
    expect(portalInputs).toEqual([]);
  });
});
