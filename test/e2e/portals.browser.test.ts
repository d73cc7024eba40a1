/**
 * The vendor and affiliate portals in Chromium, on the demo shop as `npm start` seeds it (an
 * invited vendor selling a physical product, an invited affiliate with the code DEMO10):
 *
 * - the affiliate accepts the invitation from its e-mail, sees its code and referral link; a buyer
 *   opens that link, buys the vendor's product in the built-in storefront with a test card; the
 *   purchase shows in the affiliate's commissions and, once released, it requests a payout;
 * - the vendor accepts its invitation from the e-mail, sees that order on its overview, in its
 *   orders and its earnings, and every other page (ledger, payouts, statements with the PDF);
 * - sign-in by keyboard alone; axe (WCAG 2.1 A/AA) on every page in German and English;
 *   a screenshot of each page in test/e2e/.screenshots/ (ignored by git).
 *
 * Skipped when /usr/bin/chromium is absent, unless CI=true: then it fails.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/demo.js';
import { call, PLATFORM_TOKEN } from '../helpers/app.js';
import { adminHarness } from './admin/harness.js';
import { axe, shot, skip, tabber } from './browser.js';

const h = adminHarness();
let owner: string;
/** The vendor's product in the demo shop (the first published physical one). */
let productName: string;
const violations: string[] = [];
const PASSWORD = { vendor: 'haendler-pass-1', affiliate: 'partner-pass-1' };

beforeAll(async () => {
  if (skip) return;
  await h.start();
  const demo = await seedDemo(h.t.app);
  if (!demo) throw new Error('the demo shop was not seeded');
  owner = (
    await call(h.t.app, 'POST', '/api/auth/login', { body: { email: demo.ownerEmail, password: demo.ownerPassword } })
  ).data.token;
  const products = await call(h.t.app, 'GET', '/api/admin/products', { token: owner, query: { limit: '100' } });
  const sold = (products.data.products as { name: string; vendor_id: string | null }[]).find((p) => p.vendor_id);
  if (!sold) throw new Error('the demo vendor sells no product');
  productName = sold.name;
  // a payout can be requested from 1 € (the demo order's commission is a few euros)
  const settings = await call(h.t.app, 'PUT', '/api/admin/settings/partners', {
    token: owner,
    body: { affiliate_min_payout_cents: 100 },
  });
  expect(settings.statusCode, settings.body).toBe(200);
}, 180_000);

afterAll(async () => {
  if (!skip) await h.stop();
});

/** The newest e-mail of `kind` to `to`, as the outbox holds it. */
async function mailText(to: string, kind: string): Promise<string> {
  const res = await call(h.t.app, 'GET', '/api/admin/emails', { token: owner, query: { to, kind } });
  expect(res.statusCode, res.body).toBe(200);
  const text = res.data.emails[0]?.text as string | undefined;
  if (!text) throw new Error(`no ${kind} e-mail to ${to}`);
  return text;
}

/** The accept link of the invitation e-mail: the portal's page under PUBLIC_URL. */
async function inviteLink(kind: 'vendor' | 'affiliate', to: string): Promise<string> {
  const text = await mailText(to, `${kind}_invite`);
  const link = new RegExp(`(http\\S+/${kind}/accept\\?token=\\S+)`).exec(text)?.[1];
  expect(link?.startsWith(`${h.origin}/${kind}/accept?token=`), text).toBe(true);
  return link as string;
}

/** axe on the page, remembered under `name`; and its screenshot. */
async function check(page: Page, name: string): Promise<void> {
  await page.locator('main h1').first().waitFor();
  violations.push(...(await axe(page)).map((v) => `${name}: ${v}`));
  await shot(page, name);
}

