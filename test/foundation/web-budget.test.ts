/**
 * The admin's size budget (issue 27): the JavaScript and CSS the sign-in page and the orders list
 * load — the entry, its static imports, and the lazy chunks of those two routes with their static
 * imports — come to at most 200 KB gzipped. Computed from esbuild's metafile of a fresh build
 * (into a folder of its own, so it never races the build npm start or the browser tests use).
 */
import { readFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without declarations
import { buildWeb } from '../../scripts/build-web.mjs';

const BUDGET = 200 * 1024;
// relative, like the metafile's paths
const out = `dist/web-budget-${process.pid}`;
afterAll(() => rmSync(out, { recursive: true, force: true }));

type Output = {
  entryPoint?: string;
  cssBundle?: string;
  imports: { path: string; kind: string }[];
};

describe('admin bundle budget', () => {
  it('sign-in and the orders list load at most 200 KB of JS and CSS, gzipped', async () => {
    const meta = (await buildWeb(esbuild, { outdir: out })) as { outputs: Record<string, Output> };
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
    const byEntry = (entry: string) => Object.keys(outputs).find((f) => outputs[f]?.entryPoint === entry);
    const main = byEntry('web/admin/main.tsx');
    expect(main).toBeDefined();
    add(main as string);
    // the lazy chunks of the two routes (dynamic imports of the router)
    for (const screen of ['web/admin/routes/sign-in/page.tsx', 'web/admin/routes/orders/order-list/page.tsx']) {
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
    console.log(`admin sign-in + orders list: ${(gzipped / 1024).toFixed(1)} KB gzipped\n  ${sizes.join('\n  ')}`);
    expect(gzipped).toBeLessThanOrEqual(BUDGET);
  }, 60_000);
});
