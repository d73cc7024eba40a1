/**
 * The directory tables (platform/db/directory.ts, docs/decisions.md "Directory tables"): each
 * credential, domain, employee e-mail and provider reference works through its directory row,
 * stays unique across shops, loses its row when revoked or removed, and a row pointing at another
 * shop never authenticates there.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentProviderFor } from '../../src/adapters/payment/index.js';
import { applyPaymentEvent } from '../../src/modules/checkout/payment-webhook.js';
import { type FinanceShop, financeShop, paidOrder } from '../../src/modules/finance/finance.fixtures.js';
import { sha256 } from '../../src/platform/crypto.js';
import { forgetRememberedCredentials } from '../../src/platform/db/directory.js';
import { query } from '../../src/platform/db/tx.js';
import { CLEANUP_JOB } from '../../src/platform/jobs/maintenance.js';
import { enqueue } from '../../src/platform/jobs/queue.js';
import {
  call,
  createShop,
  expectProblem,
  mailedToken,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../helpers/app.js';

let t: TestApp;
let a: ShopFixture;
let b: ShopFixture;

beforeAll(async () => {
  t = await startApp();
  a = await createShop(t.app);
  b = await createShop(t.app);
});
afterAll(() => t.close());

const db = () => t.app.deps.database.db;
const credentialRow = async (secret: string) =>
  (
    await query<{ kind: string; shop_id: string; row_id: string }>(
      db(),
      sql`SELECT kind, shop_id, row_id FROM credential_directory WHERE hash = ${sha256(secret)}`,
    )
  )[0];
/**
 * Points a credential's directory row at another shop (what a corrupted or forged row would do),
 * and makes the process forget what it remembered of the directory (credentialEntry's cache).
 */
const repoint = async (secret: string, shopId: string) => {
  await db().execute(sql`UPDATE credential_directory SET shop_id = ${shopId} WHERE hash = ${sha256(secret)}`);
  forgetRememberedCredentials();
};
const me = (token: string) => call(t.app, 'GET', '/api/auth/me', { token });
const store = (key: string) =>
  call(t.app, 'GET', '/api/store/products', { token: key, headers: { origin: STORE_ORIGIN } });

