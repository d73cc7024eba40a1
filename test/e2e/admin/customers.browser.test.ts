/**
 * Kunden and Einstellungen (Betrieb) in Chromium (harness.ts): find a customer by e-mail, see its
 * orders, suspend and restore sign-in (restore by keyboard), export the data as JSON (a download);
 * a guest buyer by e-mail; change the checkout settings (a 400 at its field) and create, edit and
 * delete a shipping method from the screen; a failed e-mail in the outbox reached from the Heute
 * tile (no token shown); the payment events, rejected and refunded ones explained; what a viewer
 * sees (nothing to change); German and English with axe (WCAG 2.1 A/AA) on each screen.
 * Screenshots go to test/e2e/.screenshots/customers-*.png and settings-*.png.
 *
 * The app sends mail through a local SMTP stub that refuses every recipient at fail.test, so
 * that an e-mail ends `failed` after its last attempt (the simulated clock is advanced). Orders are
 * paid through the Stripe adapter against a local stub with signed webhook events, so the payment
 * events hold a processed one per order, a rejected one (a forged amount) and a refunded one (a
 * late payment whose stock was sold meanwhile; the stub answers the refund).
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { Page } from 'playwright-core';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING, type FinanceShop, financeShop } from '../../../src/modules/finance/finance.fixtures.js';
import { call, STORE_ORIGIN } from '../../helpers/app.js';
import { type StripeStub, startStripeStub } from '../../helpers/stripe-stub.js';
import { axe, focused, shot, skip, tabber } from '../browser.js';
import { adminHarness } from './harness.js';

const h = adminHarness();
const OWNER_PASSWORD = 'owner-password-1';
const viewer = { email: `vera-${Date.now()}@shop.test`, password: 'viewer-pass-1' };
const ACCOUNT = 'konto.kundin@mail.test';
const GUEST = 'gast.kaeufer@mail.test';
const FAILING = 'niemand@fail.test';
const WEBHOOK_SECRET = 'whsec_customers_e2e';
let f: FinanceShop;
let smtp: Server;
let stripe: StripeStub;
/** Our checkout session id → the stub's Checkout Session id. */
const providerIds = new Map<string, string>();
let accountId: string;
let accountOrder: { id: string; number: string };

