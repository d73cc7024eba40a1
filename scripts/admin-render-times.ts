/**
 * `npm run bench:admin`: how fast the admin shows data. Starts the app (DATABASE_URL, else an
 * in-memory PGlite), seeds ORDERS orders (default 300) through the store API, signs in with
 * Chromium (/usr/bin/chromium) and prints, for a few runs each, the time from navigation start
 * to the first data render:
 *   - orders list, full page load (HTML, JS, /api/auth/me, /api/admin/orders, first row painted)
 *   - orders list → page 2 (in-app navigation, a new server query)
 *   - orders list → an order (in-app navigation, lazy chunk + GET /api/admin/orders/{id})
 * and, on a catalog of PRODUCTS generated products (default 100 000, bench/data/catalog.ts; 0 skips):
 *   - products list, full page load
 *   - products list → filtered by a category (a new server query)
 *   - products list → a product (lazy chunk + GET /api/admin/products/{id}, the edit form painted)
 * Two figures per navigation: "harness" (performance.now() read by Playwright after its wait
 * returned: includes its polling and round trips, tens of ms on a loaded machine) and "in page"
 * (from the page's own log, written by a mutation observer as the DOM changes: navigation start
 * or the click → the data in the DOM). Budget (issue 27): 300 ms per screen. Reported, never asserted. TRACE=1 also prints the last
 * full loads' requests (start → end from navigation start): the chunk and API waterfall. On PostgreSQL:
 * `DATABASE_URL=postgres://postgres@127.0.0.1:5432/<db> npm run bench:admin`.
 */
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright-core';
import { generateCatalog } from '../bench/data/catalog.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

const ORDERS = Number(process.env.ORDERS ?? 300);
const PRODUCTS = Number(process.env.PRODUCTS ?? 100_000);
const RUNS = Number(process.env.RUNS ?? 5);
const TRACE = process.env.TRACE === '1';
const PLATFORM_TOKEN = 'bench-platform-token-0123456789abcdef';

execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });
const config = loadConfig({
  DATA_DIR: 'memory',
  DEMO: '0',
  LOG_LEVEL: 'silent',
  PLATFORM_TOKEN,
  PUBLIC_URL: 'http://127.0.0.1:0',
  CHECKOUT_SESSION_RATE_LIMIT: '1000000',
  ...process.env,
});
let app = await buildApp({ config, logger: false });
await app.listen({ port: 0, host: '127.0.0.1' });
const port = (app.server.address() as AddressInfo).port;
const origin = `http://127.0.0.1:${port}`;
// PUBLIC_URL must be this origin for the CSRF rule: rebuild the app with it on the same database
await app.close();
app = await buildApp({ config: { ...config, publicUrl: origin }, logger: false });
await app.listen({ port, host: '127.0.0.1' });

async function inject(
  method: string,
  url: string,
  token: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, ...headers },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const email = `owner-${Date.now()}@bench.test`;