describe('credential directory', () => {
  it('an admin session resolves through its row; sign-out removes it; a row of shop A never signs in at B', async () => {
    const login = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: a.ownerEmail, password: 'owner-password-1' },
    });
    const token: string = login.data.token;
    expect(await credentialRow(token)).toMatchObject({ kind: 'admin_session', shop_id: a.shopId });
    expect((await me(token)).statusCode).toBe(200);

    await repoint(token, b.shopId);
    expectProblem(await me(token), 401, 'invalid_credential');
    await repoint(token, a.shopId);
    expect((await me(token)).data.shop.id).toBe(a.shopId);

    expect((await call(t.app, 'POST', '/api/auth/logout', { token })).statusCode).toBeLessThan(300);
    expect(await credentialRow(token)).toBeUndefined();
    expectProblem(await me(token), 401, 'invalid_credential');
  });

  it('a session without its directory row does not work (the lookup goes through the directory)', async () => {
    const login = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: a.ownerEmail, password: 'owner-password-1' },
    });
    const token: string = login.data.token;
    await db().execute(sql`DELETE FROM credential_directory WHERE hash = ${sha256(token)}`);
    expectProblem(await me(token), 401, 'invalid_credential');
  });

  it('API tokens: created with a row, revoked without one; a row of shop A never authenticates at B', async () => {
    const created = await call(t.app, 'POST', '/api/admin/api-tokens', {
      token: a.ownerToken,
      body: { name: 'dir', scopes: ['catalog:read'] },
    });
    const token: string = created.data.token;
    expect(await credentialRow(token)).toMatchObject({ kind: 'api_token', shop_id: a.shopId, row_id: created.data.id });
    const products = () => call(t.app, 'GET', '/api/admin/products', { token });
    expect((await products()).statusCode).toBe(200);

    await repoint(token, b.shopId);
    expectProblem(await products(), 401, 'invalid_credential');
    await repoint(token, a.shopId);

    await call(t.app, 'DELETE', `/api/admin/api-tokens/${created.data.id}`, { token: a.ownerToken });
    expect(await credentialRow(token)).toBeUndefined();
    expectProblem(await products(), 401, 'invalid_credential');
  });

  it('publishable keys: a row per key, removed on revoke; a row of shop A never serves shop B', async () => {
    const created = await call(t.app, 'POST', '/api/admin/publishable-keys', {
      token: a.ownerToken,
      body: { name: 'dir', allowed_origins: [STORE_ORIGIN] },
    });
    const key: string = created.data.key;
    expect(await credentialRow(key)).toMatchObject({ kind: 'publishable_key', shop_id: a.shopId });
    expect((await store(key)).statusCode).toBe(200);

    await repoint(key, b.shopId);
    expectProblem(await store(key), 401, 'invalid_credential');
    await repoint(key, a.shopId);
    expect((await store(key)).statusCode).toBe(200);

    await call(t.app, 'DELETE', `/api/admin/publishable-keys/${created.data.id}`, { token: a.ownerToken });
    expect(await credentialRow(key)).toBeUndefined();
    expectProblem(await store(key), 401, 'invalid_credential');
  });

  it('account tokens: issued with a row, used without one; a verification link of shop A never verifies at B', async () => {
    const email = `dir-${Math.random().toString(36).slice(2, 8)}@mail.test`;
    const registered = await call(t.app, 'POST', '/api/customer/register', {
      token: a.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: { email, password: 'customer-pass-1' },
    });
    expect(registered.statusCode).toBe(202);
    const token = await mailedToken(t.app, a, email, 'customer_verify_email');
    expect(await credentialRow(token)).toMatchObject({ kind: 'account_token', shop_id: a.shopId });
    const verify = (key: string) =>
      call(t.app, 'POST', '/api/customer/verify-email', {
        token: key,
        headers: { origin: STORE_ORIGIN },
        body: { token, password: 'customer-pass-1' },
      });
    expectProblem(await verify(b.publishableKey), 400, 'token_invalid');
    await repoint(token, b.shopId);
    expectProblem(await verify(b.publishableKey), 400, 'token_invalid');
    await repoint(token, a.shopId);
    const session = await verify(a.publishableKey);
    expect(session.statusCode, session.body).toBe(200);
    expect(await credentialRow(token)).toBeUndefined();
    expect(await credentialRow(session.data.token)).toMatchObject({ kind: 'customer_session', shop_id: a.shopId });
    const customer: string = session.data.token;
    expect((await call(t.app, 'GET', '/api/customer/me', { token: customer })).statusCode).toBe(200);
    await repoint(customer, b.shopId);
    expectProblem(await call(t.app, 'GET', '/api/customer/me', { token: customer }), 401, 'invalid_credential');
    await repoint(customer, a.shopId);
    // the customer's session is of shop A: behind shop B's key it is refused
    const checkout = await call(t.app, 'POST', '/api/store/checkout-sessions', {
      token: b.publishableKey,
      headers: { origin: STORE_ORIGIN, 'x-customer-session': customer },
      body: {},
    });
    expectProblem(checkout, 401, 'customer_session_invalid');
  });

  it('partner invites: a row per live link, replaced by a re-invite, removed on accept', async () => {
    const email = `v-${Math.random().toString(36).slice(2, 8)}@mail.test`;
    const invited = await call(t.app, 'POST', '/api/admin/vendors/invite', {
      token: a.ownerToken,
      body: { name: 'Dir Vendor', email },
    });
    expect(invited.statusCode, invited.body).toBe(201);
    const first = await mailedToken(t.app, a, email, 'vendor_invite');
    expect(await credentialRow(first)).toMatchObject({ kind: 'vendor_invite', shop_id: a.shopId });
    // an e-mail still invited gets a fresh link
    const reinvite = await call(t.app, 'POST', '/api/admin/vendors/invite', {
      token: a.ownerToken,
      body: { name: 'Dir Vendor', email },
    });
    expect(reinvite.statusCode, reinvite.body).toBe(200);
    const second = await mailedToken(t.app, a, email, 'vendor_invite');
    expect(second).not.toBe(first);
    expect(await credentialRow(first)).toBeUndefined();
    const accept = (token: string) =>
      call(t.app, 'POST', '/api/vendor/auth/accept', { body: { token, password: 'vendor-pass-12' } });
    expectProblem(await accept(first), 400, 'invite_invalid');

    await repoint(second, b.shopId);
    expectProblem(await accept(second), 400, 'invite_invalid');
    await repoint(second, a.shopId);
    const accepted = await accept(second);
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(await credentialRow(second)).toBeUndefined();
    expect(await credentialRow(accepted.data.token)).toMatchObject({ kind: 'vendor_session', shop_id: a.shopId });
  });

  it('expired sessions pruned by the maintenance job lose their rows too', async () => {
    const login = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: a.ownerEmail, password: 'owner-password-1' },
    });
    const token: string = login.data.token;
    await db().execute(
      sql`UPDATE sessions SET expires_at = now() - interval '8 days' WHERE token_hash = ${sha256(token)}`,
    );
    await enqueue(db(), CLEANUP_JOB, {}, { now: t.app.deps.clock.now() });
    await t.app.deps.worker.drain();
    expect(await query(db(), sql`SELECT 1 FROM sessions WHERE token_hash = ${sha256(token)}`)).toEqual([]);
    expect(await credentialRow(token)).toBeUndefined();
  });
});

