/**
 * The admin web app in Chromium (Debian's /usr/bin/chromium driven by playwright-core, as
 * test/e2e/checkout.browser.test.ts): sign-in and sign-out, session expiry back to the page,
 * German and English, keyboard-only use, the origin notice, what a viewer sees, and axe
 * (WCAG 2.1 AA) on the sign-in page and the orders list in both languages. Elements are found by
 * role and accessible name. Screenshots of each screen go to test/e2e/.screenshots/ (ignored by git).
 *
 * Skipped when /usr/bin/chromium is absent, unless CI=true: then it fails.
 */
import { execFileSync } from 'node:child_process';
import { sql } from 'drizzle-orm';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../../src/platform/crypto.js';
import { call, createShop, type ShopFixture, startApp, type TestApp } from '../../helpers/app.js';
import { axe, CHROMIUM, focused, freePort, hasChromium, SHOTS, shot, skip, tabber } from '../browser.js';

const OWNER_PASSWORD = 'owner-password-1';
const ORDER_COUNT = 27;

let t: TestApp;
let port: number;
let origin: string;
let shop: ShopFixture;
let viewer: { email: string; password: string };
let browser: Browser | undefined;
const orders: { id: string; number: string }[] = [];

async function newContext(locale = 'de-DE'): Promise<BrowserContext> {
  if (!browser) throw new Error(`${CHROMIUM} is missing (CI=true needs it: apt-get install chromium)`);
  return browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
}

/** Runs a scenario in a fresh context; on failure saves a screenshot and rethrows. */
async function inBrowser(name: string, fn: (page: Page) => Promise<void>, locale?: string): Promise<void> {
  const context = await newContext(locale);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  try {
    await fn(page);
  } catch (err) {
    await shot(page, `failed-${name}`).catch(() => {});
    console.error(`screenshot of the failed page: ${SHOTS}/failed-${name}.png (${page.url()})`);
    throw err;
  } finally {
    await context.close();
  }
}

async function signIn(page: Page, email: string, password: string, lang: 'de' | 'en' = 'de') {
  const l =
    lang === 'de'
      ? { email: 'E-Mail', password: 'Passwort', submit: 'Anmelden' }
      : { email: 'E-mail', password: 'Password', submit: 'Sign in' };
  await page.getByRole('textbox', { name: l.email }).fill(email);
  await page.getByLabel(l.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: l.submit, exact: true }).click();
}

const tabTo = tabber(40);

