/**
 * The partner screens in Chromium (harness.ts): the owner invites a vendor from the screen, changes
 * its commission (a 400 at the field first), its product is sold through the storefront API, the
 * earning is released, a payout created, processed and marked paid, a statement of the month
 * drafted and — after the simulated clock has passed the month's end — finalized by keyboard alone;
 * the statement's earnings equal the earnings the overview shows, and its PDF downloads. An
 * affiliate is created (a bad code refused at its field), invited, earns on an order with its code,
 * is released, edited, and its requested payouts cancelled and marked paid. A viewer (who may not
 * read partner money at all) gets no partner navigation and no actions. German and English; axe
 * (WCAG 2.1 A/AA) on every partner screen in both languages; screenshots of each.
 *
 * Skipped when /usr/bin/chromium is absent, unless CI=true: then it fails.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinanceShop, financeShop, paidOrder } from '../../../src/modules/finance/finance.fixtures.js';
import { acceptInvite, ok } from '../../../src/modules/partners/partners.fixtures.js';
import { localDate, monthStart } from '../../../src/modules/partners/statements.service.js';
import { call, PLATFORM_TOKEN } from '../../helpers/app.js';
import { axe, shot, skip, tabber } from '../browser.js';
import { adminHarness } from './harness.js';

const h = adminHarness();
const PASSWORD = 'owner-password-1';
const TZ = 'Europe/Berlin';
const VENDOR = { name: 'Käserei Alm', email: `kaeserei-${Date.now()}@vendor.test` };
const AFFILIATE = { name: 'Anna Bloggt', email: `anna-${Date.now()}@partner.test`, code: 'ANNA10' };

let f: FinanceShop;
let viewer: { email: string; password: string };
let vendorId = '';
let affiliateId = '';
let period = '';

const now = () => h.t.app.deps.clock.now();
const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, body?: unknown, token = f.owner) =>
  call(h.t.app, method, url, { token, body });
const tabTo = tabber(80);
const dialog = (page: Page) => page.getByRole('dialog');
const noDialog = (page: Page) => expect.poll(() => dialog(page).count()).toBe(0);
const owner = () => f.shop.ownerEmail;
/** A section link of a partner's page (the tabs, not the main navigation). */
const tab = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Bereiche' }).getByRole('link', { name, exact: true }).click();

async function clean(page: Page) {
  expect(await axe(page)).toEqual([]);
}

beforeAll(async () => {
  if (skip) return;
  await h.start();
  f = await financeShop(h.t);
  // affiliates may request a payout from 1 € on
  await ok(await api('PUT', '/api/admin/settings/partners', { affiliate_min_payout_cents: 100 }));
  viewer = { email: `viewer-${Date.now()}@shop.test`, password: 'viewer-pass-1' };
  await ok(await api('POST', '/api/admin/employees', { ...viewer, role: 'viewer', name: 'Vera Viewer' }), 201);
  period = localDate(now(), TZ).slice(0, 7);
}, 120_000);
afterAll(() => h.stop());