describe('domain directory', () => {
  const addDomain = (shop: ShopFixture, domain: string) =>
    call(t.app, 'POST', `/api/admin/channels/${shop.defaultChannelId}/domains`, {
      token: shop.ownerToken,
      body: { domain },
    });
  const domainRow = async (domain: string) =>
    (
      await query<{ shop_id: string; channel_id: string }>(
        db(),
        sql`SELECT shop_id, channel_id FROM domain_directory WHERE domain = ${domain}`,
      )
    )[0];

  it('a domain is unique across shops (409 domain_taken); removing it frees it for another shop', async () => {
    const added = await addDomain(a, 'Dir.Example');
    expect(added.statusCode, added.body).toBe(201);
    expect(await domainRow('dir.example')).toEqual({ shop_id: a.shopId, channel_id: a.defaultChannelId });
    expectProblem(await addDomain(b, 'dir.example'), 409, 'domain_taken');

    const removed = await call(t.app, 'DELETE', `/api/admin/channels/${a.defaultChannelId}/domains/${added.data.id}`, {
      token: a.ownerToken,
    });
    expect(removed.statusCode).toBeLessThan(300);
    expect(await domainRow('dir.example')).toBeUndefined();
    expect((await addDomain(b, 'dir.example')).statusCode).toBe(201);
    expect(await domainRow('dir.example')).toMatchObject({ shop_id: b.shopId });
  });

  it('deleting a channel removes its domains from the directory', async () => {
    const channel = await call(t.app, 'POST', '/api/admin/channels', {
      token: a.ownerToken,
      body: { name: 'Dir', default_country: 'DE', currency: 'EUR' },
    });
    const added = await call(t.app, 'POST', `/api/admin/channels/${channel.data.id}/domains`, {
      token: a.ownerToken,
      body: { domain: 'gone.example' },
    });
    expect(added.statusCode, added.body).toBe(201);
    expect(await domainRow('gone.example')).toMatchObject({ shop_id: a.shopId, channel_id: channel.data.id });
    const deleted = await call(t.app, 'DELETE', `/api/admin/channels/${channel.data.id}`, { token: a.ownerToken });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await domainRow('gone.example')).toBeUndefined();
    expect((await addDomain(b, 'gone.example')).statusCode).toBe(201);
  });
});

