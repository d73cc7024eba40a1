/**
 * Heute (the admin's home) and the channel screens in Chromium, with the harness of
 * admin.browser.test.ts: the paid-unfulfilled tile and the list it opens, creating a channel and
 * mapping a domain (409 domain_taken at the field), a tax override entered in percent and stored
 * as a fraction, a viewer without create/edit, keyboard-only channel creation, German and English,
 * and axe (WCAG 2.1 A/AA) on Heute, the channel list and a channel in both languages. Screenshots
 * go to test/e2e/.screenshots/.
 *
 * Skipped when /usr/bin/chromium is absent, unless CI=true: then it fails.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createShop, type ShopFixture, startApp, type TestApp } from '../../helpers/app.js';
import { axe, CHROMIUM, focused, freePort, hasChromium, SHOTS, shot, skip, tabber } from '../browser.js';

const OWNER_PASSWORD = 'owner-password-1';

let t: TestApp;
let origin: string;
let shop: ShopFixture;
let viewer: { email: string; password: string };
let browser: Browser | undefined;
let paidNumber: string;

async function newContext(locale = 'de-DE'): Promise<BrowserContext> {
  if (!browser) throw new Error(`${CHROMIUM} is missing (CI=true needs it: apt-get install chromium)`);
  return browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
}

async function inBrowser(name: string, fn: (page: Page) => Promise<void>): Promise<void> {
  const context = await newContext();
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

/** A smaller picture for docs/admin/ (copied there by hand): the top of the page, no full scroll. */
async function docShot(page: Page, name: string, height = 800): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({
    path: `${SHOTS}/docs-${name}.png`,
    fullPage: true,
    clip: { x: 0, y: 0, width: 1280, height },
  });
}

/** Opens an admin page; signs in on the way (the page is remembered). */
async function open(page: Page, path: string, email: string, password: string, lang: 'de' | 'en' = 'de') {
  await page.goto(`${origin}/admin/sign-in`);
  if (lang === 'en') await page.getByRole('button', { name: 'Switch to English' }).click();
  const l =
    lang === 'de'
      ? { email: 'E-Mail', password: 'Passwort', submit: 'Anmelden' }
      : { email: 'E-mail', password: 'Password', submit: 'Sign in' };
  await page.getByRole('textbox', { name: l.email }).fill(email);
  await page.getByLabel(l.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: l.submit, exact: true }).click();
  await page.getByRole('heading', { name: lang === 'de' ? 'Heute' : 'Today', level: 1 }).waitFor();
  if (path !== '/admin/') await page.goto(`${origin}${path}`);
}

const tabTo = tabber(60);

async function channelByName(name: string) {
  const list = await call(t.app, 'GET', '/api/admin/channels', { token: shop.ownerToken });
  return list.data.channels.find((c: { name: string }) => c.name === name) as { id: string; domain_count: number };
}

