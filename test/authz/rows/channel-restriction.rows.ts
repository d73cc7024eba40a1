import {
  ANY_EMPLOYEE,
  CATALOG_WRITERS,
  type Credential,
  type CredentialExpectation,
  MANAGERS,
  type MatrixRow,
  type MatrixSetup,
} from '../matrix.types.js';

/**
 * Employee channel restriction (DESIGN §2) in the matrix: `restricted_admin` is restricted to the
 * shop's default channel A, `emptied_admin` to a channel that was deleted (no channel). Channel B
 * holds product pB and order oB; channel A holds pA and oA. Inside their channels restricted
 * employees act like any admin; outside, products and orders are hidden (lists) or missing (404).
 */
const READERS: Credential[] = [...ANY_EMPLOYEE, 'tok_catalog_read', 'tok_catalog_write'];
const PRODUCT_WRITERS: Credential[] = [...CATALOG_WRITERS, 'tok_catalog_write'];
const BILLING = { name: 'Erika Muster', line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' };

const missing = (): CredentialExpectation => ({ status: 404, code: 'not_found' });
const ids = (data: { products?: { id: string }[]; orders?: { id: string }[] }) =>
  (data.products ?? data.orders ?? []).map((x) => x.id);

/** Channel B, a product listed only in A and one only in B, and a paid order in each (once). */
async function twoChannels(api: MatrixSetup): Promise<void> {
  const f = api.fixture.ids;
  if (f.restrictionReady) return;
  const a = api.defaultChannelId;
  const b = await api.asOwner('POST', '/api/admin/channels', {
    name: 'Matrix B',
    default_country: 'DE',
    currency: 'EUR',
    path_prefix: 'matrix-b',
  });
  if (b.statusCode !== 201) throw new Error(`channel B: ${JSON.stringify(b.data)}`);
  f.channelA = a;
  f.channelB = b.data.id;
  for (const [key, channel, prefix] of [
    ['A', a, ''],
    ['B', b.data.id, '/matrix-b'],
  ] as const) {
    const p = await api.asOwner('POST', '/api/products', {
      name: `Nur ${key}`,
      status: 'published',
      is_digital: true,
      base_price_cents: 1000,
    });
    f[`product${key}`] = p.data.id;
    const listed = await api.asOwner('PATCH', `/api/products/${p.data.id}/channels/${channel}`, { is_published: true });
    if (listed.statusCode !== 200) throw new Error(`listing ${key}: ${JSON.stringify(listed.data)}`);
    const s = await api.call('POST', `${prefix}/api/store/checkout-sessions`, {
      token: api.publishableKey,
      headers: { origin: 'https://store.example' },
      body: {
        items: [{ product_id: p.data.id, quantity: 1 }],
        customer: { email: `matrix-${key.toLowerCase()}@mail.test`, billing_address: BILLING },
        return_url: 'https://store.example/danke',
      },
    });
    if (s.statusCode !== 201) throw new Error(`checkout ${key}: ${s.body}`);
    const paid = await api.call('POST', `/pay/${s.data.id}`, {
      body: new URLSearchParams({ ...BILLING, card_number: '4242424242424242', widerruf_verzicht: 'on' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    if (paid.statusCode !== 303) throw new Error(`payment ${key}: ${paid.body}`);
    const orders = await api.asOwner('GET', `/api/admin/orders?q=matrix-${key.toLowerCase()}%40mail.test`);
    f[`order${key}`] = orders.data.orders[0].id;
  }
  f.restrictionReady = 'yes';
}

export const channelRestrictionRows: MatrixRow[] = [
  // product list: A's product only; nothing for the emptied restriction
  {
    method: 'GET',
    url: '/api/admin/products',
    setup: twoChannels,
    allow: READERS,
    expect: {
      admin: {
        status: 200,
        body: (d, f) => ids(d).includes(f.ids.productA ?? '') && ids(d).includes(f.ids.productB ?? ''),
      },
      restricted_admin: {
        status: 200,
        body: (d, f) => ids(d).includes(f.ids.productA ?? '') && !ids(d).includes(f.ids.productB ?? ''),
      },
      emptied_admin: { status: 200, body: (d) => d.count === 0 && ids(d).length === 0 },
    },
  },
  // product detail
  {
    method: 'GET',
    url: (f) => `/api/admin/products/${f.ids.productA}`,
    setup: twoChannels,
    allow: READERS,
    expect: { emptied_admin: missing() },
  },
  {
    method: 'GET',
    url: (f) => `/api/admin/products/${f.ids.productB}`,
    setup: twoChannels,
    allow: READERS,
    expect: { restricted_admin: missing(), emptied_admin: missing() },
  },
  // product writes (an invalid body: 400 when the route is reached, nothing changes)
  {
    method: 'PATCH',
    url: (f) => `/api/products/${f.ids.productA}`,
    body: { status: 'not-a-status' },
    setup: twoChannels,
    allow: PRODUCT_WRITERS,
    ok: 400,
    expect: { emptied_admin: missing() },
  },
  {
    method: 'PATCH',
    url: (f) => `/api/products/${f.ids.productB}`,
    body: { status: 'not-a-status' },
    setup: twoChannels,
    allow: PRODUCT_WRITERS,
    ok: 400,
    expect: { restricted_admin: missing(), emptied_admin: missing() },
  },
  // listing writes: only in the employee's channels
  {
    method: 'PATCH',
    url: (f) => `/api/products/${f.ids.productA}/channels/${f.ids.channelA}`,
    body: { is_published: 'not-a-boolean' },
    setup: twoChannels,
    allow: PRODUCT_WRITERS,
    ok: 400,
    expect: { emptied_admin: missing() },
  },
  {
    method: 'PATCH',
    url: (f) => `/api/products/${f.ids.productA}/channels/${f.ids.channelB}`,
    body: { is_published: 'not-a-boolean' },
    setup: twoChannels,
    allow: PRODUCT_WRITERS,
    ok: 400,
    expect: { restricted_admin: missing(), emptied_admin: missing() },
  },
  // orders: list, detail, and a write (refund with an invalid body)
  {
    method: 'GET',
    url: '/api/admin/orders',
    setup: twoChannels,
    allow: ANY_EMPLOYEE,
    expect: {
      admin: {
        status: 200,
        body: (d, f) => ids(d).includes(f.ids.orderA ?? '') && ids(d).includes(f.ids.orderB ?? ''),
      },
      restricted_admin: {
        status: 200,
        body: (d, f) => ids(d).includes(f.ids.orderA ?? '') && !ids(d).includes(f.ids.orderB ?? ''),
      },
      emptied_admin: { status: 200, body: (d) => d.count === 0 && ids(d).length === 0 },
    },
  },
  {
    method: 'GET',
    url: (f) => `/api/admin/orders/${f.ids.orderA}`,
    setup: twoChannels,
    allow: ANY_EMPLOYEE,
    expect: { emptied_admin: missing() },
  },
  {
    method: 'GET',
    url: (f) => `/api/admin/orders/${f.ids.orderB}`,
    setup: twoChannels,
    allow: ANY_EMPLOYEE,
    expect: { restricted_admin: missing(), emptied_admin: missing() },
  },
  {
    method: 'POST',
    url: (f) => `/api/admin/orders/${f.ids.orderA}/refunds`,
    body: { reason: '' },
    setup: twoChannels,
    allow: MANAGERS,
    ok: 400,
    expect: { emptied_admin: missing() },
  },
  {
    method: 'POST',
    url: (f) => `/api/admin/orders/${f.ids.orderB}/refunds`,
    body: { reason: '' },
    setup: twoChannels,
    allow: MANAGERS,
    ok: 400,
    expect: { restricted_admin: missing(), emptied_admin: missing() },
  },
  // the back office's order reads (issue 27): timeline and refund preview only of their channels
  {
    method: 'GET',
    url: (f) => `/api/admin/orders/${f.ids.orderB}/timeline`,
    setup: twoChannels,
    allow: ANY_EMPLOYEE,
    expect: { restricted_admin: missing(), emptied_admin: missing() },
  },
  {
    method: 'POST',
    url: (f) => `/api/admin/orders/${f.ids.orderB}/refunds/preview`,
    body: { amount_cents: 0 },
    setup: twoChannels,
    allow: MANAGERS,
    ok: 400,
    expect: { restricted_admin: missing(), emptied_admin: missing() },
  },
  // the overview counts only the employee's channels (orderB is paid in channel B only)
  {
    method: 'GET',
    url: '/api/admin/overview',
    setup: twoChannels,
    allow: ANY_EMPLOYEE,
    expect: {
      admin: { status: 200, body: (d) => d.tiles.orders_paid_unfulfilled.count >= 2 && d.tiles.webhooks_dead !== null },
      // channel A's paid order, not B's; shop-wide tiles hidden
      restricted_admin: {
        status: 200,
        body: (d) => d.tiles.orders_paid_unfulfilled.count >= 1 && d.tiles.webhooks_dead === null,
      },
      emptied_admin: {
        status: 200,
        body: (d) => d.tiles.orders_paid_unfulfilled.count === 0 && d.tiles.webhooks_dead === null,
      },
    },
  },
];
