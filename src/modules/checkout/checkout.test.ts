import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createShop,
  customerToken,
  expectProblem,
  PLATFORM_TOKEN,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { taxFromGross } from '../../platform/money.js';

let t: TestApp;
let shop: ShopFixture;
let owner: string;
let channel: string;
let shipping: string;
const P: Record<string, { id: string; variants: { id: string; sku: string }[] }> = {};

const store = (body: unknown, headers: Record<string, string> = {}) =>
  call(t.app, 'POST', '/api/store/checkout-sessions', {
    token: shop.publishableKey,
    headers: { origin: STORE_ORIGIN, ...headers },
    body,
  });

async function product(key: string, body: Record<string, unknown>, listing: Record<string, unknown> = {}) {
  const res = await call(t.app, 'POST', '/api/products', { token: owner, body: { status: 'published', ...body } });
  if (res.statusCode !== 201) throw new Error(res.body);
  P[key] = res.data;
  const l = await call(t.app, 'PATCH', `/api/products/${res.data.id}/channels/${channel}`, {
    token: owner,
    body: { is_published: true, ...listing },
  });
  if (l.statusCode !== 200) throw new Error(l.body);
  return res.data;
}

const billing = { name: 'Erika Muster', line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' };
const RETURN = `${STORE_ORIGIN}/danke`;

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  owner = shop.ownerToken;
  // the shop's default channel (DE, EUR), made with the shop
  channel = shop.defaultChannelId;
  shipping = (
    await call(t.app, 'POST', '/api/admin/shipping-methods', {
      token: owner,
      body: { name: 'DHL', price_cents: 490, countries: ['DE', 'AT'] },
    })
  ).data.id;
  await product('ebook', { name: 'E-Book', is_digital: true, tax_class: 'books', base_price_cents: 1999 });
  await product('course', { name: 'Kurs', is_digital: true, base_price_cents: 9900 }, { price_cents: 7900 });
  await product('shirt', {
    name: 'Shirt',
    base_price_cents: 2500,
    track_stock: true,
    options: [{ name: 'Größe', values: ['S', 'M'] }],
    variants: [
      { sku: 'SH-S', option_values: { Größe: 'S' }, stock_quantity: 10 },
      { sku: 'SH-M', option_values: { Größe: 'M' }, price_cents: 2700, stock_quantity: 10 },
    ],
  });
  await product('cheese', {
    name: 'Käse',
    tax_class: 'food',
    base_price_cents: 999,
    track_stock: true,
    stock_quantity: 50,
  });
  await product('last', { name: 'Letztes Stück', base_price_cents: 5000, track_stock: true, stock_quantity: 1 });
});
afterAll(() => t.close());

