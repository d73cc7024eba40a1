/**
 * The web pages the service serves (DESIGN §10): `/` (links, or name/version/links as JSON), the
 * admin app at `/admin/`, the storefront at `/shop/` and the vendor and affiliate portals at
 * `/vendor/` and `/affiliate/`, built from web/ into dist/web/<app> by scripts/build-web.mjs.
 * Hashed assets are cached for a year, index.html never; .br/.gz copies are sent when the browser
 * takes them; every page carries a strict Content-Security-Policy (no inline script or style).
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { publicRoute } from '../../platform/auth/presets.js';
import type { Module } from '../../platform/module.js';

/** Where scripts/build-web.mjs writes the admin app (relative to the working directory, like dist/src). */
export const ADMIN_DIST = resolve('dist/web/admin');
/** Where it writes the built-in storefront (docs/storefront.md, "The built-in storefront"). */
export const SHOP_DIST = resolve('dist/web/shop');
/** The vendor and affiliate portals (docs/portals.md). */
export const VENDOR_DIST = resolve('dist/web/vendor');
export const AFFILIATE_DIST = resolve('dist/web/affiliate');

/** The policy of every page: nothing inline, nothing from elsewhere, never framed. */
export const PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
  "frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

const PAGE_HEADERS = {
  'content-security-policy': PAGE_CSP,
  'x-frame-options': 'DENY',
  'cross-origin-resource-policy': 'same-origin',
} as const;

function packageInfo(): { name: string; version: string } {
  try {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { name?: string; version?: string };
    return { name: pkg.name ?? 'commerce-service', version: pkg.version ?? '0.0.0' };
  } catch {
    return { name: 'commerce-service', version: '0.0.0' };
  }
}

const LINKS = {
  shop: '/shop/',
  admin: '/admin/',
  vendor: '/vendor/',
  affiliate: '/affiliate/',
  docs: '/docs',
  openapi: '/openapi.json',
  health: '/health',
};

const HOME_HTML = `<!doctype html>
<html lang="de">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Commerce service</title>
</head>
<body>
<main>
<h1>Commerce service</h1>
<ul>
<li><a href="/shop/" hreflang="de">Shop (storefront)</a></li>
<li><a href="/admin/" hreflang="de">Verwaltung (Admin)</a></li>
<li><a href="/vendor/" hreflang="de">Händlerportal (vendor portal)</a></li>
<li><a href="/affiliate/" hreflang="de">Partnerprogramm (affiliate portal)</a></li>
<li><a href="/docs">API-Referenz (API reference)</a></li>
<li><a href="/openapi.json">OpenAPI</a></li>
</ul>
</main>
</body>
</html>
`;

/** index.html of a web app, or 503 with a plain explanation when it was never built. */
function sendIndex(reply: FastifyReply, dist = ADMIN_DIST) {
  reply.headers(PAGE_HEADERS);
  if (!existsSync(resolve(dist, 'index.html'))) {
    return reply
      .code(503)
      .header('cache-control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send('The web app is not built: run `npm run build` (npm start builds it when its sources changed).\n');
  }
  reply.header('cache-control', 'no-cache');
  return reply.sendFile('index.html', dist, { cacheControl: false });
}

const ASSET = /^[\w.-]+\.(js|css|map)$/;

export const pagesModule: Module = {
  name: 'pages',
  group: 'shop',
  async routes(app, deps) {
    const info = packageInfo();
    await app.register(fastifyStatic, { root: ADMIN_DIST, serve: false, preCompressed: true });
    const hidden = { config: publicRoute, schema: { hide: true } };

    app.get('/', hidden, async (request, reply) => {
      const accept = String(request.headers.accept ?? '');
      reply.header('vary', 'Accept');
      if (/application\/json/.test(accept) && !/text\/html/.test(accept)) {
        return { ...info, links: LINKS };
      }
      reply.headers(PAGE_HEADERS);
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(HOME_HTML);
    });

    /** A web app under `base`: its hashed assets for a year (a missing one is 404, never the app), every other URL its index.html (the router takes it). */
    const serveApp = (base: string, dist: string) => {
      app.get(`${base}/assets/:file`, hidden, async (request, reply) => {
        const { file } = request.params as { file: string };
        reply.headers(PAGE_HEADERS);
        if (!ASSET.test(file) || file.includes('..')) return reply.callNotFound();
        return reply.sendFile(`assets/${file}`, dist, { immutable: true, maxAge: 31_536_000_000 });
      });
      app.get(base, hidden, async (_request, reply) => sendIndex(reply, dist));
      app.get(`${base}/*`, hidden, async (_request, reply) => sendIndex(reply, dist));
    };

    serveApp('/admin', ADMIN_DIST);
    // the built-in storefront (STOREFRONT=0: not served, 404 like any unknown path)
    if (deps.config.storefront) serveApp('/shop', SHOP_DIST);
    // the portals; the invitation e-mails link /vendor/accept?token=… and /affiliate/accept?token=…
    serveApp('/vendor', VENDOR_DIST);
    serveApp('/affiliate', AFFILIATE_DIST);
  },
};