describe('vendors', () => {
  it.skipIf(skip)(
    'invite from the screen, commission, sell, release, payout, statement draft',
    () =>
      h.inBrowser('partners-vendor', async (page) => {
        await h.open(page, '/admin/partners/vendors', owner(), PASSWORD);
        await page.getByRole('heading', { name: 'Händler', level: 1 }).waitFor();
        const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
        await expect.poll(() => nav.getByRole('link', { name: 'Werbepartner' }).count()).toBe(1);

        // invite: a 400 at the field first, then the dialog says what happens
        await page.getByRole('textbox', { name: 'Name', exact: true }).fill(VENDOR.name);
        await page.getByRole('textbox', { name: 'E-Mail', exact: true }).fill('keine-adresse');
        await page.getByRole('button', { name: 'Händler einladen' }).click();
        await dialog(page).getByText('keine-adresse bekommt eine E-Mail').waitFor();
        await dialog(page).getByRole('button', { name: 'Händler einladen' }).click();
        await page.getByText('Das Format stimmt nicht.').waitFor();
        expect(await page.getByRole('textbox', { name: 'E-Mail', exact: true }).getAttribute('aria-invalid')).toBe(
          'true',
        );
        await page.getByRole('textbox', { name: 'E-Mail', exact: true }).fill(VENDOR.email);
        await page.getByRole('button', { name: 'Händler einladen' }).click();
        await dialog(page).getByText(`${VENDOR.email} bekommt eine E-Mail`).waitFor();
        await dialog(page).getByRole('button', { name: 'Händler einladen' }).click();
        await page.getByRole('heading', { name: `Händler: ${VENDOR.name}`, level: 1 }).waitFor();
        vendorId = page.url().split('/partners/vendors/')[1]?.split('?')[0] ?? '';
        expect(vendorId).toMatch(/\w+/);
        await page.getByText('Eingeladen', { exact: true }).first().waitFor();

        // the vendor accepts its e-mailed invitation (once the e-mail job ran); a product of it is sold (through the API)
        await h.t.app.deps.worker.drain();
        await acceptInvite(h.t, 'vendor', VENDOR.email);
        await ok(await api('PATCH', `/api/products/${f.products.cheese}`, { vendor_id: vendorId }));

        // commission: 150 % is refused at the field, 10 % + 0,25 € is taken from now on
        await page.reload();
        await page.getByRole('heading', { name: 'Provision der Plattform' }).waitFor();
        await page.getByText('Keine Regel').waitFor();
        const percent = page.getByRole('textbox', { name: 'Prozent vom Nettobetrag je Position' });
        await percent.fill('150');
        await page.getByRole('button', { name: 'Provision ändern' }).click();
        await dialog(page).getByRole('button', { name: 'Provision ändern' }).click();
        await page.getByText('Bitte einen Prozentsatz von 0 bis 100 angeben').waitFor();
        expect(await percent.getAttribute('aria-invalid')).toBe('true');
        await percent.fill('10');
        await page.getByRole('textbox', { name: /Fester Betrag je Position/ }).fill('0,25');
        await page.getByRole('button', { name: 'Provision ändern' }).click();
        await dialog(page)
          .getByText(/^Neue Provision 10\s%.*für Bestellungen, die ab jetzt bezahlt werden/)
          .waitFor();
        await dialog(page).getByRole('button', { name: 'Provision ändern' }).click();
        await noDialog(page);
        await page.getByRole('cell', { name: /^0,25/ }).first().waitFor();
        await clean(page);
        await shot(page, 'partners-vendor-overview-de');

        // 2 × Bergkäse 9,99 € (7 % VAT): the vendor earns the net minus 10 % and 0,25 €
        await paidOrder(h.t, f, { items: [{ product_id: f.products.cheese, quantity: 2 }] });
        const detail = await ok(await api('GET', `/api/admin/vendors/${vendorId}`));
        const earned = detail.balances[0].earned_cents as number;
        expect(earned).toBeGreaterThan(0);
        await page.reload();
        const earnedText = (await page.locator('[data-balance="earned"]').textContent()) ?? '';
        expect(earnedText.replace(/\s/g, ' ')).toContain(
          new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' })
            .format(earned / 100)
            .replace(/\s/g, ' '),
        );

        // products and orders of the vendor
        await tab(page, 'Produkte');
        await page.getByRole('link', { name: 'Bergkäse 250 g' }).waitFor();
        await clean(page);
        await shot(page, 'partners-vendor-products-de');
        await tab(page, 'Bestellungen');
        await page.getByText('2 × Bergkäse 250 g').waitFor();
        await clean(page);
        await shot(page, 'partners-vendor-orders-de');

        // release the earning (exactly this one, its amount in the dialog)
        await tab(page, 'Einnahmen');
        const money = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(earned / 100);
        await page.getByRole('button', { name: `Einnahme über ${money} freigeben` }).click();
        await dialog(page).getByText(`${money} gehen von „In Haltefrist“ nach „Verfügbar“`).waitFor();
        await dialog(page).getByRole('button', { name: 'Freigeben', exact: true }).click();
        await page.getByText(`1 freigegeben: ${money}.`).waitFor();
        await page.getByRole('cell', { name: 'Freigegeben' }).waitFor();
        expect(page.url()).toContain('tab=earnings');
        await clean(page);
        await shot(page, 'partners-vendor-earnings-de');

        // a payout of the whole available balance: created, processed, paid
        await tab(page, 'Auszahlungen');
        await page.getByRole('button', { name: 'Auszahlung anlegen' }).click();
        await dialog(page)
          .getByText(`Das gesamte verfügbare Guthaben (${money}) wird für eine Auszahlung reserviert.`)
          .waitFor();
        await dialog(page).getByRole('button', { name: 'Auszahlung anlegen' }).click();
        await noDialog(page);
        await page.getByRole('button', { name: 'In Bearbeitung nehmen' }).click();
        await dialog(page).getByText(`Die Auszahlung über ${money} wird als „In Bearbeitung“ markiert`).waitFor();
        await dialog(page).getByRole('button', { name: 'In Bearbeitung nehmen' }).click();
        await noDialog(page);
        await page.getByRole('button', { name: 'Als bezahlt markieren' }).click();
        // no reference: the 400 is said at the reference field inside the dialog
        await dialog(page).getByRole('button', { name: 'Als bezahlt markieren' }).click();
        await dialog(page).getByText('Mindestens 1 Zeichen.').waitFor();
        await dialog(page).getByRole('textbox', { name: 'Überweisungsreferenz' }).fill('SEPA-2026-0042');
        await dialog(page).getByRole('button', { name: 'Als bezahlt markieren' }).click();
        await noDialog(page);
        await page.getByRole('cell', { name: 'SEPA-2026-0042' }).waitFor();
        await page.locator('.badge', { hasText: 'Bezahlt' }).waitFor();
        const payouts = await ok(await api('GET', `/api/admin/vendor-payouts?vendor_id=${vendorId}`));
        expect(payouts.payouts).toMatchObject([{ status: 'paid', amount_cents: earned, reference: 'SEPA-2026-0042' }]);
        await clean(page);
        await shot(page, 'partners-vendor-payouts-de');

        // the ledger: earning, release, payout created, payout paid
        await tab(page, 'Kontobuch');
        await page.getByRole('cell', { name: 'Auszahlung bezahlt' }).waitFor();
        expect(await page.locator('table.data tbody tr').count()).toBe(4);
        await clean(page);
        await shot(page, 'partners-vendor-ledger-de');

        // the statement of this month: a draft whose earnings are the earnings shown
        await tab(page, 'Abrechnungen');
        await page.getByLabel('Monat').fill(period);
        await page.getByRole('button', { name: 'Abrechnung erstellen' }).click();
        await dialog(page).getByText('Ein Entwurf der Abrechnung für').waitFor();
        await dialog(page).getByRole('button', { name: 'Abrechnung erstellen' }).click();
        await noDialog(page);
        await page.locator('.badge', { hasText: 'Entwurf' }).waitFor();
        expect(await page.locator('[data-total="earnings"]').textContent()).toBe(earnedText);
        await page.getByRole('button', { name: 'Buchungen zeigen' }).click();
        await page.getByRole('table', { name: 'Buchungen' }).waitFor();
        await clean(page);
        await shot(page, 'partners-vendor-statements-de');
      }),
    120_000,
  );

  it.skipIf(skip)(
    'after the month: the statement is finalized by keyboard, its PDF downloads',
    async () => {
      // past the end of the month (shop time zone): a statement can be finalized only then
      const [y, m] = period.split('-').map(Number) as [number, number];
      const target = monthStart(y, m + 1, TZ).getTime() + 2 * 86_400_000;
      const seconds = Math.ceil((target - now().getTime()) / 1000);
      await ok(
        await call(h.t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds } }),
      );
      await h.inBrowser('partners-statement', async (page) => {
        await h.open(page, `/admin/partners/vendors/${vendorId}?tab=overview`, owner(), PASSWORD);
        const earnedText = (await page.locator('[data-balance="earned"]').textContent()) ?? '';
        await page.goto(`${h.origin}/admin/partners/vendors/${vendorId}?tab=statements`);
        await page.locator('.badge', { hasText: 'Entwurf' }).waitFor();
        // keyboard only: Tab to "Abschließen", Enter; in the dialog Tab to the confirming button, Enter
        await tabTo(page, (text) => text === 'Abschließen');
        await page.keyboard.press('Enter');
        await dialog(page).getByText('bekommt die nächste Nummer').waitFor();
        await tabTo(page, (text) => text === 'Abschließen', 3);
        await page.keyboard.press('Enter');
        await noDialog(page);
        await page.locator('.badge', { hasText: 'Abgeschlossen' }).waitFor();
        const statement = (await ok(await api('GET', `/api/admin/vendor-statements?vendor_id=${vendorId}`)))
          .statements[0];
        expect(statement).toMatchObject({ status: 'final', period });
        expect(statement.number).toMatch(/^VS-\d{4}-0001$/);
        await page.getByText(`EUR · ${statement.number}`).waitFor();
        // what the statement says was earned is what the vendor's page shows as earned
        expect(await page.locator('[data-total="earnings"]').textContent()).toBe(earnedText);
        const pdf = await page.request.get(
          `${h.origin}${await page.getByRole('link', { name: /^PDF der Abrechnung/ }).getAttribute('href')}`,
        );
        expect(pdf.status()).toBe(200);
        expect(pdf.headers()['content-type']).toContain('application/pdf');
        expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
        await clean(page);
        await shot(page, 'partners-vendor-statement-final-de');
      });
    },
    60_000,
  );
});