describe('pricing and tax', () => {
  it('rounds tax half up per line from the gross price', () => {
    expect(taxFromGross(119, 0.19)).toBe(19);
    expect(taxFromGross(999, 0.19)).toBe(160); // 159.50… → 160
    expect(taxFromGross(3, 1)).toBe(2); // 1.5 → 2
    expect(taxFromGross(-3, 1)).toBe(-2);
    expect(taxFromGross(1999, 0.07)).toBe(131); // 130.77…
    expect(taxFromGross(500, 0)).toBe(0);
  });

  it('a retry with the same Idempotency-Key replays the first session, x-channel-id included', async () => {
    const body = {
      items: [{ product_id: P.course?.id, quantity: 1 }],
      customer: { email: 'retry@mail.test', billing_address: billing },
      return_url: RETURN,
    };
    const key = { 'idempotency-key': 'checkout-retry-1' };
    const first = await store(body, key);
    expect(first.statusCode).toBe(201);
    const again = await store(body, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(again.headers['x-channel-id']).toBe(channel);
  });

  it('prices a digital-only cart from the channel, with books and standard rates, and no shipping', async () => {
    const res = await store({
      items: [
        { product_id: P.ebook?.id, quantity: 2 },
        { product_id: P.course?.id, quantity: 1 },
      ],
      customer: { email: 'kim@mail.test', billing_address: billing },
      return_url: RETURN,
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['x-channel-id']).toBe(channel);
    expect(res.data).toMatchObject({
      status: 'open',
      requires_shipping: false,
      currency: 'EUR',
      channel_id: channel,
      subtotal_cents: 2 * 1999 + 7900,
      shipping_cents: 0,
      order_id: null,
    });
    expect(res.data.url).toBe(`http://service.test/pay/${res.data.id}`);
    const [ebook, course] = res.data.lines;
    expect(ebook).toMatchObject({
      unit_price_cents: 1999,
      line_total_cents: 3998,
      tax_rate: 0.07,
      tax_cents: taxFromGross(3998, 0.07),
    });
    expect(course).toMatchObject({ unit_price_cents: 7900, tax_rate: 0.19, tax_cents: taxFromGross(7900, 0.19) });
    expect(res.data.tax_cents).toBe(ebook.tax_cents + course.tax_cents);
    expect(res.data.total_cents).toBe(res.data.subtotal_cents);
    for (const l of res.data.lines) expect(l.net_cents + l.tax_cents).toBe(l.line_total_cents);
  });

  it('uses variant prices, food rates, shipping at the standard rate and channel country overrides', async () => {
    await call(t.app, 'PATCH', `/api/admin/channels/${channel}/countries/AT`, {
      token: owner,
      body: { food_tax_rate: 0.05 },
    });
    const body = (country: string) => ({
      items: [
        { product_id: P.shirt?.id, variant_id: P.shirt?.variants[1]?.id, quantity: 1 },
        { product_id: P.cheese?.id, quantity: 3 },
      ],
      customer: { email: 'kim@mail.test' },
      shipping_address: { ...billing, country },
      shipping_method_id: shipping,
      return_url: RETURN,
    });
    const de = await store(body('DE'));
    expect(de.statusCode).toBe(201);
    expect(de.data.requires_shipping).toBe(true);
    expect(de.data.lines[0]).toMatchObject({
      unit_price_cents: 2700,
      tax_rate: 0.19,
      tax_cents: taxFromGross(2700, 0.19),
    });
    expect(de.data.lines[1]).toMatchObject({
      line_total_cents: 2997,
      tax_rate: 0.07,
      tax_cents: taxFromGross(2997, 0.07),
    });
    expect(de.data.shipping_cents).toBe(490);
    expect(de.data.tax_cents).toBe(taxFromGross(2700, 0.19) + taxFromGross(2997, 0.07) + taxFromGross(490, 0.19));
    expect(de.data.total_cents).toBe(2700 + 2997 + 490);
    const at = await store(body('AT'));
    expect(at.data.lines[1]).toMatchObject({ tax_rate: 0.05, tax_cents: taxFromGross(2997, 0.05) });
    expect(at.data.lines[0].tax_rate).toBe(0.2);
  });

  it('a changed shipping price, country override or channel shows on the very next checkout', async () => {
    const body = {
      items: [{ product_id: P.cheese?.id, quantity: 1 }],
      customer: { email: 'memo@mail.test' },
      shipping_address: { ...billing, country: 'AT' },
      shipping_method_id: shipping,
      return_url: RETURN,
    };
    const admin = (method: string, url: string, b: unknown) => call(t.app, method, url, { token: owner, body: b });
    const first = await store(body);
    expect(first.statusCode).toBe(201);
    const before = { shipping: first.data.shipping_cents, rate: first.data.lines[0].tax_rate };

    expect((await admin('PATCH', `/api/admin/shipping-methods/${shipping}`, { price_cents: 650 })).statusCode).toBe(
      200,
    );
    expect((await store(body)).data.shipping_cents).toBe(650);
    expect(
      (await admin('PATCH', `/api/admin/channels/${channel}/countries/AT`, { food_tax_rate: 0.04 })).statusCode,
    ).toBe(200);
    expect((await store(body)).data.lines[0].tax_rate).toBe(0.04);
    expect((await admin('PATCH', `/api/admin/shipping-methods/${shipping}`, { countries: ['DE'] })).statusCode).toBe(
      200,
    );
    expectProblem(await store(body), 400, 'shipping_method_unavailable');

    // back to how the other tests expect it
    await admin('PATCH', `/api/admin/shipping-methods/${shipping}`, {
      price_cents: before.shipping,
      countries: ['DE', 'AT'],
    });
    await admin('PATCH', `/api/admin/channels/${channel}/countries/AT`, { food_tax_rate: before.rate });
    const again = await store(body);
    expect(again.data).toMatchObject({ shipping_cents: before.shipping });
    expect(again.data.lines[0].tax_rate).toBe(before.rate);
  });

  it('ignores prices and channel ids sent by the client', async () => {
    const res = await store({
      items: [{ product_id: P.course?.id, quantity: 1 }],
      customer: { email: 'kim@mail.test', billing_address: billing },
      return_url: RETURN,
      channel_id: 'chan_other',
    });
    expect(res.data.channel_id).toBe(channel);
    expect(res.data.lines[0].unit_price_cents).toBe(7900);
    const withPrice = await store({
      items: [{ product_id: P.course?.id, quantity: 1, price_cents: 1 }],
      customer: { email: 'kim@mail.test', billing_address: billing },
      return_url: RETURN,
    });
    expectProblem(withPrice, 400, 'validation_failed');
  });
});

describe('checkout session rules', () => {
  const digital = {
    items: [{ product_id: '', quantity: 1 }],
    customer: { email: 'a@b.test', billing_address: billing },
    return_url: RETURN,
  };
  const ebookCart = () => ({ ...digital, items: [{ product_id: P.ebook?.id, quantity: 1 }] });

  it('a cart with physical goods needs a shipping address and method (400 naming them)', async () => {
    const res = await store({
      items: [{ product_id: P.cheese?.id, quantity: 1 }],
      customer: { email: 'a@b.test', billing_address: billing },
      return_url: RETURN,
    });
    expectProblem(res, 400, 'shipping_required');
    expect(res.data.errors.map((e: { path: string }) => e.path)).toEqual([
      '/body/shipping_address',
      '/body/shipping_method_id',
    ]);
  });

  it('refuses a shipping method that does not serve the country, and countries the channel does not serve', async () => {
    const base = {
      items: [{ product_id: P.cheese?.id, quantity: 1 }],
      customer: { email: 'a@b.test' },
      shipping_method_id: shipping,
      return_url: RETURN,
    };
    expectProblem(
      await store({ ...base, shipping_address: { ...billing, country: 'FR' } }),
      400,
      'shipping_method_unavailable',
    );
    await call(t.app, 'PUT', `/api/admin/channels/${channel}/countries`, {
      token: owner,
      body: { country_codes: ['DE', 'AT'] },
    });
    expectProblem(
      await store({ ...ebookCart(), customer: { email: 'a@b.test', billing_address: { ...billing, country: 'US' } } }),
      400,
      'country_not_served',
    );
    await call(t.app, 'PUT', `/api/admin/channels/${channel}/countries`, { token: owner, body: { country_codes: [] } });
  });

  it('return_url must be on the key allowlist', async () => {
    const res = await store({ ...ebookCart(), return_url: 'https://evil.example/done' });
    expectProblem(res, 400, 'return_url_denied');
  });

  it('refuses discount codes clearly and unknown or unlisted products', async () => {
    expectProblem(await store({ ...ebookCart(), discount_code: 'SUMMER' }), 400, 'discount_unsupported');
    const unknown = await store({ ...digital, items: [{ product_id: 'prod_nope', quantity: 1 }] });
    expectProblem(unknown, 400, 'product_unavailable');
    expect(unknown.data.errors[0].path).toBe('/body/items/0/product_id');
    const draft = await call(t.app, 'POST', '/api/products', {
      token: owner,
      body: { name: 'Draft', is_digital: true, base_price_cents: 100 },
    });
    await call(t.app, 'PATCH', `/api/products/${draft.data.id}/channels/${channel}`, {
      token: owner,
      body: { is_published: true },
    });
    expectProblem(
      await store({ ...digital, items: [{ product_id: draft.data.id, quantity: 1 }] }),
      400,
      'product_unavailable',
    );
  });

  it('validates the body', async () => {
    const res = await store({ items: [], customer: { email: 'nope' }, return_url: 5, flow: 'express' });
    expectProblem(res, 400, 'validation_failed');
    const paths = res.data.errors.map((e: { path: string }) => e.path);
    for (const p of ['/body/items', '/body/customer/email', '/body/return_url', '/body/flow'])
      expect(paths).toContain(p);
    expectProblem(
      await store({ ...ebookCart(), items: [{ product_id: P.ebook?.id, quantity: 0 }] }),
      400,
      'validation_failed',
    );
  });

  it('direct flow: digital items need widerruf_verzicht; a channel without unpaid orders refuses it', async () => {
    expectProblem(await store({ ...ebookCart(), flow: 'direct' }), 400, 'widerruf_verzicht_required');
    expectProblem(
      await store({ ...ebookCart(), flow: 'direct', widerruf_verzicht: true }),
      400,
      'direct_flow_unavailable',
    );
  });

  it('direct flow on a channel with unpaid orders: a pending_payment order that expires and gives its stock back', async () => {
    await call(t.app, 'PATCH', `/api/admin/channels/${channel}`, {
      token: owner,
      body: { allow_unpaid_orders: true, pending_payment_ttl_hours: 2 },
    });
    const stock = async () =>
      (await call(t.app, 'GET', `/api/admin/products/${P.cheese?.id}`, { token: owner })).data.product.stock_quantity;
    // hosted sessions of earlier tests hold cheese for CHECKOUT_RESERVATION_MINUTES (30): let them
    // expire first, so only this order moves the stock
    await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: 31 * 60 } });
    const before = await stock();
    const res = await store({
      items: [{ product_id: P.cheese?.id, quantity: 5 }],
      customer: { email: 'unpaid@mail.test', billing_address: billing },
      shipping_address: billing,
      shipping_method_id: shipping,
      flow: 'direct',
      return_url: RETURN,
    });
    expect(res.statusCode).toBe(201);
    expect(res.data).toMatchObject({ status: 'complete', url: null });
    const order = await call(t.app, 'GET', `/api/admin/orders/${res.data.order_id}`, { token: owner });
    expect(order.data.order).toMatchObject({ status: 'pending_payment', total_cents: 5 * 999 + 490 });
    expect(await stock()).toBe(before - 5);
    await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: 3 * 3600 } });
    const after = await call(t.app, 'GET', `/api/admin/orders/${res.data.order_id}`, { token: owner });
    expect(after.data.order.status).toBe('cancelled');
    expect(await stock()).toBe(before);
    await call(t.app, 'PATCH', `/api/admin/channels/${channel}`, {
      token: owner,
      body: { allow_unpaid_orders: false, pending_payment_ttl_hours: 24 },
    });
  });
});

