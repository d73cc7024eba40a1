/**
 * Access and webhooks in Chromium: inviting a viewer restricted to one channel, the owner's own
 * removal refused (own_account) and a suspension; an API token whose secret is shown once (and
 * works); a publishable key and the token write policy; a webhook destination on a local receiver
 * whose first delivery fails (500), resent from the screen and verified with standardwebhooks and
 * the secret the screen showed; the storefront settings; what an admin and a viewer do not get;
 * German and English with axe on every screen; a keyboard-only token creation.
 *
 * Skipped when /usr/bin/chromium is absent, unless CI=true: then it fails.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RETRY_SCHEDULE_MS } from '../../../src/modules/webhooks/webhooks.service.js';
import { call, createShop, type ShopFixture } from '../../helpers/app.js';
import { axe, focused, shot, skip, tabber } from '../browser.js';
import { adminHarness } from './harness.js';

const OWNER_PASSWORD = 'owner-password-1';
const h = adminHarness();
let shop: ShopFixture;
let secondChannel: string;
let admin: { email: string; password: string };
let viewer: { email: string; password: string };

// ---- a webhook receiver on 127.0.0.1: answers 500 until told to accept ----
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
let accept = false;
let server: Server;
let receiverUrl = '';

const tabTo = tabber(40);

async function employee(role: 'admin' | 'viewer') {
  const who = { email: `${role}-${Date.now()}@shop.test`, password: `${role}-password-1` };
  const res = await call(h.t.app, 'POST', '/api/admin/employees', {
    token: shop.ownerToken,
    body: { ...who, role, name: role === 'admin' ? 'Anna Admin' : 'Vera Viewer' },
  });
  if (res.statusCode !== 201) throw new Error(res.body);
  return who;
}

async function noViolations(page: Page, name: string) {
  await shot(page, name);
  expect(await axe(page), name).toEqual([]);
}

beforeAll(async () => {
  if (skip) return;
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => {
      body += c;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(accept ? 204 : 500, { 'content-type': 'text/plain' });
      res.end(accept ? '' : 'Empfänger kaputt');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/shop`;
  await h.start();
  shop = await createShop(h.t.app, { origins: [h.origin], name: 'Zugangsladen' });
  const ch = await call(h.t.app, 'POST', '/api/admin/channels', {
    token: shop.ownerToken,
    body: { name: 'Großhandel', default_country: 'DE', currency: 'EUR' },
  });
  if (ch.statusCode !== 201) throw new Error(ch.body);
  secondChannel = ch.data.id;
  admin = await employee('admin');
  viewer = await employee('viewer');
}, 120_000);

afterAll(async () => {
  if (skip) return;
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await h.stop();
});

describe('access and webhooks', () => {
  it.skipIf(skip)('employees: invite a viewer restricted to one channel, own removal refused, suspend', () =>
    h.inBrowser('access-employees', async (page) => {
      await h.open(page, '/admin/', shop.ownerEmail, OWNER_PASSWORD);
      const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
      await nav.getByRole('link', { name: 'Mitarbeitende' }).click();
      await page.getByRole('heading', { name: 'Mitarbeitende', level: 1 }).waitFor();
      const invite = page.getByRole('region', { name: 'Mitarbeiter:in einladen' });
      const email = `neu-${Date.now()}@shop.test`;
      await invite.getByRole('textbox', { name: 'E-Mail' }).fill(email);
      await invite.getByRole('textbox', { name: 'Name' }).fill('Nora Neu');
      await invite.getByRole('combobox', { name: 'Rolle' }).selectOption('viewer');
      await invite.getByLabel('Startpasswort').fill('kurz');
      await invite.getByRole('checkbox', { name: 'Auf bestimmte Kanäle beschränken' }).check();
      await invite.getByRole('checkbox', { name: 'Großhandel' }).check();
      await invite.getByRole('button', { name: 'Einladen' }).click();
      // the server's password rule lands at the field
      await expect.poll(() => invite.getByLabel('Startpasswort').getAttribute('aria-invalid')).toBe('true');
      await invite.getByLabel('Startpasswort').fill('ein-gutes-passwort');
      await invite.getByRole('button', { name: 'Einladen' }).click();
      const row = page.getByRole('row', { name: /Nora Neu/ });
      await row.waitFor();
      await expect.poll(() => row.textContent()).toContain('Nur lesen');
      await expect.poll(() => row.textContent()).toContain('Großhandel');
      const list = await call(h.t.app, 'GET', '/api/admin/employees', { token: shop.ownerToken });
      const created = list.data.employees.find((e: { email: string }) => e.email === email);
      expect(created).toMatchObject({ role: 'viewer', channel_restricted: true, channel_ids: [secondChannel] });
      await noViolations(page, 'access-employees-de');

      // the owner cannot remove themselves: the server says so in the dialog
      const me = page.getByRole('row', { name: new RegExp(shop.ownerEmail.replace(/[.]/g, '\\.')) });
      await me.getByRole('button', { name: /entfernen$/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: 'Entfernen' }).click();
      await dialog.getByRole('alert').getByText('Das eigene Konto kann man weder entfernen noch sperren.').waitFor();
      await shot(page, 'access-employees-own-account');
      await dialog.getByRole('button', { name: 'Abbrechen' }).click();

      // suspend the new viewer: they can no longer sign in
      await row.getByRole('button', { name: 'Nora Neu sperren' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Sperren' }).click();
      await row.getByText('Gesperrt').waitFor();
      const login = await call(h.t.app, 'POST', '/api/auth/login', {
        body: { email, password: 'ein-gutes-passwort' },
      });
      expect(login.data.code).toBe('employee_suspended');
      await h.docShot(page, 'access-employees');
    }),
  );

  it.skipIf(skip)('API access: a token by keyboard, its secret shown once; a key; the write policy', () =>
    h.inBrowser('access-api', async (page) => {
      await h.open(page, '/admin/access/api', shop.ownerEmail, OWNER_PASSWORD);
      await page.getByRole('heading', { name: 'API-Zugänge', level: 1 }).waitFor();
      // keyboard only: into the name field, a scope with Space, submit with Enter
      await page.getByRole('heading', { name: 'API-Zugänge', level: 1 }).click();
      await tabTo(page, (text) => text === 'name');
      await page.keyboard.type('Warenwirtschaft');
      await page.keyboard.press('Tab');
      expect(await focused(page)).toBe('scopes');
      await page.keyboard.press('Space');
      await tabTo(page, (text) => text === 'Token anlegen', 5);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Ihr neues API-Token' });
      await dialog.waitFor();
      await dialog.getByText('Es wird nicht noch einmal angezeigt').waitFor();
      const secret = await dialog.getByRole('textbox', { name: 'Token' }).inputValue();
      expect(secret.length).toBeGreaterThan(20);
      await dialog.getByRole('button', { name: 'Kopieren' }).waitFor();
      await noViolations(page, 'access-api-secret-de');
      // the token works with its scope, and is not shown again
      const products = await call(h.t.app, 'GET', '/api/admin/products', { token: secret });
      expect(products.statusCode).toBe(200);
      await page.keyboard.press('Escape');
      await page
        .getByRole('row', { name: /Warenwirtschaft/ })
        .getByText('catalog:read')
        .waitFor();
      await page.reload();
      await page.getByRole('row', { name: /Warenwirtschaft/ }).waitFor();
      expect(await page.content()).not.toContain(secret);

      // a publishable key with an origin
      const keys = page.getByRole('region', { name: 'Öffentliche Schlüssel (Storefront)' });
      await keys.getByRole('textbox', { name: 'Bezeichnung' }).fill('Messe-Shop');
      await keys.getByRole('textbox', { name: 'Erlaubte Ursprünge' }).fill('https://messe.example');
      await keys.getByRole('button', { name: 'Schlüssel anlegen' }).click();
      await keys
        .getByRole('row', { name: /Messe-Shop/ })
        .getByText('https://messe.example')
        .waitFor();

      // the write policy: no price changes, at most 10 %
      const policy = page.getByRole('region', { name: 'Schreibregeln für API-Tokens' });
      await policy.getByRole('checkbox', { name: 'Preise ändern' }).uncheck();
      await policy.getByRole('spinbutton', { name: 'Größte Preisänderung in Prozent' }).fill('10');
      await policy.getByRole('button', { name: 'Speichern' }).click();
      await expect
        .poll(
          async () =>
            (await call(h.t.app, 'GET', '/api/admin/settings/token-write-policy', { token: shop.ownerToken })).data,
        )
        .toMatchObject({ allow_price_changes: false, max_price_change_percent: 10 });
      await noViolations(page, 'access-api-de');
      await h.docShot(page, 'access-api', 1100);

      // revoking the token ends it
      await page
        .getByRole('row', { name: /Warenwirtschaft/ })
        .getByRole('button', { name: 'Token „Warenwirtschaft“ widerrufen' })
        .click();
      await page.getByRole('dialog').getByRole('button', { name: 'Widerrufen' }).click();
      await page.getByRole('row', { name: /Warenwirtschaft/ }).waitFor({ state: 'detached' });
      expect((await call(h.t.app, 'GET', '/api/admin/products', { token: secret })).statusCode).toBe(401);
    }),
  );

  it.skipIf(skip)('webhooks: a failed delivery resent from the screen arrives signed (English)', () =>
    h.inBrowser('access-webhooks', async (page) => {
      await h.open(page, '/admin/access/webhooks', shop.ownerEmail, OWNER_PASSWORD, 'en');
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      await page.getByText('No destination yet').waitFor();
      await page.getByRole('textbox', { name: 'Address (URL)' }).fill(receiverUrl);
      await page.getByRole('button', { name: 'Set up destination' }).click();
      const dialog = page.getByRole('dialog', { name: 'Signing secret' });
      await dialog.getByText('It will not be shown again.').waitFor();
      const secret = await dialog.getByRole('textbox', { name: 'Secret' }).inputValue();
      expect(secret).toMatch(/^whsec_/);
      await dialog.getByRole('button', { name: 'Close' }).click();

      // an event: the receiver answers 500
      await page.getByRole('button', { name: 'Send a test event' }).click();
      await page.getByText('Test event queued.').waitFor();
      await h.t.app.deps.worker.drain();
      expect(received).toHaveLength(1);
      await page.getByRole('combobox', { name: 'Status' }).selectOption('failed');
      await page.getByRole('button', { name: 'Filter' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('failed');
      const row = page.getByRole('row', { name: /webhook\.test/ });
      await row.getByText('Failed', { exact: true }).waitFor();
      await expect.poll(() => row.textContent()).toContain('500');
      await expect.poll(() => row.textContent()).toContain('Empfänger kaputt');
      await noViolations(page, 'access-webhooks-en');

      // resend now (the scheduled retry is not due on the business clock)
      accept = true;
      await row.getByRole('button', { name: /^Resend webhook\.test/ }).click();
      await page.getByRole('dialog', { name: 'Resend the delivery' }).getByRole('button', { name: 'Resend' }).click();
      await page.getByText('Delivery queued.').waitFor();
      await h.t.app.deps.worker.drain();
      expect(received).toHaveLength(2);
      const [first, again] = received as [Received, Received];
      expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
      const event = new Webhook(secret).verify(again.body, again.headers as Record<string, string>);
      expect(event).toMatchObject({ type: 'webhook.test', is_test: true });
      await page.getByRole('combobox', { name: 'Status' }).selectOption('succeeded');
      await page.getByRole('button', { name: 'Filter' }).click();
      await page
        .getByRole('row', { name: /webhook\.test/ })
        .getByText('Delivered', { exact: true })
        .waitFor();
      await expect.poll(() => page.getByRole('row', { name: /webhook\.test/ }).textContent()).toContain('204');
      await shot(page, 'access-webhooks-resent-en');

      // German, and the secret rotation shows the new one once
      await page.getByRole('button', { name: 'Auf Deutsch umschalten' }).click();
      await page.getByRole('heading', { name: 'Zustellungen' }).waitFor();
      await page.getByRole('button', { name: 'Geheimnis erneuern' }).click();
      await page
        .getByRole('dialog', { name: 'Signatur-Geheimnis erneuern' })
        .getByRole('button', {
          name: 'Geheimnis erneuern',
        })
        .click();
      const rotated = await page
        .getByRole('dialog', { name: 'Signatur-Geheimnis' })
        .getByRole('textbox', { name: 'Geheimnis' })
        .inputValue();
      expect(rotated).toMatch(/^whsec_/);
      expect(rotated).not.toBe(secret);
      await page.keyboard.press('Escape');
      await noViolations(page, 'access-webhooks-de');
      await h.docShot(page, 'access-webhooks');
    }),
  );

  it.skipIf(skip)('storefront settings: the key and plans of /shop/, both languages', () =>
    h.inBrowser('access-storefront', async (page) => {
      const key = await call(h.t.app, 'POST', '/api/admin/publishable-keys', {
        token: shop.ownerToken,
        body: { name: 'Hausshop', allowed_origins: [h.origin] },
      });
      // the add-on on, one digital product with a monthly plan to offer
      const token = shop.ownerToken;
      await call(h.t.app, 'PUT', '/api/admin/digital/status', { token, body: { aktiv: true } });
      const product = await call(h.t.app, 'POST', '/api/products', {
        token,
        body: { name: 'Käsekurs', is_digital: true, base_price_cents: 990, status: 'published' },
      });
      const plan = await call(h.t.app, 'POST', '/api/admin/digital/plaene', {
        token,
        body: { product_id: product.data.id, name: 'Monatlich', price_cents: 990, interval_unit: 'month' },
      });
      if (plan.statusCode !== 201) throw new Error(plan.body);
      await h.open(page, '/admin/access/storefront', shop.ownerEmail, OWNER_PASSWORD);
      await page.getByRole('heading', { name: 'Storefront', level: 1 }).waitFor();
      await page.getByRole('combobox', { name: 'Öffentlicher Schlüssel' }).selectOption(key.data.id);
      await page.getByRole('checkbox', { name: /Käsekurs – Monatlich, 9,90\s€ monatlich/ }).check();
      await page.getByText(`Erlaubte Ursprünge dieses Schlüssels: ${h.origin}`).waitFor();
      await page.getByRole('button', { name: 'Speichern' }).click();
      await page.getByText('Storefront-Einstellungen gespeichert.').waitFor();
      const saved = await call(h.t.app, 'GET', '/api/admin/storefront-settings', { token: shop.ownerToken });
      expect(saved.data).toMatchObject({ publishable_key_id: key.data.id, offered_plan_ids: [plan.data.id] });
      // the built-in storefront now offers it
      const boot = await call(h.t.app, 'GET', '/api/storefront/bootstrap', { headers: { origin: h.origin } });
      expect(boot.data.offered_plans.map((p: { id: string }) => p.id)).toEqual([plan.data.id]);
      await noViolations(page, 'access-storefront-de');
      await page.getByRole('button', { name: 'Switch to English' }).click();
      await page.getByRole('heading', { name: 'Storefront', level: 1 }).waitFor();
      await page.getByRole('combobox', { name: 'Publishable key' }).waitFor();
      await page.getByRole('checkbox', { name: /Käsekurs – Monatlich, €9\.90 per month/ }).waitFor();
      await noViolations(page, 'access-storefront-en');
    }),
  );

  it.skipIf(skip)('English: employees and API access pass axe', () =>
    h.inBrowser('access-en', async (page) => {
      await h.open(page, '/admin/access/employees', shop.ownerEmail, OWNER_PASSWORD, 'en');
      await page.getByRole('heading', { name: 'Employees', level: 1 }).waitFor();
      await page.getByRole('row', { name: /Vera Viewer/ }).waitFor();
      await noViolations(page, 'access-employees-en');
      await page
        .getByRole('row', { name: /Vera Viewer/ })
        .getByRole('button', { name: 'Change Vera Viewer' })
        .click();
      const change = page.getByRole('dialog', { name: 'Change Vera Viewer' });
      await change.getByRole('checkbox', { name: 'Restrict to certain channels' }).check();
      await change.getByRole('checkbox', { name: 'Großhandel' }).waitFor();
      await noViolations(page, 'access-employees-change-en');
      await change.getByRole('combobox', { name: 'Role' }).selectOption('catalog_editor');
      await change.getByRole('button', { name: 'Save' }).click();
      await page
        .getByRole('row', { name: /Vera Viewer/ })
        .getByText('Catalog editor')
        .waitFor();
      const list = await call(h.t.app, 'GET', '/api/admin/employees', { token: shop.ownerToken });
      // restricted with no channel ticked: no channel at all
      expect(list.data.employees.find((e: { email: string }) => e.email === viewer.email)).toMatchObject({
        role: 'catalog_editor',
        channel_restricted: true,
        channel_ids: [],
      });
      await call(
        h.t.app,
        'PATCH',
        `/api/admin/employees/${list.data.employees.find((e: { email: string }) => e.email === viewer.email).id}`,
        {
          token: shop.ownerToken,
          body: { role: 'viewer', channel_ids: null },
        },
      );
      await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'API access' }).click();
      await page.getByRole('heading', { name: 'API access', level: 1 }).waitFor();
      await page.getByRole('region', { name: 'Write policy for API tokens' }).waitFor();
      await noViolations(page, 'access-api-en');
    }),
  );

  // last: it moves the business clock on by days
  it.skipIf(skip)("Heute's tile of dead deliveries opens the log filtered to them", () =>
    h.inBrowser('access-dead-tile', async (page) => {
      accept = false;
      const sent = await call(h.t.app, 'POST', '/api/admin/checkout/webhook/test', { token: shop.ownerToken });
      expect(sent.statusCode).toBe(202);
      const db = h.t.app.deps.database.db;
      for (const ms of RETRY_SCHEDULE_MS) {
        await h.t.app.deps.worker.drain();
        await h.t.app.deps.clock.advance(db, ms / 1000 + 1);
      }
      await h.t.app.deps.worker.drain();
      await h.open(page, '/admin/', shop.ownerEmail, OWNER_PASSWORD);
      await page.getByRole('link', { name: /Nicht zugestellte Webhooks/ }).click();
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      expect(new URL(page.url()).searchParams.get('status')).toBe('dead');
      await expect.poll(() => page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('dead');
      const row = page.getByRole('row', { name: /webhook\.test/ });
      await row.getByText('Aufgegeben', { exact: true }).waitFor();
      await expect.poll(() => row.textContent()).toContain('500');
      expect(await page.getByRole('row').count()).toBe(2);
    }),
  );

  it.skipIf(skip)('an admin gets no employees; a viewer gets none of it; the server refuses them', () =>
    h.inBrowser('access-roles', async (page) => {
      await h.open(page, '/admin/', admin.email, admin.password);
      const nav = page.getByRole('navigation', { name: 'Hauptnavigation' });
      await nav.getByRole('link', { name: 'API-Zugänge' }).waitFor();
      expect(await nav.getByRole('link', { name: 'Mitarbeitende' }).count()).toBe(0);
      await page.goto(`${h.origin}/admin/access/employees`);
      await page.getByText('Ihre Rolle darf diese Einstellungen nicht sehen.').waitFor();
      expect(await page.getByRole('button', { name: 'Einladen' }).count()).toBe(0);
      const denied = await page.evaluate(async () => {
        const res = await fetch('/api/admin/employees', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'x@shop.test', password: 'long-enough-1', role: 'owner' }),
        });
        return { status: res.status, code: ((await res.json()) as { code: string }).code };
      });
      expect(denied).toEqual({ status: 403, code: 'owner_only' });
      await page.getByRole('button', { name: 'Abmelden' }).click();
      await page.getByRole('heading', { name: 'Anmelden' }).waitFor();

      await h.open(page, '/admin/', viewer.email, viewer.password);
      expect(
        await page.getByRole('navigation', { name: 'Hauptnavigation' }).getByText('Zugänge und Webhooks').count(),
      ).toBe(0);
      await page.goto(`${h.origin}/admin/access/api`);
      await page.getByText('Ihre Rolle darf diese Einstellungen nicht sehen.').waitFor();
      await page.goto(`${h.origin}/admin/access/webhooks`);
      await page.getByText('Ihre Rolle darf diese Einstellungen nicht sehen.').waitFor();
      expect(await page.getByRole('button', { name: 'Erneut senden' }).count()).toBe(0);
      await noViolations(page, 'access-viewer-de');
    }),
  );
});
