/**
 * The orders screens in Chromium (harness of admin.browser.test.ts): find an order by number and by
 * e-mail, filters and sort in the URL across a reload, saved views (create, apply, rename, delete),
 * a keyboard-only refund of one line with the server's preview (credit note, order state), a double
 * submission that refunds once, what a viewer and a channel-restricted admin see, German and
 * English, and axe (WCAG 2.1 A/AA) on the list, an order and the refund dialog in both languages.
 * Screenshots go to test/e2e/.screenshots/orders-*.png.
 */
import { execFileSync } from 'node:child_process';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AT_COMPANY,
  BILLING,
  type FinanceShop,
  finalInvoice,
  financeShop,
  paidOrder,
  payOnPage,
} from '../../../src/modules/finance/finance.fixtures.js';
import { call, STORE_ORIGIN, startApp, type TestApp } from '../../helpers/app.js';
import { startViesStub, type ViesStub } from '../../helpers/vies-stub.js';
import { axe, CHROMIUM, freePort, hasChromium, SHOTS, shot as screenshot, skip, tabber } from '../browser.js';

const PASSWORD = 'owner-password-1';

let t: TestApp;
let vies: ViesStub;
let origin: string;
let f: FinanceShop;
let browser: Browser | undefined;
let atChannel: string;
let ownerEmail: string;
const people = {
  viewer: { email: `viewer-${Date.now()}@shop.test`, password: 'viewer-pass-1' },
  restricted: { email: `at-admin-${Date.now()}@shop.test`, password: 'at-admin-pass-1' },
};
type Ord = { id: string; number: string; email: string };
let target: Ord; // refunded by keyboard
let doubled: Ord; // the double submission
let business: Ord; // reverse charge, VIES valid
let unpaid: Ord;
let total = 0;
const atOrders: Ord[] = [];

async function orderOf(id: string, email: string): Promise<Ord> {
  const res = await call(t.app, 'GET', `/api/admin/orders/${id}`, { token: f.owner });
  return { id, number: res.data.order.number, email };
}

const shot = (page: Page, name: string) => screenshot(page, `orders-${name}`);

