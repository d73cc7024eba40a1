/**
 * The shop's payment methods in Chromium (Einstellungen → Zahlungsarten): the owner reaches the
 * screen from the navigation, saving no method is refused by the server at the group, a new
 * selection changes what the API answers, and a channel without its own selection shows the new
 * methods with a link back here (a channel with its own selection keeps it); a viewer reads only;
 * German and English with axe; a keyboard-only save.
 *
 * Skipped when /usr/bin/chromium is absent, unless CI=true: then it fails.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createShop, type ShopFixture } from '../../helpers/app.js';
import { axe, focusVisibleInViewport, shot, skip, tabber } from '../browser.js';
import { adminHarness } from './harness.js';

const OWNER_PASSWORD = 'owner-password-1';
const h = adminHarness();
let shop: ShopFixture;
let inheriting: string;
let own: string;
let viewer: { email: string; password: string };

/** The focused element as the keyboard steps name it: a checkbox's value, else its name or text. */
const tabTo = tabber(
  60,
  (page) =>
    page.evaluate(`(() => {
      const el = document.activeElement;
      if (!el) return '';
      return (el.type === 'checkbox' ? el.value : el.getAttribute('name') || el.textContent || '').trim();
    })()`) as Promise<string>,
);

const shopMethods = async (): Promise<string[]> =>
  (await call(h.t.app, 'GET', '/api/admin/settings/payment-methods', { token: shop.ownerToken })).data.method_codes;

async function setShopMethods(method_codes: string[]) {
  const res = await call(h.t.app, 'PUT', '/api/admin/settings/payment-methods', {
    token: shop.ownerToken,
    body: { method_codes },
  });
  if (res.statusCode !== 200) throw new Error(res.body);
}