describe('affiliates', () => {
  it.skipIf(skip)(
    'create (bad code at its field), invite, earn, release, edit, payouts cancelled and paid',
    () =>
      h.inBrowser('partners-affiliate', async (page) => {
        await h.open(page, '/admin/partners/affiliates', owner(), PASSWORD);
        await page.getByRole('heading', { name: 'Werbepartner', level: 1 }).waitFor();
        await page.getByRole('textbox', { name: 'Name', exact: true }).fill(AFFILIATE.name);
        await page.getByRole('textbox', { name: 'E-Mail', exact: true }).fill(AFFILIATE.email);
        await page.getByRole('textbox', { name: /^Code/ }).fill('x!');
        await page.getByRole('textbox', { name: /^Provision in %/ }).fill('10');
        await page.getByRole('button', { name: 'Werbepartner anlegen' }).click();
        await dialog(page).getByRole('button', { name: 'Werbepartner anlegen' }).click();
        await page.getByText('Das Format stimmt nicht.').waitFor();
        expect(await page.getByRole('textbox', { name: /^Code/ }).getAttribute('aria-invalid')).toBe('true');
        await clean(page);
        await page.getByRole('textbox', { name: /^Code/ }).fill(AFFILIATE.code);
        await page.getByRole('button', { name: 'Werbepartner anlegen' }).click();
        await dialog(page)
          .getByText(`${AFFILIATE.name} wird mit Code ${AFFILIATE.code} und 10 % Provision angelegt.`)
          .waitFor();
        await dialog(page).getByRole('button', { name: 'Werbepartner anlegen' }).click();
        await page.getByRole('heading', { name: `Werbepartner: ${AFFILIATE.name}`, level: 1 }).waitFor();
        affiliateId = page.url().split('/partners/affiliates/')[1]?.split('?')[0] ?? '';

        // invitation to the partner account
        await page.getByRole('button', { name: 'Zum Partnerkonto einladen' }).click();
        await dialog(page).getByText(`${AFFILIATE.email} bekommt eine E-Mail`).waitFor();
        await dialog(page).getByRole('button', { name: 'Zum Partnerkonto einladen' }).click();
        // exactly "eingeladen" ("nicht eingeladen" contains it too), then the e-mail job has run
        await page
          .getByRole('definition')
          .filter({ hasText: /^eingeladen$/ })
          .waitFor();
        await h.t.app.deps.worker.drain();
        const session = await acceptInvite(h.t, 'affiliate', AFFILIATE.email);

        // an order with the code earns 10 % of its item net
        await paidOrder(h.t, f, { items: [{ product_id: f.products.course, quantity: 1 }], affiliate_code: 'anna10' });
        const a = await ok(await api('GET', `/api/admin/affiliates/${affiliateId}`));
        const earned = a.balances[0].earned_cents as number;
        expect(earned).toBeGreaterThan(0);
        const money = new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(earned / 100);

        // edit: commission 10 → 12,5 (said in the dialog)
        await page.reload();
        await page.getByRole('textbox', { name: /^Provision in %/ }).fill('12,5');
        await page.getByRole('button', { name: 'Änderungen speichern' }).click();
        await dialog(page)
          .getByText(/^Provision in %: 10\s% → 12,5\s%$/)
          .waitFor();
        await dialog(page).getByRole('button', { name: 'Änderungen speichern' }).click();
        await noDialog(page);
        await page
          .getByRole('definition')
          .filter({ hasText: /^12,5\s%$/ })
          .waitFor();
        await clean(page);
        await shot(page, 'partners-affiliate-overview-de');

        // release the earning
        await tab(page, 'Einnahmen');
        await page.getByRole('button', { name: `Einnahme über ${money} freigeben` }).click();
        await dialog(page).getByRole('button', { name: 'Freigeben', exact: true }).click();
        await page.getByRole('cell', { name: 'Freigegeben' }).waitFor();
        await clean(page);
        await shot(page, 'partners-affiliate-earnings-de');

        // the affiliate requests a payout (portal API); the shop cancels it, it asks again, it is paid
        const request = () => call(h.t.app, 'POST', '/api/affiliate/payouts/request', { token: session, body: {} });
        await ok(await request(), 201);
        await tab(page, 'Auszahlungen');
        await page.getByRole('button', { name: 'Stornieren' }).click();
        await dialog(page).getByText(`Die Auszahlung über ${money} wird storniert`).waitFor();
        await dialog(page).getByRole('button', { name: 'Stornieren' }).click();
        await noDialog(page);
        await page.locator('.badge', { hasText: 'Storniert' }).waitFor();
        await ok(await request(), 201);
        await page.reload();
        await page.getByRole('button', { name: 'Als bezahlt markieren' }).click();
        await dialog(page).getByRole('textbox', { name: 'Überweisungsreferenz' }).fill('PP-77');
        await dialog(page).getByRole('button', { name: 'Als bezahlt markieren' }).click();
        await noDialog(page);
        await page.getByRole('cell', { name: 'PP-77' }).waitFor();
        const list = await ok(await api('GET', `/api/admin/affiliate-payouts?affiliate_id=${affiliateId}`));
        expect(list.payouts.map((p: { status: string }) => p.status)).toEqual(['paid', 'cancelled']);
        const after = await ok(await api('GET', `/api/admin/affiliates/${affiliateId}`));
        expect(after.balances[0]).toMatchObject({ paid_out_cents: earned, available_cents: 0 });
        await clean(page);
        await shot(page, 'partners-affiliate-payouts-de');

        await page.goto(`${h.origin}/admin/partners/affiliates?q=anna`);
        await page.getByRole('link', { name: AFFILIATE.name }).waitFor();
        await clean(page);
        await shot(page, 'partners-affiliates-de');
        // the vendor list with its vendor (the vendor flow saw it before the first vendor existed)
        await page.goto(`${h.origin}/admin/partners/vendors?status=active`);
        await page.getByRole('link', { name: VENDOR.name }).waitFor();
        await clean(page);
        await shot(page, 'partners-vendors-de');
      }),
    90_000,
  );
});

