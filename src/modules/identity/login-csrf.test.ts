/**
 * Login CSRF (issue 26): a cross-site page must not sign a browser in. Sign-in routes take JSON
 * only (a form post is 415: an HTML form cannot send application/json), and a sign-in from a
 * foreign Origin is 403 origin_denied.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createShop,
  expectProblem,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';

let t: TestApp;
let shop: ShopFixture;

beforeAll(async () => {
  t = await startApp({ ADMIN_ORIGINS: 'https://admin.example' });
  shop = await createShop(t.app);
});
afterAll(() => t.close());

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const EVIL = 'https://evil.example';

describe('login CSRF', () => {
  it('admin login: a cross-site form post is 415 and sets no cookie; a foreign Origin is 403', async () => {
    const creds = { email: shop.ownerEmail, password: 'owner-password-1' };
    for (const headers of [{ ...FORM, origin: EVIL }, FORM, { ...FORM, origin: 'http://service.test' }]) {
      const res = await call(t.app, 'POST', '/api/auth/login', { body: form(creds), headers });
      expectProblem(res, 415, 'unsupported_media_type');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    for (const type of ['text/plain', 'multipart/form-data; boundary=x']) {
      const res = await call(t.app, 'POST', '/api/auth/login', {
        body: JSON.stringify(creds),
        headers: { 'content-type': type, origin: EVIL },
      });
      expect(res.statusCode).toBe(415);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    const foreign = await call(t.app, 'POST', '/api/auth/login', { body: creds, headers: { origin: EVIL } });
    expectProblem(foreign, 403, 'origin_denied');
    expect(foreign.headers['set-cookie']).toBeUndefined();
    // a storefront's origin is not an admin origin
    expectProblem(
      await call(t.app, 'POST', '/api/auth/login', { body: creds, headers: { origin: STORE_ORIGIN } }),
      403,
      'origin_denied',
    );
    for (const headers of [{}, { origin: 'http://service.test' }, { origin: 'https://admin.example' }] as Record<
      string,
      string
    >[]) {
      const ok = await call(t.app, 'POST', '/api/auth/login', { body: creds, headers });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(String(ok.headers['set-cookie'])).toMatch(/^sid=/);
    }
  });

  it('customer login and register: form posts are 415', async () => {
    for (const url of ['/api/customer/login', '/api/customer/register', '/api/customer/verify-email']) {
      const res = await call(t.app, 'POST', url, {
        token: shop.publishableKey,
        body: form({ email: 'x@mail.test', password: 'customer-pass-1', token: 'verify_x' }),
        headers: { ...FORM, origin: STORE_ORIGIN },
      });
      expectProblem(res, 415, 'unsupported_media_type');
    }
  });

  it('vendor and affiliate login and accept: form posts are 415, a foreign Origin 403, a storefront origin passes', async () => {
    for (const kind of ['vendor', 'affiliate']) {
      for (const path of ['login', 'accept']) {
        const url = `/api/${kind}/auth/${path}`;
        const body = { email: 'p@partner.test', password: 'partner-pass-1', token: 'vinv_unknown' };
        const fields: Record<string, string> =
          path === 'login'
            ? { email: body.email, password: body.password }
            : { token: body.token, password: body.password };
        expectProblem(
          await call(t.app, 'POST', url, { body: form(fields), headers: { ...FORM, origin: EVIL } }),
          415,
          'unsupported_media_type',
        );
        expectProblem(
          await call(t.app, 'POST', url, { body: fields, headers: { origin: EVIL } }),
          403,
          'origin_denied',
        );
        // reached (and refused for the unknown partner / token), from no Origin or a storefront's
        for (const headers of [{}, { origin: STORE_ORIGIN }] as Record<string, string>[]) {
          const res = await call(t.app, 'POST', url, { body: fields, headers });
          expect([400, 401]).toContain(res.statusCode);
        }
      }
    }
  });

  it('the hosted pages that declare a form body still take it', async () => {
    // the hosted payment page's form post is parsed and reaches its handler (an unknown session:
    // 404 not_found, never 415 for the form body)
    const res = await call(t.app, 'POST', '/pay/cs_unknown', {
      body: form({ card_number: '4242 4242 4242 4242' }),
      headers: FORM,
    });
    expect(res.statusCode).toBe(404);
    expect(res.data.code).toBe('not_found');
  });
});
