/**
 * Login throttling (docs/ARCHITECTURE.md): failed attempts only, per (account, IP) and per IP, reserved
 * before the password is verified; TRUST_PROXY decides the client IP; the hashing queue is bounded.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  call,
  createShop,
  expectProblem,
  mailedToken,
  type Response,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { awayFromWindowEdge } from '../../../test/helpers/rate-window.js';
import { ConfigError, loadConfig } from '../../config.js';

const LIMITS = { LOGIN_ACCOUNT_MAX_FAILURES: '5', LOGIN_IP_MAX_FAILURES: '12' };

let t: TestApp;
let shop: ShopFixture;

async function login(
  app: TestApp['app'],
  body: Record<string, string>,
  remoteAddress: string,
  headers: Record<string, string> = {},
  url = '/api/auth/login',
): Promise<Response> {
  const res = (await app.inject({ method: 'POST', url, payload: body, remoteAddress, headers })) as Response;
  res.data = res.body ? JSON.parse(res.body) : null;
  return res;
}

const owner = () => ({ email: shop.ownerEmail, password: 'owner-password-1' });
const wrong = () => ({ email: shop.ownerEmail, password: 'wrong-password' });

beforeAll(async () => {
  t = await startApp(LIMITS, (app) => {
    app.get('/test/ip', { config: { auth: { accepts: 'public' } } }, async (request) => ({ ip: request.ip }));
  });
  shop = await createShop(t.app);
});
afterAll(() => t.close());
beforeEach(() => awayFromWindowEdge(900, 8));

describe('login throttling', () => {
  it('40 successful logins from one address within a minute all succeed', async () => {
    for (let i = 0; i < 40; i++) {
      const res = await login(t.app, owner(), '198.51.100.1');
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('failures are throttled per account and address; the owner still signs in from another address', async () => {
    const s = await createShop(t.app);
    const creds = { email: s.ownerEmail, password: 'owner-password-1' };
    for (let i = 0; i < 5; i++) {
      expectProblem(
        await login(t.app, { ...creds, password: 'nope-nope' }, '198.51.100.2'),
        401,
        'invalid_credentials',
      );
    }
    const blocked = await login(t.app, creds, '198.51.100.2');
    expectProblem(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(blocked.headers['retry-after'])).toBeLessThanOrEqual(900);
    // the same account from another address, and another account from the blocked address
    expect((await login(t.app, creds, '198.51.100.3')).statusCode).toBe(200);
    expect((await login(t.app, owner(), '198.51.100.2')).statusCode).toBe(200);
  });

  it('a successful login does not count', async () => {
    const s = await createShop(t.app);
    const creds = { email: s.ownerEmail, password: 'owner-password-1' };
    for (let i = 0; i < 4; i++) {
      expect((await login(t.app, { ...creds, password: 'nope-nope' }, '198.51.100.4')).statusCode).toBe(401);
    }
    expect((await login(t.app, creds, '198.51.100.4')).statusCode).toBe(200);
    // 4 failures + 1 success: one more failure fills the window, then even the right password waits
    expect((await login(t.app, { ...creds, password: 'nope-nope' }, '198.51.100.4')).statusCode).toBe(401);
    expectProblem(await login(t.app, creds, '198.51.100.4'), 429, 'rate_limited');
  });

  it('a wrong current password in POST /api/auth/password counts as a failed sign-in', async () => {
    const s = await createShop(t.app);
    const creds = { email: s.ownerEmail, password: 'owner-password-1' };
    const signedIn = await login(t.app, creds, '198.51.100.11');
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    const change = (current: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/password',
        payload: { current_password: current, new_password: 'another-password-1' },
        remoteAddress: '198.51.100.11',
        headers: { authorization: `Bearer ${signedIn.data.token}` },
      });
    for (let i = 0; i < 5; i++) {
      const res = (await change('wrong-current-1')) as Response;
      res.data = JSON.parse(res.body);
      expectProblem(res, 400, 'invalid_credentials');
    }
    const blocked = (await change('owner-password-1')) as Response;
    blocked.data = JSON.parse(blocked.body);
    expectProblem(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // nothing changed: the old password still signs in from another address
    expect((await login(t.app, creds, '198.51.100.12')).statusCode).toBe(200);
  });

  it('failures per address across accounts are limited (LOGIN_IP_MAX_FAILURES)', async () => {
    for (let i = 0; i < 12; i++) {
      const res = await login(t.app, { email: `spray${i}@x.test`, password: 'whatever1' }, '198.51.100.5');
      expect(res.statusCode).toBe(401);
    }
    expectProblem(
      await login(t.app, { email: 'spray99@x.test', password: 'whatever1' }, '198.51.100.5'),
      429,
      'rate_limited',
    );
    expect((await login(t.app, owner(), '198.51.100.6')).statusCode).toBe(200);
  });

  it('parallel failed attempts never verify more passwords than the limit', async () => {
    const s = await createShop(t.app);
    const results = await Promise.all(
      Array.from({ length: 40 }, () => login(t.app, { email: s.ownerEmail, password: 'guess-guess' }, '198.51.100.7')),
    );
    const codes = results.map((r) => r.statusCode);
    // exactly the limit: attempts refused by the account's window never hold a slot of the address's
    // window (LOGIN_IP_MAX_FAILURES 12 here), where they would crowd out one of the five
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(35);
    expectProblem(
      await login(t.app, { email: s.ownerEmail, password: 'owner-password-1' }, '198.51.100.7'),
      429,
      'rate_limited',
    );
  });

  it('customer logins are throttled the same way', async () => {
    const email = `kunde-${Date.now()}@mail.test`;
    const headers = { authorization: `Bearer ${shop.publishableKey}`, origin: STORE_ORIGIN };
    const reg = await call(t.app, 'POST', '/api/customer/register', {
      token: shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: { email, password: 'customer-pass-1' },
    });
    expect(reg.statusCode).toBe(202);
    const verified = await call(t.app, 'POST', '/api/customer/verify-email', {
      token: shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: { token: await mailedToken(t.app, shop, email, 'customer_verify_email'), password: 'customer-pass-1' },
    });
    expect(verified.statusCode).toBe(200);
    const url = '/api/customer/login';
    for (let i = 0; i < 5; i++) {
      expect((await login(t.app, { email, password: 'wrong-pass' }, '198.51.100.8', headers, url)).statusCode).toBe(
        401,
      );
    }
    expectProblem(
      await login(t.app, { email, password: 'customer-pass-1' }, '198.51.100.8', headers, url),
      429,
      'rate_limited',
    );
    expect((await login(t.app, { email, password: 'customer-pass-1' }, '198.51.100.9', headers, url)).statusCode).toBe(
      200,
    );
  });

  it('X-Forwarded-For is ignored without TRUST_PROXY', async () => {
    const ip = await t.app.inject({
      method: 'GET',
      url: '/test/ip',
      remoteAddress: '198.51.100.10',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(ip.json()).toEqual({ ip: '198.51.100.10' });
    const s = await createShop(t.app);
    for (let i = 0; i < 5; i++) {
      const res = await login(t.app, { email: s.ownerEmail, password: 'nope-nope' }, '198.51.100.10', {
        'x-forwarded-for': `203.0.113.${i}`,
      });
      expect(res.statusCode).toBe(401);
    }
    const res = await login(t.app, { email: s.ownerEmail, password: 'owner-password-1' }, '198.51.100.10', {
      'x-forwarded-for': '203.0.113.200',
    });
    expectProblem(res, 429, 'rate_limited');
  });

  it('per-address limit of account calls (ACCOUNT_IP_LIMIT_PER_MINUTE, default 120) answers 429', async () => {
    await awayFromWindowEdge(60, 12);
    const statuses: number[] = [];
    for (let i = 0; i < 121; i++) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/customer/password-reset',
        remoteAddress: '198.51.100.11',
        headers: { authorization: `Bearer ${shop.publishableKey}`, origin: STORE_ORIGIN },
        payload: { email: `x${i}@mail.test` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 120).every((s) => s === 202)).toBe(true);
    expect(statuses[120]).toBe(429);
  });
});

describe('TRUST_PROXY', () => {
  it('parses false, true, a hop count and addresses/CIDRs; anything else stops the start', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
    for (const bad of ['yes please', '10.0.0.0/33', '300.1.1.1', 'fe80::/200']) {
      expect(() => loadConfig({ TRUST_PROXY: bad })).toThrow(ConfigError);
    }
  });

  it('with a trusted proxy address, X-Forwarded-For gives the client IP the throttle counts', async () => {
    const p = await startApp({ ...LIMITS, TRUST_PROXY: '127.0.0.1' }, (app) => {
      app.get('/test/ip', { config: { auth: { accepts: 'public' } } }, async (request) => ({ ip: request.ip }));
    });
    try {
      const ip = (remoteAddress: string, xff: string) =>
        p.app.inject({ method: 'GET', url: '/test/ip', remoteAddress, headers: { 'x-forwarded-for': xff } });
      expect((await ip('127.0.0.1', '203.0.113.5')).json()).toEqual({ ip: '203.0.113.5' });
      expect((await ip('198.51.100.20', '203.0.113.5')).json()).toEqual({ ip: '198.51.100.20' });
      const s = await createShop(p.app);
      for (let i = 0; i < 5; i++) {
        const res = await login(p.app, { email: s.ownerEmail, password: 'nope-nope' }, '127.0.0.1', {
          'x-forwarded-for': '203.0.113.1',
        });
        expect(res.statusCode).toBe(401);
      }
      const blocked = await login(p.app, { email: s.ownerEmail, password: 'owner-password-1' }, '127.0.0.1', {
        'x-forwarded-for': '203.0.113.1',
      });
      expectProblem(blocked, 429, 'rate_limited');
      const other = await login(p.app, { email: s.ownerEmail, password: 'owner-password-1' }, '127.0.0.1', {
        'x-forwarded-for': '203.0.113.2',
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await p.close();
    }
  });

  it('IPv6 clients count by their /64 (X-Forwarded-For of many addresses in one /64), IPv4-mapped as IPv4', async () => {
    const p = await startApp({ ...LIMITS, TRUST_PROXY: '127.0.0.1', ACCOUNT_IP_LIMIT_PER_MINUTE: '60' });
    try {
      const via = (xff: string) => ({ 'x-forwarded-for': xff });
      const s = await createShop(p.app);
      const creds = { email: s.ownerEmail, password: 'owner-password-1' };
      // five failures of one account, each from another address of 2001:db8:77:1::/64
      for (let i = 0; i < 5; i++) {
        const res = await login(
          p.app,
          { ...creds, password: 'nope-nope' },
          '127.0.0.1',
          via(`2001:db8:77:1:${i}::${i + 1}`),
        );
        expect(res.statusCode).toBe(401);
      }
      expectProblem(
        await login(p.app, creds, '127.0.0.1', via('2001:0db8:0077:0001:ffff:ffff:ffff:fffe')),
        429,
        'rate_limited',
      );
      // the next /64 is another client
      expect((await login(p.app, creds, '127.0.0.1', via('2001:db8:77:2::1'))).statusCode).toBe(200);

      // per address across accounts (LOGIN_IP_MAX_FAILURES 12), rotating through one /64
      for (let i = 0; i < 12; i++) {
        const res = await login(
          p.app,
          { email: `spray${i}@x.test`, password: 'whatever1' },
          '127.0.0.1',
          via(`2001:db8:77:3::${(i + 1).toString(16)}`),
        );
        expect(res.statusCode).toBe(401);
      }
      expectProblem(
        await login(
          p.app,
          { email: 'spray99@x.test', password: 'whatever1' },
          '127.0.0.1',
          via('2001:db8:77:3:1:2:3:4'),
        ),
        429,
        'rate_limited',
      );

      // an IPv4 client is the same client when it arrives IPv4-mapped
      const m = await createShop(p.app);
      const mapped = { email: m.ownerEmail, password: 'owner-password-1' };
      for (let i = 0; i < 5; i++) {
        const res = await login(p.app, { ...mapped, password: 'nope-nope' }, '127.0.0.1', via('::ffff:203.0.113.60'));
        expect(res.statusCode).toBe(401);
      }
      expectProblem(await login(p.app, mapped, '127.0.0.1', via('203.0.113.60')), 429, 'rate_limited');

      // the per-address limit of account calls (60 here) counts the /64 too
      await awayFromWindowEdge(60, 15);
      const reset = (xff: string, i: number) =>
        p.app.inject({
          method: 'POST',
          url: '/api/customer/password-reset',
          remoteAddress: '127.0.0.1',
          headers: { authorization: `Bearer ${s.publishableKey}`, origin: STORE_ORIGIN, ...via(xff) },
          payload: { email: `v6-${i}@mail.test` },
        });
      for (let i = 0; i < 60; i++) {
        expect((await reset(`2001:db8:88:1:${i.toString(16)}::1`, i)).statusCode).toBe(202);
      }
      expect((await reset('2001:db8:88:1:beef::1', 60)).statusCode).toBe(429);
      expect((await reset('2001:db8:88:2::1', 61)).statusCode).toBe(202);
    } finally {
      await p.close();
    }
  });

  it('a hop count trusts that many proxies', async () => {
    const p = await startApp({ ...LIMITS, TRUST_PROXY: '1' }, (app) => {
      app.get('/test/ip', { config: { auth: { accepts: 'public' } } }, async (request) => ({ ip: request.ip }));
    });
    try {
      const res = await p.app.inject({
        method: 'GET',
        url: '/test/ip',
        remoteAddress: '10.1.1.1',
        headers: { 'x-forwarded-for': '203.0.113.7, 203.0.113.8' },
      });
      expect(res.json()).toEqual({ ip: '203.0.113.8' });
    } finally {
      await p.close();
    }
  });
});

describe('bounded password hashing', () => {
  it('beyond the queue wait, sign-ins get 503 with Retry-After instead of piling up', async () => {
    const p = await startApp({ ...LIMITS, PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_MAX_WAIT_MS: '0' });
    try {
      const s = await createShop(p.app);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          login(p.app, { email: s.ownerEmail, password: 'owner-password-1' }, `192.0.2.${i + 1}`),
        ),
      );
      const busy = results.filter((r) => r.statusCode === 503);
      expect(results.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
      expect(busy.length).toBeGreaterThanOrEqual(1);
      expectProblem(busy[0] as Response, 503, 'busy');
      expect(Number(busy[0]?.headers['retry-after'])).toBeGreaterThan(0);
      // nothing counted as a failure: the account signs in right away
      expect((await login(p.app, { email: s.ownerEmail, password: 'owner-password-1' }, '192.0.2.1')).statusCode).toBe(
        200,
      );
    } finally {
      await p.close();
    }
  });
});