describe('employee e-mail directory', () => {
  const emailRow = async (email: string) =>
    (
      await query<{ shop_id: string; user_id: string }>(
        db(),
        sql`SELECT shop_id, user_id FROM employee_email_directory WHERE email = ${email}`,
      )
    )[0];
  const createEmployee = (shop: ShopFixture, email: string) =>
    call(t.app, 'POST', '/api/admin/employees', {
      token: shop.ownerToken,
      body: { email, password: 'employee-pass-1', role: 'viewer' },
    });
  const login = (email: string) =>
    call(t.app, 'POST', '/api/auth/login', { body: { email, password: 'employee-pass-1' } });

  it('login finds the employee through the directory; an e-mail is unique across shops; removal frees it', async () => {
    const created = await createEmployee(a, 'Dir.Employee@shop.test');
    expect(created.statusCode, created.body).toBe(201);
    expect(await emailRow('dir.employee@shop.test')).toEqual({ shop_id: a.shopId, user_id: created.data.id });
    expectProblem(await createEmployee(b, 'dir.employee@SHOP.test'), 409, 'email_taken');

    const signedIn = await login('DIR.employee@shop.test');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.data.shop.id).toBe(a.shopId);

    // a row pointing at shop B never signs the employee of shop A in
    await db().execute(
      sql`UPDATE employee_email_directory SET shop_id = ${b.shopId} WHERE email = 'dir.employee@shop.test'`,
    );
    expectProblem(await login('dir.employee@shop.test'), 401, 'invalid_credentials');
    await db().execute(
      sql`UPDATE employee_email_directory SET shop_id = ${a.shopId} WHERE email = 'dir.employee@shop.test'`,
    );

    const removed = await call(t.app, 'DELETE', `/api/admin/employees/${created.data.id}`, { token: a.ownerToken });
    expect(removed.statusCode, removed.body).toBeLessThan(300);
    expect(await emailRow('dir.employee@shop.test')).toBeUndefined();
    expectProblem(await login('dir.employee@shop.test'), 401, 'invalid_credentials');
    const again = await createEmployee(b, 'dir.employee@shop.test');
    expect(again.statusCode, again.body).toBe(201);
    expect(await emailRow('dir.employee@shop.test')).toMatchObject({ shop_id: b.shopId });
  });
});

describe('provider reference directory', () => {
  let f: FinanceShop;
  beforeAll(async () => {
    f = await financeShop(t);
  });
  const refRow = async (ref: string) =>
    (
      await query<{ kind: string; shop_id: string; row_id: string }>(
        db(),
        sql`SELECT kind, shop_id, row_id FROM provider_ref_directory WHERE ref = ${ref}`,
      )
    )[0];
  const providerEvent = (refundId: string, ref: string, n: number) =>
    applyPaymentEvent(
      db(),
      {
        id: `evt_dir_${n}`,
        type: 'refund.updated',
        kind: 'refund.failed',
        refund: { ref, paymentRef: null, amountCents: 0, refundId, failureReason: 'expired_or_canceled_card' },
      },
      { provider: paymentProviderFor(t.config), now: new Date(), deps: t.app.deps, log: t.app.log },
    );

  it("a refund's provider reference is recorded with its shop; the provider's event finds the refund through it", async () => {
    const orderId = await paidOrder(t, f);
    const refund = await call(t.app, 'POST', `/api/admin/orders/${orderId}/refunds`, {
      token: f.owner,
      body: { amount_cents: 100, reason: 'Dir' },
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const [stored] = await query<{ provider: string; provider_ref: string }>(
      db(),
      sql`SELECT provider, provider_ref FROM refunds WHERE id = ${refund.data.id}`,
    );
    const ref = stored?.provider_ref as string;
    expect(await refRow(ref)).toEqual({ kind: 'refund', shop_id: f.shop.shopId, row_id: refund.data.id });

    // a row pointing at another shop finds nothing there (nor by the id, which the event does not name)
    await db().execute(sql`UPDATE provider_ref_directory SET shop_id = ${b.shopId} WHERE ref = ${ref}`);
    expect((await providerEvent('', ref, 1)).outcome).toMatchObject({ status: 'ignored' });
    await db().execute(sql`UPDATE provider_ref_directory SET shop_id = ${f.shop.shopId} WHERE ref = ${ref}`);
    expect((await providerEvent('', ref, 2)).outcome).toMatchObject({
      status: 'processed',
      reason: 'refund_failed_after_success',
    });
  });
});