/** Opens a portal page in the current language and checks it. */
async function visit(page: Page, url: string, heading: string | RegExp, name: string): Promise<void> {
  await page.goto(`${h.origin}${url}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await check(page, name);
}

async function toEnglish(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Switch to English' }).click();
  await page.locator('html[lang="en"]').waitFor();
}

const tabTo = tabber(20);

describe('the affiliate portal', () => {
  it.skipIf(skip)(
    'accepts the invitation, shares its link; a purchase through it earns a commission; it requests a payout',
    async () => {
      const link = await inviteLink('affiliate', 'partner@demo.shop');
      let referral = '';
      await h.inBrowser('affiliate', async (page) => {
        await page.goto(link);
        await page.getByRole('heading', { level: 1, name: 'Einladung annehmen' }).waitFor();
        await check(page, 'affiliate-accept-de');
        await page.getByLabel('Neues Passwort', { exact: true }).fill(PASSWORD.affiliate);
        await page.getByRole('button', { name: 'Passwort festlegen und anmelden' }).click();
        await page.getByRole('heading', { level: 1, name: 'Übersicht' }).waitFor();
        await page.getByText('DEMO10', { exact: true }).waitFor();
        referral = await page.getByRole('textbox', { name: 'Ihr Empfehlungslink' }).inputValue();
        expect(referral).toBe(`${h.origin}/shop/?ref=DEMO10`);
        await check(page, 'affiliate-overview-de');
      });

      // a buyer follows the link and buys the vendor's product with a test card
      await h.inBrowser('referred-purchase', async (page) => {
        await page.goto(referral);
        await page.getByRole('searchbox', { name: 'Suche' }).fill(productName.split(' ')[0] as string);
        await page.getByRole('button', { name: 'Suchen' }).click();
        await page.getByRole('link', { name: productName }).click();
        await page.getByRole('heading', { level: 1, name: productName }).waitFor();
        await page.getByRole('button', { name: 'In den Warenkorb' }).click();
        await page.getByRole('link', { name: 'Warenkorb, 1 Artikel' }).click();
        await page.getByRole('link', { name: 'Zur Kasse' }).click();
        await page.getByRole('textbox', { name: 'E-Mail' }).fill('empfohlen@example.com');
        await page.getByRole('textbox', { name: 'Vor- und Nachname' }).fill('Romy Referral');
        await page.getByRole('textbox', { name: 'Straße und Hausnummer' }).fill('Lindenweg 3');
        await page.getByRole('textbox', { name: 'PLZ' }).fill('04109');
        await page.getByRole('textbox', { name: 'Ort' }).fill('Leipzig');
        await page.getByRole('radio', { name: /DHL Paket/ }).check();
        await page.getByRole('button', { name: 'Weiter zur Bestellübersicht' }).click();
        await page.getByRole('link', { name: 'Zahlungspflichtig bestellen' }).click();
        await page.waitForURL(/\/pay\//);
        await page.fill('#card_number', '4242 4242 4242 4242');
        await page.click('#pay');
        await page.waitForURL(/\/shop\/danke\?session_id=/);
        await page.getByText('Ihre Zahlung ist eingegangen.', { exact: false }).waitFor();
      });
      const order = (
        await call(h.t.app, 'GET', '/api/admin/orders', { token: owner, query: { q: 'empfohlen@example.com' } })
      ).data.orders[0];
      expect(order).toMatchObject({ status: 'paid', affiliate_code: 'DEMO10' });

      await h.inBrowser('affiliate-earnings', async (page) => {
        // sign-in (German), then the commission of that order
        await page.goto(`${h.origin}/affiliate/earnings`);
        await page.waitForURL(/\/affiliate\/sign-in\?redirect=/);
        await page.getByRole('heading', { level: 1, name: 'Anmelden' }).waitFor();
        await check(page, 'affiliate-sign-in-de');
        await page.getByRole('textbox', { name: 'E-Mail' }).fill('partner@demo.shop');
        await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD.affiliate);
        await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
        // back on the page that asked for sign-in
        await page.getByRole('heading', { level: 1, name: 'Provisionen' }).waitFor();
        const row = page.getByRole('row', { name: new RegExp(order.number) });
        await row.waitFor();
        expect(await row.textContent()).toContain('in Wartezeit');
        await check(page, 'affiliate-earnings-de');
        await visit(page, '/affiliate/content', 'Werbemittel', 'affiliate-content-de');
        await page.getByText('Regionale Spezialitäten', { exact: false }).waitFor();
        await visit(page, '/affiliate/payouts', 'Auszahlungen', 'affiliate-payouts-before-de');
        await page.getByText('Noch kein verfügbares Guthaben.').waitFor();
      });

      // the shop releases the commission (hold period skipped for the test)
      const earnings = await call(h.t.app, 'GET', '/api/admin/affiliate-earnings', {
        token: owner,
        query: { order_id: order.id },
      });
      const released = await call(h.t.app, 'POST', '/api/admin/affiliate-earnings/release', {
        token: owner,
        body: { earning_ids: earnings.data.earnings.map((e: { id: string }) => e.id) },
      });
      expect(released.statusCode, released.body).toBe(200);

      await h.inBrowser('affiliate-payout', async (page) => {
        await page.goto(`${h.origin}/affiliate/sign-in`);
        await page.getByRole('textbox', { name: 'E-Mail' }).fill('partner@demo.shop');
        await page.getByLabel('Passwort', { exact: true }).fill(PASSWORD.affiliate);
        await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
        await page.getByRole('heading', { level: 1, name: 'Übersicht' }).waitFor();
        await page.getByRole('link', { name: 'Auszahlungen' }).first().click();
        await page.getByRole('heading', { level: 1, name: 'Auszahlungen' }).waitFor();
        await page.getByRole('button', { name: /auszahlen lassen$/ }).click();
        const dialog = page.getByRole('dialog', { name: 'Auszahlung anfordern?' });
        await dialog.waitFor();
        violations.push(...(await axe(page)).map((v) => `affiliate-payout-dialog-de: ${v}`));
        await shot(page, 'affiliate-payout-dialog-de');
        await dialog.getByRole('button', { name: 'Auszahlung anfordern' }).click();
        await page.getByText('Die Auszahlung ist angefordert.').waitFor();
        await page.getByRole('row', { name: /angefordert/ }).waitFor();
        await check(page, 'affiliate-payouts-de');

        // every page in English
        await toEnglish(page);
        await page.getByRole('heading', { level: 1, name: 'Payouts' }).waitFor();
        await check(page, 'affiliate-payouts-en');
        await visit(page, '/affiliate/', 'Overview', 'affiliate-overview-en');
        await visit(page, '/affiliate/earnings', 'Commissions', 'affiliate-earnings-en');
        await expect(page.getByRole('row', { name: /released/ }).count()).resolves.toBe(1);
        await visit(page, '/affiliate/content', 'Promotional material', 'affiliate-content-en');
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
        await page.getByText('You are signed out.').waitFor();
        await check(page, 'affiliate-sign-in-en');
        await visit(page, '/affiliate/accept?token=unknown', 'Accept the invitation', 'affiliate-accept-en');
        await visit(page, '/affiliate/reset-password', 'Reset your password', 'affiliate-reset-en');
      });
      const payouts = await call(h.t.app, 'GET', '/api/admin/affiliate-payouts', { token: owner });
      expect(payouts.data.payouts[0]).toMatchObject({ status: 'pending', requested_by: 'partner' });
    },
    90_000,
  );
});

describe('the vendor portal', () => {
  it.skipIf(skip)(
    'accepts the invitation from the e-mail and sees the order of its product, its earnings and every page',
    async () => {
      const link = await inviteLink('vendor', 'vendor@demo.shop');
      const order = (
        await call(h.t.app, 'GET', '/api/admin/orders', { token: owner, query: { q: 'empfohlen@example.com' } })
      ).data.orders[0];
      expect(order, 'the affiliate test bought the vendor product').toBeDefined();
      // a statement of this month, for the statements page and its PDF
      const vendors = await call(h.t.app, 'GET', '/api/admin/vendors', { token: owner });
      const vendorId = vendors.data.vendors[0].id as string;
      await h.inBrowser('vendor', async (page) => {
        await page.goto(link);
        await page.getByRole('heading', { level: 1, name: 'Einladung annehmen' }).waitFor();
        await check(page, 'vendor-accept-de');
        await page.getByLabel('Neues Passwort', { exact: true }).fill(PASSWORD.vendor);
        await page.getByRole('button', { name: 'Passwort festlegen und anmelden' }).click();
        await page.getByRole('heading', { level: 1, name: 'Übersicht' }).waitFor();
        await page.getByText('Angemeldet als Bergkäserei Alm').waitFor();
        await page.getByRole('link', { name: order.number }).waitFor();
        await check(page, 'vendor-dashboard-de');

        await page
          .getByRole('navigation', { name: 'Portalnavigation' })
          .getByRole('link', { name: 'Bestellungen' })
          .click();
        await page.getByRole('heading', { level: 1, name: 'Bestellungen' }).waitFor();
        await page.getByRole('row', { name: new RegExp(order.number) }).waitFor();
        await check(page, 'vendor-orders-de');
        await page.getByRole('link', { name: order.number }).click();
        await page.getByRole('heading', { level: 1, name: `Bestellung ${order.number}` }).waitFor();
        await page
          .getByRole('cell', { name: productName })
          .or(page.getByRole('rowheader', { name: productName }))
          .first()
          .waitFor();
        await check(page, 'vendor-order-de');

        await visit(page, '/vendor/earnings', 'Einnahmen', 'vendor-earnings-de');
        const earning = page.getByRole('row', { name: /in Wartezeit/ });
        await expect(earning.count()).resolves.toBe(1);
        expect(await earning.textContent()).toContain(order.number);
        await visit(page, '/vendor/products', 'Produkte', 'vendor-products-de');
        await page.getByRole('rowheader', { name: new RegExp(productName) }).waitFor();
        await visit(page, '/vendor/ledger', 'Buchungen', 'vendor-ledger-de');
        await page
          .getByRole('cell', { name: /Einnahme/ })
          .first()
          .waitFor();
        await visit(page, '/vendor/payouts', 'Auszahlungen', 'vendor-payouts-de');
      });

      const period = new Date().toISOString().slice(0, 7);
      const statement = await call(h.t.app, 'POST', '/api/admin/vendor-statements', {
        token: owner,
        body: { vendor_id: vendorId, period },
      });
      expect(statement.statusCode, statement.body).toBe(201);
      // the portal shows final statements only, and a month is final once it ended: the simulated
      // clock moves past its end (35 days; the vendor signs in afresh below)
      const advanced = await call(h.t.app, 'POST', '/api/platform/clock/advance', {
        token: PLATFORM_TOKEN,
        body: { seconds: 35 * 86_400 },
      });
      expect(advanced.statusCode, advanced.body).toBe(200);
      const final = await call(h.t.app, 'POST', `/api/admin/vendor-statements/${statement.data.id}/finalize`, {
        token: owner,
      });
      expect(final.statusCode, final.body).toBe(200);

      await h.inBrowser('vendor-keyboard', async (page) => {
        // sign-in by keyboard alone: Tab to the e-mail, type, Tab, type, Enter
        await page.goto(`${h.origin}/vendor/statements`);
        await page.waitForURL(/\/vendor\/sign-in/);
        await page.getByRole('heading', { level: 1, name: 'Anmelden' }).waitFor();
        await tabTo(page, (s) => s === 'email');
        await page.keyboard.type('vendor@demo.shop');
        await tabTo(page, (s) => s === 'password');
        await page.keyboard.type(PASSWORD.vendor);
        await page.keyboard.press('Enter');
        await page.getByRole('heading', { level: 1, name: 'Abrechnungen' }).waitFor();
        await check(page, 'vendor-statements-de');
        const pdf = page.getByRole('link', { name: `PDF der Abrechnung ${period}` });
        const href = (await pdf.getAttribute('href')) as string;
        const res = await page.request.get(`${h.origin}${href}`);
        expect(res.status()).toBe(200);
        expect(res.headers()['content-type']).toContain('application/pdf');
        await page.getByRole('link', { name: `Abrechnung ${period} ansehen` }).click();
        await page.getByRole('heading', { level: 1, name: `Abrechnung ${period}` }).waitFor();
        await check(page, 'vendor-statement-de');

        // every page in English
        await toEnglish(page);
        await page.getByRole('heading', { level: 1, name: `Statement ${period}` }).waitFor();
        await check(page, 'vendor-statement-en');
        for (const [url, heading, name] of [
          ['/vendor/', 'Overview', 'dashboard'],
          ['/vendor/products', 'Products', 'products'],
          ['/vendor/orders', 'Orders', 'orders'],
          [`/vendor/orders/${order.id}`, `Order ${order.number}`, 'order'],
          ['/vendor/earnings', 'Earnings', 'earnings'],
          ['/vendor/ledger', 'Ledger', 'ledger'],
          ['/vendor/payouts', 'Payouts', 'payouts'],
          ['/vendor/statements', 'Statements', 'statements'],
        ] as const) {
          await visit(page, url, heading, `vendor-${name}-en`);
        }
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
        await check(page, 'vendor-sign-in-en');
        await visit(page, '/vendor/reset-password', 'Reset your password', 'vendor-reset-en');
        await page.getByRole('button', { name: 'Auf Deutsch umschalten' }).click();
        await page.getByRole('heading', { level: 1, name: 'Passwort zurücksetzen' }).waitFor();
        await check(page, 'vendor-reset-de');
        await visit(page, '/vendor/sign-in', 'Anmelden', 'vendor-sign-in-de');
      });
    },
    90_000,
  );

  it.skipIf(skip)('no page of either portal has a WCAG 2.1 AA violation (axe), in German or English', () => {
    expect(violations).toEqual([]);
  });
});