describe('stock', () => {
  it('20 concurrent checkouts of the last unit: exactly one session, and expiry gives it back', async () => {
    const body = {
      items: [{ product_id: P.last?.id, quantity: 1 }],
      customer: { email: 'race@mail.test' },
      shipping_address: billing,
      shipping_method_id: shipping,
      return_url: RETURN,
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => store(body)));
    const ok = results.filter((r) => r.statusCode === 201);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.statusCode !== 201)) expectProblem(r, 409, 'out_of_stock');
    // not paid: the session expires after 24 h and the unit is free again
    await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: 25 * 3600 } });
    const again = await store(body);
    expect(again.statusCode).toBe(201);
    const page = await call(t.app, 'GET', `/pay/${ok[0]?.data.id}`);
    expect(page.statusCode).toBe(410);
  });
});

describe('stock locking order', () => {
  it('carts holding the same tracked items in opposite orders never deadlock', async () => {
    const cart = (first: string, second: string) => ({
      items: [
        {
          product_id: P[first]?.id,
          ...(first === 'shirt' ? { variant_id: P.shirt?.variants[0]?.id } : {}),
          quantity: 1,
        },
        {
          product_id: P[second]?.id,
          ...(second === 'shirt' ? { variant_id: P.shirt?.variants[0]?.id } : {}),
          quantity: 1,
        },
      ],
      customer: { email: 'order@mail.test' },
      shipping_address: billing,
      shipping_method_id: shipping,
      return_url: RETURN,
    });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => store(i % 2 === 0 ? cart('cheese', 'shirt') : cart('shirt', 'cheese'))),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(201));
  });
});

