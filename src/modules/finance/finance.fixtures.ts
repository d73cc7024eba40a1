/**
 * Test fixtures of the finance tests: a shop with company data, a DE channel, products at mixed
 * tax rates, and paid orders made the way a buyer makes them (checkout session + hosted page).
 */
import { call, createShop, type ShopFixture, STORE_ORIGIN, startApp, type TestApp } from '../../../test/helpers/app.js';
import { startViesStub, type ViesStub } from '../../../test/helpers/vies-stub.js';

export const SELLER = {
  legal_name: 'Muster Handel GmbH',
  line1: 'Marktplatz 5',
  postal_code: '20095',
  city: 'Hamburg',
  country: 'DE',
  vat_id: 'DE123456789',
  tax_number: '22/815/08150',
  email: 'rechnung@muster-handel.test',
  phone: '+49 40 123456',
  contact_name: 'Buchhaltung',
  bank_name: 'Musterbank',
  iban: 'DE89 3704 0044 0532 0130 00',
  bic: 'COBADEFFXXX',
  register_info: 'Amtsgericht Hamburg HRB 12345',
  invoice_footer: 'Vielen Dank für Ihren Einkauf.',
};

export const BILLING = {
  name: 'Erika Muster',
  line1: 'Hauptstr. 1',
  postal_code: '10115',
  city: 'Berlin',
  country: 'DE',
};

export interface FinanceShop {
  shop: ShopFixture;
  owner: string;
  channel: string;
  shipping: string;
  products: Record<'course' | 'ebook' | 'cheese', string>;
}