const password = 'owner-password-1';
const shop = await inject('POST', '/api/platform/shops', PLATFORM_TOKEN, {
  name: 'Bench-Laden',
  owner_email: email,
  owner_password: password,
  digital_allowed: true,
  storefront_origins: [origin],
});
const { token: owner } = await inject('POST', '/api/auth/login', '', { email, password });
const channel = shop.default_channel.id;
await inject('PATCH', `/api/admin/channels/${channel}`, owner, { allow_unpaid_orders: true });
const product = await inject('POST', '/api/products', owner, {
  name: 'Kurs',
  is_digital: true,
  base_price_cents: 4900,
  status: 'published',
});
await inject('PATCH', `/api/products/${product.id}/channels/${channel}`, owner, { is_published: true });
const started = performance.now();
for (let i = 0; i < ORDERS; i++) {
  await inject(
    'POST',
    '/api/store/checkout-sessions',
    shop.publishable_key.key,
    {
      items: [{ product_id: product.id, quantity: 1 + (i % 3) }],
      customer: {
        email: `kunde${i}@bench.test`,
        billing_address: { name: `Kunde ${i}`, line1: 'Weg 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
      },
      flow: 'direct',
      widerruf_verzicht: true,
      return_url: `${origin}/danke`,
    },
    { origin },
  );
}
// something to open on the other screens: invoices, a vendor, an affiliate, the digital add-on
const some = (await inject('GET', '/api/admin/orders?limit=3', owner)) as { orders: { id: string }[] };
for (const o of some.orders) await inject('POST', `/api/admin/orders/${o.id}/invoice`, owner, {});
await inject('POST', '/api/admin/vendors/invite', owner, { email: 'lieferant@bench.test', name: 'Lieferant' });
await inject('POST', '/api/admin/affiliates', owner, {
  name: 'Partnerin',
  email: 'partnerin@bench.test',
  code: 'BENCH',
  commission_percent: 10,
});
await inject('PUT', '/api/admin/digital/status', owner, { aktiv: true });
process.stderr.write(`seeded ${ORDERS} orders in ${Math.round(performance.now() - started)} ms\n`);
let catalogCategory = '';
if (PRODUCTS > 0) {
  const t0 = performance.now();
  const db = app.deps.database.db;
  const catalog = await generateCatalog(db, shop.shop.id, PRODUCTS, 11);
  // what autovacuum does on a live database: the visibility map makes the counts index-only
  await db.execute('VACUUM ANALYZE');
  catalogCategory = catalog.categoryIds[0] ?? '';
  process.stderr.write(`seeded ${catalog.products} products in ${Math.round(performance.now() - t0)} ms\n`);
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
});
const context = await browser.newContext({ locale: 'de-DE' });
/**
 * In the page, before its scripts: a log of what is shown (first row's text, the h1, whether a
 * table row and a form are there, the URL), one entry per change with performance.now() as the
 * DOM changes (a mutation observer, before the paint of that frame), and the time of the last
 * click or change. The "in page" figures are read from it: the time from navigation start (or
 * the click) to the DOM change that showed the data, without the harness's polling and
 * round trips. Injected by the DevTools protocol, so the page's CSP does not apply.
 */
await context.addInitScript(`(() => {
  const bench = { input: 0, log: [] };
  window.__bench = bench;
  for (const type of ['click', 'change']) addEventListener(type, () => { bench.input = performance.now(); }, true);
  let last = '';
  const record = () => {
    const first = document.querySelector('table tbody tr th a');
    const entry = [
      first ? first.textContent : null,
      document.querySelector('h1')?.textContent ?? null,
      !!document.querySelector('table tbody tr'),
      !!document.querySelector('main form'),
      location.href,
      // a screen is "ready" when its heading is there and nothing in it is still loading
      !!document.querySelector('main h1') && !document.querySelector('main [aria-busy="true"]') &&
        !/Wird geladen|Loading/.test(document.querySelector('main')?.textContent ?? ''),
    ];
    const key = JSON.stringify(entry);
    if (key !== last) { last = key; bench.log.push([performance.now(), ...entry]); }
  };
  new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
})()`);
const page = await context.newPage();

/** What a "rendered" log entry must show; `sinceInput`: measured from the last click or change, else from navigation start. */
interface Shown {
  sinceInput: boolean;
  notFirst?: string | null;
  h1?: string;
  row?: boolean;
  form?: boolean;
  param?: [string, string];
  /** the screen is ready (h1, nothing loading) at a path other than `notPath` */
  ready?: boolean;
  notPath?: string;
}
/** Evaluated in the page: the first log entry that shows `want`, in ms (−1: none). */
function renderedAt(want: Shown): number {
  type Entry = [number, string | null, string | null, boolean, boolean, string, boolean];
  const bench = (globalThis as unknown as { __bench: { input: number; log: Entry[] } }).__bench;
  const from = want.sinceInput ? bench.input : 0;
  for (const [t, first, h1, row, form, href, ready] of bench.log) {
    if (t < from) continue;
    if (want.ready) {
      if (ready && new URL(href).pathname !== want.notPath) return t - from;
      continue;
    }
    // a list: its first row is there
    if (want.h1 === undefined && first === null) continue;
    if (want.notFirst !== undefined && first === want.notFirst) continue;
    if (want.h1 !== undefined && !h1?.includes(want.h1)) continue;
    if (want.row && !row) continue;
    if (want.form && !form) continue;
    if (want.param && new URL(href).searchParams.get(want.param[0]) !== want.param[1]) continue;
    return t - from;
  }
  return -1;
}
const inPage: Record<string, number[]> = {};
async function measureInPage(name: string, want: Shown) {
  const t = await page.evaluate(renderedAt, want);
  if (t < 0) return;
  inPage[name] ??= [];
  inPage[name].push(t);
}
await page.goto(`${origin}/admin/sign-in`);
await page.getByRole('textbox', { name: 'E-Mail' }).fill(email);
await page.getByLabel('Passwort', { exact: true }).fill(password);
await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
await page.getByRole('heading', { name: 'Heute', level: 1 }).waitFor();

