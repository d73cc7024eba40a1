/**
 * Customer accounts against hostile clients (docs/ARCHITECTURE.md): e-mail verification before guest history
 * shows, password reset and change, session lifetimes.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createShop,
  customerToken,
  expectProblem,
  mailedToken,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { sha256 } from '../../platform/crypto.js';
import { createSession } from './sessions.js';

let t: TestApp;
let shop: ShopFixture;
let productId: string;
let planId: string;

const headers = { origin: STORE_ORIGIN };
const store = (method: string, url: string, body?: unknown, token?: string) =>
  call(t.app, method, url, { token: token ?? shop.publishableKey, headers, body });
const billing = { name: 'Erika Muster', line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'DE' };
const RETURN = `${STORE_ORIGIN}/danke`;
const pay = (id: string) =>
  call(t.app, 'POST', `/pay/${id}`, {
    body: new URLSearchParams({ ...billing, card_number: '4242424242424242', widerruf_verzicht: 'on' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

/** A guest one-time purchase paid through the hosted page; returns the order id. */
async function guestOrder(email: string): Promise<string> {
  const s = await store('POST', '/api/store/checkout-sessions', {
    items: [{ product_id: productId, quantity: 1 }],
    customer: { email, billing_address: billing },
    return_url: RETURN,
  });
  expect(s.statusCode, s.body).toBe(201);
  expect((await pay(s.data.id)).statusCode).toBe(303);
  const done = await call(t.app, 'GET', `/api/admin/orders?q=${encodeURIComponent(email)}`, { token: shop.ownerToken });
  return done.data.orders[0].id;
}

/** A guest subscription paid through the hosted page; returns the abo id. */
async function guestAbo(email: string): Promise<string> {
  const s = await store('POST', '/api/store/abo-sessions', {
    plan_id: planId,
    return_url: RETURN,
    customer_email: email,
  });
  expect(s.statusCode, s.body).toBe(201);
  expect((await pay(s.data.id)).statusCode).toBe(303);
  await t.app.deps.worker.drain();
  const list = await call(t.app, 'GET', '/api/admin/digital/abos', { token: shop.ownerToken, query: { q: email } });
  return list.data.abos[0].id;
}

/** Registers an address (202, no session): the account stays unverified and cannot sign in yet. */
async function registerOnly(email: string, password = 'customer-pass-1') {
  const res = await store('POST', '/api/customer/register', { email, password });
  expect(res.statusCode, res.body).toBe(202);
  expect(res.data).toEqual({ status: 'accepted' });
  return res;
}

/** Verifies with the e-mailed token and the password: the answer carries the new session. */
async function verify(email: string, password = 'customer-pass-1') {
  const token = await mailedToken(t.app, shop, email, 'customer_verify_email');
  return store('POST', '/api/customer/verify-email', { token, password });
}

/** Registers and verifies an address; returns the session the verification signed in. */
async function register(email: string, password = 'customer-pass-1') {
  await registerOnly(email, password);
  const res = await verify(email, password);
  expect(res.statusCode, res.body).toBe(200);
  return res.data as { token: string; customer: { id: string; email_verified: boolean } };
}

const login = (email: string, password: string) => store('POST', '/api/customer/login', { email, password });

beforeAll(async () => {
  t = await startApp();
  shop = await createShop(t.app);
  const owner = shop.ownerToken;
  await call(t.app, 'PUT', '/api/admin/digital/status', { token: owner, body: { aktiv: true } });
  const channel = shop.defaultChannelId;
  productId = (
    await call(t.app, 'POST', '/api/products', {
      token: owner,
      body: { name: 'Videokurs', is_digital: true, status: 'published', base_price_cents: 990 },
    })
  ).data.id;
  await call(t.app, 'PATCH', `/api/products/${productId}/channels/${channel}`, {
    token: owner,
    body: { is_published: true },
  });
  planId = (
    await call(t.app, 'POST', '/api/admin/digital/plaene', {
      token: owner,
      body: { product_id: productId, name: 'Monat', price_cents: 990, interval_unit: 'month' },
    })
  ).data.id;
});
afterAll(() => t.close());