describe('roles and languages', () => {
  it.skipIf(skip)(
    'a viewer gets no partner navigation and cannot change anything',
    () =>
      h.inBrowser('partners-viewer', async (page) => {
        await h.open(page, `/admin/partners/vendors/${vendorId}`, viewer.email, viewer.password);
        await page.getByRole('alert').first().waitFor();
        const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
        expect(await nav.getByRole('link', { name: 'Händler' }).count()).toBe(0);
        expect(await nav.getByText('Partner', { exact: true }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Sperren' }).count()).toBe(0);
        expect(await page.getByRole('button', { name: 'Provision ändern' }).count()).toBe(0);
        await page.goto(`${h.origin}/admin/partners/affiliates`);
        await page.getByRole('alert').first().waitFor();
        expect(await page.getByRole('button', { name: 'Werbepartner anlegen' }).count()).toBe(0);
        await clean(page);
        await shot(page, 'partners-viewer-de');
      }),
    60_000,
  );

  it.skipIf(skip)(
    'every partner screen in English, axe clean',
    () =>
      h.inBrowser(
        'partners-en',
        async (page) => {
          await h.open(page, '/admin/partners/vendors', owner(), PASSWORD, 'en');
          await page.getByRole('heading', { name: 'Vendors', level: 1 }).waitFor();
          await page.getByRole('link', { name: VENDOR.name }).waitFor();
          await clean(page);
          await shot(page, 'partners-vendors-en');
          const tabs: [string, string][] = [
            ['overview', 'Platform commission'],
            ['products', 'The vendor’s products'],
            ['orders', 'Orders with the vendor’s lines'],
            ['earnings', 'Earnings'],
            ['ledger', 'Ledger'],
            ['payouts', 'Payouts'],
            ['statements', 'Statements'],
          ];
          for (const [tab, heading] of tabs) {
            await page.goto(`${h.origin}/admin/partners/vendors/${vendorId}?tab=${tab}`);
            await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
            await clean(page);
            await shot(page, `partners-vendor-${tab}-en`);
          }
          await page.goto(`${h.origin}/admin/partners/affiliates`);
          await page.getByRole('heading', { name: 'Affiliates', level: 1 }).waitFor();
          await page.getByRole('link', { name: AFFILIATE.name }).waitFor();
          await clean(page);
          await shot(page, 'partners-affiliates-en');
          for (const [tab, heading] of [
            ['overview', 'Edit'],
            ['earnings', 'Earnings'],
            ['payouts', 'Payouts'],
          ] as const) {
            await page.goto(`${h.origin}/admin/partners/affiliates/${affiliateId}?tab=${tab}`);
            await page.getByRole('heading', { name: heading, level: 2 }).waitFor();
            await clean(page);
            await shot(page, `partners-affiliate-${tab}-en`);
          }
        },
        'en-GB',
      ),
    90_000,
  );
});
