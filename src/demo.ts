/**
 * The demo shop (DEMO=1, the default outside production): an empty database gets a shop with
 * an owner login and a storefront key, created through the same service code as any shop, and
 * the credentials are printed once.
 */
import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import type { App } from './app.js';
import { seedDemoCatalog } from './modules/catalog/index.js';
import { createShop } from './modules/platform-admin/index.js';
import { shops } from './modules/shops/shops.tables.js';
import { setStorefrontSettings } from './modules/storefront/index.js';
import { sha256 } from './platform/crypto.js';
import { platformSecrets } from './platform/db/platform.tables.js';
import { newSecret } from './platform/ids.js';

export interface DemoCredentials {
  shopId: string;
  ownerEmail: string;
  ownerPassword: string;
  publishableKey: string;
  platformToken: string;
}

/** Seeds the demo shop when the database has no shop; returns what was created, or null. */
export async function seedDemo(app: App): Promise<DemoCredentials | null> {
  const { database, config, clock } = app.deps;
  const db = database.db;
  const [existing] = await db.select({ n: count() }).from(shops);
  if (Number(existing?.n ?? 0) > 0) return null;

  const ownerEmail = 'owner@demo.shop';
  const ownerPassword = randomBytes(9).toString('base64url');
  const origins = [...new Set([config.publicUrl, 'http://localhost:3000', 'http://localhost:5173'])];
  const ctx = { shopId: '', actor: null, db, clock, config, log: app.log };
  const { shop, key, channel } = await createShop(ctx, {
    name: 'Demo Shop',
    owner_email: ownerEmail,
    owner_password: ownerPassword,
    owner_name: 'Demo Owner',
    digital_allowed: true,
    storefront_origins: origins,
    currency: 'EUR',
    country: 'DE',
  });

  // the built-in storefront at /shop/ sells with this key (its allowlist holds PUBLIC_URL)
  await setStorefrontSettings({ db, shopId: shop.id }, { publishable_key_id: key.id }, clock.now());
  const catalog = await seedDemoCatalog({ ...ctx, shopId: shop.id });
  await seedDemoStore(app, ownerEmail, ownerPassword, channel.id, catalog.productIds);

  let platformToken = config.platformToken ?? '';
  if (!platformToken) {
    platformToken = newSecret('plat');
    await db
      .insert(platformSecrets)
      .values({ name: 'platform_token', valueHash: sha256(platformToken) })
      .onConflictDoNothing();
  }
  return { shopId: shop.id, ownerEmail, ownerPassword, publishableKey: key.key, platformToken };
}

export function printDemo(creds: DemoCredentials, publicUrl: string, tokenFromEnv: boolean): void {
  const lines = [
    '',
    '================ Demo shop created (shown once) ================',
    `  Storefront      ${publicUrl}/shop/ (pay with the test card 4242 4242 4242 4242)`,
    `  Admin           ${publicUrl}/admin/ (or POST ${publicUrl}/api/auth/login)`,
    `    e-mail        ${creds.ownerEmail}`,
    `    password      ${creds.ownerPassword}`,
    `  Publishable key ${creds.publishableKey}   (send with Origin ${publicUrl})`,
    `  Platform token  ${tokenFromEnv ? '(the PLATFORM_TOKEN you set)' : creds.platformToken}`,
    `  Portals         ${publicUrl}/vendor/ and ${publicUrl}/affiliate/`,
    `  Partners        vendor@demo.shop, partner@demo.shop (code DEMO10): their invitation`,
    `                  links (to the portals) are in the outbox, GET ${publicUrl}/api/admin/emails`,
    `  API reference   ${publicUrl}/docs`,
    '=================================================================',
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * Makes the demo shop sell: its default channel (DE, EUR) named, with every published product listed, a
 * shipping method, the digital add-on switched on, a monthly plan for the first digital
 * product (offered by the built-in storefront), an invited vendor with a commission rule and an affiliate. Goes through the HTTP API, so the demo exercises the same rules as any client.
 */
async function seedDemoStore(
  app: App,
  email: string,
  password: string,
  defaultChannelId: string,
  productIds: string[],
): Promise<void> {
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', url: string, token?: string, body?: unknown) => {
    const res = await app.inject({
      method,
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
    });
    if (res.statusCode >= 300) throw new Error(`demo seeding: ${method} ${url} answered ${res.statusCode} ${res.body}`);
    return res.json() as Record<string, any>;
  };
  const { token } = await call('POST', '/api/auth/login', undefined, { email, password });
  // the default channel the shop was created with (docs/ARCHITECTURE.md), given its storefront name and prefix
  const channel = await call('PATCH', `/api/admin/channels/${defaultChannelId}`, token, {
    name: 'Online-Shop',
    path_prefix: 'de',
  });
  await call('PUT', `/api/admin/channels/${channel.id}/countries`, token, {
    country_codes: ['DE', 'AT', 'CH', 'NL', 'FR'],
  });
  await call('POST', '/api/admin/shipping-methods', token, { name: 'DHL Paket', price_cents: 490, countries: ['DE'] });
  await call('POST', '/api/admin/shipping-methods', token, {
    name: 'DHL International',
    price_cents: 1290,
    countries: [],
  });
  let firstDigital: string | null = null;
  for (const id of productIds) {
    const { product } = await call('GET', `/api/admin/products/${id}`, token);
    if (product.status !== 'published') continue;
    await call('PATCH', `/api/products/${id}/channels/${channel.id}`, token, { is_published: true });
    if (product.is_digital && !firstDigital) firstDigital = id;
  }
  await call('PUT', '/api/admin/digital/status', token, { aktiv: true, abo_provision: 'erste' });
  if (firstDigital) {
    const plan = await call('POST', '/api/admin/digital/plaene', token, {
      product_id: firstDigital,
      name: 'Monatsabo',
      price_cents: 990,
      interval_unit: 'month',
      interval_count: 1,
      trial_days: 14,
    });
    // the built-in storefront offers it on the product's page
    const settings = await call('GET', '/api/admin/storefront-settings', token);
    await call('PUT', '/api/admin/storefront-settings', token, {
      publishable_key_id: settings.publishable_key_id,
      offered_plan_ids: [plan.id],
    });
  }
  // a marketplace vendor (invited: the accept link is in the outbox) who sells the first
  // physical product at 15 % platform commission, and an affiliate with the code DEMO10
  const vendor = await call('POST', '/api/admin/vendors/invite', token, {
    email: 'vendor@demo.shop',
    name: 'Bergkäserei Alm',
  });
  await call('POST', `/api/admin/vendors/${vendor.id}/commission-rule`, token, { percent: 15 });
  for (const id of productIds) {
    const { product } = await call('GET', `/api/admin/products/${id}`, token);
    if (product.status === 'published' && !product.is_digital) {
      await call('PATCH', `/api/products/${id}`, token, { vendor_id: vendor.id });
      break;
    }
  }
  await call('POST', '/api/admin/affiliates/invite', token, {
    email: 'partner@demo.shop',
    name: 'Demo Blog',
    code: 'DEMO10',
    commission_percent: 10,
  });
  await call('POST', '/api/admin/affiliate-content', token, {
    kind: 'text',
    title: 'Empfehlungstext',
    body: 'Regionale Spezialitäten und Online-Kurse – jetzt im Demo Shop entdecken.',
  });
}
