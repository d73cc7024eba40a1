import { SELLER } from '../../../src/modules/finance/finance.fixtures.js';
import {
  ANY_EMPLOYEE,
  CATALOG_WRITERS,
  type Credential,
  type CredentialExpectation,
  FINANCE_READERS,
  MANAGERS,
  type MatrixFixture,
  type MatrixRow,
  type MatrixSetup,
} from '../matrix.types.js';

/**
 * Employee channel restriction (DESIGN §2) in the matrix: `restricted_admin` is restricted to the
 * shop's default channel A, `emptied_admin` to a channel that was deleted (no channel). Channel B
 * holds product pB and order oB; channel A holds pA and oA. Inside their channels restricted
 * employees act like any admin; outside, products and orders are hidden (lists) or missing (404).
 * The same holds for every order-derived record (docs/decisions.md "Channel restriction of
 * order-derived records"): invoices, credit notes, their PDFs and e-invoices, subscriptions,
 * refunds, Lexware sync states and payment events (`moneyInTwoChannels`).
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

/**
 * On top of twoChannels (once): a final invoice with a final credit note on oA and on oB, a second
 * paid order in B with a draft invoice, and a subscription in each channel, B's ended at once — so
 * every write below is refused by the record's state (409) for an allowed admin and changes nothing.
 */
