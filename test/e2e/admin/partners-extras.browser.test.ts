/**
 * The partner area's further screens in Chromium (harness.ts): affiliate material published (a
 * link without its URL refused at the field first) and deleted after a confirmation, by keyboard;
 * the partner settings changed (a hold period of 400 days refused at its field); a vendor's
 * figures on its overview equal to what the API computes; a paid vendor payout's details
 * (reference, history) and an affiliate's requested one. A viewer and a catalog editor get
 * neither the screens nor their actions. German and English, axe (WCAG 2.1 A/AA) on each new
 * screen, screenshots of each.
 *
 * Skipped when /usr/bin/chromium is absent, unless CI=true: then it fails.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FinanceShop, financeShop, paidOrder } from '../../../src/modules/finance/finance.fixtures.js';
import { acceptInvite, inviteVendor, ok } from '../../../src/modules/partners/partners.fixtures.js';
import { call } from '../../helpers/app.js';
import { axe, focused, shot, skip, tabber } from '../browser.js';
import { adminHarness } from './harness.js';

const h = adminHarness();
const PASSWORD = 'owner-password-1';
const REFERENCE = 'SEPA-2026-0777';

let f: FinanceShop;
let vendorId = '';
let affiliateId = '';
let earned = 0;
const staff: Record<'viewer' | 'catalog_editor', { email: string; password: string }> = {
  viewer: { email: `viewer-${Date.now()}@shop.test`, password: 'viewer-pass-1' },
  catalog_editor: { email: `catalog-${Date.now()}@shop.test`, password: 'catalog-pass-1' },
};

const api = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown) =>
  call(h.t.app, method, url, { token: f.owner, body });
const dialog = (page: Page) => page.getByRole('dialog');
const noDialog = (page: Page) => expect.poll(() => dialog(page).count()).toBe(0);
const owner = () => f.shop.ownerEmail;
const tabTo = tabber(60);
/** Text with Intl's narrow/non-breaking spaces made plain, for comparing shown money. */
const plain = (text: string | null) => (text ?? '').replace(/\s/g, ' ').trim();

async function clean(page: Page) {
  expect(await axe(page)).toEqual([]);
}

beforeAll(async () => {
  if (skip) return;
  await h.start();
  f = await financeShop(h.t);
  for (const [role, who] of Object.entries(staff)) {
    await ok(await api('POST', '/api/admin/employees', { ...who, role, name: `Test ${role}` }), 201);
  }
  // a vendor sells 2 × cheese; its earning is released and paid out with a reference
  const vendor = await inviteVendor(h.t, f.owner, 'Käserei Alm');
  vendorId = vendor.id;
  await ok(await api('PATCH', `/api/products/${f.products.cheese}`, { vendor_id: vendorId }));
  await paidOrder(h.t, f, { items: [{ product_id: f.products.cheese, quantity: 2 }] });
  const earnings = await ok(await api('GET', `/api/admin/vendor-earnings?vendor_id=${vendorId}`));
  await ok(
    await api('POST', '/api/admin/vendor-earnings/release', {
      earning_ids: earnings.earnings.map((e: { id: string }) => e.id),
    }),
  );
  const payout = await ok(await api('POST', '/api/admin/vendor-payouts', { vendor_id: vendorId, note: 'Mai' }), 201);
  earned = payout.amount_cents;
  await ok(await api('POST', `/api/admin/vendor-payouts/${payout.id}/process`));
  await ok(await api('POST', `/api/admin/vendor-payouts/${payout.id}/mark-paid`, { reference: REFERENCE }));
  // an affiliate earns on an order with its code and requests a payout in its portal
  const email = `anna-${Date.now()}@partner.test`;
  await ok(await api('PUT', '/api/admin/settings/partners', { affiliate_min_payout_cents: 100 }));
  const affiliate = await ok(
    await api('POST', '/api/admin/affiliates/invite', {
      email,
      name: 'Anna Bloggt',
      code: 'ANNA10',
      commission_percent: 10,
    }),
    201,
  );
  affiliateId = affiliate.id;
  const session = await acceptInvite(h.t, 'affiliate', email);
  await paidOrder(h.t, f, { items: [{ product_id: f.products.course, quantity: 1 }], affiliate_code: 'anna10' });
  const affiliateEarnings = await ok(await api('GET', `/api/admin/affiliate-earnings?affiliate_id=${affiliateId}`));
  await ok(
    await api('POST', '/api/admin/affiliate-earnings/release', {
      earning_ids: affiliateEarnings.earnings.map((e: { id: string }) => e.id),
    }),
  );
  await ok(await call(h.t.app, 'POST', '/api/affiliate/payouts/request', { token: session, body: {} }), 201);
}, 120_000);
afterAll(() => h.stop());