/** An SMTP server that accepts every message except to recipients at fail.test (550). */
function smtpStub(): Server {
  return createServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 stub ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      while (true) {
        if (data) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          buffer = buffer.slice(end + 5);
          data = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') socket.write('250-stub\r\n250 8BITMIME\r\n');
        else if (cmd === 'RCPT')
          socket.write(/@fail\.test>/i.test(line) ? '550 mailbox unavailable\r\n' : '250 ok\r\n');
        else if (cmd === 'DATA') {
          data = true;
          socket.write('354 go on\r\n');
        } else if (cmd === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
}

const owner = (page: Page, path: string, lang: 'de' | 'en' = 'de') =>
  h.open(page, path, f.shop.ownerEmail, OWNER_PASSWORD, lang);

async function clean(page: Page) {
  expect(await axe(page)).toEqual([]);
}

const register = (email: string) =>
  call(h.t.app, 'POST', '/api/customer/register', {
    token: f.shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: { email, password: 'customer-pass-1' },
  });

const tabTo = tabber(40);

/** A hosted checkout of one unit of `product` (the cheese unless given) to `email`. */
async function checkoutOf(email: string, name: string, product = f.products.cheese) {
  const session = await call(h.t.app, 'POST', '/api/store/checkout-sessions', {
    token: f.shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: {
      items: [{ product_id: product, quantity: 1 }],
      customer: { email, billing_address: { ...BILLING, name } },
      shipping_address: BILLING,
      shipping_method_id: f.shipping,
      return_url: `${STORE_ORIGIN}/danke`,
    },
  });
  expect(session.statusCode, session.body).toBe(201);
  return { id: session.data.id as string, total: session.data.total_cents as number, email };
}

/** Stripe's signed checkout.session.completed for our session; the order it made, if any. */
async function complete(session: { id: string; total: number; email: string }, paidCents = session.total) {
  const ours = session.id;
  const payload = JSON.stringify({
    id: `evt_${ours}`,
    object: 'event',
    type: 'checkout.session.completed',
    data: {
      object: {
        id: providerIds.get(ours),
        object: 'checkout.session',
        mode: 'payment',
        payment_status: 'paid',
        payment_intent: `pi_${ours}`,
        amount_total: paidCents,
        currency: 'eur',
        metadata: { checkout_session_id: ours },
      },
    },
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  const hook = await call(h.t.app, 'POST', '/api/webhooks/stripe', {
    body: payload,
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
  });
  expect(hook.statusCode, hook.body).toBe(200);
  const found = await call(h.t.app, 'GET', '/api/admin/orders', { token: f.owner, query: { q: session.email } });
  return found.data.orders[0] as { id: string; number: string } | undefined;
}

const stripeOrder = async (email: string, name: string, paidCents?: number) => {
  const session = await checkoutOf(email, name);
  return complete(session, paidCents);
};

beforeAll(async () => {
  if (skip) return;
  smtp = smtpStub();
  await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
  const port = (smtp.address() as { port: number }).port;
  stripe = await startStripeStub(async (req, res, body) => {
    if (req.method === 'POST' && req.url === '/v1/refunds') {
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_stub' });
      res.end(
        JSON.stringify({
          id: `re_${body.get('metadata[refund_id]')}`,
          object: 'refund',
          status: 'succeeded',
          amount: Number(body.get('amount')),
          payment_intent: body.get('payment_intent'),
          metadata: { refund_id: body.get('metadata[refund_id]') },
        }),
      );
      return;
    }
    if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
      const id = `cs_test_${providerIds.size}`;
      providerIds.set(body.get('metadata[checkout_session_id]') ?? '', id);
      res.writeHead(200, { 'content-type': 'application/json', 'request-id': 'req_stub' });
      res.end(JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.test/c/pay/${id}` }));
      return;
    }
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'unknown' } }));
  });
  await h.start({
    SMTP_URL: `smtp://127.0.0.1:${port}`,
    MAIL_FROM: 'shop@service.test',
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_123',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: stripe.url,
  });
  const t = h.t;
  f = await financeShop(t);
  // an e-mail that can never be delivered: 8 attempts, then failed
  expect((await register(FAILING)).statusCode).toBe(202);
  const db = t.app.deps.database.db;
  for (let i = 0; i < 9; i++) {
    await t.app.deps.worker.drain();
    await t.app.deps.clock.advance(db, 8 * 3600);
  }
  // an account (not verified) with an order, and a guest buyer
  expect((await register(ACCOUNT)).statusCode).toBe(202);
  const paid = await stripeOrder(ACCOUNT, 'Karla Konto');
  if (!paid) throw new Error('the account’s order was not created');
  accountOrder = { id: paid.id, number: paid.number };
  expect(await stripeOrder(GUEST, 'Gustav Gast')).toBeDefined();
  // paid, but not the amount asked: rejected, no order
  expect(await stripeOrder('falscher.betrag@mail.test', 'Falk Falsch', 100)).toBeUndefined();
  // a late payment whose stock is gone: refunded in full, no order
  const last = await call(t.app, 'POST', '/api/products', {
    token: f.owner,
    body: { name: 'Letztes Stück', status: 'published', base_price_cents: 2500, track_stock: true, stock_quantity: 1 },
  });
  await call(t.app, 'PATCH', `/api/products/${last.data.id}/channels/${f.channel}`, {
    token: f.owner,
    body: { is_published: true },
  });
  const late = await checkoutOf('zu.spaet@mail.test', 'Zoe Spät', last.data.id);
  await t.app.deps.clock.advance(db, (t.config.checkoutReservationMinutes + 5) * 60);
  await t.app.deps.worker.drain();
  expect(await complete(await checkoutOf('schneller@mail.test', 'Sven Schnell', last.data.id))).toBeDefined();
  expect(await complete(late)).toBeUndefined();
  const found = await call(t.app, 'GET', '/api/admin/customers', { token: f.owner, query: { q: ACCOUNT } });
  accountId = found.data.customers[0].id;
  const emp = await call(t.app, 'POST', '/api/admin/employees', {
    token: f.owner,
    body: { ...viewer, role: 'viewer', name: 'Vera Viewer' },
  });
  expect(emp.statusCode, emp.body).toBe(201);
  await t.app.deps.worker.drain();
}, 240_000);

afterAll(async () => {
  if (skip) return;
  await h.stop();
  await stripe.close();
  await new Promise((r) => smtp.close(r));
});

const customer = async () =>
  (await call(h.t.app, 'GET', `/api/admin/customers/${accountId}`, { token: f.owner })).data.customer;

describe.skipIf(skip)('Kunden', () => {
  it('finds a customer by e-mail, sees its orders, suspends, restores by keyboard and exports JSON', () =>
    h.inBrowser('customers-main', async (page) => {
      await owner(page, '/admin/');
      await page
        .getByRole('navigation', { name: 'Hauptnavigation' })
        .getByRole('link', { name: 'Kunden', exact: true })
        .click();
      await page.getByRole('heading', { name: 'Kunden', level: 1 }).waitFor();
      await page.getByRole('searchbox', { name: 'Suche' }).fill('konto.kundin');
      await page.getByRole('button', { name: 'Anwenden' }).click();
      await page.waitForURL(/q=konto\.kundin/);
      const row = page.getByRole('row').filter({ hasText: ACCOUNT });
      await row.getByText('Nicht bestätigt').waitFor();
      // the previous page stays on screen until the filtered one arrives
      await expect.poll(() => page.locator('tbody tr').count(), { timeout: 20_000 }).toBe(1);
      await clean(page);
      await shot(page, 'customers-list');
      await page.getByRole('link', { name: ACCOUNT }).click();
      await page.getByRole('heading', { name: `Kunde ${ACCOUNT}`, level: 1 }).waitFor();
      const orders = page.getByRole('region', { name: 'Bestellungen' });
      await orders.getByRole('link', { name: accountOrder.number }).waitFor();
      expect(await orders.getByRole('link', { name: accountOrder.number }).getAttribute('href')).toBe(
        `/admin/orders/${accountOrder.id}`,
      );
      await clean(page);
      await shot(page, 'customers-detail');

      // suspend: a dialog says what happens
      await page.getByRole('button', { name: 'Anmeldung sperren' }).click();
      const dialog = page.getByRole('dialog', { name: 'Anmeldung sperren' });
      await dialog.getByText('alle laufenden Sitzungen enden sofort').waitFor();
      await clean(page);
      await shot(page, 'customers-suspend-dialog');
      await dialog.getByRole('button', { name: 'Anmeldung sperren' }).click();
      await page.getByText('Gesperrt', { exact: true }).first().waitFor();
      expect((await customer()).suspended).toBe(true);

      // restore by keyboard: Tab to the button, Enter, Tab to the confirmation, Enter
      await page.getByRole('link', { name: /Zurück zu den Kunden/ }).focus();
      await tabTo(page, (text) => text === 'Anmeldung wieder erlauben');
      await page.keyboard.press('Enter');
      const back = page.getByRole('dialog', { name: 'Anmeldung wieder erlauben' });
      await back.waitFor();
      await tabTo(page, (text) => text === 'Anmeldung wieder erlauben', 4);
      expect(await focused(page)).toBe('Anmeldung wieder erlauben');
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'Anmeldung sperren' }).waitFor();
      expect((await customer()).suspended).toBe(false);

      // resend the verification e-mail
      await page.getByRole('button', { name: 'Bestätigungs-E-Mail erneut senden' }).click();
      await page.getByText('Bestätigungs-E-Mail ist unterwegs.').waitFor();

      // GDPR export: a download of the JSON
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Daten als JSON exportieren' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`customer-${accountId}.json`);
      const data = JSON.parse(readFileSync((await download.path()) as string, 'utf8'));
      expect(data.account).toMatchObject({ id: accountId, email: ACCOUNT });
      expect(data.orders.map((o: { number: string }) => o.number)).toContain(accountOrder.number);
      expect(JSON.stringify(data)).not.toMatch(/password_hash|verify_[A-Za-z0-9_-]{20,}/);
    }));

  it('shows a guest buyer by e-mail, linked to the orders of that e-mail', () =>
    h.inBrowser('customers-guest', async (page) => {
      await owner(page, '/admin/customers?kind=guest&q=gast.kaeufer');
      await page.getByRole('heading', { name: 'Kunden', level: 1 }).waitFor();
      const row = page.getByRole('row').filter({ hasText: GUEST });
      await row.getByText('Gast', { exact: true }).waitFor();
      expect(await page.getByRole('combobox', { name: 'Art' }).inputValue()).toBe('guest');
      await row.getByRole('link', { name: `Bestellungen von ${GUEST}` }).click();
      await page.getByRole('heading', { name: 'Bestellungen', level: 1 }).waitFor();
      await page.waitForURL(/q=gast\.kaeufer/);
      await page.getByRole('row').filter({ hasText: GUEST }).first().waitFor();
    }));
});

describe.skipIf(skip)('Einstellungen (Betrieb)', () => {
  it('changes the checkout settings: the line maximum (400 at the field), reservation shown, VIES fallback', () =>
    h.inBrowser('settings-checkout', async (page) => {
      await owner(page, '/admin/');
      const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
      await nav.getByRole('link', { name: 'Kasse' }).click();
      await page.getByRole('heading', { name: 'Kasse', level: 1 }).waitFor();
      // the hosted reservation is the server's setting, shown as the API says it
      const { hosted_reservation_minutes: minutes } = (
        await call(h.t.app, 'GET', '/api/admin/settings/checkout', { token: f.owner })
      ).data;
      expect(minutes).toBe(h.t.config.checkoutReservationMinutes);
      await page.getByRole('region', { name: 'Reservierung' }).getByText(`${minutes} Minuten`).waitFor();
      const max = page.getByRole('spinbutton', { name: 'Höchstmenge je Produkt und Variante' });
      await max.fill('0');
      await page.getByRole('region', { name: 'Mengen' }).getByRole('button', { name: 'Speichern' }).click();
      await expect.poll(() => max.getAttribute('aria-invalid')).toBe('true');
      await max.fill('7');
      await page.getByRole('region', { name: 'Mengen' }).getByRole('button', { name: 'Speichern' }).click();
      await page.getByText('Kasseneinstellungen gespeichert.').waitFor();
      const checkout = await call(h.t.app, 'GET', '/api/admin/settings/checkout', { token: f.owner });
      expect(checkout.data.max_line_quantity).toBe(7);
      await page.getByRole('radio', { name: /USt-IdNr\. annehmen/ }).check();
      await page.getByRole('region', { name: 'Steuer' }).getByRole('button', { name: 'Speichern' }).click();
      await page.getByText('Steuereinstellungen gespeichert.').waitFor();
      const company = await call(h.t.app, 'GET', '/api/admin/settings/company', { token: f.owner });
      expect(company.data).toMatchObject({ vies_unavailable: 'accept_unverified', oss_registered: true });
      await clean(page);
      await shot(page, 'settings-checkout');
    }));

  it('creates, edits and deletes a shipping method from the screen', () =>
    h.inBrowser('settings-shipping', async (page) => {
      await owner(page, '/admin/settings/shipping');
      await page.getByRole('heading', { name: 'Versandarten', level: 1 }).waitFor();
      const form = page.getByRole('region', { name: 'Neue Versandart' });
      await form.getByRole('textbox', { name: 'Name' }).fill('Express');
      await form.getByRole('textbox', { name: /Preis/ }).fill('12,5x');
      await form.getByRole('button', { name: 'Neue Versandart' }).click();
      await form.getByText('Bitte einen Betrag wie 4,90 eingeben.').waitFor();
      await form.getByRole('textbox', { name: /Preis/ }).fill('12,50');
      await form.getByRole('textbox', { name: /Länder/ }).fill('de, at');
      await form.getByRole('button', { name: 'Neue Versandart' }).click();
      await page.getByText('Versandart angelegt.').waitFor();
      const row = page.getByRole('row').filter({ hasText: 'Express' });
      await row.getByText('12,50').waitFor();
      const listed = async () =>
        (await call(h.t.app, 'GET', '/api/admin/shipping-methods', { token: f.owner })).data.shipping_methods.find(
          (m: { name: string }) => m.name === 'Express',
        );
      expect(await listed()).toMatchObject({ price_cents: 1250, countries: ['DE', 'AT'], is_active: true });
      await clean(page);
      await shot(page, 'settings-shipping');

      await row.getByRole('button', { name: 'Versandart „Express“ bearbeiten' }).click();
      const edit = page.getByRole('dialog', { name: 'Versandart „Express“ bearbeiten' });
      await edit.getByRole('textbox', { name: /Preis/ }).fill('9,90');
      await edit.getByRole('checkbox', { name: /Aktiv/ }).uncheck();
      await clean(page);
      await edit.getByRole('button', { name: 'Speichern' }).click();
      await page.getByText('Versandart gespeichert.').waitFor();
      expect(await listed()).toMatchObject({ price_cents: 990, is_active: false });
      await row.getByText('Inaktiv').waitFor();

      await row.getByRole('button', { name: 'Versandart „Express“ löschen' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Löschen' }).click();
      await page.getByText('Versandart gelöscht.').waitFor();
      expect(await listed()).toBeUndefined();
    }));

  it('opens the failed e-mails from the Heute tile: status, error, no token', () =>
    h.inBrowser('settings-emails', async (page) => {
      await owner(page, '/admin/');
      await page.getByRole('link', { name: 'Nicht versandte E-Mails (7 Tage): Liste öffnen' }).click();
      await page.getByRole('heading', { name: 'E-Mail-Ausgang', level: 1 }).waitFor();
      await page.waitForURL(/status=failed/);
      const row = page.getByRole('row').filter({ hasText: FAILING });
      await row.getByText('Fehlgeschlagen').waitFor();
      await row.getByText(/Letzter Fehler: .*550/).waitFor();
      await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
      await page.getByText(/Erneut senden ist nicht möglich/).waitFor();
      await row.locator('summary').click();
      const text = (await page.locator('main').textContent()) ?? '';
      expect(text).toContain('[redacted]');
      expect(text).not.toMatch(/verify_[A-Za-z0-9_-]{20,}/);
      await clean(page);
      await shot(page, 'settings-emails');
      // all statuses: the delivered ones too
      await page.getByRole('combobox', { name: 'Status' }).selectOption('');
      await page.getByRole('button', { name: 'Anwenden' }).click();
      await page.getByRole('row').filter({ hasText: ACCOUNT }).first().waitFor();
    }));

  it('lists the payment events; rejected and refunded ones are explained, the filter lives in the URL', () =>
    h.inBrowser('settings-events', async (page) => {
      await owner(page, '/admin/settings/payment-events');
      await page.getByRole('heading', { name: 'Zahlungsereignisse', level: 1 }).waitFor();
      await page.getByText('5 Ereignisse').waitFor();
      const orderRow = page
        .getByRole('row')
        .filter({ has: page.locator(`a[href="/admin/orders/${accountOrder.id}"]`) });
      await orderRow.getByText('Verarbeitet').waitFor();
      await orderRow.getByRole('link', { name: 'Bestellung ansehen' }).waitFor();
      const rejected = page.getByRole('row').filter({ hasText: 'Abgelehnt' });
      await rejected.getByText(/Bezahlt, aber nicht angewendet/).waitFor();
      await rejected.getByText(/amount_mismatch/).waitFor();
      const refunded = page.getByRole('row').filter({ hasText: 'Erstattet' });
      await refunded.getByText(/Verspätete Zahlung: Der Bestand war nicht mehr verfügbar/).waitFor();
      await refunded.getByText(/late_payment_out_of_stock/).waitFor();
      await clean(page);
      await shot(page, 'settings-events');
      await page.getByRole('combobox', { name: 'Status' }).selectOption('rejected');
      await page.getByRole('button', { name: 'Anwenden' }).click();
      await page.waitForURL(/status=rejected/);
      await page.getByText('1 Ereignis', { exact: true }).waitFor();
      await page.getByRole('status').or(page.locator('.alert-info')).first().waitFor();
      await page.reload();
      expect(await page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('rejected');
      await clean(page);
    }));
});

describe.skipIf(skip)('roles and languages', () => {
  it('a viewer reads customers and shipping methods but cannot change them', () =>
    h.inBrowser('customers-viewer', async (page) => {
      await h.open(page, `/admin/customers/${accountId}`, viewer.email, viewer.password);
      await page.getByRole('heading', { name: `Kunde ${ACCOUNT}`, level: 1 }).waitFor();
      expect(await page.getByRole('button', { name: 'Anmeldung sperren' }).count()).toBe(0);
      expect(await page.getByRole('link', { name: 'Daten als JSON exportieren' }).count()).toBe(0);
      const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
      expect(await nav.getByRole('link', { name: 'Kasse' }).count()).toBe(0);
      expect(await nav.getByRole('link', { name: 'E-Mail-Ausgang' }).count()).toBe(0);
      await nav.getByRole('link', { name: 'Versandarten' }).click();
      await page.getByRole('heading', { name: 'Versandarten', level: 1 }).waitFor();
      await page.getByRole('row').filter({ hasText: 'DHL' }).waitFor();
      expect(await page.getByRole('region', { name: 'Neue Versandart' }).count()).toBe(0);
      expect(await page.getByRole('button', { name: /bearbeiten|löschen/ }).count()).toBe(0);
      await page.getByText('Nur Inhaber und Administratoren können Versandarten ändern.').waitFor();
      await clean(page);
      await shot(page, 'settings-shipping-viewer');
    }));

  it('every screen in English, axe clean', () =>
    h.inBrowser('customers-en', async (page) => {
      await owner(page, '/admin/', 'en');
      const screens: [string, string, string][] = [
        ['/admin/customers', 'Customers', 'customers-list-en'],
        [`/admin/customers/${accountId}`, `Customer ${ACCOUNT}`, 'customers-detail-en'],
        ['/admin/settings/checkout', 'Checkout', 'settings-checkout-en'],
        ['/admin/settings/shipping', 'Shipping methods', 'settings-shipping-en'],
        ['/admin/settings/payment-events', 'Payment events', 'settings-events-en'],
        ['/admin/settings/emails?status=failed', 'E-mail outbox', 'settings-emails-en'],
      ];
      for (const [path, heading, name] of screens) {
        await page.goto(`${h.origin}${path}`);
        await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
        await page.locator('main table, main form').first().waitFor();
        expect(await page.locator('html').getAttribute('lang')).toBe('en');
        await clean(page);
        await shot(page, name);
      }
      await page.goto(`${h.origin}/admin/customers/${accountId}`);
      await page.getByRole('button', { name: 'Suspend sign-in' }).click();
      await page.getByRole('dialog', { name: 'Suspend sign-in' }).getByText('every open session ends').waitFor();
      await clean(page);
    }));
});
