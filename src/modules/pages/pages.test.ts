/** The pages module: `/` for browsers and JSON clients, the admin app's files, cache and CSP headers. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startApp, type TestApp } from '../../../test/helpers/app.js';
import { ADMIN_DIST, AFFILIATE_DIST, PAGE_CSP, SHOP_DIST, VENDOR_DIST } from './index.js';

let t: TestApp;
beforeAll(async () => {
  // the admin as npm start builds it (only when web/ changed)
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs', '--web-only'], { stdio: 'pipe' });
  t = await startApp();
}, 120_000);
afterAll(() => t.close());

describe('GET /', () => {
  it('gives a browser links to the admin and the API reference, and JSON clients name, version, links', async () => {
    const html = await call(t.app, 'GET', '/', { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.headers['content-security-policy']).toBe(PAGE_CSP);
    expect(html.body).toContain('href="/admin/"');
    expect(html.body).toContain('href="/docs"');
    for (const app of ['shop', 'vendor', 'affiliate']) expect(html.body).toContain(`href="/${app}/"`);
    const json = await call(t.app, 'GET', '/', { headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(200);
    expect(json.data).toEqual({
      name: 'commerce-service',
      version: JSON.parse(readFileSync('package.json', 'utf8')).version,
      links: {
        shop: '/shop/',
        admin: '/admin/',
        vendor: '/vendor/',
        affiliate: '/affiliate/',
        docs: '/docs',
        openapi: '/openapi.json',
        health: '/health',
      },
    });
    expect(json.headers.vary).toContain('Accept');
  });
});

describe('/admin/', () => {
  it('answers index.html for every app URL, not cached, with the strict CSP and no inline code', async () => {
    for (const url of [
      '/admin',
      '/admin/',
      '/admin/orders?status=paid&page=2',
      '/admin/orders/ord_x',
      '/admin/sign-in',
    ]) {
      const res = await call(t.app, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toContain('text/html');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toBe(PAGE_CSP);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.body, url).not.toMatch(/<script>|<style|\sstyle=|\son\w+=/);
    }
    // the API keeps its headers: no page CSP on JSON
    expect((await call(t.app, 'GET', '/health')).headers['content-security-policy']).toBeUndefined();
  });

  it('serves hashed assets for a year, precompressed when the browser takes it; a missing one is 404', async () => {
    const html = readFileSync(`${ADMIN_DIST}/index.html`, 'utf8');
    const js = /src="(\/admin\/assets\/main-[\w-]+\.js)"/.exec(html)?.[1] as string;
    const css = /href="(\/admin\/assets\/main-[\w-]+\.css)"/.exec(html)?.[1] as string;
    expect(js).toBeDefined();
    expect(css).toBeDefined();
    const plain = await call(t.app, 'GET', js);
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toContain('javascript');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (const encoding of ['br', 'gzip'] as const) {
      const packed = await call(t.app, 'GET', js, { headers: { 'accept-encoding': encoding } });
      expect(packed.statusCode, encoding).toBe(200);
      expect(packed.headers['content-encoding'], encoding).toBe(encoding);
      expect(Number(packed.headers['content-length']), encoding).toBeLessThan(plain.rawPayload.length);
    }
    expect((await call(t.app, 'GET', css)).headers['content-type']).toContain('text/css');
    for (const url of [
      '/admin/assets/main-MISSING0.js',
      '/admin/assets/..%2f..%2fpackage.json',
      '/admin/assets/meta.json',
      '/admin/assets/x.txt',
    ]) {
      const res = await call(t.app, 'GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toContain('application/problem+json');
    }
    // the metafile is next to the app, never served
    expect((await call(t.app, 'GET', '/admin/meta.json')).body).not.toContain('"outputs"');
  });
});

describe('/shop/', () => {
  it('answers the storefront index.html for every shop URL, with the strict CSP; its assets for a year; a missing one is 404', async () => {
    for (const url of [
      '/shop',
      '/shop/',
      '/shop/?q=k%C3%A4se&page=2',
      '/shop/produkt/bergkaese',
      '/shop/danke?session_id=cs_x',
      '/shop/konto',
    ]) {
      const res = await call(t.app, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toBe(PAGE_CSP);
      expect(res.body, url).toContain('/shop/assets/main-');
      expect(res.body, url).not.toMatch(/<script>|<style|\sstyle=|\son\w+=/);
    }
    const html = readFileSync(`${SHOP_DIST}/index.html`, 'utf8');
    const js = /src="(\/shop\/assets\/main-[\w-]+\.js)"/.exec(html)?.[1] as string;
    const asset = await call(t.app, 'GET', js, { headers: { 'accept-encoding': 'br' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-encoding']).toBe('br');
    expect((await call(t.app, 'GET', '/shop/assets/main-MISSING0.js')).statusCode).toBe(404);
    expect((await call(t.app, 'GET', '/shop/assets/..%2f..%2fpackage.json')).statusCode).toBe(404);
  });
});

describe.each([
  ['vendor', VENDOR_DIST],
  ['affiliate', AFFILIATE_DIST],
] as const)('/%s/ (portal)', (kind, dist) => {
  it('answers the portal index.html for every portal URL (the invitation link included), with the strict CSP; hashed assets for a year', async () => {
    for (const url of [
      `/${kind}`,
      `/${kind}/`,
      `/${kind}/accept?token=x`,
      `/${kind}/sign-in`,
      `/${kind}/earnings?page=2`,
    ]) {
      const res = await call(t.app, 'GET', url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-security-policy'], url).toBe(PAGE_CSP);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.body, url).toContain(`/${kind}/assets/main-`);
      expect(res.body, url).not.toMatch(/<script>|<style|\sstyle=|\son\w+=/);
    }
    const html = readFileSync(`${dist}/index.html`, 'utf8');
    const css = new RegExp(`href="(/${kind}/assets/main-[\\w-]+\\.css)"`).exec(html)?.[1] as string;
    expect(css).toBeDefined();
    const asset = await call(t.app, 'GET', css, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-encoding']).toBe('gzip');
    expect((await call(t.app, 'GET', `/${kind}/assets/main-MISSING0.js`)).statusCode).toBe(404);
  });
});