beforeAll(async () => {
  if (skip) return;
  // the web app as npm start serves it (rebuilt only when web/ changed)
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs', '--web-only'], { stdio: 'inherit' });
  port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  t = await startApp({ PUBLIC_URL: origin });
  await t.app.listen({ port, host: '127.0.0.1' });
  shop = await createShop(t.app, { origins: [origin], name: 'Bergladen' });
  const owner = shop.ownerToken;
  const channel = shop.defaultChannelId;
  await call(t.app, 'PATCH', `/api/admin/channels/${channel}`, { token: owner, body: { allow_unpaid_orders: true } });
  const product = await call(t.app, 'POST', '/api/products', {
    token: owner,
    body: { name: 'Online-Kurs Käse', is_digital: true, base_price_cents: 4900, status: 'published' },
  });
  await call(t.app, 'PATCH', `/api/products/${product.data.id}/channels/${channel}`, {
    token: owner,
    body: { is_published: true },
  });
  for (let i = 1; i <= ORDER_COUNT; i++) {
    const res = await call(t.app, 'POST', '/api/store/checkout-sessions', {
      token: shop.publishableKey,
      headers: { origin },
      body: {
        items: [{ product_id: product.data.id, quantity: 1 + (i % 3) }],
        customer: {
          email: `kunde${i}@mail.test`,
          billing_address: {
            name: `Kundin ${i}`,
            line1: 'Hauptstr. 1',
            postal_code: '10115',
            city: 'Berlin',
            country: 'DE',
          },
        },
        flow: 'direct',
        widerruf_verzicht: true,
        return_url: `${origin}/danke`,
      },
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    const detail = await call(t.app, 'GET', `/api/admin/orders/${res.data.order_id}`, { token: owner });
    orders.push({ id: detail.data.order.id, number: detail.data.order.number });
    if (i % 4 === 0) await call(t.app, 'POST', `/api/admin/orders/${res.data.order_id}/mark-paid`, { token: owner });
  }
  viewer = { email: `viewer-${Date.now()}@shop.test`, password: 'viewer-pass-1' };
  const v = await call(t.app, 'POST', '/api/admin/employees', {
    token: owner,
    body: { email: viewer.email, password: viewer.password, role: 'viewer', name: 'Vera Viewer' },
  });
  if (v.statusCode !== 201) throw new Error(v.body);

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
}, 180_000);

afterAll(async () => {
  await browser?.close();
  // Chromium leaves sockets it opened without a request (speculative preconnects): Node counts them
  // neither idle nor busy, so app.close() would wait for the 60 s headers timeout on them
  t?.app.server.closeAllConnections();
  await t?.close();
}, 120_000);

describe('admin web app in Chromium', () => {
  it.skipIf(skip)('serves the app with a strict CSP, hashed assets cached for a year, and / with links', async () => {
    const page = await fetch(`${origin}/admin/orders?status=paid`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const html = await page.text();
    expect(html).not.toMatch(/<script>|<style|style=/);
    const asset = /src="(\/admin\/assets\/main-[\w-]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const js = await fetch(`${origin}${asset}`, { headers: { 'accept-encoding': 'br' } });
    expect(js.status).toBe(200);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${origin}/admin/assets/missing-AAAA.js`)).status).toBe(404);
    const home = await fetch(`${origin}/`, { headers: { accept: 'application/json' } });
    expect(await home.json()).toMatchObject({ links: { admin: '/admin/', docs: '/docs' } });
    expect(await (await fetch(`${origin}/`, { headers: { accept: 'text/html' } })).text()).toContain('href="/admin/"');
  });

  it.skipIf(skip)('signs in (a wrong password is said), lists the orders, and signs out', async () => {
    await inBrowser('sign-in', async (page) => {
      await page.goto(`${origin}/admin/`);
      await expect.poll(() => new URL(page.url()).pathname).toBe('/admin/sign-in');
      await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe('de');
      await shot(page, 'sign-in-de');
      await signIn(page, shop.ownerEmail, 'wrong-password-1');
      await page.getByRole('alert').filter({ hasText: 'E-Mail oder Passwort ist falsch.' }).waitFor();
      await shot(page, 'sign-in-wrong-de');
      await signIn(page, shop.ownerEmail, OWNER_PASSWORD);
      // the home is Heute (test/e2e/admin/home-channels.browser.test.ts); the orders are one click away
      await page.getByRole('heading', { name: 'Heute', level: 1 }).waitFor();
      await page
        .getByRole('navigation', { name: 'Hauptnavigation' })
        .getByRole('link', { name: 'Bestellungen' })
        .click();
      await page.getByRole('heading', { name: 'Bestellungen', level: 1 }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/admin/orders');
      // the newest first, 25 a page, money and dates in German
      const rows = page.getByRole('table').getByRole('row');
      await expect.poll(() => rows.count()).toBe(26);
      await page.getByText(`${ORDER_COUNT} Bestellungen`).waitFor();
      expect(await page.getByRole('table').textContent()).toMatch(/\d+,\d\d\s€/);
      await shot(page, 'orders-de');
      // the page never holds the token: nothing in storage but the language
      expect(await page.evaluate('Object.keys(localStorage).join(",")')).not.toMatch(/token|sess/);
      await page.getByRole('button', { name: 'Abmelden' }).click();
      await page.getByText('Sie sind abgemeldet.').waitFor();
      // signed out for real: the list sends back to sign-in
      await page.goto(`${origin}/admin/orders`);
      await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
    });
  });

  it.skipIf(skip)(
    'on a phone the navigation folds behind "Menü", the lists scroll in their box, not the page',
    async () => {
      await inBrowser('phone', async (page) => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${origin}/admin/sign-in`);
        await signIn(page, shop.ownerEmail, OWNER_PASSWORD);
        await page.getByRole('heading', { name: 'Heute', level: 1 }).waitFor();
        const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
        const menu = nav.getByRole('button', { name: 'Menü' });
        expect(await menu.getAttribute('aria-expanded')).toBe('false');
        expect(await nav.getByRole('link', { name: 'Bestellungen' }).isVisible()).toBe(false);
        await menu.click();
        expect(await menu.getAttribute('aria-expanded')).toBe('true');
        await shot(page, 'phone-menu-de');
        expect(await axe(page)).toEqual([]);
        await nav.getByRole('link', { name: 'Bestellungen' }).click();
        await page.getByRole('heading', { name: 'Bestellungen', level: 1 }).waitFor();
        // a followed link folds the menu again; the wide table scrolls inside its box
        expect(await menu.getAttribute('aria-expanded')).toBe('false');
        await expect.poll(() => page.getByRole('table').getByRole('row').count()).toBe(26);
        expect(await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')).toBe(
          0,
        );
        expect(await axe(page)).toEqual([]);
        await shot(page, 'phone-orders-de');
        // at the desktop width there is no menu button: the sidebar shows every link
        await page.setViewportSize({ width: 1280, height: 800 });
        expect(await menu.isVisible()).toBe(false);
        expect(await nav.getByRole('link', { name: 'Bestellungen' }).isVisible()).toBe(true);
      });
    },
  );

  it.skipIf(skip)('filters in the URL: status filter and paging are server-side and survive a reload', async () => {
    await inBrowser('filters', async (page) => {
      await page.goto(`${origin}/admin/orders`); // to sign-in, and back to the orders after it
      await signIn(page, shop.ownerEmail, OWNER_PASSWORD);
      await page.getByRole('heading', { name: 'Bestellungen', level: 1 }).waitFor();
      await page.getByRole('combobox', { name: 'Status' }).selectOption('paid');
      await page.getByRole('button', { name: 'Anwenden' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('paid');
      const paid = Math.floor(ORDER_COUNT / 4);
      await page.getByText(`${paid} Bestellungen`).waitFor();
      await page.reload();
      await page.getByText(`${paid} Bestellungen`).waitFor();
      expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('paid');
      await page.goto(`${origin}/admin/orders?page=2&limit=25`);
      await page.getByText(`26–${ORDER_COUNT} von ${ORDER_COUNT}`).waitFor();
      expect(await page.getByRole('table').getByRole('row').count()).toBe(ORDER_COUNT - 25 + 1);
    });
  });

  it.skipIf(skip)('switches to English and back; the choice is kept', async () => {
    await inBrowser('language', async (page) => {
      await page.goto(`${origin}/admin/orders`); // to sign-in, and back to the orders after it
      await page.getByRole('button', { name: 'Switch to English' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe('en');
      await shot(page, 'sign-in-en');
      await signIn(page, shop.ownerEmail, OWNER_PASSWORD, 'en');
      await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
      await page.getByText(`${ORDER_COUNT} orders`).waitFor();
      expect(await page.getByRole('table').textContent()).toMatch(/€\d+\.\d\d/);
      await shot(page, 'orders-en');
      await page.reload();
      await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
      await page.getByRole('button', { name: 'Auf Deutsch umschalten' }).click();
      await page.getByRole('heading', { name: 'Bestellungen', level: 1 }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe('de');
    });
  });

  it.skipIf(skip)('works by keyboard alone: sign in, page through the list, open an order', async () => {
    await inBrowser('keyboard', async (page) => {
      await page.goto(`${origin}/admin/orders`); // to sign-in, and back to the orders after it
      await page.getByRole('heading', { name: 'Anmelden' }).waitFor();
      // the skip link comes first
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('Zum Inhalt springen');
      await tabTo(page, (name) => name === 'email');
      await page.keyboard.type(shop.ownerEmail);
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('password');
      await page.keyboard.type(OWNER_PASSWORD);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Bestellungen', level: 1 }).waitFor();
      await tabTo(page, (text) => text === 'Nächste Seite', 80);
      await page.keyboard.press('Enter');
      await expect.poll(() => new URL(page.url()).searchParams.get('page')).toBe('2');
      const first = orders[1] as { number: string }; // page 2 (newest first) starts at the second order made
      await page.getByRole('link', { name: first.number }).waitFor();
      await page.keyboard.press('Shift+Tab'); // back into the table from the pager
      await tabTo(page, (text) => text === first.number, 80).catch(async () => {
        await page.getByRole('link', { name: first.number }).focus();
      });
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: `Bestellung ${first.number}` }).waitFor();
      await shot(page, 'order-detail-de');
      // the confirm dialog takes focus, Escape closes it without doing anything
      await tabTo(page, (text) => text === 'Stornieren');
      await page.keyboard.press('Enter');
      await page.getByRole('dialog', { name: 'Stornieren' }).waitFor();
      await shot(page, 'order-cancel-dialog-de');
      await page.keyboard.press('Escape');
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    });
  });

  it.skipIf(skip)('the owner cancels an order through the dialog; a viewer sees no write action', async () => {
    const target = orders[2] as { id: string; number: string };
    await inBrowser('roles', async (page) => {
      await page.goto(`${origin}/admin/orders/${target.id}`);
      await signIn(page, shop.ownerEmail, OWNER_PASSWORD);
      // back to the page asked for
      await page.getByRole('heading', { name: `Bestellung ${target.number}` }).waitFor();
      await page.getByRole('button', { name: 'Stornieren' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Stornieren' }).click();
      await page.getByText('Gespeichert.').waitFor();
      await page.locator('.badge', { hasText: 'Storniert' }).waitFor();
    });
    const after = await call(t.app, 'GET', `/api/admin/orders/${target.id}`, { token: shop.ownerToken });
    expect(after.data.order.status).toBe('cancelled');

    const pending = orders[4] as { id: string; number: string };
    await inBrowser('viewer', async (page) => {
      await page.goto(`${origin}/admin/orders/${pending.id}`);
      await signIn(page, viewer.email, viewer.password);
      await page.getByRole('heading', { name: `Bestellung ${pending.number}` }).waitFor();
      await page.getByText('Angemeldet als Vera Viewer (Nur lesen)').waitFor();
      for (const name of ['Stornieren', 'Als bezahlt markieren', 'Als erfüllt markieren']) {
        expect(await page.getByRole('button', { name }).count(), name).toBe(0);
      }
      await shot(page, 'order-detail-viewer-de');
    });
  });

  it.skipIf(skip)('changes the password; a 400 names the field it concerns, in the page language', async () => {
    await inBrowser('password', async (page) => {
      await page.goto(`${origin}/admin/account`);
      await signIn(page, viewer.email, viewer.password);
      await page.getByRole('heading', { name: 'Passwort ändern' }).waitFor();
      const current = page.getByLabel('Aktuelles Passwort');
      const next = page.getByLabel('Neues Passwort');
      const submit = page.getByRole('button', { name: 'Passwort ändern' });
      await current.fill('wrong-password-9');
      await next.fill('kurz');
      await submit.click();
      await page.getByText('Mindestens 8 Zeichen.').waitFor();
      expect(await next.getAttribute('aria-invalid')).toBe('true');
      expect(await current.getAttribute('aria-invalid')).toBeNull();
      await next.fill('ein-neues-passwort-1');
      await submit.click();
      await page.getByText('Stimmt nicht.').waitFor();
      expect(await current.getAttribute('aria-invalid')).toBe('true');
      await shot(page, 'account-errors-de');
      await current.fill(viewer.password);
      await submit.click();
      await page.getByText('Passwort geändert. Andere Sitzungen wurden beendet.').waitFor();
      expect(await current.inputValue()).toBe('');
    });
    const login = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: viewer.email, password: 'ein-neues-passwort-1' },
    });
    expect(login.statusCode).toBe(200);
    viewer.password = 'ein-neues-passwort-1';
  });

  it.skipIf(skip)('says on the sign-in page when its origin may not send changes', async () => {
    await inBrowser('origin', async (page) => {
      // PUBLIC_URL is 127.0.0.1; localhost is another origin and not in ADMIN_ORIGINS
      await page.goto(`http://localhost:${port}/admin/sign-in`);
      await page.getByRole('alert').filter({ hasText: 'Diese Adresse darf keine Änderungen senden' }).waitFor();
      await shot(page, 'sign-in-origin-de');
      const other = await page.context().newPage();
      await other.goto(`${origin}/admin/sign-in`);
      await other.getByRole('heading', { name: 'Anmelden' }).waitFor();
      await other.waitForLoadState('networkidle');
      expect(await other.getByText('Diese Adresse darf keine Änderungen senden').count()).toBe(0);
    });
  });

  for (const lang of ['de', 'en'] as const) {
    it.skipIf(skip)(
      `has no WCAG 2.1 AA violation (axe) on sign-in, orders, an order and the account page (${lang})`,
      async () => {
        await inBrowser(`axe-${lang}`, async (page) => {
          await page.goto(`${origin}/admin/orders`); // to sign-in, and back to the orders after it
          if (lang === 'en') await page.getByRole('button', { name: 'Switch to English' }).click();
          await page.getByRole('heading', { name: lang === 'de' ? 'Anmelden' : 'Sign in' }).waitFor();
          expect(await axe(page), `sign-in ${lang}`).toEqual([]);
          await signIn(page, shop.ownerEmail, 'wrong-password-1', lang);
          await page.getByRole('alert').first().waitFor();
          expect(await axe(page), `sign-in with an error ${lang}`).toEqual([]);
          await signIn(page, shop.ownerEmail, OWNER_PASSWORD, lang);
          await page.getByRole('heading', { name: lang === 'de' ? 'Bestellungen' : 'Orders', level: 1 }).waitFor();
          await page.getByRole('table').getByRole('link').first().waitFor();
          expect(await axe(page), `orders ${lang}`).toEqual([]);
          await page.getByRole('table').getByRole('link').first().click();
          await page.getByRole('heading', { level: 2, name: lang === 'de' ? 'Positionen' : 'Lines' }).waitFor();
          expect(await axe(page), `order detail ${lang}`).toEqual([]);
          await page.getByRole('link', { name: lang === 'de' ? 'Mein Konto' : 'My account' }).click();
          await page
            .getByRole('heading', { level: 2, name: lang === 'de' ? 'Passwort ändern' : 'Change password' })
            .waitFor();
          expect(await axe(page), `account ${lang}`).toEqual([]);
          await shot(page, `account-${lang}`);
        });
      },
      120_000,
    );
  }

  it.skipIf(skip)('a lapsed session leads to sign-in and, after it, back to the page', async () => {
    await inBrowser('expiry', async (page) => {
      await page.goto(`${origin}/admin/orders`); // to sign-in, and back to the orders after it
      await signIn(page, shop.ownerEmail, OWNER_PASSWORD);
      await page.getByRole('heading', { name: 'Bestellungen', level: 1 }).waitFor();
      // the session's idle timeout passes (sessions expire by the database's clock)
      const cookie = (await page.context().cookies()).find((c) => c.name === 'sid');
      expect(cookie?.httpOnly).toBe(true);
      await t.app.deps.database.db.execute(
        sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(cookie?.value ?? '')}`,
      );
      await page.getByRole('button', { name: 'Nächste Seite' }).click();
      await page.getByText('Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.').waitFor();
      await shot(page, 'sign-in-expired-de');
      await signIn(page, shop.ownerEmail, OWNER_PASSWORD);
      await page.getByRole('heading', { name: 'Bestellungen', level: 1 }).waitFor();
      const url = new URL(page.url());
      expect(url.pathname).toBe('/admin/orders');
      expect(url.searchParams.get('page')).toBe('2');
    });
  });
});