async function moneyInTwoChannels(api: MatrixSetup): Promise<void> {
  await twoChannels(api);
  const f = api.fixture.ids;
  if (f.moneyReady) return;
  const must = (res: { statusCode: number; data: any }, status: number, what: string) => {
    if (res.statusCode !== status) throw new Error(`${what}: ${res.statusCode} ${JSON.stringify(res.data)}`);
    return res.data;
  };
  must(await api.asOwner('PUT', '/api/admin/settings/company', SELLER), 200, 'company');
  for (const key of ['A', 'B'] as const) {
    const inv = must(await api.asOwner('POST', `/api/admin/orders/${f[`order${key}`]}/invoice`, {}), 201, 'invoice');
    must(await api.asOwner('POST', `/api/admin/invoices/${inv.id}/finalize`), 200, 'finalize');
    const cn = must(
      await api.asOwner('POST', `/api/admin/invoices/${inv.id}/credit-note`, { amount_cents: 100 }),
      201,
      'credit note',
    );
    must(await api.asOwner('POST', `/api/admin/credit-notes/${cn.id}/finalize`), 200, 'credit note final');
    f[`invoice${key}`] = inv.id;
    f[`creditNote${key}`] = cn.id;
  }
  // a second order in B, its invoice a draft (send-email of a draft: 409)
  const s = await api.call('POST', '/matrix-b/api/store/checkout-sessions', {
    token: api.publishableKey,
    headers: { origin: 'https://store.example' },
    body: {
      items: [{ product_id: f.productB, quantity: 1 }],
      customer: { email: 'matrix-b2@mail.test', billing_address: BILLING },
      return_url: 'https://store.example/danke',
    },
  });
  must(s, 201, 'checkout B2');
  must(
    await api.call('POST', `/pay/${s.data.id}`, {
      body: new URLSearchParams({ ...BILLING, card_number: '4242424242424242', widerruf_verzicht: 'on' }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
    303,
    'payment B2',
  );
  const b2 = must(await api.asOwner('GET', '/api/admin/orders?q=matrix-b2%40mail.test'), 200, 'order B2').orders[0];
  f.draftInvoiceB = must(await api.asOwner('POST', `/api/admin/orders/${b2.id}/invoice`, {}), 201, 'draft B').id;
  // subscriptions
  must(await api.asOwner('PUT', '/api/admin/digital/status', { aktiv: true }), 200, 'digital');
  for (const [key, prefix] of [
    ['A', ''],
    ['B', '/matrix-b'],
  ] as const) {
    const plan = must(
      await api.asOwner('POST', '/api/admin/digital/plaene', {
        product_id: f[`product${key}`],
        name: `Matrix ${key}`,
        price_cents: 990,
        interval_unit: 'month',
      }),
      201,
      'plan',
    );
    const email = `matrix-abo-${key.toLowerCase()}@mail.test`;
    const session = must(
      await api.call('POST', `${prefix}/api/store/abo-sessions`, {
        token: api.publishableKey,
        headers: { origin: 'https://store.example' },
        body: { plan_id: plan.id, return_url: 'https://store.example/abo', customer_email: email },
      }),
      201,
      'abo session',
    );
    must(
      await api.call('POST', `/pay/${session.id}`, {
        body: new URLSearchParams({ ...BILLING, card_number: '4242424242424242' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      303,
      'abo payment',
    );
    const abos = must(await api.asOwner('GET', `/api/admin/digital/abos?q=${encodeURIComponent(email)}`), 200, 'abos');
    f[`abo${key}`] = abos.abos[0].id;
  }
  must(await api.asOwner('POST', `/api/admin/digital/abos/${f.aboB}/kuendigen`, { sofort: true }), 200, 'end abo B');
  f.moneyReady = 'yes';
}

/** A request of a manager on a record of channel B: `ok` for allowed admins, 404 for restricted ones. */
const outsideB = (
  method: MatrixRow['method'],
  url: (f: MatrixFixture) => string,
  ok: number,
  body?: unknown,
): MatrixRow => ({
  method,
  url,
  setup: moneyInTwoChannels,
  allow: MANAGERS,
  ok,
  ...(body !== undefined ? { body } : {}),
  expect: { restricted_admin: missing(), emptied_admin: missing() },
});
/** The same on a record of channel A: only the employee restricted to no channel gets 404. */
const insideA = (
  method: MatrixRow['method'],
  url: (f: MatrixFixture) => string,
  ok: number,
  body?: unknown,
): MatrixRow => ({
  method,
  url,
  setup: moneyInTwoChannels,
  allow: MANAGERS,
  ok,
  ...(body !== undefined ? { body } : {}),
  expect: { emptied_admin: missing() },
});
/** `outsideB` / `insideA` of a finance read (`readMoney`: viewers too). */
const readB = (url: (f: MatrixFixture) => string, ok: number): MatrixRow => ({
  ...outsideB('GET', url, ok),
  allow: FINANCE_READERS,
});
const readA = (url: (f: MatrixFixture) => string, ok: number): MatrixRow => ({
  ...insideA('GET', url, ok),
  allow: FINANCE_READERS,
});
const listed = (list: { id: string }[] | undefined, id: string | undefined) => (list ?? []).some((x) => x.id === id);

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
  // ---- order-derived records (issue 26) ----
  // invoices and credit notes: lists
  {
    method: 'GET',
    url: '/api/admin/invoices',
    setup: moneyInTwoChannels,
    allow: FINANCE_READERS,
    expect: {
      admin: { status: 200, body: (d, f) => listed(d.invoices, f.ids.invoiceA) && listed(d.invoices, f.ids.invoiceB) },
      restricted_admin: {
        status: 200,
        body: (d, f) =>
          listed(d.invoices, f.ids.invoiceA) &&
          !listed(d.invoices, f.ids.invoiceB) &&
          !listed(d.invoices, f.ids.draftInvoiceB) &&
          d.count === d.invoices.length,
      },
      emptied_admin: { status: 200, body: (d) => d.count === 0 && d.invoices.length === 0 },
    },
  },
  {
    method: 'GET',
    url: '/api/admin/credit-notes',
    setup: moneyInTwoChannels,
    allow: FINANCE_READERS,
    expect: {
      admin: {
        status: 200,
        body: (d, f) => listed(d.credit_notes, f.ids.creditNoteA) && listed(d.credit_notes, f.ids.creditNoteB),
      },
      restricted_admin: {
        status: 200,
        body: (d, f) =>
          listed(d.credit_notes, f.ids.creditNoteA) &&
          !listed(d.credit_notes, f.ids.creditNoteB) &&
          d.count === d.credit_notes.length,
      },
      emptied_admin: { status: 200, body: (d) => d.count === 0 && d.credit_notes.length === 0 },
    },
  },
  // invoices: every route by id (the final invoice refuses changes: 409)
  readA((f) => `/api/admin/invoices/${f.ids.invoiceA}`, 200),
  readA((f) => `/api/admin/invoices/${f.ids.invoiceA}/pdf`, 200),
  readB((f) => `/api/admin/invoices/${f.ids.invoiceB}`, 200),
  outsideB('PATCH', (f) => `/api/admin/invoices/${f.ids.invoiceB}`, 409, { note: 'übernommen' }),
  outsideB('DELETE', (f) => `/api/admin/invoices/${f.ids.invoiceB}`, 409),
  outsideB('POST', (f) => `/api/admin/invoices/${f.ids.invoiceB}/finalize`, 409),
  outsideB('POST', (f) => `/api/admin/invoices/${f.ids.draftInvoiceB}/send-email`, 409, {}),
  readB((f) => `/api/admin/invoices/${f.ids.invoiceB}/pdf`, 200),
  readB((f) => `/api/admin/invoices/${f.ids.invoiceB}/pdf?format=zugferd`, 409),
  readB((f) => `/api/admin/invoices/${f.ids.invoiceB}/xrechnung`, 409),
  outsideB('GET', (f) => `/api/admin/invoices/${f.ids.invoiceB}/finalize-preview`, 409),
  outsideB('POST', (f) => `/api/admin/invoices/${f.ids.invoiceB}/credit-note-preview`, 409, {
    amount_cents: 1_000_000_000,
  }),
  outsideB('POST', (f) => `/api/admin/invoices/${f.ids.invoiceB}/credit-note`, 409, { amount_cents: 1_000_000_000 }),
  // credit notes by id (final: 409 on changes)
  readA((f) => `/api/admin/credit-notes/${f.ids.creditNoteA}`, 200),
  readB((f) => `/api/admin/credit-notes/${f.ids.creditNoteB}`, 200),
  outsideB('DELETE', (f) => `/api/admin/credit-notes/${f.ids.creditNoteB}`, 409),
  outsideB('POST', (f) => `/api/admin/credit-notes/${f.ids.creditNoteB}/finalize`, 409),
  readB((f) => `/api/admin/credit-notes/${f.ids.creditNoteB}/pdf`, 200),
  readB((f) => `/api/admin/credit-notes/${f.ids.creditNoteB}/xrechnung`, 409),
  // the order's own money routes: invoice creation (one open invoice: 409), refunds, Lexware sync
  outsideB('POST', (f) => `/api/admin/orders/${f.ids.orderB}/invoice`, 409, {}),
  insideA('GET', (f) => `/api/admin/orders/${f.ids.orderA}/refunds`, 200),
  outsideB('GET', (f) => `/api/admin/orders/${f.ids.orderB}/refunds`, 200),
  readA((f) => `/api/admin/orders/${f.ids.orderA}/lexware`, 200),
  readB((f) => `/api/admin/orders/${f.ids.orderB}/lexware`, 200),
  outsideB('POST', (f) => `/api/admin/orders/${f.ids.orderB}/lexware-retry`, 409),
  outsideB('POST', (f) => `/api/admin/orders/${f.ids.orderB}/lexware-cancel`, 409),
  // subscriptions: list, statistics, detail, kuendigen and fortsetzen (B's ended: 409)
  {
    method: 'GET',
    url: '/api/admin/digital/abos',
    setup: moneyInTwoChannels,
    allow: ANY_EMPLOYEE,
    expect: {
      admin: { status: 200, body: (d, f) => listed(d.abos, f.ids.aboA) && listed(d.abos, f.ids.aboB) },
      restricted_admin: {
        status: 200,
        body: (d, f) => listed(d.abos, f.ids.aboA) && !listed(d.abos, f.ids.aboB) && d.count === d.abos.length,
      },
      emptied_admin: { status: 200, body: (d) => d.count === 0 && d.abos.length === 0 },
    },
  },
  {
    method: 'GET',
    url: '/api/admin/digital/abos/statistik',
    setup: moneyInTwoChannels,
    allow: ANY_EMPLOYEE,
    expect: {
      admin: { status: 200, body: (d) => d.laufend >= 1 && d.beendet >= 1 },
      restricted_admin: { status: 200, body: (d) => d.laufend >= 1 && d.beendet === 0 },
      emptied_admin: { status: 200, body: (d) => d.laufend === 0 && d.beendet === 0 && d.mrr_cents === 0 },
    },
  },
  {
    method: 'GET',
    url: (f) => `/api/admin/digital/abos/${f.ids.aboA}`,
    setup: moneyInTwoChannels,
    allow: ANY_EMPLOYEE,
    expect: { emptied_admin: missing() },
  },
  {
    method: 'GET',
    url: (f) => `/api/admin/digital/abos/${f.ids.aboB}`,
    setup: moneyInTwoChannels,
    allow: ANY_EMPLOYEE,
    expect: { restricted_admin: missing(), emptied_admin: missing() },
  },
  outsideB('POST', (f) => `/api/admin/digital/abos/${f.ids.aboB}/kuendigen`, 409, {}),
  outsideB('POST', (f) => `/api/admin/digital/abos/${f.ids.aboB}/fortsetzen`, 409),
  // payment events: only those of orders and sessions of their channels
  {
    method: 'GET',
    url: '/api/admin/payment-events',
    setup: moneyInTwoChannels,
    allow: MANAGERS,
    expect: {
      restricted_admin: {
        status: 200,
        body: (d, f) =>
          d.count === d.payment_events.length &&
          d.payment_events.every((e: { order_id: string | null }) => e.order_id !== f.ids.orderB),
      },
      emptied_admin: { status: 200, body: (d) => d.count === 0 && d.payment_events.length === 0 },
    },
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