async function channel(name: string) {
  const res = await call(h.t.app, 'POST', '/api/admin/channels', {
    token: shop.ownerToken,
    body: { name, default_country: 'DE', currency: 'EUR' },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return res.data.id as string;
}

async function noViolations(page: Page, name: string) {
  await shot(page, name);
  expect(await axe(page), name).toEqual([]);
}

beforeAll(async () => {
  if (skip) return;
  await h.start();
  shop = await createShop(h.t.app, { origins: [h.origin], name: 'Zahlladen' });
  inheriting = await channel('Ohne eigene Auswahl');
  own = await channel('Mit eigener Auswahl');
  const pick = await call(h.t.app, 'PUT', `/api/admin/channels/${own}/payment-methods`, {
    token: shop.ownerToken,
    body: { method_codes: ['invoice'] },
  });
  if (pick.statusCode !== 200) throw new Error(pick.body);
  viewer = { email: `viewer-${Date.now()}@shop.test`, password: 'viewer-password-1' };
  const res = await call(h.t.app, 'POST', '/api/admin/employees', {
    token: shop.ownerToken,
    body: { ...viewer, role: 'viewer', name: 'Vera Viewer' },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
}, 120_000);

afterAll(async () => {
  if (skip) return;
  await h.stop();
});

describe("the shop's payment methods", () => {
  it.skipIf(skip)(
    'the owner changes them from the screen; a channel without its own selection shows them',
    () =>
      h.inBrowser('payment-settings-owner', async (page) => {
        expect(await shopMethods()).toEqual(['card']);
        await h.open(page, '/admin/', shop.ownerEmail, OWNER_PASSWORD);
        const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
        await nav.getByRole('link', { name: 'Zahlungsarten', exact: true }).click();
        await page.getByRole('heading', { name: 'Zahlungsarten', level: 1 }).waitFor();
        await page.getByText(/Jeder Kanal ohne eigene Auswahl bietet genau diese Zahlungsarten an/).waitFor();
        const group = page.getByRole('group', { name: 'Angebotene Zahlungsarten' });
        expect(await group.getByRole('checkbox', { name: 'Karte' }).isChecked()).toBe(true);
        expect(await group.getByRole('checkbox', { name: 'PayPal' }).isChecked()).toBe(false);
        await noViolations(page, 'payment-settings-de');
        await h.docShot(page, 'payment-settings', 700);

        // none: the server refuses, and says so at the group (nothing changes)
        await group.getByRole('checkbox', { name: 'Karte' }).uncheck();
        await page.getByRole('button', { name: 'Zahlungsarten speichern' }).click();
        await group.getByText('Bitte mindestens eine Zahlungsart auswählen.').waitFor();
        expect(await group.getAttribute('aria-invalid')).toBe('true');
        await page.getByRole('alert').filter({ hasText: 'Bitte prüfen Sie die markierten Felder' }).waitFor();
        expect(await shopMethods()).toEqual(['card']);
        await noViolations(page, 'payment-settings-error-de');

        await group.getByRole('checkbox', { name: 'PayPal' }).check();
        await group.getByRole('checkbox', { name: 'SEPA-Lastschrift' }).check();
        await page.getByRole('button', { name: 'Zahlungsarten speichern' }).click();
        await page.getByRole('status').filter({ hasText: 'Zahlungsarten des Shops gespeichert.' }).waitFor();
        await expect.poll(shopMethods).toEqual(['paypal', 'sepa_debit']);
        expect(await group.getAttribute('aria-invalid')).toBeNull();
        expect(await group.getByRole('checkbox', { name: 'Karte' }).isChecked()).toBe(false);
        await page.getByText('Derzeit angeboten: PayPal, SEPA-Lastschrift.').waitFor();
        const inherited = await call(h.t.app, 'GET', `/api/admin/channels/${inheriting}/payment-methods`, {
          token: shop.ownerToken,
        });
        expect(inherited.data).toEqual({
          method_codes: [],
          inherited: true,
          effective_method_codes: ['paypal', 'sepa_debit'],
        });

        // the channel without its own selection names the new methods, linked to this screen
        await page.goto(`${h.origin}/admin/channels/${inheriting}`);
        const payment = page.getByRole('region', { name: 'Zahlungsarten' });
        await payment.getByText('(PayPal, SEPA-Lastschrift)', { exact: false }).waitFor();
        expect(await payment.textContent()).toContain(
          'Keine eigene Auswahl: Es gelten die Zahlungsarten des Shops (PayPal, SEPA-Lastschrift).',
        );
        await noViolations(page, 'payment-settings-channel-de');
        // a channel with its own selection keeps it
        await page.goto(`${h.origin}/admin/channels/${own}`);
        await page.getByText('Eigene Auswahl dieses Kanals.').waitFor();
        expect(await page.getByRole('checkbox', { name: 'Rechnung' }).isChecked()).toBe(true);
        await page.goto(`${h.origin}/admin/channels/${inheriting}`);
        await page.getByRole('link', { name: 'Zahlungsarten des Shops' }).click();
        await page.getByRole('heading', { name: 'Zahlungsarten', level: 1 }).waitFor();
        expect(page.url()).toBe(`${h.origin}/admin/settings/payment-methods`);
      }),
    60_000,
  );

  it.skipIf(skip)('in English, with axe', () =>
    h.inBrowser('payment-settings-en', async (page) => {
      await setShopMethods(['card', 'paypal']);
      await h.open(page, '/admin/settings/payment-methods', shop.ownerEmail, OWNER_PASSWORD, 'en');
      await page.getByRole('heading', { name: 'Payment methods', level: 1 }).waitFor();
      const group = page.getByRole('group', { name: 'Methods offered' });
      expect(await group.getByRole('checkbox', { name: 'Card' }).isChecked()).toBe(true);
      expect(await group.getByRole('checkbox', { name: 'SEPA Direct Debit' }).isChecked()).toBe(false);
      await page.getByRole('button', { name: 'Save payment methods' }).waitFor();
      await noViolations(page, 'payment-settings-en');
      await page.goto(`${h.origin}/admin/channels/${inheriting}`);
      const link = page.getByRole('link', { name: "shop's payment methods" });
      await link.waitFor();
      expect(await page.getByRole('region', { name: 'Payment methods' }).textContent()).toContain(
        "No selection of its own: the shop's payment methods apply (Card, PayPal).",
      );
    }),
  );

  it.skipIf(skip)('a viewer reads them, without a way to change them', () =>
    h.inBrowser('payment-settings-viewer', async (page) => {
      await setShopMethods(['card', 'klarna']);
      await h.open(page, '/admin/', viewer.email, viewer.password);
      await page
        .getByRole('navigation', { name: 'Hauptnavigation' })
        .getByRole('link', { name: 'Zahlungsarten', exact: true })
        .click();
      await page.getByRole('heading', { name: 'Zahlungsarten', level: 1 }).waitFor();
      await page.getByText('Nur Inhaber und Administratoren können die Zahlungsarten ändern.').waitFor();
      await page.getByText('Derzeit angeboten: Karte, Klarna.').waitFor();
      expect(await page.getByRole('checkbox').count()).toBe(0);
      expect(await page.getByRole('button', { name: 'Zahlungsarten speichern' }).count()).toBe(0);
      await noViolations(page, 'payment-settings-viewer-de');
      // the server refuses the viewer all the same
      const login = await call(h.t.app, 'POST', '/api/auth/login', { body: viewer });
      const refused = await call(h.t.app, 'PUT', '/api/admin/settings/payment-methods', {
        token: login.data.token,
        body: { method_codes: ['card'] },
      });
      expect(refused.statusCode).toBe(403);
      expect(await shopMethods()).toEqual(['card', 'klarna']);
    }),
  );

  it.skipIf(skip)('keyboard only: tick a method and save', () =>
    h.inBrowser('payment-settings-keyboard', async (page) => {
      await setShopMethods(['card']);
      await h.open(page, '/admin/settings/payment-methods', shop.ownerEmail, OWNER_PASSWORD);
      await page.getByRole('heading', { name: 'Zahlungsarten', level: 1 }).waitFor();
      await tabTo(page, (text) => text === 'twint');
      expect(await focusVisibleInViewport(page)).toBe(true);
      await page.keyboard.press('Space');
      await tabTo(page, (text) => text === 'Zahlungsarten speichern', 5);
      expect(await focusVisibleInViewport(page)).toBe(true);
      await page.keyboard.press('Enter');
      await page.getByRole('status').filter({ hasText: 'Zahlungsarten des Shops gespeichert.' }).waitFor();
      await expect.poll(shopMethods).toEqual(['card', 'twint']);
    }),
  );
});