describe('partner extras', () => {
  it.skipIf(skip)(
    'affiliate material: publish (400 at the field first), delete after a confirmation by keyboard',
    () =>
      h.inBrowser('partners-content', async (page) => {
        await h.open(page, '/admin/partners/vendors', owner(), PASSWORD);
        const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
        await nav.getByRole('link', { name: 'Werbemittel' }).click();
        await page.getByRole('heading', { name: 'Werbemittel', level: 1 }).waitFor();
        await page.getByText('Noch keine Werbemittel.').waitFor();

        // a link without its URL: the server's 400 lands at the URL field
        await page.getByRole('textbox', { name: 'Titel' }).fill('Sommeraktion');
        await page.getByRole('button', { name: 'Werbemittel veröffentlichen' }).click();
        await dialog(page).getByText('„Sommeraktion“ erscheint sofort im Partnerkonto').waitFor();
        await dialog(page).getByRole('button', { name: 'Werbemittel veröffentlichen' }).click();
        const url = page.getByRole('textbox', { name: 'Ziel-URL (https)' });
        await expect.poll(() => url.getAttribute('aria-invalid')).toBe('true');
        await url.fill('https://shop.example/sommer');
        await page.getByRole('button', { name: 'Werbemittel veröffentlichen' }).click();
        await dialog(page).getByRole('button', { name: 'Werbemittel veröffentlichen' }).click();
        await noDialog(page);
        await page.getByRole('rowheader', { name: 'Sommeraktion' }).waitFor();
        // a text, too (kind chosen in the form)
        const create = page.getByRole('region', { name: 'Werbemittel veröffentlichen' });
        await create.getByRole('combobox', { name: 'Art', exact: true }).selectOption('text');
        await page.getByRole('textbox', { name: 'Titel' }).fill('Newsletter-Text');
        await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Jetzt 10 % sparen mit ANNA10!');
        await page.getByRole('button', { name: 'Werbemittel veröffentlichen' }).click();
        await dialog(page).getByRole('button', { name: 'Werbemittel veröffentlichen' }).click();
        await noDialog(page);
        await page.getByRole('rowheader', { name: 'Newsletter-Text' }).waitFor();
        const listed = await ok(await api('GET', '/api/admin/affiliate-content'));
        expect(listed.content).toMatchObject([
          { kind: 'text', title: 'Newsletter-Text', body: 'Jetzt 10 % sparen mit ANNA10!' },
          { kind: 'link', title: 'Sommeraktion', url: 'https://shop.example/sommer' },
        ]);
        // the kind filter is in the URL
        await page.getByRole('search').getByRole('combobox', { name: 'Art', exact: true }).selectOption('link');
        await page.getByRole('button', { name: 'Anwenden' }).click();
        await expect.poll(() => page.url()).toContain('kind=link');
        await expect.poll(() => page.getByRole('rowheader', { name: 'Newsletter-Text' }).count()).toBe(0);
        await clean(page);
        await shot(page, 'partners-content-de');

        // delete by keyboard: Tab to the row's delete button, Enter, the dialog says what happens
        await page.goto(`${h.origin}/admin/partners/affiliate-content`);
        await page.getByRole('rowheader', { name: 'Newsletter-Text' }).waitFor();
        await tabTo(page, (text) => text === 'Löschen');
        await page.keyboard.press('Enter');
        await dialog(page).getByText('„Newsletter-Text“ wird gelöscht').waitFor();
        await clean(page);
        await page.keyboard.press('Tab');
        await expect.poll(() => focused(page)).toBe('Löschen');
        await page.keyboard.press('Enter');
        await noDialog(page);
        await expect.poll(() => page.getByRole('rowheader', { name: 'Newsletter-Text' }).count()).toBe(0);
        const after = await ok(await api('GET', '/api/admin/affiliate-content'));
        expect(after.content.map((c: { title: string }) => c.title)).toEqual(['Sommeraktion']);
      }),
    60_000,
  );

  it.skipIf(skip)(
    'partner settings: a 400 at the hold period, then saved',
    () =>
      h.inBrowser('partners-settings', async (page) => {
        await h.open(page, '/admin/partners/settings', owner(), PASSWORD);
        await page.getByRole('heading', { name: 'Partner-Einstellungen', level: 1 }).waitFor();
        const vendorHold = page.getByRole('spinbutton', { name: /Haltefrist Händler/ });
        expect(await vendorHold.inputValue()).toBe('14');
        await vendorHold.fill('400');
        await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
        await page.getByText('Bitte eine ganze Zahl von 0 bis 365 angeben.').waitFor();
        expect(await vendorHold.getAttribute('aria-invalid')).toBe('true');
        await clean(page);
        await vendorHold.fill('21');
        await page.getByRole('textbox', { name: /Mindestbetrag/ }).fill('25,50');
        await page.getByRole('button', { name: 'Einstellungen speichern' }).click();
        await page.getByText('Partner-Einstellungen gespeichert.').waitFor();
        await page.getByText(/^Zuletzt geändert:/).waitFor();
        const settings = await ok(await api('GET', '/api/admin/settings/partners'));
        expect(settings).toMatchObject({
          vendor_hold_days: 21,
          affiliate_hold_days: 30,
          affiliate_min_payout_cents: 2550,
        });
        await clean(page);
        await shot(page, 'partners-settings-de');
      }),
    60_000,
  );

  it.skipIf(skip)(
    'a vendor’s figures on its overview; a paid payout’s details',
    () =>
      h.inBrowser('partners-analytics', async (page) => {
        await h.open(page, `/admin/partners/vendors/${vendorId}`, owner(), PASSWORD);
        await page.getByRole('heading', { name: 'Kennzahlen', level: 2 }).waitFor();
        const analytics = await ok(await api('GET', `/api/admin/vendor-analytics?vendor_id=${vendorId}`));
        const row = analytics.vendors.find((v: { vendor_id: string }) => v.vendor_id === vendorId);
        expect(row).toMatchObject({ currency: 'EUR', orders: 1, lines: 1, earnings_cents: earned });
        const shown = plain(await page.locator('[data-analytics="earnings"]').first().textContent());
        expect(shown).toBe(
          plain(new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(earned / 100)),
        );
        await clean(page);
        await shot(page, 'partners-vendor-analytics-de');
        // another period (in the URL): nothing earned then
        await page.getByLabel('Von', { exact: true }).fill('2020-01-01');
        await page.getByLabel('Bis', { exact: true }).fill('2020-01-31');
        await page.getByRole('button', { name: 'Anwenden' }).click();
        await expect.poll(() => page.url()).toContain('from=2020-01-01');
        await page.getByText('Zeitraum 01.01.2020 bis 31.01.2020 (UTC)').waitFor();
        await expect
          .poll(async () => plain(await page.locator('[data-analytics="earnings"]').first().textContent()))
          .toBe('0,00 €');

        await page.goto(`${h.origin}/admin/partners/vendors/${vendorId}?tab=payouts`);
        await page.getByRole('button', { name: /^Details der Auszahlung über/ }).click();
        await dialog(page).getByText(REFERENCE).waitFor();
        await dialog(page).getByText('Mai', { exact: true }).waitFor();
        await dialog(page).getByText('In Bearbeitung genommen').waitFor();
        await dialog(page).locator('.badge', { hasText: 'Bezahlt' }).waitFor();
        expect(await dialog(page).locator('.payout-history li').count()).toBe(3);
        await clean(page);
        await shot(page, 'partners-payout-detail-de');
        await page.keyboard.press('Escape');
        await noDialog(page);

        // an affiliate's payout, requested in its portal: open, no reference yet
        await page.goto(`${h.origin}/admin/partners/affiliates/${affiliateId}?tab=payouts`);
        await page.getByRole('button', { name: /^Details der Auszahlung über/ }).click();
        await dialog(page).getByText('vom Partner angefordert').waitFor();
        await dialog(page).locator('.badge', { hasText: 'Offen' }).waitFor();
        expect(await dialog(page).locator('.payout-history li').count()).toBe(1);
        await clean(page);
        await dialog(page).getByRole('button', { name: 'Schließen' }).click();
        await noDialog(page);
      }),
    60_000,
  );

  it.skipIf(skip)(
    'a viewer and a catalog editor get neither the screens nor their actions',
    async () => {
      for (const role of ['viewer', 'catalog_editor'] as const) {
        await h.inBrowser(`partners-extras-${role}`, async (page) => {
          const who = staff[role];
          await h.open(page, '/admin/partners/settings', who.email, who.password);
          await page.getByRole('alert').first().waitFor();
          const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
          expect(await nav.getByRole('link', { name: 'Partner-Einstellungen' }).count()).toBe(0);
          expect(await nav.getByRole('link', { name: 'Werbemittel' }).count()).toBe(0);
          expect(await page.getByRole('button', { name: 'Einstellungen speichern' }).count()).toBe(0);
          await page.goto(`${h.origin}/admin/partners/affiliate-content`);
          await page.getByRole('alert').first().waitFor();
          expect(await page.getByRole('button', { name: 'Werbemittel veröffentlichen' }).count()).toBe(0);
          expect(await page.getByRole('button', { name: 'Löschen' }).count()).toBe(0);
          await clean(page);
          await shot(page, `partners-extras-${role}-de`);
        });
      }
    },
    60_000,
  );

  it.skipIf(skip)(
    'the new screens in English, axe clean',
    () =>
      h.inBrowser(
        'partners-extras-en',
        async (page) => {
          await h.open(page, '/admin/partners/affiliate-content', owner(), PASSWORD, 'en');
          await page.getByRole('heading', { name: 'Affiliate material', level: 1 }).waitFor();
          await page.getByRole('rowheader', { name: 'Sommeraktion' }).waitFor();
          await clean(page);
          await shot(page, 'partners-content-en');
          await page.getByRole('button', { name: 'Delete “Sommeraktion”' }).click();
          await dialog(page).getByText('“Sommeraktion” is deleted').waitFor();
          await clean(page);
          await page.keyboard.press('Escape');
          await page.goto(`${h.origin}/admin/partners/settings`);
          await page.getByRole('heading', { name: 'Partner settings', level: 1 }).waitFor();
          await page.getByRole('spinbutton', { name: /Vendor hold period/ }).waitFor();
          await clean(page);
          await shot(page, 'partners-settings-en');
          await page.goto(`${h.origin}/admin/partners/vendors/${vendorId}`);
          await page.getByRole('heading', { name: 'Figures', level: 2 }).waitFor();
          await page.locator('[data-analytics="earnings"]').first().waitFor();
          await clean(page);
          await shot(page, 'partners-vendor-analytics-en');
          await page.goto(`${h.origin}/admin/partners/vendors/${vendorId}?tab=payouts`);
          await page.getByRole('button', { name: /^Details of the payout of/ }).click();
          await dialog(page).getByText('Processing started').waitFor();
          await clean(page);
          await shot(page, 'partners-payout-detail-en');
        },
        'en-GB',
      ),
    60_000,
  );
});