const firstRow = 'table tbody tr th a';
/**
 * Evaluated in the page: the first cell's text differs from `text` (and the URL has `param`).
 * A function, not a string: Playwright evaluates a string predicate with eval, which the admin's
 * Content-Security-Policy (script-src 'self') refuses. The page's globals are typed here by hand
 * (this file is type-checked without DOM types).
 */
function firstCellIsNot(arg: { selector: string; text: string | null; param?: [string, string] }): boolean {
  const g = globalThis as unknown as {
    document: { querySelector(s: string): { textContent: string | null } | null };
    location: { href: string };
  };
  if (arg.param && new URL(g.location.href).searchParams.get(arg.param[0]) !== arg.param[1]) return false;
  const text = g.document.querySelector(arg.selector)?.textContent;
  return text !== undefined && text !== arg.text;
}
const results: Record<string, number[]> = {
  'orders list (page load)': [],
  'orders → page 2': [],
  'orders → order': [],
};
const now = () => page.evaluate('performance.now()') as Promise<number>;
/**
 * TRACE=1: the last run's requests of a navigation (start → end, ms from navigation start; for an
 * in-app one, those that started after `since`), to see a waterfall.
 */
async function trace(name: string, since?: number) {
  const entries = (await page.evaluate(
    `performance.getEntriesByType('resource').map((e) => [e.name, e.startTime, e.responseEnd])`,
  )) as [string, number, number][];
  if (since === undefined) {
    const nav = (await page.evaluate(
      `(() => { const n = performance.getEntriesByType('navigation')[0]; return [n.responseEnd, n.domInteractive]; })()`,
    )) as [number, number];
    process.stderr.write(`\n${name}: document ${Math.round(nav[0])} ms, parsed ${Math.round(nav[1])} ms\n`);
  } else process.stderr.write(`\n${name}: from ${Math.round(since)} ms\n`);
  for (const [url, start, end] of entries.filter(([, start]) => since === undefined || start >= since - 5)) {
    process.stderr.write(
      `  ${String(Math.round(start)).padStart(5)} → ${String(Math.round(end)).padStart(5)}  ${url.replace(origin, '')}\n`,
    );
  }
}
for (let run = 0; run < RUNS; run++) {
  // a full load: navigation start is performance's time origin
  await page.goto(`${origin}/admin/orders?page=1&limit=25&run=${run}`, { waitUntil: 'commit' });
  await page.waitForSelector(firstRow);
  results['orders list (page load)']?.push(await now());
  await measureInPage('orders list (page load)', { sinceInput: false });
  if (TRACE && run === RUNS - 1) await trace('orders list (page load)');

  const before = await now();
  const first = await page.locator(firstRow).first().textContent();
  await page.getByRole('button', { name: 'Nächste Seite' }).click();
  await page.waitForFunction(firstCellIsNot, { selector: firstRow, text: first });
  results['orders → page 2']?.push((await now()) - before);
  await measureInPage('orders → page 2', { sinceInput: true, notFirst: first });

  const link = page.locator(firstRow).first();
  const number = (await link.textContent()) ?? '';
  const t0 = await now();
  await link.click();
  await page.getByRole('heading', { name: `Bestellung ${number}` }).waitFor();
  await page.locator('table tbody tr').first().waitFor();
  results['orders → order']?.push((await now()) - t0);
  await measureInPage('orders → order', { sinceInput: true, h1: `Bestellung ${number}`, row: true });
  if (TRACE && run === RUNS - 1) await trace('orders → order', t0);

  if (PRODUCTS > 0) {
    const productRow = 'table tbody tr th a';
    await page.goto(`${origin}/admin/products?page=1&limit=25&run=${run}`, { waitUntil: 'commit' });
    await page.waitForSelector(productRow);
    results[`products list (page load)`] ??= [];
    results['products list (page load)']?.push(await now());
    await measureInPage('products list (page load)', { sinceInput: false });
    if (TRACE && run === RUNS - 1) await trace('products list (page load)');

    const firstProduct = await page.locator(productRow).first().textContent();
    const f0 = await now();
    await page.getByRole('combobox', { name: 'Kategorie', exact: true }).selectOption(catalogCategory);
    await page.getByRole('button', { name: 'Anwenden' }).click();
    await page.waitForFunction(firstCellIsNot, {
      selector: productRow,
      text: firstProduct,
      param: ['category_id', catalogCategory] as [string, string],
    });
    results['products → by category'] ??= [];
    results['products → by category']?.push((await now()) - f0);
    await measureInPage('products → by category', {
      sinceInput: true,
      notFirst: firstProduct,
      param: ['category_id', catalogCategory],
    });
    if (TRACE && run === RUNS - 1) await trace('products → by category', f0);

    const product = page.locator(productRow).first();
    const name = (await product.textContent()) ?? '';
    const p0 = await now();
    await product.click();
    await page.getByRole('heading', { name, level: 1 }).waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).waitFor();
    results['products → product'] ??= [];
    results['products → product']?.push((await now()) - p0);
    await measureInPage('products → product', { sinceInput: true, h1: name, form: true });
    if (TRACE && run === RUNS - 1) await trace('products → product', p0);
  }
}