beforeAll(async () => {
  if (skip) return;
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs', '--web-only'], { stdio: 'inherit' });
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  t = await startApp({ PUBLIC_URL: origin });
  await t.app.listen({ port, host: '127.0.0.1' });
  shop = await createShop(t.app, { origins: [origin], name: 'Bergladen' });
  const owner = shop.ownerToken;
  const channel = shop.defaultChannelId;
  await call(t.app, 'PATCH', `/api/admin/channels/${channel}`, { token: owner, body: { allow_unpaid_orders: true } });
  // a domain another channel already has (the UI must say domain_taken at the field)
  await call(t.app, 'POST', `/api/admin/channels/${channel}/domains`, {
    token: owner,
    body: { domain: 'www.bergladen.test' },
  });
  const product = await call(t.app, 'POST', '/api/products', {
    token: owner,
    body: { name: 'Online-Kurs Käse', is_digital: true, base_price_cents: 4900, status: 'published' },
  });
  await call(t.app, 'PATCH', `/api/products/${product.data.id}/channels/${channel}`, {
    token: owner,
    body: { is_published: true },
  });
  for (let i = 1; i <= 2; i++) {
    const res = await call(t.app, 'POST', '/api/store/checkout-sessions', {
      token: shop.publishableKey,
      headers: { origin },
      body: {
        items: [{ product_id: product.data.id, quantity: 1 }],
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
    if (i === 1) {
      const paid = await call(t.app, 'POST', `/api/admin/orders/${res.data.order_id}/mark-paid`, { token: owner });
      if (paid.statusCode !== 200) throw new Error(paid.body);
      paidNumber = (await call(t.app, 'GET', `/api/admin/orders/${res.data.order_id}`, { token: owner })).data.order
        .number;
    }
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
  t?.app.server.closeAllConnections();
  await t?.close();
}, 120_000);

describe('Heute and channels in Chromium', () => {
  it.skipIf(skip)('Heute is the home: the paid-unfulfilled count links to the filtered orders list', async () => {
    await inBrowser('home', async (page) => {
      await page.goto(`${origin}/admin/`);
      await open(page, '/admin/', shop.ownerEmail, OWNER_PASSWORD);
      expect(new URL(page.url()).pathname).toBe('/admin/');
      // Heute is the first entry of the main navigation, and the current page
      const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
      expect(await nav.getByRole('link').first().textContent()).toBe('Heute');
      expect(await nav.getByRole('link', { name: 'Heute' }).getAttribute('aria-current')).toBe('page');
      const tile = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: 'Bezahlt, noch nicht erfüllt' }) });
      await expect.poll(() => tile.locator('.tile-count').textContent()).toBe('1');
      // revenue of today in euros (the test provider's payments, shown apart as test payments)
      await page.getByRole('heading', { name: /^Heute seit/ }).waitFor();
      expect(await page.locator('.revenue').textContent()).toMatch(/Testzahlungen \(kein echtes Geld\)EUR49,00\s€/);
      expect(await axe(page)).toEqual([]);
      await shot(page, 'home-de');
      await docShot(page, 'home', 720);
      await tile.getByRole('link', { name: 'Bezahlt, noch nicht erfüllt: Liste öffnen' }).click();
      await page.getByRole('heading', { name: 'Bestellungen', level: 1 }).waitFor();
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('paid');
      await page.getByText('1 Bestellung', { exact: true }).waitFor();
      await page.getByRole('link', { name: paidNumber }).waitFor();
    });
  });

  it.skipIf(skip)(
    'the owner creates a channel, maps a domain (a taken one is said at the field), sets a tax override in percent',
    async () => {
      await inBrowser('channels', async (page) => {
        await open(page, '/admin/channels', shop.ownerEmail, OWNER_PASSWORD);
        await page.getByRole('heading', { name: 'Verkaufskanäle', level: 1 }).waitFor();
        await page.getByRole('link', { name: 'Bergladen' }).waitFor();
        expect(await axe(page)).toEqual([]);
        await shot(page, 'channels-de');
        await docShot(page, 'channels', 700);
        await page.getByRole('textbox', { name: 'Name' }).fill('Bergladen Österreich');
        await page.getByRole('textbox', { name: 'Standardland' }).fill('AT');
        await page.getByRole('button', { name: 'Kanal anlegen' }).click();
        await page.getByRole('heading', { name: 'Kanal Bergladen Österreich', level: 1 }).waitFor();
        const channel = await channelByName('Bergladen Österreich');
        expect(channel).toBeDefined();

        // a domain another channel has: said at the field, nothing changes
        const domain = page.getByRole('textbox', { name: 'Domain' });
        await domain.fill('www.bergladen.test');
        await page.getByRole('button', { name: 'Domain zuordnen' }).click();
        await page.getByText('Die Domain ist schon einem Kanal zugeordnet.').waitFor();
        expect(await domain.getAttribute('aria-invalid')).toBe('true');
        await shot(page, 'channel-domain-taken-de');
        await domain.fill('at.bergladen.test');
        await page.getByRole('button', { name: 'Domain zuordnen' }).click();
        await page.getByRole('button', { name: 'Domain at.bergladen.test entfernen' }).waitFor();
        expect((await channelByName('Bergladen Österreich')).domain_count).toBe(1);

        // a tax override: entered as 19 (%), stored as 0.19
        await page.getByRole('button', { name: 'Steuersätze für Austria ändern' }).click();
        const dialog = page.getByRole('dialog', { name: 'Steuersätze für Austria' });
        await dialog.getByRole('textbox', { name: 'Regelsteuersatz in %' }).fill('19');
        await shot(page, 'channel-rates-dialog-de');
        await dialog.getByRole('button', { name: 'Speichern' }).click();
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
        const countries = await call(t.app, 'GET', `/api/admin/channels/${channel.id}/countries`, {
          token: shop.ownerToken,
        });
        const at = countries.data.countries.find((c: { code: string }) => c.code === 'AT');
        expect(at.overrides.tax_rate).toBe(0.19);
        expect(at.tax_rate).toBe(0.19);
        // shown back in percent, marked as this channel's
        const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /AT Austria/ }) });
        await expect.poll(() => row.textContent()).toMatch(/19\s%.*für diesen Kanal geändert/);

        // a percent out of range is said at its field in percent words
        await page.getByRole('button', { name: 'Steuersätze für Austria ändern' }).click();
        await dialog.getByRole('textbox', { name: 'Ermäßigt (Bücher) in %' }).fill('150');
        await dialog.getByRole('button', { name: 'Speichern' }).click();
        await dialog.getByText('Bitte einen Wert von 0 bis 100 % angeben.').waitFor();
        await dialog.getByRole('button', { name: 'Abbrechen' }).click();

        // the currency lock is explained; the order rules are saved
        await page.getByRole('spinbutton', { name: 'Zahlungsfrist unbezahlter Bestellungen (Stunden)' }).fill('48');
        await page.getByRole('checkbox', { name: 'Bestellungen bei Zahlung automatisch bestätigen' }).check();
        await page.getByRole('region', { name: 'Einstellungen' }).getByRole('button', { name: 'Speichern' }).click();
        await page.getByText('Gespeichert.').first().waitFor();
        await expect
          .poll(
            async () =>
              (await call(t.app, 'GET', `/api/admin/channels/${channel.id}`, { token: shop.ownerToken })).data,
          )
          .toMatchObject({ pending_payment_ttl_hours: 48, auto_confirm_orders: true });
        expect(await axe(page)).toEqual([]);
        await shot(page, 'channel-detail-de');
        await docShot(page, 'channel', 1250);
      });
    },
    90_000,
  );

  it.skipIf(skip)(
    'the default channel with an order: a currency change is refused and explained at the field',
    async () => {
      await inBrowser('currency-lock', async (page) => {
        await open(page, `/admin/channels/${shop.defaultChannelId}`, shop.ownerEmail, OWNER_PASSWORD);
        await page.getByRole('heading', { name: 'Kanal Bergladen', level: 1 }).waitFor();
        await page.getByRole('combobox', { name: 'Währung' }).selectOption('CHF');
        await page.getByRole('region', { name: 'Einstellungen' }).getByRole('button', { name: 'Speichern' }).click();
        await page.getByText(/Die Währung ist festgelegt: Es hängen schon Daten/).waitFor();
        expect(await page.getByRole('combobox', { name: 'Währung' }).getAttribute('aria-invalid')).toBe('true');
        const after = await call(t.app, 'GET', `/api/admin/channels/${shop.defaultChannelId}`, {
          token: shop.ownerToken,
        });
        expect(after.data.currency).toBe('EUR');
        await shot(page, 'channel-currency-locked-de');
      });
    },
  );

  it.skipIf(skip)('a viewer sees the channels but no create or edit', async () => {
    await inBrowser('channels-viewer', async (page) => {
      await open(page, '/admin/channels', viewer.email, viewer.password);
      await page.getByRole('link', { name: 'Bergladen', exact: true }).waitFor();
      expect(await page.getByRole('button', { name: 'Kanal anlegen' }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Neuer Kanal' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Bergladen', exact: true }).click();
      await page.getByRole('heading', { name: 'Kanal Bergladen', level: 1 }).waitFor();
      await page.getByText('www.bergladen.test').waitFor();
      for (const name of [
        'Speichern',
        'Domain zuordnen',
        'Auswahl speichern',
        'Zahlungsarten speichern',
        'Land hinzufügen',
      ]) {
        expect(await page.getByRole('button', { name }).count(), name).toBe(0);
      }
      expect(await page.getByRole('button', { name: /entfernen|ändern|löschen/ }).count()).toBe(0);
      expect(await page.getByRole('textbox', { name: 'Name' }).isDisabled()).toBe(true);
      await shot(page, 'channel-detail-viewer-de');
    });
  });

  it.skipIf(skip)(
    'the owner deletes an unused channel after saying so; the default channel offers no delete',
    async () => {
      const created = await call(t.app, 'POST', '/api/admin/channels', {
        token: shop.ownerToken,
        body: { name: 'Testkanal Löschen', currency: 'EUR', default_country: 'DE' },
      });
      if (created.statusCode !== 201) throw new Error(created.body);
      await inBrowser('channel-delete', async (page) => {
        await open(page, `/admin/channels/${created.data.id}`, shop.ownerEmail, OWNER_PASSWORD);
        await page.getByRole('heading', { name: 'Kanal Testkanal Löschen', level: 1 }).waitFor();
        await page.getByRole('button', { name: 'Kanal löschen' }).click();
        const dialog = page.getByRole('dialog', { name: 'Kanal löschen' });
        await dialog.getByText(/wird mit seinen Domains, Preisen und Auswahlen gelöscht/).waitFor();
        await dialog.getByRole('button', { name: 'Kanal löschen' }).click();
        await page.getByRole('heading', { name: 'Kanäle', level: 1 }).waitFor();
        await expect.poll(() => page.getByRole('link', { name: 'Testkanal Löschen' }).count()).toBe(0);
        const gone = await call(t.app, 'GET', `/api/admin/channels/${created.data.id}`, { token: shop.ownerToken });
        expect(gone.statusCode).toBe(404);
        await page.getByRole('link', { name: 'Bergladen', exact: true }).click();
        await page.getByRole('heading', { name: 'Kanal Bergladen', level: 1 }).waitFor();
        expect(await page.getByRole('button', { name: 'Kanal löschen' }).count()).toBe(0);
      });
    },
  );

  it.skipIf(skip)('creates a channel by keyboard alone', async () => {
    await inBrowser('channels-keyboard', async (page) => {
      await open(page, '/admin/channels', shop.ownerEmail, OWNER_PASSWORD);
      await page.getByRole('heading', { name: 'Neuer Kanal' }).waitFor();
      await page.locator('main').focus();
      await tabTo(page, (name) => name === 'name');
      await page.keyboard.type('Tastatur-Kanal');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('slug');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('default_country');
      await page.keyboard.press('Control+A');
      await page.keyboard.type('CH');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('currency');
      await page.keyboard.type('CHF');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('Kanal anlegen');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Kanal Tastatur-Kanal', level: 1 }).waitFor();
      const list = await call(t.app, 'GET', '/api/admin/channels', { token: shop.ownerToken });
      expect(list.data.channels.find((c: { name: string }) => c.name === 'Tastatur-Kanal')).toMatchObject({
        currency: 'CHF',
        default_country: 'CH',
        is_default: false,
      });
    });
  });

  it.skipIf(skip)(
    'in English: Heute, the channel list and a channel, axe clean',
    async () => {
      await inBrowser('home-channels-en', async (page) => {
        await open(page, '/admin/', shop.ownerEmail, OWNER_PASSWORD, 'en');
        await page.getByRole('heading', { name: 'Paid, not yet fulfilled' }).waitFor();
        expect(await page.locator('.revenue').textContent()).toMatch(/€49\.00/);
        expect(await axe(page)).toEqual([]);
        await shot(page, 'home-en');
        await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Channels' }).click();
        await page.getByRole('heading', { name: 'Sales channels', level: 1 }).waitFor();
        await page.getByRole('link', { name: 'Bergladen', exact: true }).waitFor();
        expect(await axe(page)).toEqual([]);
        await shot(page, 'channels-en');
        await page.getByRole('link', { name: 'Bergladen', exact: true }).click();
        await page.getByRole('heading', { name: 'Channel Bergladen', level: 1 }).waitFor();
        await page.getByText('www.bergladen.test').waitFor();
        await page.getByRole('heading', { name: 'Countries and tax rates' }).waitFor();
        expect(await axe(page)).toEqual([]);
        await shot(page, 'channel-detail-en');
      });
    },
    90_000,
  );
});