describe('e-mail verification closes the account takeover', () => {
  it("registering a stranger's e-mail gives no session, and their click cannot verify it into the registrant's account", async () => {
    const victim = `opfer-${Date.now()}@mail.test`;
    const orderBefore = await guestOrder(victim);
    const aboBefore = await guestAbo(victim);

    // the attacker registers the victim's address: no session, and none by signing in either
    const reg = await registerOnly(victim, 'attacker-pass-1');
    expect(reg.headers['set-cookie']).toBeUndefined();
    expectProblem(await login(victim, 'attacker-pass-1'), 401, 'invalid_credentials');
    const orderAfter = await guestOrder(victim);

    // a session that exists before verification (e.g. one made before this rule) does not survive it
    const [row] = (
      (await t.app.deps.database.db.execute(
        sql`SELECT id FROM customers WHERE shop_id = ${shop.shopId} AND lower(email) = lower(${victim})`,
      )) as unknown as { rows: { id: string }[] }
    ).rows;
    const early = await createSession(
      { db: t.app.deps.database.db },
      { shopId: shop.shopId, kind: 'customer', subjectId: row?.id as string },
    );
    const none = await call(t.app, 'GET', '/api/customer/orders', { token: early.token });
    expect(none.data).toMatchObject({ count: 0, orders: [] });

    // the victim follows the verification link but does not know the attacker's password: refused
    const token = await mailedToken(t.app, shop, victim, 'customer_verify_email');
    const clicked = await store('POST', '/api/customer/verify-email', { token, password: 'victim-guess-1' });
    expectProblem(clicked, 400, 'invalid_credentials');
    expect(clicked.data.errors[0].path).toBe('/body/password');
    const admin = await call(t.app, 'GET', `/api/admin/orders/${orderAfter}`, { token: shop.ownerToken });
    expect(admin.data.order.customer_id).toBeNull();
    expectProblem(await login(victim, 'attacker-pass-1'), 401, 'invalid_credentials');

    // the victim takes the address over by the reset (proves the mailbox, sets their password)
    await store('POST', '/api/customer/password-reset', { email: victim });
    const reset = await mailedToken(t.app, shop, victim, 'customer_password_reset');
    const confirmed = await store('POST', '/api/customer/password-reset/confirm', {
      token: reset,
      password: 'victim-pass-1',
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.data.customer.email_verified).toBe(true);
    expectProblem(await call(t.app, 'GET', '/api/customer/orders', { token: early.token }), 401, 'invalid_credential');
    expectProblem(await login(victim, 'attacker-pass-1'), 401, 'invalid_credentials');
    const mine = await login(victim, 'victim-pass-1');
    expect(mine.statusCode).toBe(200);
    const orders = await call(t.app, 'GET', '/api/customer/orders', { token: mine.data.token });
    expect(orders.data.orders.map((o: { id: string }) => o.id)).toEqual(
      expect.arrayContaining([orderBefore, orderAfter]),
    );
    const abos = await call(t.app, 'GET', '/api/customer/abos', { token: mine.data.token });
    expect(abos.data.abos.map((a: { id: string }) => a.id)).toEqual([aboBefore]);
  });

  it('verification by the link alone (no password) discards the password set at registration: the registrant cannot sign in, the mailbox owner has the session and the guest purchases', async () => {
    const victim = `link-allein-${Date.now()}@mail.test`;
    const orderBefore = await guestOrder(victim);
    await registerOnly(victim, 'attacker-pass-2');
    const token = await mailedToken(t.app, shop, victim, 'customer_verify_email');
    const clicked = await store('POST', '/api/customer/verify-email', { token });
    expect(clicked.statusCode, clicked.body).toBe(200);
    expect(clicked.data.customer.email_verified).toBe(true);
    const orders = await call(t.app, 'GET', '/api/customer/orders', { token: clicked.data.token });
    expect(orders.data.orders.map((o: { id: string }) => o.id)).toContain(orderBefore);
    // whoever chose the password at registration cannot use it
    expectProblem(await login(victim, 'attacker-pass-2'), 401, 'invalid_credentials');
    // the token was used
    expectProblem(await store('POST', '/api/customer/verify-email', { token }), 400, 'token_invalid');
  });

  it('verification with the password ends every earlier session, signs in, and shows the guest purchases', async () => {
    const email = `eigen-konto-${Date.now()}@mail.test`;
    const orderBefore = await guestOrder(email);
    const aboBefore = await guestAbo(email);
    await registerOnly(email);
    const orderAfter = await guestOrder(email);
    const aboAfter = await guestAbo(email);
    const [row] = (
      (await t.app.deps.database.db.execute(
        sql`SELECT id FROM customers WHERE shop_id = ${shop.shopId} AND lower(email) = lower(${email})`,
      )) as unknown as { rows: { id: string }[] }
    ).rows;
    const before = await createSession(
      { db: t.app.deps.database.db },
      { shopId: shop.shopId, kind: 'customer', subjectId: row?.id as string },
    );
    // the verifying browser sends its (pre-verification) session cookie: it gets a new one
    const token = await mailedToken(t.app, shop, email, 'customer_verify_email');
    const verified = await call(t.app, 'POST', '/api/customer/verify-email', {
      token: shop.publishableKey,
      headers,
      cookies: { csid: before.token },
      body: { token, password: 'customer-pass-1' },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.data.customer).toMatchObject({ id: row?.id, email_verified: true });
    expect(verified.data.token).toMatch(/^csess_/);
    expect(verified.data.token).not.toBe(before.token);
    expect(String(verified.headers['set-cookie'])).toContain(`csid=${verified.data.token}`);
    expectProblem(await call(t.app, 'GET', '/api/customer/orders', { token: before.token }), 401, 'invalid_credential');

    const session = verified.data.token as string;
    const after = await call(t.app, 'GET', '/api/customer/orders', { token: session });
    // the two one-time orders and the first orders of the two paid subscriptions
    expect(after.data.count).toBe(4);
    expect(after.data.orders.map((o: { id: string }) => o.id)).toEqual(
      expect.arrayContaining([orderBefore, orderAfter]),
    );
    const abos = await call(t.app, 'GET', '/api/customer/abos', { token: session });
    expect(abos.data.abos.map((a: { id: string }) => a.id).sort()).toEqual([aboBefore, aboAfter].sort());

    // a guest purchase after verification belongs to the account at once
    const orderLater = await guestOrder(email);
    const aboLater = await guestAbo(email);
    expect((await call(t.app, 'GET', '/api/customer/orders', { token: session })).data.count).toBe(6);
    const later = await call(t.app, 'GET', '/api/customer/abos', { token: session });
    expect(later.data.abos.map((a: { id: string }) => a.id)).toContain(aboLater);
    expect(
      (await call(t.app, 'GET', `/api/admin/orders/${orderLater}`, { token: shop.ownerToken })).data.order.customer_id,
    ).toBe(row?.id);
    expect((await login(email, 'customer-pass-1')).statusCode).toBe(200);
  });

  it('a verification token works once; unknown, malformed and expired tokens and wrong passwords are refused', async () => {
    const email = `einmal-${Date.now()}@mail.test`;
    await registerOnly(email);
    const token = await mailedToken(t.app, shop, email, 'customer_verify_email');
    const password = 'customer-pass-1';
    expectProblem(await store('POST', '/api/customer/verify-email', {}), 400, 'validation_failed');
    expectProblem(await store('POST', '/api/customer/verify-email', { token, password: '' }), 400, 'validation_failed');
    expectProblem(
      await store('POST', '/api/customer/verify-email', { token: 123, password }),
      400,
      'validation_failed',
    );
    expectProblem(
      await store('POST', '/api/customer/verify-email', { token, password, extra: 1 }),
      400,
      'validation_failed',
    );
    expectProblem(
      await store('POST', '/api/customer/verify-email', { token: 'verify_nope', password }),
      400,
      'token_invalid',
    );
    // a wrong password: refused, and the token stays usable
    expectProblem(
      await store('POST', '/api/customer/verify-email', { token, password: 'not-the-password' }),
      400,
      'invalid_credentials',
    );
    // another shop's key does not find this shop's token
    const other = await createShop(t.app);
    expectProblem(
      await call(t.app, 'POST', '/api/customer/verify-email', {
        token: other.publishableKey,
        headers,
        body: { token, password },
      }),
      400,
      'token_invalid',
    );
    expect((await store('POST', '/api/customer/verify-email', { token, password })).statusCode).toBe(200);
    expectProblem(await store('POST', '/api/customer/verify-email', { token, password }), 400, 'token_invalid');

    const late = `spaet-${Date.now()}@mail.test`;
    await registerOnly(late);
    const lateToken = await mailedToken(t.app, shop, late, 'customer_verify_email');
    await t.app.deps.database.db.execute(
      sql`UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(lateToken)}`,
    );
    expectProblem(
      await store('POST', '/api/customer/verify-email', { token: lateToken, password }),
      400,
      'token_invalid',
    );
  });

  it('credentials: verify-email needs the publishable key and an allowed Origin', async () => {
    expectProblem(
      await call(t.app, 'POST', '/api/customer/verify-email', { body: { token: 'x', password: 'y' } }),
      401,
      'unauthenticated',
    );
    expectProblem(
      await call(t.app, 'POST', '/api/customer/verify-email', {
        token: shop.publishableKey,
        headers: { origin: 'https://evil.example' },
        body: { token: 'x', password: 'y' },
      }),
      403,
      'origin_denied',
    );
    expectProblem(
      await call(t.app, 'POST', '/api/customer/verify-email', {
        token: shop.ownerToken,
        body: { token: 'x', password: 'y' },
      }),
      403,
      'credential_denied',
    );
  });
});

describe('password reset', () => {
  it('answers a known and an unknown address alike and e-mails only the known one', async () => {
    const email = `reset-${Date.now()}@mail.test`;
    await register(email);
    const known = await store('POST', '/api/customer/password-reset', { email: email.toUpperCase() });
    const unknown = await store('POST', '/api/customer/password-reset', { email: `nobody-${Date.now()}@mail.test` });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(await mailedToken(t.app, shop, email, 'customer_password_reset')).toMatch(/^reset_/);
    expectProblem(await store('POST', '/api/customer/password-reset', {}), 400, 'validation_failed');
    expectProblem(await store('POST', '/api/customer/password-reset', { email: '' }), 400, 'validation_failed');
  });

  it('a reset sets the password, revokes every session, verifies the e-mail, and works once', async () => {
    const email = `vergessen-${Date.now()}@mail.test`;
    const { token: first } = await register(email, 'old-password-1');
    const second = (await login(email, 'old-password-1')).data.token;
    await store('POST', '/api/customer/password-reset', { email });
    const token = await mailedToken(t.app, shop, email, 'customer_password_reset');
    expectProblem(
      await store('POST', '/api/customer/password-reset/confirm', { token, password: 'short' }),
      400,
      'validation_failed',
    );
    expectProblem(
      await store('POST', '/api/customer/password-reset/confirm', { password: 'new-password-1' }),
      400,
      'validation_failed',
    );
    expectProblem(
      await store('POST', '/api/customer/password-reset/confirm', {
        token: 'reset_unknown',
        password: 'new-password-1',
      }),
      400,
      'token_invalid',
    );
    const ok = await store('POST', '/api/customer/password-reset/confirm', { token, password: 'new-password-1' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.data.customer).toMatchObject({ email, email_verified: true });
    // the reset also verifies an address that was never verified (the link proved the mailbox)
    const unverified = `unbestaetigt-${Date.now()}@mail.test`;
    await registerOnly(unverified);
    await store('POST', '/api/customer/password-reset', { email: unverified });
    const confirmed = await store('POST', '/api/customer/password-reset/confirm', {
      token: await mailedToken(t.app, shop, unverified, 'customer_password_reset'),
      password: 'new-password-1',
    });
    expect(confirmed.data.customer).toMatchObject({ email: unverified, email_verified: true });
    expect((await login(unverified, 'new-password-1')).statusCode).toBe(200);
    for (const old of [first, second]) {
      expectProblem(await call(t.app, 'GET', '/api/customer/me', { token: old }), 401, 'invalid_credential');
    }
    expectProblem(await login(email, 'old-password-1'), 401, 'invalid_credentials');
    expect((await login(email, 'new-password-1')).statusCode).toBe(200);
    expectProblem(
      await store('POST', '/api/customer/password-reset/confirm', { token, password: 'third-password' }),
      400,
      'token_invalid',
    );
  });

  it('an expired reset token (older than 1 h) is refused; a newer request ends the older link', async () => {
    const email = `abgelaufen-${Date.now()}@mail.test`;
    await register(email);
    await store('POST', '/api/customer/password-reset', { email });
    const token = await mailedToken(t.app, shop, email, 'customer_password_reset');
    const rows = (await t.app.deps.database.db.execute(
      sql`SELECT (expires_at - created_at) = interval '1 hour' AS one_hour FROM account_tokens WHERE token_hash = ${sha256(token)}`,
    )) as unknown as { rows: { one_hour: boolean }[] };
    expect(rows.rows[0]?.one_hour).toBe(true);
    await t.app.deps.database.db.execute(
      sql`UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE token_hash = ${sha256(token)}`,
    );
    expectProblem(
      await store('POST', '/api/customer/password-reset/confirm', { token, password: 'new-password-1' }),
      400,
      'token_invalid',
    );
    await store('POST', '/api/customer/password-reset', { email });
    const older = await mailedToken(t.app, shop, email, 'customer_password_reset');
    await store('POST', '/api/customer/password-reset', { email });
    const newer = await mailedToken(t.app, shop, email, 'customer_password_reset');
    expect(newer).not.toBe(older);
    expectProblem(
      await store('POST', '/api/customer/password-reset/confirm', { token: older, password: 'new-password-1' }),
      400,
      'token_invalid',
    );
    expect(
      (await store('POST', '/api/customer/password-reset/confirm', { token: newer, password: 'new-password-1' }))
        .statusCode,
    ).toBe(200);
  });

  it('credentials: reset routes need the publishable key', async () => {
    for (const url of ['/api/customer/password-reset', '/api/customer/password-reset/confirm']) {
      expectProblem(await call(t.app, 'POST', url, { body: {} }), 401, 'unauthenticated');
      expectProblem(await call(t.app, 'POST', url, { token: shop.ownerToken, body: {} }), 403, 'credential_denied');
    }
  });
});

describe('password change', () => {
  it('checks the current password, revokes every session and returns a new one', async () => {
    const email = `wechsel-${Date.now()}@mail.test`;
    const { token: a } = await register(email, 'first-password');
    const b = (await login(email, 'first-password')).data.token;
    const change = (token: string, body: unknown) => call(t.app, 'POST', '/api/customer/password', { token, body });
    expectProblem(
      await change(a, { current_password: 'not-it-at-all', new_password: 'second-password' }),
      400,
      'invalid_credentials',
    );
    expectProblem(
      await change(a, { current_password: 'first-password', new_password: 'short' }),
      400,
      'validation_failed',
    );
    expectProblem(await change(a, { current_password: 'first-password' }), 400, 'validation_failed');
    const ok = await change(a, { current_password: 'first-password', new_password: 'second-password' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.data.token).toMatch(/^csess_/);
    for (const old of [a, b]) {
      expectProblem(await call(t.app, 'GET', '/api/customer/me', { token: old }), 401, 'invalid_credential');
    }
    expect((await call(t.app, 'GET', '/api/customer/me', { token: ok.data.token })).statusCode).toBe(200);
    expect((await login(email, 'second-password')).statusCode).toBe(200);
    expectProblem(await login(email, 'first-password'), 401, 'invalid_credentials');
  });

  it('credentials: only a customer session', async () => {
    const body = { current_password: 'x', new_password: 'yyyyyyyy' };
    expectProblem(await call(t.app, 'POST', '/api/customer/password', { body }), 401, 'unauthenticated');
    expectProblem(
      await call(t.app, 'POST', '/api/customer/password', { token: shop.publishableKey, headers, body }),
      403,
      'credential_denied',
    );
    expectProblem(
      await call(t.app, 'POST', '/api/customer/password', { token: shop.ownerToken, body }),
      403,
      'credential_denied',
    );
  });
});

describe('session lifetimes', () => {
  it('a session ends after its absolute lifetime even while in use', async () => {
    const token = await customerToken(t.app, shop);
    expect((await call(t.app, 'GET', '/api/customer/me', { token })).statusCode).toBe(200);
    // 89 days old: still alive; 91 days old (default CUSTOMER_SESSION_MAX_AGE_HOURS 2160 = 90 d): gone
    const db = t.app.deps.database.db;
    await db.execute(
      sql`UPDATE sessions SET created_at = now() - interval '89 days' WHERE token_hash = ${sha256(token)}`,
    );
    expect((await call(t.app, 'GET', '/api/customer/me', { token })).statusCode).toBe(200);
    await db.execute(
      sql`UPDATE sessions SET created_at = now() - interval '91 days' WHERE token_hash = ${sha256(token)}`,
    );
    expectProblem(await call(t.app, 'GET', '/api/customer/me', { token }), 401, 'invalid_credential');
  });

  it('sliding never extends past the absolute lifetime', async () => {
    const token = await customerToken(t.app, shop);
    const db = t.app.deps.database.db;
    await db.execute(
      sql`UPDATE sessions SET created_at = now() - interval '89 days', last_seen_at = now() - interval '1 hour'
          WHERE token_hash = ${sha256(token)}`,
    );
    expect((await call(t.app, 'GET', '/api/customer/me', { token })).statusCode).toBe(200);
    const rows = (await db.execute(
      sql`SELECT expires_at <= created_at + interval '90 days' AS capped, expires_at > now() AS alive
          FROM sessions WHERE token_hash = ${sha256(token)}`,
    )) as unknown as { rows: { capped: boolean; alive: boolean }[] };
    expect(rows.rows[0]).toEqual({ capped: true, alive: true });
  });
});

describe('buying while signed in (publishable key + customer session)', () => {
  const checkoutBody = (email: string) => ({
    items: [{ product_id: productId, quantity: 1 }],
    customer: { email, billing_address: billing },
    return_url: RETURN,
  });
  const aboBody = (email: string) => ({ plan_id: planId, return_url: RETURN, customer_email: email });
  const signedIn = (url: string, body: unknown, session: string) =>
    call(t.app, 'POST', url, {
      token: shop.publishableKey,
      headers: { ...headers, 'x-customer-session': session },
      body,
    });
  const sessionCount = async () => {
    const res = (await t.app.deps.database.db.execute(
      sql`SELECT count(*)::int AS n FROM checkout_sessions WHERE shop_id = ${shop.shopId}`,
    )) as unknown as { rows: { n: number }[] };
    return res.rows[0]?.n ?? 0;
  };

  it('a one-time purchase (X-Customer-Session) belongs to the account at once, with its e-mail', async () => {
    const email = `kaeufer-${Date.now()}@mail.test`;
    const me = await register(email);
    // the body's e-mail may differ in case only; the order carries the account's spelling
    const s = await signedIn('/api/store/checkout-sessions', checkoutBody(email.toUpperCase()), me.token);
    expect(s.statusCode, s.body).toBe(201);
    expect((await pay(s.data.id)).statusCode).toBe(303);
    const orders = await call(t.app, 'GET', '/api/customer/orders', { token: me.token });
    expect(orders.data.count).toBe(1);
    const order = await call(t.app, 'GET', `/api/admin/orders/${orders.data.orders[0].id}`, {
      token: shop.ownerToken,
    });
    expect(order.data.order).toMatchObject({ customer_id: me.customer.id, customer_email: email });
    // a guest purchase of the (verified) e-mail belongs to it too
    await guestOrder(email);
    expect((await call(t.app, 'GET', '/api/customer/orders', { token: me.token })).data.count).toBe(2);
  });

  it('a subscription (customer cookie) belongs to the account at once', async () => {
    const email = `abo-kaeufer-${Date.now()}@mail.test`;
    const me = await register(email);
    const s = await call(t.app, 'POST', '/api/store/abo-sessions', {
      token: shop.publishableKey,
      headers,
      cookies: { csid: me.token },
      body: aboBody(email),
    });
    expect(s.statusCode, s.body).toBe(201);
    expect((await pay(s.data.id)).statusCode).toBe(303);
    await t.app.deps.worker.drain();
    const abos = await call(t.app, 'GET', '/api/customer/abos', { token: me.token });
    expect(abos.data.abos).toHaveLength(1);
    // the abo's first order too
    expect((await call(t.app, 'GET', '/api/customer/orders', { token: me.token })).data.count).toBe(1);
    // and the signed-in account may manage it
    const cancel = await call(t.app, 'POST', `/api/customer/abos/${abos.data.abos[0].id}/kuendigen`, {
      token: me.token,
    });
    expect(cancel.statusCode, cancel.body).toBe(200);
  });

  it("a body e-mail other than the account's is refused (409 customer_email_mismatch), nothing created", async () => {
    const me = await register(`eigen-${Date.now()}@mail.test`);
    const before = await sessionCount();
    const one = await signedIn('/api/store/checkout-sessions', checkoutBody('fremd@mail.test'), me.token);
    expectProblem(one, 409, 'customer_email_mismatch');
    expect(one.data.errors[0].path).toBe('/body/customer/email');
    const abo = await signedIn('/api/store/abo-sessions', aboBody('fremd@mail.test'), me.token);
    expectProblem(abo, 409, 'customer_email_mismatch');
    expect(abo.data.errors[0].path).toBe('/body/customer_email');
    expect(await sessionCount()).toBe(before);
  });

  it("refuses another shop's, a revoked, an expired and a malformed session with 401 customer_session_invalid", async () => {
    const other = await createShop(t.app);
    const foreignEmail = `fremdshop-${Date.now()}@mail.test`;
    const foreign = await customerToken(t.app, other, { email: foreignEmail });
    const revokedEmail = `abgemeldet-${Date.now()}@mail.test`;
    const revoked = (await register(revokedEmail)).token;
    expect((await call(t.app, 'POST', '/api/customer/logout', { token: revoked })).statusCode).toBe(204);
    const expiredEmail = `abgelaufen-${Date.now()}@mail.test`;
    const expired = (await register(expiredEmail)).token;
    await t.app.deps.database.db.execute(
      sql`UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE token_hash = ${sha256(expired)}`,
    );
    const cases: [string, string][] = [
      [foreign, foreignEmail],
      [revoked, revokedEmail],
      [expired, expiredEmail],
      ['csess_does-not-exist', 'x@mail.test'],
      [shop.ownerToken, shop.ownerEmail],
      ['', 'x@mail.test'],
    ];
    const before = await sessionCount();
    for (const [session, email] of cases) {
      expectProblem(
        await signedIn('/api/store/checkout-sessions', checkoutBody(email), session),
        401,
        'customer_session_invalid',
      );
      expectProblem(
        await signedIn('/api/store/abo-sessions', aboBody(email), session),
        401,
        'customer_session_invalid',
      );
    }
    // a stale browser cookie is refused and cleared, so the shopper can go on as a guest
    const stale = await call(t.app, 'POST', '/api/store/checkout-sessions', {
      token: shop.publishableKey,
      headers,
      cookies: { csid: revoked },
      body: checkoutBody(revokedEmail),
    });
    expectProblem(stale, 401, 'customer_session_invalid');
    expect(String(stale.headers['set-cookie'])).toMatch(/^csid=;/);
    expect(await sessionCount()).toBe(before);
    // the shop B session still works at shop B, and shop A's guest checkout without it
    const atB = await call(t.app, 'POST', '/api/store/checkout-sessions', {
      token: other.publishableKey,
      headers: { ...headers, 'x-customer-session': foreign },
      body: { ...checkoutBody(foreignEmail), items: [] },
    });
    expect(atB.statusCode).not.toBe(401);
    expect((await store('POST', '/api/store/checkout-sessions', checkoutBody(revokedEmail))).statusCode).toBe(201);
  });

  it('is documented in the OpenAPI document and allowed by the CORS preflight', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).data;
    expect(doc.components.securitySchemes.customerSessionHeader).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-Customer-Session',
    });
    expect(doc.components.securitySchemes.customerSessionCookie).toMatchObject({ in: 'cookie', name: 'csid' });
    for (const path of ['/api/store/checkout-sessions', '/api/store/abo-sessions']) {
      expect(doc.paths[path].post.security).toEqual([
        { publishableKey: [] },
        { publishableKey: [], customerSessionHeader: [] },
        { publishableKey: [], customerSessionCookie: [] },
      ]);
    }
    const preflight = await call(t.app, 'OPTIONS', '/api/store/checkout-sessions', {
      headers: { origin: STORE_ORIGIN, 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(String(preflight.headers['access-control-allow-headers'])).toContain('x-customer-session');
  });

  it('the customer session alone (without the publishable key) still cannot create sessions', async () => {
    const me = await register(`allein-${Date.now()}@mail.test`);
    for (const url of ['/api/store/checkout-sessions', '/api/store/abo-sessions']) {
      expectProblem(await call(t.app, 'POST', url, { token: me.token, headers, body: {} }), 403, 'credential_denied');
    }
  });
});

describe('registration answers alike whether or not the address has an account', () => {
  it('a taken address: same status, body and headers as a new one; its owner is told; nothing changes', async () => {
    const owner = `besitzer-${Date.now()}@mail.test`;
    const me = await register(owner, 'owner-pass-1');
    const fresh = `neu-${Date.now()}@mail.test`;
    const a = await store('POST', '/api/customer/register', { email: fresh, password: 'someone-pass-1' });
    const b = await store('POST', '/api/customer/register', { email: owner.toUpperCase(), password: 'someone-pass-1' });
    for (const res of [a, b]) {
      expect(res.statusCode, res.body).toBe(202);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    expect(b.body).toBe(a.body);
    const shape = (h: Record<string, unknown>) =>
      Object.keys(h)
        .filter((k) => !['date', 'x-request-id'].includes(k))
        .sort()
        .map((k) => (k === 'content-length' ? k : `${k}: ${String(h[k])}`));
    expect(shape(b.headers)).toEqual(shape(a.headers));
    // neither can sign in with the password just sent
    expectProblem(await login(fresh, 'someone-pass-1'), 401, 'invalid_credentials');
    expectProblem(await login(owner, 'someone-pass-1'), 401, 'invalid_credentials');
    // the new address got its verification e-mail; the owner an e-mail that someone tried, without a token
    expect(await mailedToken(t.app, shop, fresh, 'customer_verify_email')).toMatch(/^verify_/);
    const told = await call(t.app, 'GET', '/api/admin/emails', {
      token: shop.ownerToken,
      query: { to: owner, kind: 'customer_register_attempt' },
    });
    expect(told.data.emails).toHaveLength(1);
    expect(told.data.emails[0].text).toContain('bereits ein Konto');
    expect(told.data.emails[0].text).not.toMatch(/token/i);
    // the owner's account, password and session are untouched
    expect((await call(t.app, 'GET', '/api/customer/me', { token: me.token })).data.customer).toMatchObject({
      id: me.customer.id,
      email_verified: true,
    });
    expect((await login(owner, 'owner-pass-1')).statusCode).toBe(200);
  });
});