async function inBrowser(name: string, fn: (page: Page) => Promise<void>, locale = 'de-DE'): Promise<void> {
  if (!browser) throw new Error(`${CHROMIUM} is missing (CI=true needs it)`);
  const context = await browser.newContext({ locale, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  try {
    await fn(page);
  } catch (err) {
    await shot(page, `failed-${name}`).catch(() => {});
    console.error(`screenshot of the failed page: ${SHOTS}/orders-failed-${name}.png (${page.url()})`);
    throw err;
  } finally {
    await context.close();
  }
}

async function signIn(page: Page, path: string, email: string, password: string, lang: 'de' | 'en' = 'de') {
  await page.goto(`${origin}/admin/sign-in?redirect=${encodeURIComponent(`/admin${path}`)}`);
  if (lang === 'en') await page.getByRole('button', { name: 'Switch to English' }).click();
  const l =
    lang === 'de'
      ? { email: 'E-Mail', password: 'Passwort', submit: 'Anmelden' }
      : { email: 'E-mail', password: 'Password', submit: 'Sign in' };
  await page.getByRole('textbox', { name: l.email }).fill(email);
  await page.getByLabel(l.password, { exact: true }).fill(password);
  await page.getByRole('button', { name: l.submit, exact: true }).click();
}

const tabTo = tabber(60);

const rows = (page: Page) => page.getByRole('table').first().locator('tbody tr');
const param = (page: Page, key: string) => new URL(page.url()).searchParams.get(key);

beforeAll(async () => {
  if (skip) return;
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs', '--web-only'], { stdio: 'inherit' });
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  vies = await startViesStub(['ATU12345678']);
  t = await startApp({ PUBLIC_URL: origin, VIES_API_URL: vies.url });
  await t.app.listen({ port, host: '127.0.0.1' });
  f = await financeShop(t);
  ownerEmail = f.shop.ownerEmail;
  const digital = [
    { product_id: f.products.course, quantity: 1 },
    { product_id: f.products.ebook, quantity: 2 },
  ];
  // a final invoice each: a refund by line makes a credit note at once
  const inv = await finalInvoice(t, f, {
    items: digital,
    email: 'renate.rueck@mail.test',
    billing: { ...BILLING, name: 'Renate Rückgabe' },
  });
  target = await orderOf(inv.order_id, 'renate.rueck@mail.test');
  const inv2 = await finalInvoice(t, f, { items: digital, email: 'doppelt@mail.test' });
  doubled = await orderOf(inv2.order_id, 'doppelt@mail.test');
  business = await orderOf(
    await paidOrder(t, f, {
      items: [{ product_id: f.products.course, quantity: 1 }],
      billing: AT_COMPANY,
      email: 'wien@firma.test',
    }),
    'wien@firma.test',
  );
  for (let i = 1; i <= 3; i++) await paidOrder(t, f, { email: `kunde${i}@mail.test` });
  // unpaid orders (direct flow)
  await call(t.app, 'PATCH', `/api/admin/channels/${f.channel}`, {
    token: f.owner,
    body: { allow_unpaid_orders: true },
  });
  for (let i = 1; i <= 2; i++) {
    const res = await call(t.app, 'POST', '/api/store/checkout-sessions', {
      token: f.shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: {
        items: [{ product_id: f.products.course, quantity: 1 }],
        customer: { email: `offen${i}@mail.test`, billing_address: BILLING },
        flow: 'direct',
        widerruf_verzicht: true,
        return_url: `${STORE_ORIGIN}/danke`,
      },
    });
    if (res.statusCode !== 201) throw new Error(res.body);
    unpaid = await orderOf(res.data.order_id, `offen${i}@mail.test`);
  }
  // a second channel (Austria, /at/api/store/…) with two paid orders
  const ch = await call(t.app, 'POST', '/api/admin/channels', {
    token: f.owner,
    body: { name: 'Österreich', currency: 'EUR', default_country: 'AT', path_prefix: 'at' },
  });
  if (ch.statusCode !== 201) throw new Error(ch.body);
  atChannel = ch.data.id;
  await call(t.app, 'PATCH', `/api/products/${f.products.course}/channels/${atChannel}`, {
    token: f.owner,
    body: { is_published: true },
  });
  for (let i = 1; i <= 2; i++) {
    const email = `at${i}@mail.test`;
    const billing = { ...BILLING, country: 'AT', postal_code: '1010', city: 'Wien', name: `Alpen ${i}` };
    const session = await call(t.app, 'POST', '/at/api/store/checkout-sessions', {
      token: f.shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: {
        items: [{ product_id: f.products.course, quantity: 1 }],
        customer: { email, billing_address: billing },
        return_url: `${STORE_ORIGIN}/danke`,
      },
    });
    if (session.statusCode !== 201) throw new Error(session.body);
    const paid = await payOnPage(t, session.data.id, billing);
    if (paid.statusCode !== 303) throw new Error(paid.body);
    const found = await call(t.app, 'GET', '/api/admin/orders', { token: f.owner, query: { q: email } });
    atOrders.push(await orderOf(found.data.orders[0].id, email));
  }
  total = (await call(t.app, 'GET', '/api/admin/orders', { token: f.owner })).data.count;
  for (const [who, role, channels] of [
    ['viewer', 'viewer', null],
    ['restricted', 'admin', [atChannel]],
  ] as const) {
    const p = people[who];
    const res = await call(t.app, 'POST', '/api/admin/employees', {
      token: f.owner,
      body: {
        email: p.email,
        password: p.password,
        role,
        name: who === 'viewer' ? 'Vera Viewer' : 'Anton Alpen',
        channel_ids: channels,
      },
    });
    if (res.statusCode !== 201) throw new Error(res.body);
  }
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
}, 240_000);

afterAll(async () => {
  await browser?.close();
  t?.app.server.closeAllConnections();
  await t?.close();
  await vies?.close();
}, 120_000);

describe('orders screens in Chromium', () => {
  it.skipIf(skip)(
    'finds an order by number and by e-mail; filters and sort live in the URL and survive a reload',
    async () => {
      await inBrowser('find', async (page) => {
        await signIn(page, '/orders', ownerEmail, PASSWORD);
        await page.getByRole('heading', { name: 'Bestellungen', level: 1 }).waitFor();
        await page.getByText(`${total} Bestellungen`).waitFor();
        const search = page.getByRole('searchbox', { name: 'Suche (Nummer, E-Mail oder Name)' });
        await search.fill(target.number);
        await search.press('Enter');
        await expect.poll(() => param(page, 'q')).toBe(target.number);
        await page.getByText('1 Bestellung', { exact: true }).waitFor();
        await page.getByRole('link', { name: target.number }).waitFor();
        await search.fill('doppelt@mail');
        await search.press('Enter');
        await page.getByRole('link', { name: doubled.number }).waitFor();
        expect(await rows(page).count()).toBe(1);
        await search.fill('Rückgabe');
        await search.press('Enter');
        await page.getByRole('link', { name: target.number }).waitFor();
        await search.fill('');
        // unpaid, in the default channel, sorted by total ascending
        await page.getByRole('combobox', { name: 'Zahlung' }).selectOption('false');
        await page.getByRole('combobox', { name: 'Kanal' }).selectOption(f.channel);
        await page.getByRole('button', { name: 'Anwenden' }).click();
        await expect.poll(() => param(page, 'paid')).toBe('false');
        expect(param(page, 'channel')).toBe(f.channel);
        await page.getByText('2 Bestellungen').waitFor();
        const totalHeader = page.getByRole('columnheader', { name: 'Summe' });
        expect(await totalHeader.getAttribute('aria-sort')).toBe('none');
        await totalHeader.getByRole('button').click();
        await expect.poll(() => param(page, 'sort')).toBe('total_cents');
        expect(await totalHeader.getAttribute('aria-sort')).toBe('ascending');
        await totalHeader.getByRole('button').click();
        await expect.poll(() => param(page, 'sort')).toBe('-total_cents');
        await page.reload();
        await page.getByText('2 Bestellungen').waitFor();
        expect(await page.getByRole('columnheader', { name: 'Summe' }).getAttribute('aria-sort')).toBe('descending');
        expect(await page.getByRole('combobox', { name: 'Zahlung' }).inputValue()).toBe('false');
        expect(await page.getByRole('combobox', { name: 'Kanal' }).inputValue()).toBe(f.channel);
        await shot(page, 'list-filtered-de');
        // the server sorted: by number ascending, the first row is the oldest order
        await page.goto(`${origin}/admin/orders?sort=number`);
        const first = (
          await call(t.app, 'GET', '/api/admin/orders', { token: f.owner, query: { sort: 'number', limit: '1' } })
        ).data.orders[0].number;
        await expect.poll(() => rows(page).first().locator('th').textContent()).toContain(first);
      });
    },
    120_000,
  );

  it.skipIf(skip)(
    'saves the current filters as a view, applies it, renames and deletes it (stored on the server)',
    async () => {
      await inBrowser('views', async (page) => {
        await signIn(page, '/orders?paid=true&sort=-total_cents', ownerEmail, PASSWORD);
        await page.getByRole('heading', { name: 'Bestellungen', level: 1 }).waitFor();
        await page.getByText('Noch keine gespeicherten Ansichten.').waitFor();
        await page.getByRole('textbox', { name: 'Name der Ansicht' }).fill('Bezahlt, größte zuerst');
        await page.getByRole('button', { name: 'Aktuelle Filter speichern' }).click();
        await page.getByText('Ansicht „Bezahlt, größte zuerst“ gespeichert.').waitFor();
        const views = await call(t.app, 'GET', '/api/admin/saved-views', {
          token: f.owner,
          query: { resource: 'orders' },
        });
        expect(views.data.views).toHaveLength(1);
        expect(views.data.views[0].query).toBe('limit=25&paid=true&sort=-total_cents');
        // apply it from the plain list
        await page.goto(`${origin}/admin/orders`);
        await page.getByRole('link', { name: 'Bezahlt, größte zuerst' }).click();
        await expect.poll(() => param(page, 'paid')).toBe('true');
        expect(param(page, 'sort')).toBe('-total_cents');
        await page.getByText(`${total - 2} Bestellungen`).waitFor();
        await shot(page, 'list-view-de');
        // rename
        await page.getByRole('button', { name: '„Bezahlt, größte zuerst“ umbenennen' }).click();
        const dialog = page.getByRole('dialog', { name: 'Ansicht umbenennen' });
        await dialog.getByRole('textbox', { name: 'Neuer Name' }).fill('Bezahlt');
        await dialog.getByRole('button', { name: 'Speichern' }).click();
        await page.getByRole('link', { name: 'Bezahlt', exact: true }).waitFor();
        // delete
        await page.getByRole('button', { name: '„Bezahlt“ löschen' }).click();
        await page.getByRole('dialog', { name: 'Ansicht löschen' }).getByRole('button', { name: 'Löschen' }).click();
        await page.getByText('Ansicht gelöscht.').waitFor();
        await page.getByText('Noch keine gespeicherten Ansichten.').waitFor();
      });
      const after = await call(t.app, 'GET', '/api/admin/saved-views', {
        token: f.owner,
        query: { resource: 'orders' },
      });
      expect(after.data.views).toHaveLength(0);
    },
    120_000,
  );

  it.skipIf(skip)(
    'refunds one line by keyboard alone: preview with the credit note, then the order state changes',
    async () => {
      const detail = await call(t.app, 'GET', `/api/admin/orders/${target.id}`, { token: f.owner });
      const ebook = detail.data.order.lines.find((l: { quantity: number }) => l.quantity === 2) as { id: string };
      await inBrowser('refund', async (page) => {
        await signIn(page, `/orders/${target.id}`, ownerEmail, PASSWORD);
        await page.getByRole('heading', { name: `Bestellung ${target.number}` }).waitFor();
        await page.getByRole('heading', { name: 'Verlauf' }).waitFor();
        await page.getByText('Rechnung festgeschrieben').first().waitFor();
        await shot(page, 'detail-de');
        await page.locator('main').focus();
        await tabTo(page, (text) => text === 'Erstatten', 120);
        await page.keyboard.press('Enter');
        const dialog = page.getByRole('dialog', { name: `Bestellung ${target.number} erstatten` });
        await dialog.waitFor();
        expect(await dialog.getByRole('radio', { name: 'Nach Positionen' }).isChecked()).toBe(true);
        await dialog.getByText('2 von 2 erstattbar', { exact: false }).waitFor();
        await tabTo(page, (name) => name === `qty-${ebook.id}`);
        await page.keyboard.press('ArrowUp');
        await tabTo(page, (name) => name === 'reason');
        await page.keyboard.type('Beschädigt angekommen');
        await dialog.getByText('Diese Gutschrift wird erstellt:').waitFor();
        await dialog.getByText('über den Test-Anbieter an den Kunden zurück', { exact: false }).waitFor();
        await dialog.getByText('„Teilweise erstattet“', { exact: false }).waitFor();
        await expect.poll(() => dialog.getByRole('table').textContent()).toContain('E-Book');
        expect(await axe(page), 'refund dialog de').toEqual([]);
        await shot(page, 'refund-dialog-de');
        // the dialog alone, tall enough to show all of it (docs/admin/refund-dialog.png)
        await page.setViewportSize({ width: 1280, height: 1400 });
        await dialog.screenshot({ path: `${SHOTS}/orders-refund-dialog-only-de.png` });
        await page.setViewportSize({ width: 1280, height: 800 });
        await tabTo(page, (text) => / erstatten$/.test(text));
        await page.keyboard.press('Enter');
        await page.getByText(/ erstattet\.$/).waitFor();
        await page.locator('.badge', { hasText: 'Teilweise erstattet' }).first().waitFor();
        await page.getByRole('link', { name: 'Gutschrift (PDF)' }).waitFor();
        await page.getByRole('rowheader', { name: /^Gutschrift GS-/ }).waitFor();
        await page.getByText('Erstattet', { exact: true }).first().waitFor();
        // the timeline words its entries in the page's language (the API's English detail is not shown)
        const timeline = page.getByRole('region', { name: 'Verlauf' });
        await timeline.getByText(/^1 Stück aus 1 Position\(en\) · über test · Grund: /).waitFor();
        await timeline.getByText(/^Gutschrift GS-/).waitFor();
        expect(await timeline.getByText(/finalized|created|requested/).count()).toBe(0);
        await shot(page, 'detail-refunded-de');
      });
      const order = await call(t.app, 'GET', `/api/admin/orders/${target.id}`, { token: f.owner });
      expect(order.data.order.status).toBe('partially_refunded');
      const refunds = await call(t.app, 'GET', `/api/admin/orders/${target.id}/refunds`, { token: f.owner });
      expect(refunds.data.refunds).toHaveLength(1);
      expect(refunds.data.refunds[0]).toMatchObject({ status: 'succeeded', reason: 'Beschädigt angekommen' });
      expect(refunds.data.refunds[0].credit_note_id).toMatch(/^cn_/);
    },
    120_000,
  );

  it.skipIf(skip)(
    'a double submission refunds once (one Idempotency-Key per dialog opening)',
    async () => {
      const keys: string[] = [];
      await inBrowser('double', async (page) => {
        page.on('request', (req) => {
          if (req.method() === 'POST' && new URL(req.url()).pathname === `/api/admin/orders/${doubled.id}/refunds`)
            keys.push(req.headers()['idempotency-key'] ?? '');
        });
        await signIn(page, `/orders/${doubled.id}`, ownerEmail, PASSWORD);
        await page.getByRole('button', { name: 'Erstatten' }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('radio', { name: 'Nach Betrag' }).check();
        await dialog.getByRole('textbox', { name: 'Betrag in EUR' }).fill('5,00');
        await dialog.getByRole('textbox', { name: /^Grund/ }).fill('Kulanz');
        const confirm = dialog.getByRole('button', { name: '5,00 € erstatten' });
        await confirm.waitFor();
        await expect.poll(() => confirm.isEnabled()).toBe(true);
        await confirm.dblclick();
        await page.getByText('5,00 € erstattet.').waitFor();
      });
      const refunds = await call(t.app, 'GET', `/api/admin/orders/${doubled.id}/refunds`, { token: f.owner });
      expect(refunds.data.refunds).toHaveLength(1);
      expect(refunds.data.refunds[0].amount_cents).toBe(500);
      expect(keys.length).toBeGreaterThanOrEqual(1);
      expect(new Set(keys).size).toBe(1);
      expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    },
    120_000,
  );

  it.skipIf(skip)(
    'a viewer sees no refund, mark-paid or invoice action; a restricted admin only their channel',
    async () => {
      await inBrowser('viewer', async (page) => {
        await signIn(page, `/orders/${unpaid.id}`, people.viewer.email, people.viewer.password);
        await page.getByRole('heading', { name: `Bestellung ${unpaid.number}` }).waitFor();
        await page.getByRole('heading', { name: 'Verlauf' }).waitFor();
        for (const name of ['Erstatten', 'Als bezahlt markieren', 'Stornieren', 'Rechnung anlegen']) {
          expect(await page.getByRole('button', { name }).count(), name).toBe(0);
        }
        await page.goto(`${origin}/admin/orders/${business.id}`);
        await page.getByRole('heading', { name: `Bestellung ${business.number}` }).waitFor();
        expect(await page.getByRole('button', { name: 'Erstatten' }).count()).toBe(0);
        await shot(page, 'detail-viewer-de');
      });
      await inBrowser('restricted', async (page) => {
        await signIn(page, '/orders', people.restricted.email, people.restricted.password);
        await page.getByText('2 Bestellungen').waitFor();
        for (const o of atOrders) await page.getByRole('link', { name: o.number }).waitFor();
        expect(await page.getByRole('link', { name: target.number }).count()).toBe(0);
        // the channel filter offers only their channel (none to choose)
        expect(await page.getByRole('combobox', { name: 'Kanal' }).count()).toBe(0);
        await shot(page, 'list-restricted-de');
        await page.goto(`${origin}/admin/orders/${target.id}`);
        await page.getByRole('alert').waitFor();
        expect(await page.getByRole('heading', { name: `Bestellung ${target.number}` }).count()).toBe(0);
      });
    },
    120_000,
  );

  it.skipIf(skip)(
    'shows the tax decision per line with VIES, and the order in English',
    async () => {
      await inBrowser('business', async (page) => {
        await signIn(page, `/orders/${business.id}`, ownerEmail, PASSWORD);
        await page.getByRole('heading', { name: `Bestellung ${business.number}` }).waitFor();
        await page.getByText('Steuerschuldnerschaft des Leistungsempfängers').first().waitFor();
        await page.getByText('Gültig (VIES)', { exact: false }).waitFor();
        await page.getByText(/geprüft \d/).waitFor();
        await shot(page, 'detail-business-de');
        await page.getByRole('button', { name: 'Switch to English' }).click();
        await page.getByRole('heading', { name: `Order ${business.number}` }).waitFor();
        await page.getByText('Reverse charge').first().waitFor();
        await page.getByText('Valid (VIES)', { exact: false }).waitFor();
        await page.getByText('Order placed').waitFor();
        await shot(page, 'detail-business-en');
      });
    },
    120_000,
  );

  for (const lang of ['de', 'en'] as const) {
    it.skipIf(skip)(
      `has no WCAG 2.1 AA violation (axe) on the list, an order and the refund dialog (${lang})`,
      async () => {
        await inBrowser(
          `axe-${lang}`,
          async (page) => {
            await signIn(page, '/orders?sort=-total_cents', ownerEmail, PASSWORD, lang);
            await page.getByRole('heading', { name: lang === 'de' ? 'Bestellungen' : 'Orders', level: 1 }).waitFor();
            await page.getByRole('table').getByRole('link').first().waitFor();
            expect(await axe(page), `list ${lang}`).toEqual([]);
            await shot(page, `list-${lang}`);
            await page.goto(`${origin}/admin/orders/${target.id}`);
            await page.getByRole('heading', { level: 2, name: lang === 'de' ? 'Verlauf' : 'Timeline' }).waitFor();
            await page
              .getByRole('rowheader', { name: lang === 'de' ? /^Gutschrift GS-/ : /^Credit note GS-/ })
              .waitFor();
            expect(await axe(page), `order ${lang}`).toEqual([]);
            await shot(page, `detail-${lang}`);
            await page.getByRole('button', { name: lang === 'de' ? 'Erstatten' : 'Refund', exact: true }).click();
            const dialog = page.getByRole('dialog');
            await dialog.getByRole('radio', { name: lang === 'de' ? 'Nach Betrag' : 'By amount' }).check();
            await dialog.getByRole('textbox', { name: lang === 'de' ? 'Betrag in EUR' : 'Amount in EUR' }).fill('1');
            await dialog.getByText(lang === 'de' ? 'Was geschieht' : 'What will happen').waitFor();
            await dialog
              .getByText(lang === 'de' ? 'Diese Gutschrift wird erstellt:' : 'This credit note will be created:')
              .waitFor();
            // a field error shown too: submit without a reason
            await dialog.getByRole('button', { name: lang === 'de' ? '1,00 € erstatten' : 'Refund €1.00' }).click();
            await dialog.getByText(lang === 'de' ? 'Bitte einen Grund angeben.' : 'Please give a reason.').waitFor();
            expect(await axe(page), `refund dialog ${lang}`).toEqual([]);
            await shot(page, `refund-dialog-amount-${lang}`);
            await page.keyboard.press('Escape');
          },
          lang === 'de' ? 'de-DE' : 'en-GB',
        );
        // nothing was refunded by the dialog left open
        const refunds = await call(t.app, 'GET', `/api/admin/orders/${target.id}/refunds`, { token: f.owner });
        expect(refunds.data.refunds).toHaveLength(1);
      },
      120_000,
    );
  }
});