describe('hosted payment page (test provider)', () => {
  let sessionId: string;
  const form = (fields: Record<string, string>) =>
    call(t.app, 'POST', `/pay/${sessionId}`, {
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const good = { name: 'Erika Muster', line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' };

  beforeAll(async () => {
    const res = await store({
      items: [{ product_id: P.course?.id, quantity: 1 }],
      customer: { email: 'buyer@mail.test', billing_address: billing },
      return_url: `${RETURN}?ref=1`,
    });
    sessionId = res.data.id;
  });

  it('serves an HTML form', async () => {
    const res = await call(t.app, 'GET', `/pay/${sessionId}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('name="card_number"');
    expect(res.body).toContain('name="widerruf_verzicht"');
    expect(res.body).toContain('Erika Muster');
    expectProblem(await call(t.app, 'GET', '/pay/cs_unknown'), 404, 'not_found');
  });

  it('a declined card shows the error and creates nothing', async () => {
    const res = await form({ ...good, card_number: '4000000000000002', widerruf_verzicht: 'on' });
    expect(res.statusCode).toBe(402);
    expect(res.body).toContain('declined');
    const orders = await call(t.app, 'GET', '/api/admin/orders?q=buyer', { token: owner });
    expect(orders.data.count).toBe(0);
  });

  it('digital goods need the waiver checkbox', async () => {
    const res = await form({ ...good, card_number: '4242424242424242' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Zustimmung');
  });

  it('pays with 4242…, redirects 303 to return_url?session_id=…, creates one order, and replays idempotently', async () => {
    const res = await form({ ...good, card_number: '4242 4242 4242 4242', widerruf_verzicht: 'on' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${RETURN}?ref=1&session_id=${sessionId}`);
    const again = await form({ ...good, card_number: '4242424242424242', widerruf_verzicht: 'on' });
    expect(again.statusCode).toBe(303);
    const list = await call(t.app, 'GET', '/api/admin/orders?q=buyer@mail.test', { token: owner });
    expect(list.data.count).toBe(1);
    const order = (await call(t.app, 'GET', `/api/admin/orders/${list.data.orders[0].id}`, { token: owner })).data
      .order;
    expect(order).toMatchObject({
      status: 'paid',
      checkout_session_id: sessionId,
      customer_email: 'buyer@mail.test',
      total_cents: 7900,
      widerruf_verzicht: true,
      is_test: true,
      currency: 'EUR',
      billing_address: { name: 'Erika Muster', country: 'DE' },
    });
    expect(order.widerruf_verzicht_at).not.toBeNull();
    expect(order.entitlements).toEqual([{ product_id: P.course?.id, variant_id: null, quantity: 1 }]);
    expect(Number(order.number)).toBeGreaterThanOrEqual(1001);
    // checkout.completed is recorded in the outbox with the session and order
    const events = (await t.app.deps.database.db.execute(
      sql`SELECT type, data FROM webhook_events WHERE shop_id = ${shop.shopId} AND type = 'checkout.completed'`,
    )) as unknown as { rows: { data: Record<string, unknown> }[] };
    expect(events.rows.map((e) => e.data.checkout_session_id)).toContain(sessionId);
    expect(events.rows.find((e) => e.data.checkout_session_id === sessionId)?.data.order_id).toBe(order.id);
  });

  it('a billing country change on the page re-derives the tax (same gross)', async () => {
    const s = await store({
      items: [{ product_id: P.course?.id, quantity: 1 }],
      customer: { email: 'at@mail.test', billing_address: billing },
      return_url: RETURN,
    });
    const res = await call(t.app, 'POST', `/pay/${s.data.id}`, {
      body: new URLSearchParams({
        ...good,
        country: 'AT',
        card_number: '4242424242424242',
        widerruf_verzicht: 'on',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(303);
    const list = await call(t.app, 'GET', '/api/admin/orders?q=at@mail.test', { token: owner });
    const order = (await call(t.app, 'GET', `/api/admin/orders/${list.data.orders[0].id}`, { token: owner })).data
      .order;
    expect(order.total_cents).toBe(7900);
    expect(order.tax_cents).toBe(taxFromGross(7900, 0.2));
    expect(order.lines[0].tax_rate).toBe(0.2);
  });
});

describe('orders', () => {
  it('lists with filters, moves through the state machine, refuses invalid transitions', async () => {
    const list = await call(t.app, 'GET', `/api/admin/orders?status=paid&channel_id=${channel}&limit=10`, {
      token: owner,
    });
    expect(list.statusCode).toBe(200);
    expect(list.data.orders.length).toBeGreaterThan(0);
    for (const o of list.data.orders) expect(o.status).toBe('paid');
    const id = list.data.orders[0].id;
    expectProblem(
      await call(t.app, 'POST', `/api/admin/orders/${id}/mark-paid`, { token: owner }),
      409,
      'invalid_state',
    );
    const done = await call(t.app, 'POST', `/api/admin/orders/${id}/fulfill`, { token: owner });
    expect(done.data.status).toBe('fulfilled');
    expectProblem(await call(t.app, 'POST', `/api/admin/orders/${id}/cancel`, { token: owner }), 409, 'invalid_state');
    expectProblem(
      await call(t.app, 'GET', '/api/admin/orders?status=lost', { token: owner }),
      400,
      'validation_failed',
    );
    expectProblem(await call(t.app, 'GET', '/api/admin/orders?limit=0', { token: owner }), 400, 'validation_failed');
    const other = await createShop(t.app);
    expectProblem(await call(t.app, 'GET', `/api/admin/orders/${id}`, { token: other.ownerToken }), 404, 'not_found');
  });

  it('a signed-in customer sees only their own orders', async () => {
    const token = await customerToken(t.app, shop);
    const me = await call(t.app, 'GET', '/api/customer/me', { token });
    const email = me.data.customer.email;
    const s = await store({
      items: [{ product_id: P.ebook?.id, quantity: 1 }],
      customer: { email, billing_address: billing },
      return_url: RETURN,
    });
    await call(t.app, 'POST', `/pay/${s.data.id}`, {
      body: new URLSearchParams({
        name: 'K',
        line1: 'x 1',
        postal_code: '1',
        city: 'B',
        country: 'DE',
        card_number: '4242424242424242',
        widerruf_verzicht: 'on',
      }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    const mine = await call(t.app, 'GET', '/api/customer/orders', { token });
    expect(mine.statusCode).toBe(200);
    expect(mine.data.count).toBe(1);
    expect(mine.data.orders[0].customer_email).toBe(email);
  });
});

describe('prices held per catalog version (pricing.ts priceRows)', () => {
  const buy = (productId: string | undefined, variantId?: string) =>
    store({
      items: [{ product_id: productId, ...(variantId ? { variant_id: variantId } : {}), quantity: 1 }],
      customer: { email: 'exact@mail.test', billing_address: billing },
      ...(variantId ? { shipping_address: billing, shipping_method_id: shipping } : {}),
      return_url: RETURN,
    });
  const patchProduct = async (id: string, body: Record<string, unknown>) => {
    const res = await call(t.app, 'PATCH', `/api/products/${id}`, { token: owner, body });
    expect(res.statusCode).toBe(200);
  };
  const patchListing = async (id: string, body: Record<string, unknown>) => {
    const res = await call(t.app, 'PATCH', `/api/products/${id}/channels/${channel}`, { token: owner, body });
    expect(res.statusCode).toBe(200);
  };

  it('a change to a price, a listing, the tax class or the product is seen by the very next checkout', async () => {
    const p = await product('exact', { name: 'Exakt', is_digital: true, base_price_cents: 1000 });
    const first = await buy(p.id);
    expect(first.data.lines[0]).toMatchObject({ unit_price_cents: 1000, tax_rate: 0.19, name: 'Exakt' });
    // the same cart again: the same answer (from the held row)
    expect((await buy(p.id)).data.lines[0]).toMatchObject({ unit_price_cents: 1000 });

    await patchProduct(p.id, { base_price_cents: 1100 });
    expect((await buy(p.id)).data.lines[0]).toMatchObject({ unit_price_cents: 1100 });

    await patchListing(p.id, { price_cents: 900 });
    expect((await buy(p.id)).data.lines[0]).toMatchObject({ unit_price_cents: 900 });

    await patchProduct(p.id, { tax_class: 'books', name: 'Exakt 2' });
    expect((await buy(p.id)).data.lines[0]).toMatchObject({ unit_price_cents: 900, tax_rate: 0.07, name: 'Exakt 2' });

    await patchListing(p.id, { is_published: false });
    expectProblem(await buy(p.id), 400, 'product_unavailable');
    await patchListing(p.id, { is_published: true });
    expect((await buy(p.id)).statusCode).toBe(201);

    await patchProduct(p.id, { status: 'archived' });
    expectProblem(await buy(p.id), 400, 'product_unavailable');
    await patchProduct(p.id, { status: 'published' });
    expect((await buy(p.id)).statusCode).toBe(201);

    const deleted = await call(t.app, 'DELETE', `/api/products/${p.id}`, { token: owner });
    expect(deleted.statusCode).toBe(204);
    expectProblem(await buy(p.id), 400, 'product_unavailable');
  });

  it("a variant's channel price is seen by the next checkout of that variant", async () => {
    const shirt = P.shirt as { id: string; variants: { id: string; sku: string }[] };
    const m = shirt.variants.find((v) => v.sku === 'SH-M') as { id: string };
    const before = await buy(shirt.id, m.id);
    expect(before.statusCode).toBe(201);
    const price = before.data.lines[0].unit_price_cents as number;
    await patchListing(shirt.id, { variant_id: m.id, is_published: true, price_cents: price + 100 });
    expect((await buy(shirt.id, m.id)).data.lines[0]).toMatchObject({ unit_price_cents: price + 100 });
  });
});
