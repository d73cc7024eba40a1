/**
 * What the admin's browser tests share: the app on a free port with the web build current,
 * Chromium, a fresh context per flow (screenshot on failure), sign-in on the way to a page, and
 * the small documentation screenshots. Use with `skip` from ../browser.js:
 *
 *   const h = adminHarness();
 *   beforeAll(async () => { if (skip) return; await h.start(); shop = await createShop(h.t.app, { origins: [h.origin] }) });
 *   afterAll(() => h.stop());
 *   it.skipIf(skip)('…', () => h.inBrowser('name', async (page) => { await h.open(page, '/admin/…', email, pw); … }));
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { startApp, type TestApp } from '../../helpers/app.js';
import { CHROMIUM, freePort, hasChromium, SHOTS, shot } from '../browser.js';

export interface AdminHarness {
  readonly t: TestApp;
  readonly origin: string;
  start(env?: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
  newContext(locale?: string): Promise<BrowserContext>;
  /** Runs a flow in a fresh context; on failure the page is saved as failed-<name>.png. */
  inBrowser(name: string, fn: (page: Page) => Promise<void>, locale?: string): Promise<void>;
  /** Signs in (German, or English through the switch) and opens `path`. */
  open(page: Page, path: string, email: string, password: string, lang?: 'de' | 'en'): Promise<void>;
  /** A smaller picture for docs/admin/ (copied there by hand): the top of the page. */
  docShot(page: Page, name: string, height?: number): Promise<void>;
}

export function adminHarness(): AdminHarness {
  let app: TestApp | undefined;
  let base = '';
  let browser: Browser | undefined;
  const harness: AdminHarness = {
    get t() {
      if (!app) throw new Error('adminHarness: start() first');
      return app;
    },
    get origin() {
      return base;
    },
    async start(env = {}) {
      execFileSync(process.execPath, ['scripts/build-if-needed.mjs', '--web-only'], { stdio: 'inherit' });
      const port = await freePort();
      base = `http://127.0.0.1:${port}`;
      app = await startApp({ PUBLIC_URL: base, ...env });
      await app.app.listen({ port, host: '127.0.0.1' });
      if (hasChromium) {
        browser = await chromium.launch({
          executablePath: CHROMIUM,
          headless: true,
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
          ],
        });
      }
    },
    async stop() {
      await browser?.close();
      app?.app.server.closeAllConnections();
      await app?.close();
    },
    async newContext(locale = 'de-DE') {
      if (!browser) throw new Error(`${CHROMIUM} is missing (CI=true needs it: apt-get install chromium)`);
      return browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
    },
    async inBrowser(name, fn, locale) {
      const context = await harness.newContext(locale);
      const page = await context.newPage();
      // generous for a busy CI machine: a wait that fails, fails on what it waited for, not on speed
      page.setDefaultTimeout(20_000);
      try {
        await fn(page);
      } catch (err) {
        await shot(page, `failed-${name}`).catch(() => {});
        console.error(`screenshot of the failed page: ${SHOTS}/failed-${name}.png (${page.url()})`);
        throw err;
      } finally {
        await context.close();
      }
    },
    async open(page, path, email, password, lang = 'de') {
      await page.goto(`${base}/admin/sign-in`);
      if (lang === 'en') await page.getByRole('button', { name: 'Switch to English' }).click();
      const l =
        lang === 'de'
          ? { email: 'E-Mail', password: 'Passwort', submit: 'Anmelden', home: 'Heute' }
          : { email: 'E-mail', password: 'Password', submit: 'Sign in', home: 'Today' };
      await page.getByRole('textbox', { name: l.email }).fill(email);
      await page.getByLabel(l.password, { exact: true }).fill(password);
      await page.getByRole('button', { name: l.submit, exact: true }).click();
      await page.getByRole('heading', { name: l.home, level: 1 }).waitFor();
      if (path !== '/admin/') await page.goto(`${base}${path}`);
    },
    async docShot(page, name, height = 800) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({
        path: `${SHOTS}/docs-${name}.png`,
        fullPage: true,
        clip: { x: 0, y: 0, width: 1280, height },
      });
    },
  };
  return harness;
}