/**
 * Every other screen: each link of the sidebar loaded in full (navigation start → heading shown
 * and nothing loading), and from a list, its first row opened in the app (click → ready).
 */
const screens: Record<string, number[]> = {};
const record = (name: string, t: number) => {
  screens[name] = [...(screens[name] ?? []), t];
};
const empty: string[] = [];
await page.goto(`${origin}/admin/`);
await page.getByRole('heading', { name: 'Heute', level: 1 }).waitFor();
const links = await page
  .locator('nav a[href^="/admin/"]')
  .evaluateAll((as) =>
    [...new Set(as.map((a) => (a as unknown as { getAttribute(n: string): string }).getAttribute('href')))].filter(
      (h) => !h.startsWith('/admin/orders?') && !h.startsWith('/admin/products?'),
    ),
  );
/** Polls the page's log until it shows `want` (polling does not change the in-page figure). */
async function readyIn(want: Shown): Promise<number> {
  for (const end = Date.now() + 15_000; Date.now() < end; ) {
    const t = await page.evaluate(renderedAt, want);
    if (t >= 0) return t;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`not ready in 15 s: ${page.url()}`);
}
for (const href of links) {
  const path = new URL(href, origin).pathname;
  for (let run = 0; run < RUNS; run++) {
    await page.goto(`${origin}${href}${href.includes('?') ? '&' : '?'}run=${run}`, { waitUntil: 'commit' });
    const t = await readyIn({ sinceInput: false, ready: true, notPath: '' });
    record(`${path} (page load)`, t);
    const row = page.locator('main table tbody tr:first-child > :first-child a[href^="/admin/"]').first();
    if ((await row.count()) === 0) {
      if (run === 0) empty.push(path);
      continue;
    }
    await row.click();
    const d = await readyIn({ sinceInput: true, ready: true, notPath: path });
    record(`${path} → first row`, d);
  }
}
await browser.close();
await app.close();

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
process.stdout.write(
  `\nadmin first data render (${ORDERS} orders, ${PRODUCTS} products, ${RUNS} runs, ms; budget 300)\n`,
);
const line = (xs: number[]) =>
  `median ${String(Math.round(median(xs))).padStart(4)}  min ${String(Math.round(Math.min(...xs))).padStart(4)}  max ${String(Math.round(Math.max(...xs))).padStart(4)}`;
process.stdout.write(`  ${''.padEnd(26)} ${'harness (Playwright waits)'.padEnd(32)} in page (DOM change, n)\n`);
for (const [name, xs] of Object.entries(results)) {
  const own = inPage[name] ?? [];
  process.stdout.write(
    `  ${name.padEnd(26)} ${line(xs).padEnd(32)} ${own.length ? `${line(own)}  (${own.length})` : '—'}\n`,
  );
}
process.stdout.write(`\nevery other screen, in page (navigation start or click → heading shown, nothing loading)\n`);
for (const [name, xs] of Object.entries(screens)) process.stdout.write(`  ${name.padEnd(44)} ${line(xs)}\n`);
if (empty.length) process.stdout.write(`  lists without rows to open: ${empty.join(', ')}\n`);
const all = Object.values(screens).map(median);
process.stdout.write(`  slowest median: ${Math.round(Math.max(...all))} ms over ${all.length} screens\n`);