async function ok(res: Awaited<ReturnType<typeof call>>, status = 200) {
  if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode} ${res.body}`);
  return res.data;
}

export async function financeShop(t: TestApp, opts: { company?: boolean } = {}): Promise<FinanceShop> {
  const shop = await createShop(t.app);
  const owner = shop.ownerToken;
  // the shop's default channel (DE, EUR), made with the shop
  const channel = shop.defaultChannelId;
  const shipping = (
    await ok(
      await call(t.app, 'POST', '/api/admin/shipping-methods', {
        token: owner,
        body: { name: 'DHL', price_cents: 490, countries: ['DE', 'AT'] },
      }),
      201,
    )
  ).id;
  const product = async (body: Record<string, unknown>) => {
    const p = await ok(
      await call(t.app, 'POST', '/api/products', { token: owner, body: { status: 'published', ...body } }),
      201,
    );
    await ok(
      await call(t.app, 'PATCH', `/api/products/${p.id}/channels/${channel}`, {
        token: owner,
        body: { is_published: true },
      }),
    );
    return p.id as string;
  };
  const products = {
    course: await product({ name: 'Online-Kurs', is_digital: true, base_price_cents: 9900, sku: 'KURS-1' }),
    ebook: await product({ name: 'E-Book „Steuern“', is_digital: true, tax_class: 'books', base_price_cents: 1999 }),
    cheese: await product({
      name: 'Bergkäse 250 g',
      tax_class: 'food',
      base_price_cents: 999,
      track_stock: true,
      stock_quantity: 1_000_000,
    }),
  };
  if (opts.company !== false) {
    await ok(await call(t.app, 'PUT', '/api/admin/settings/company', { token: owner, body: SELLER }));
  }
  return { shop, owner, channel, shipping, products };
}

/** The app of the tax tests: a VIES stub that knows ATU12345678, the finance shop, a shipping method to CH and US. */
export async function taxShop(world: {
  name: string;
  price_cents: number;
}): Promise<{ t: TestApp; f: FinanceShop; vies: ViesStub; world: string }> {
  const vies = await startViesStub(['ATU12345678']);
  const t = await startApp({ VIES_API_URL: vies.url });
  const f = await financeShop(t);
  const m = await call(t.app, 'POST', '/api/admin/shipping-methods', {
    token: f.owner,
    body: { ...world, countries: ['CH', 'US'] },
  });
  return { t, f, vies, world: m.data.id };
}

export interface OrderOptions {
  items?: { product_id: string; quantity: number }[];
  billing?: Record<string, unknown>;
  email?: string;
  shipping?: boolean;
  /** Where physical goods go (default the German BILLING address) and how (default the DHL method). */
  shipping_address?: Record<string, unknown>;
  shipping_method_id?: string;
  affiliate_code?: string;
}

/** Pays a checkout session on the hosted payment page with the test card 4242…, billed to `billing`. */
export function payOnPage(t: TestApp, sessionId: string, billing: Record<string, unknown>) {
  const form = {
    name: String(billing.name),
    line1: String(billing.line1),
    postal_code: String(billing.postal_code),
    city: String(billing.city),
    country: String(billing.country),
    card_number: '4242424242424242',
    widerruf_verzicht: 'on',
  };
  return call(t.app, 'POST', `/pay/${sessionId}`, {
    body: new URLSearchParams(form).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** A paid order through the storefront checkout and the hosted payment page (test card 4242…). */
export async function paidOrder(t: TestApp, f: FinanceShop, o: OrderOptions = {}): Promise<string> {
  const billing = { ...BILLING, ...(o.billing ?? {}) };
  const email = o.email ?? `buyer-${Math.random().toString(36).slice(2, 8)}@mail.test`;
  const items = o.items ?? [
    { product_id: f.products.course, quantity: 1 },
    { product_id: f.products.ebook, quantity: 2 },
    { product_id: f.products.cheese, quantity: 3 },
  ];
  const physical = o.shipping ?? items.some((i) => i.product_id === f.products.cheese);
  const session = await call(t.app, 'POST', '/api/store/checkout-sessions', {
    token: f.shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: {
      items,
      customer: { email, billing_address: billing },
      ...(physical
        ? { shipping_address: o.shipping_address ?? BILLING, shipping_method_id: o.shipping_method_id ?? f.shipping }
        : {}),
      return_url: `${STORE_ORIGIN}/danke`,
      ...(o.affiliate_code ? { affiliate_code: o.affiliate_code } : {}),
    },
  });
  if (session.statusCode !== 201) throw new Error(`checkout failed: ${session.body}`);
  const paid = await payOnPage(t, session.data.id, billing);
  if (paid.statusCode !== 303) throw new Error(`payment failed: ${paid.statusCode} ${paid.body}`);
  const s = await call(t.app, 'GET', `/api/admin/orders?q=${encodeURIComponent(email)}`, { token: f.owner });
  const id = s.data?.orders?.[0]?.id;
  if (!id) throw new Error(`order not found: ${s.body}`);
  return id;
}

/** A draft invoice for a new paid order. */
export async function draftInvoice(
  t: TestApp,
  f: FinanceShop,
  o: OrderOptions = {},
  body: Record<string, unknown> = {},
) {
  const orderId = await paidOrder(t, f, o);
  const res = await call(t.app, 'POST', `/api/admin/orders/${orderId}/invoice`, { token: f.owner, body });
  if (res.statusCode !== 201) throw new Error(`invoice failed: ${res.body}`);
  return res.data as { id: string; order_id: string; total_cents: number; [k: string]: any };
}

export async function finalInvoice(
  t: TestApp,
  f: FinanceShop,
  o: OrderOptions = {},
  body: Record<string, unknown> = {},
) {
  const draft = await draftInvoice(t, f, o, body);
  const res = await call(t.app, 'POST', `/api/admin/invoices/${draft.id}/finalize`, { token: f.owner });
  if (res.statusCode !== 200) throw new Error(`finalize failed: ${res.body}`);
  return res.data as { id: string; order_id: string; number: string; total_cents: number; [k: string]: any };
}

export const BUSINESS = { company: 'Beispiel AG', vat_id: 'DE987654321' };

/** A business in Austria with a VAT ID the VIES stubs of the finance tests accept. */
export const AT_COMPANY = {
  name: 'Anna Huber',
  company: 'Wiener Handel GmbH',
  vat_id: 'ATU12345678',
  line1: 'Kärntner Str. 1',
  postal_code: '1010',
  city: 'Wien',
  country: 'AT',
};

/**
 * An unpaid (`pending_payment`) order of the direct flow (invoice first), on a channel that allows
 * unpaid orders for `ttlHours`; the channel is set back to refuse them afterwards.
 */
export async function unpaidOrder(t: TestApp, f: FinanceShop, o: OrderOptions & { ttlHours?: number } = {}) {
  await ok(
    await call(t.app, 'PATCH', `/api/admin/channels/${f.channel}`, {
      token: f.owner,
      body: { allow_unpaid_orders: true, pending_payment_ttl_hours: o.ttlHours ?? 24 },
    }),
  );
  const items = o.items ?? [
    { product_id: f.products.course, quantity: 1 },
    { product_id: f.products.cheese, quantity: 2 },
  ];
  const physical = items.some((i) => i.product_id === f.products.cheese);
  const res = await call(t.app, 'POST', '/api/store/checkout-sessions', {
    token: f.shop.publishableKey,
    headers: { origin: STORE_ORIGIN },
    body: {
      items,
      customer: {
        email: o.email ?? `unpaid-${Math.random().toString(36).slice(2, 8)}@mail.test`,
        billing_address: { ...BILLING, ...(o.billing ?? {}) },
      },
      ...(physical ? { shipping_address: BILLING, shipping_method_id: f.shipping } : {}),
      flow: 'direct',
      widerruf_verzicht: true,
      return_url: `${STORE_ORIGIN}/danke`,
    },
  });
  await ok(
    await call(t.app, 'PATCH', `/api/admin/channels/${f.channel}`, {
      token: f.owner,
      body: { allow_unpaid_orders: false, pending_payment_ttl_hours: 24 },
    }),
  );
  const data = await ok(res, 201);
  return data.order_id as string;
}
