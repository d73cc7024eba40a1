/**
 * Affiliates over HTTP against the real app and database: creation and its conflicts, invites
 * and portal access, updates (blocking ends sessions), lists with ledger balances, earnings and
 * their release after the hold period (simulated clock), promotional content, the affiliate
 * portal (own data only), the token rules of docs/partners.md, and the ledger invariant.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  employeeToken,
  expectProblem,
  PLATFORM_TOKEN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { query } from '../../platform/db/tx.js';
import { type FinanceShop, finalInvoice, financeShop, paidOrder } from '../finance/finance.fixtures.js';
import { createSession } from '../identity/sessions.js';
import { acceptInvite, inviteTokenFor, ok } from './partners.fixtures.js';

let t: TestApp;
let f: FinanceShop;
const DAY = 86_400;
const db = () => t.app.deps.database.db;

beforeAll(async () => {
  t = await startApp();
  f = await financeShop(t);
});
afterAll(() => t.close());

const get = (url: string, q?: Record<string, string>) =>
  call(t.app, 'GET', url, { token: f.owner, ...(q ? { query: q } : {}) });
const post = (url: string, body?: unknown) => call(t.app, 'POST', url, { token: f.owner, body });
const patch = (url: string, body: unknown) => call(t.app, 'PATCH', url, { token: f.owner, body });

let n = 0;
const uniq = (label: string) => `${label}${++n}${Math.random().toString(36).slice(2, 6)}`;

async function newAffiliate(body: Record<string, unknown> = {}) {
  const label = uniq('aff');
  return ok(
    await post('/api/admin/affiliates', {
      name: `Partner ${label}`,
      email: `${label}@aff.test`,
      code: label.toUpperCase(),
      commission_percent: 10,
      ...body,
    }),
    201,
  ) as Promise<{ id: string; code: string; email: string; [k: string]: any }>;
}

async function advance(seconds: number) {
  const res = await call(t.app, 'POST', '/api/platform/clock/advance', {
    token: PLATFORM_TOKEN,
    body: { seconds, run_jobs: true },
  });
  expect(res.statusCode).toBe(200);
  await t.app.deps.worker.drain();
}

const course = (f: FinanceShop) => [{ product_id: f.products.course, quantity: 1 }];

describe('POST /api/admin/affiliates', () => {
  it('creates an active affiliate (201) without secrets in the response', async () => {
    const res = await post('/api/admin/affiliates', {
      name: 'Erika Partnerin',
      email: 'erika@partner.test',
      code: 'ERIKA',
      commission_percent: 12.5,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data).toEqual({
      id: expect.stringMatching(/^aff_/),
      name: 'Erika Partnerin',
      email: 'erika@partner.test',
      code: 'ERIKA',
      commission_percent: 12.5,
      status: 'active',
      portal: 'none',
      referral_link: null,
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(res.body).not.toMatch(/hash|password|token/i);
    const paused = await newAffiliate({ status: 'paused', commission_percent: 0 });
    expect(paused).toMatchObject({ status: 'paused', commission_percent: 0 });
  });

  it('generates a code from the name when none is given', async () => {
    const a = await ok(
      await post('/api/admin/affiliates', {
        name: 'Jörg Müller-Lüdenscheidt',
        email: 'joerg@partner.test',
        commission_percent: 5,
      }),
      201,
    );
    expect(a.code).toMatch(/^JOERGMUELLERLUED-[A-Z0-9]{4}$/);
    const b = await ok(
      await post('/api/admin/affiliates', { name: '★', email: 'star@partner.test', commission_percent: 5 }),
      201,
    );
    expect(b.code).toMatch(/^AFF-[A-Z0-9]{4}$/);
  });

  it('validates the body (400 naming the field)', async () => {
    const base = { name: 'V', email: 'validation-case@partner.test', commission_percent: 10 };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, commission_percent: 100.5 }, '/body/commission_percent'],
      [{ ...base, commission_percent: -1 }, '/body/commission_percent'],
      [{ ...base, commission_percent: 10.125 }, '/body/commission_percent'],
      [{ ...base, commission_percent: '10' }, '/body/commission_percent'],
      [{ ...base, code: 'ab' }, '/body/code'],
      [{ ...base, code: 'mit leerzeichen' }, '/body/code'],
      [{ ...base, code: 'x'.repeat(33) }, '/body/code'],
      [{ ...base, email: 'kein-email' }, '/body/email'],
      [{ ...base, status: 'deleted' }, '/body/status'],
      [{ ...base, unknown: 1 }, '/body/unknown'],
      [{ email: 'validation-case@partner.test', commission_percent: 10 }, '/body/name'],
    ];
    for (const [body, path] of cases) {
      const res = await post('/api/admin/affiliates', body);
      expectProblem(res, 400, 'validation_failed');
      expect(
        res.data.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect((await get('/api/admin/affiliates', { q: 'validation-case@partner.test' })).data.count).toBe(0);
    // two decimals are fine
    expect((await post('/api/admin/affiliates', { ...base, commission_percent: 7.35 })).statusCode).toBe(201);
  });

  it('409 code_taken / email_taken, regardless of case; another shop may use both', async () => {
    const a = await newAffiliate();
    expectProblem(
      await post('/api/admin/affiliates', {
        name: 'Dup',
        email: 'other@aff.test',
        code: a.code.toLowerCase(),
        commission_percent: 5,
      }),
      409,
      'code_taken',
    );
    expectProblem(
      await post('/api/admin/affiliates', {
        name: 'Dup',
        email: a.email.toUpperCase(),
        code: 'UNIQUE-CODE-1',
        commission_percent: 5,
      }),
      409,
      'email_taken',
    );
    const other = await financeShop(t);
    const res = await call(t.app, 'POST', '/api/admin/affiliates', {
      token: other.owner,
      body: { name: 'Same', email: a.email, code: a.code, commission_percent: 5 },
    });
    expect(res.statusCode).toBe(201);
  });
});

describe('referral link', () => {
  it("is null without a domain, then the default channel's domain, then the configured base", async () => {
    const other = await financeShop(t);
    const create = await call(t.app, 'POST', '/api/admin/affiliates', {
      token: other.owner,
      body: { name: 'Ref', email: 'ref@aff.test', code: 'REF-1', commission_percent: 5 },
    });
    expect(create.data.referral_link).toBeNull();
    const domain = await call(t.app, 'POST', `/api/admin/channels/${other.channel}/domains`, {
      token: other.owner,
      body: { domain: `shop-${uniq('d')}.example` },
    });
    expect(domain.statusCode, domain.body).toBe(201);
    const one = await call(t.app, 'GET', `/api/admin/affiliates/${create.data.id}`, { token: other.owner });
    expect(one.data.referral_link).toBe(`https://${domain.data.domain}/?ref=REF-1`);
    await db().execute(
      sql`INSERT INTO partner_settings (shop_id, referral_base_url) VALUES (${other.shop.shopId}, 'https://partner.example/landing?utm=aff')`,
    );
    const list = await call(t.app, 'GET', '/api/admin/affiliates', { token: other.owner });
    expect(list.data.affiliates[0].referral_link).toBe('https://partner.example/landing?utm=aff&ref=REF-1');
  });

  it('without a domain, the built-in storefront when PUBLIC_URL shows this shop there', async () => {
    const [first, second] = [await financeShop(t), await financeShop(t)];
    const affiliate = async (f: typeof first, code: string) =>
      (
        await call(t.app, 'POST', '/api/admin/affiliates', {
          token: f.owner,
          body: { name: code, email: `${code.toLowerCase()}@aff.test`, code, commission_percent: 5 },
        })
      ).data;
    const a1 = await affiliate(first, 'SHOP-1');
    expect(a1.referral_link).toBeNull();
    for (const f of [first, second]) {
      const put = await call(t.app, 'PUT', '/api/admin/storefront-settings', {
        token: f.owner,
        body: { publishable_key_id: f.shop.publishableKeyId },
      });
      expect(put.statusCode, put.body).toBe(200);
    }
    const one = await call(t.app, 'GET', `/api/admin/affiliates/${a1.id}`, { token: first.owner });
    expect(one.data.referral_link).toBe(`${t.config.publicUrl}/shop/?ref=SHOP-1`);
    // PUBLIC_URL's storefront shows the first shop (the oldest setting), so the second has no link
    expect((await affiliate(second, 'SHOP-2')).referral_link).toBeNull();
  });
});

describe('POST /api/admin/affiliates/invite', () => {
  it('creates and invites a new affiliate (201); the e-mail carries the accept link', async () => {
    const res = await post('/api/admin/affiliates/invite', {
      email: 'neu@partner.test',
      name: 'Neu Partner',
      commission_percent: 8,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.data).toMatchObject({
      email: 'neu@partner.test',
      status: 'active',
      portal: 'invited',
      commission_percent: 8,
    });
    const mails = await query<{ subject: string; text: string }>(
      db(),
      sql`SELECT subject, text_body AS text FROM emails WHERE kind = 'affiliate_invite' AND to_address = 'neu@partner.test'`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toMatch(/http:\/\/service\.test\/affiliate\/accept\?token=/);
  });

  it('a new e-mail needs name and commission_percent (400 naming both)', async () => {
    const res = await post('/api/admin/affiliates/invite', { email: 'missing@partner.test' });
    expectProblem(res, 400, 'validation_failed');
    expect(res.data.errors.map((e: { path: string }) => e.path).sort()).toEqual([
      '/body/commission_percent',
      '/body/name',
    ]);
    const mails = await query(db(), sql`SELECT 1 FROM emails WHERE to_address = 'missing@partner.test'`);
    expect(mails).toEqual([]);
    expectProblem(
      await post('/api/admin/affiliates/invite', { email: 'x@partner.test', name: 'X', commission_percent: 1.001 }),
      400,
      'validation_failed',
    );
  });

  it('re-invites an existing affiliate (200, fresh link); after accepting: 409 already_active', async () => {
    const blocked = await newAffiliate({ status: 'blocked' });
    expectProblem(await post('/api/admin/affiliates/invite', { email: blocked.email }), 409, 'affiliate_blocked');
    const a = await newAffiliate();
    const first = await post('/api/admin/affiliates/invite', { email: a.email.toUpperCase() });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.data).toMatchObject({ id: a.id, portal: 'invited' });
    const oldToken = await inviteTokenFor(t, 'affiliate', a.email);
    const again = await post('/api/admin/affiliates/invite', { email: a.email });
    expect(again.statusCode).toBe(200);
    const newToken = await inviteTokenFor(t, 'affiliate', a.email);
    expect(newToken).not.toBe(oldToken);
    // the earlier link no longer works
    const stale = await call(t.app, 'POST', '/api/affiliate/auth/accept', {
      body: { token: oldToken, password: 'partner-pass-1' },
    });
    expect(stale.statusCode).toBe(400);
    const session = await acceptInvite(t, 'affiliate', a.email);
    expect(session).toMatch(/^asess_/);
    expect((await get(`/api/admin/affiliates/${a.id}`)).data.portal).toBe('active');
    expectProblem(await post('/api/admin/affiliates/invite', { email: a.email }), 409, 'already_active');
  });
});

describe('PATCH /api/admin/affiliates/:id', () => {
  it('changes name, rate, code and status; unknown or foreign ids are 404', async () => {
    const a = await newAffiliate();
    const res = await patch(`/api/admin/affiliates/${a.id}`, {
      name: 'Umbenannt',
      commission_percent: 15.5,
      code: 'NEUER-CODE',
      status: 'paused',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.data).toMatchObject({
      name: 'Umbenannt',
      commission_percent: 15.5,
      code: 'NEUER-CODE',
      status: 'paused',
    });
    expect(new Date(res.data.updated_at).getTime()).toBeGreaterThanOrEqual(new Date(a.updated_at).getTime());
    const b = await newAffiliate();
    expectProblem(await patch(`/api/admin/affiliates/${b.id}`, { code: 'neuer-code' }), 409, 'code_taken');
    expectProblem(
      await patch(`/api/admin/affiliates/${b.id}`, { commission_percent: 1.234 }),
      400,
      'validation_failed',
    );
    expectProblem(await patch(`/api/admin/affiliates/${b.id}`, { email: 'x@y.test' }), 400, 'validation_failed');
    expectProblem(await patch('/api/admin/affiliates/aff_unknown', { name: 'X' }), 404, 'not_found');
    const other = await financeShop(t);
    expectProblem(
      await call(t.app, 'PATCH', `/api/admin/affiliates/${b.id}`, { token: other.owner, body: { name: 'Hijack' } }),
      404,
      'not_found',
    );
    expectProblem(await call(t.app, 'GET', `/api/admin/affiliates/${b.id}`, { token: other.owner }), 404, 'not_found');
    expect((await get(`/api/admin/affiliates/${b.id}`)).data.name).toBe(b.name);
  });

  it('blocking ends every portal session; a blocked affiliate cannot sign in or use the portal', async () => {
    const a = await newAffiliate();
    await ok(await post('/api/admin/affiliates/invite', { email: a.email }));
    const s1 = await acceptInvite(t, 'affiliate', a.email, 'partner-pass-1');
    const login = await call(t.app, 'POST', '/api/affiliate/auth/login', {
      body: { email: a.email, password: 'partner-pass-1' },
    });
    expect(login.statusCode).toBe(200);
    const s2 = login.data.token as string;
    for (const s of [s1, s2])
      expect((await call(t.app, 'GET', '/api/affiliate/me', { token: s })).statusCode).toBe(200);

    // paused: the portal still works
    await ok(await patch(`/api/admin/affiliates/${a.id}`, { status: 'paused' }));
    expect((await call(t.app, 'GET', '/api/affiliate/me', { token: s1 })).data.status).toBe('paused');

    await ok(await patch(`/api/admin/affiliates/${a.id}`, { status: 'blocked' }));
    for (const s of [s1, s2])
      expectProblem(await call(t.app, 'GET', '/api/affiliate/me', { token: s }), 401, 'invalid_credential');
    const relogin = await call(t.app, 'POST', '/api/affiliate/auth/login', {
      body: { email: a.email, password: 'partner-pass-1' },
    });
    expect(relogin.statusCode).toBe(403);
    // a session that exists anyway (e.g. created in a race) is refused by the portal itself
    const raw = await createSession({ db: db() }, { shopId: f.shop.shopId, kind: 'affiliate', subjectId: a.id });
    for (const url of ['/api/affiliate/me', '/api/affiliate/earnings', '/api/affiliate/content']) {
      expectProblem(await call(t.app, 'GET', url, { token: raw.token }), 403, 'affiliate_blocked');
    }

    await ok(await patch(`/api/admin/affiliates/${a.id}`, { status: 'active' }));
    const back = await call(t.app, 'POST', '/api/affiliate/auth/login', {
      body: { email: a.email, password: 'partner-pass-1' },
    });
    expect(back.statusCode).toBe(200);
    expect((await call(t.app, 'GET', '/api/affiliate/me', { token: back.data.token })).statusCode).toBe(200);
  });
});

describe('GET /api/admin/affiliates', () => {
  it('filters by status and q (name, e-mail, code), paginates, newest first', async () => {
    const tag = uniq('list').toLowerCase();
    const a = await newAffiliate({ name: `Alpha ${tag}`, email: `alpha-${tag}@aff.test`, code: `A-${tag}` });
    const b = await newAffiliate({
      name: `Beta ${tag}`,
      email: `beta-${tag}@aff.test`,
      code: `B-${tag}`,
      status: 'paused',
    });
    const c = await newAffiliate({ name: `Gamma ${tag}`, email: `gamma-${tag}@aff.test`, code: `C-${tag}` });
    const all = await ok(await get('/api/admin/affiliates', { q: tag }));
    expect(all.affiliates.map((x: { id: string }) => x.id)).toEqual([c.id, b.id, a.id]);
    expect(all).toMatchObject({ count: 3, limit: 50, offset: 0 });
    expect(
      (await ok(await get('/api/admin/affiliates', { q: tag, status: 'paused' }))).affiliates.map(
        (x: { id: string }) => x.id,
      ),
    ).toEqual([b.id]);
    expect((await ok(await get('/api/admin/affiliates', { q: `GAMMA-${tag}@` }))).count).toBe(1);
    expect((await ok(await get('/api/admin/affiliates', { q: `b-${tag.toUpperCase()}` }))).affiliates[0].id).toBe(b.id);
    const page = await ok(await get('/api/admin/affiliates', { q: tag, limit: '1', offset: '1' }));
    expect(page).toMatchObject({ count: 3, limit: 1, offset: 1 });
    expect(page.affiliates.map((x: { id: string }) => x.id)).toEqual([b.id]);
    expect((await ok(await get('/api/admin/affiliates', { q: '100%_' }))).count).toBe(0);
    expectProblem(await get('/api/admin/affiliates', { limit: '201' }), 400, 'validation_failed');
    expectProblem(await get('/api/admin/affiliates', { status: 'gone' }), 400, 'validation_failed');
    for (const x of all.affiliates) expect(x.balances).toEqual([]);
  });
});

describe('earnings and release', () => {
  it('lists with filters; release without ids respects the hold period (30 days); by ids it does not', async () => {
    const a = await newAffiliate({ commission_percent: 10 });
    const o1 = await paidOrder(t, f, { items: course(f), affiliate_code: a.code });
    const o2 = await paidOrder(t, f, { items: course(f), affiliate_code: a.code });
    const list = await ok(await get('/api/admin/affiliate-earnings', { affiliate_id: a.id }));
    expect(list.count).toBe(2);
    expect(list.earnings.map((e: { order_id: string }) => e.order_id)).toEqual([o2, o1]);
    expect((await ok(await get('/api/admin/affiliate-earnings', { affiliate_id: a.id, order_id: o1 }))).count).toBe(1);
    expect((await ok(await get('/api/admin/affiliate-earnings', { affiliate_id: a.id, currency: 'USD' }))).count).toBe(
      0,
    );
    expect(
      (await ok(await get('/api/admin/affiliate-earnings', { affiliate_id: a.id, status: 'released' }))).count,
    ).toBe(0);
    const future = new Date(Date.now() + 1000 * DAY).toISOString();
    expect((await ok(await get('/api/admin/affiliate-earnings', { affiliate_id: a.id, from: future }))).count).toBe(0);
    expectProblem(await get('/api/admin/affiliate-earnings', { status: 'paid' }), 400, 'validation_failed');

    // within the hold period: nothing to release
    const none = await ok(await post('/api/admin/affiliate-earnings/release', { affiliate_id: a.id }));
    expect(none).toEqual({ released: 0, amounts: [], earnings: [] });

    // by id: released at once
    const e1 = list.earnings.find((e: { order_id: string }) => e.order_id === o1);
    const byId = await ok(await post('/api/admin/affiliate-earnings/release', { earning_ids: [e1.id] }));
    expect(byId.released).toBe(1);
    expect(byId.amounts).toEqual([{ currency: 'EUR', amount_cents: 832 }]);
    expect(byId.earnings[0]).toMatchObject({ id: e1.id, status: 'released', affiliate_id: a.id, amount_cents: 832 });
    expect(byId.earnings[0].released_at).not.toBeNull();

    // not releasable: already released, unknown, another affiliate's (with affiliate_id) — nothing moves
    const e2 = list.earnings.find((e: { order_id: string }) => e.order_id === o2);
    expectProblem(await post('/api/admin/affiliate-earnings/release', { earning_ids: [e1.id] }), 409, 'not_releasable');
    expectProblem(
      await post('/api/admin/affiliate-earnings/release', { earning_ids: [e2.id, 'earn_unknown'] }),
      409,
      'not_releasable',
    );
    const b = await newAffiliate();
    expectProblem(
      await post('/api/admin/affiliate-earnings/release', { earning_ids: [e2.id], affiliate_id: b.id }),
      409,
      'not_releasable',
    );
    expectProblem(
      await post('/api/admin/affiliate-earnings/release', { affiliate_id: 'aff_unknown' }),
      404,
      'not_found',
    );
    expectProblem(await post('/api/admin/affiliate-earnings/release', { earning_ids: [] }), 400, 'validation_failed');
    expect(
      (await ok(await get('/api/admin/affiliate-earnings', { affiliate_id: a.id, status: 'pending' }))).earnings.map(
        (e: { id: string }) => e.id,
      ),
    ).toEqual([e2.id]);
    let detail = await ok(await get(`/api/admin/affiliates/${a.id}`));
    expect(detail.balances[0]).toMatchObject({ pending_cents: 832, available_cents: 832, earned_cents: 1664 });

    // another shop cannot release this shop's earnings
    const other = await financeShop(t);
    const foreign = await call(t.app, 'POST', '/api/admin/affiliate-earnings/release', {
      token: other.owner,
      body: { earning_ids: [e2.id] },
    });
    expectProblem(foreign, 409, 'not_releasable');

    // after 30 days: the rest of this affiliate is released
    await advance(30 * DAY + 60);
    const later = await ok(await post('/api/admin/affiliate-earnings/release', { affiliate_id: a.id }));
    expect(later.released).toBe(1);
    expect(later.earnings.map((e: { id: string }) => e.id)).toEqual([e2.id]);
    expect(later.amounts).toEqual([{ currency: 'EUR', amount_cents: 832 }]);
    detail = await ok(await get(`/api/admin/affiliates/${a.id}`));
    expect(detail.balances[0]).toMatchObject({ pending_cents: 0, available_cents: 1664, owed_cents: 1664 });
    // releasing again is a no-op
    expect((await ok(await post('/api/admin/affiliate-earnings/release', { affiliate_id: a.id }))).released).toBe(0);
  });

  it('release without affiliate_id takes every affiliate past the hold period', async () => {
    const a = await newAffiliate();
    const b = await newAffiliate();
    await paidOrder(t, f, { items: course(f), affiliate_code: a.code });
    await paidOrder(t, f, { items: course(f), affiliate_code: b.code });
    await advance(31 * DAY);
    const res = await ok(await post('/api/admin/affiliate-earnings/release'));
    const ids = new Set(res.earnings.map((e: { affiliate_id: string }) => e.affiliate_id));
    expect(ids.has(a.id) && ids.has(b.id)).toBe(true);
    expect((await ok(await get('/api/admin/affiliate-earnings', { status: 'pending' }))).count).toBe(0);
  });
});

describe('promotional content', () => {
  it('create (per kind), list, delete; the portal shows the same material', async () => {
    const link = await post('/api/admin/affiliate-content', {
      kind: 'link',
      title: 'Startseite',
      url: 'https://shop.example/',
    });
    expect(link.statusCode, link.body).toBe(201);
    expect(link.data).toEqual({
      id: expect.stringMatching(/^acnt_/),
      kind: 'link',
      title: 'Startseite',
      url: 'https://shop.example/',
      image_url: null,
      body: null,
      created_at: expect.any(String),
    });
    const banner = await ok(
      await post('/api/admin/affiliate-content', {
        kind: 'banner',
        title: 'Sommer',
        url: 'https://shop.example/sommer',
        image_url: 'https://cdn.example/banner.png',
      }),
      201,
    );
    const text = await ok(
      await post('/api/admin/affiliate-content', { kind: 'text', title: 'Newsletter', body: 'Jetzt 10 % sparen!' }),
      201,
    );
    const bad: [Record<string, unknown>, string[]][] = [
      [{ kind: 'link', title: 'L' }, ['/body/url']],
      [{ kind: 'banner', title: 'B' }, ['/body/url', '/body/image_url']],
      [{ kind: 'banner', title: 'B', url: 'https://x.example' }, ['/body/image_url']],
      [{ kind: 'text', title: 'T' }, ['/body/body']],
      [{ kind: 'link', title: 'L', url: 'http://insecure.example' }, ['/body/url']],
      [{ kind: 'link', title: 'L', url: 'javascript:alert(1)' }, ['/body/url']],
      [{ kind: 'video', title: 'V' }, ['/body/kind']],
      [{ kind: 'link', url: 'https://x.example' }, ['/body/title']],
    ];
    for (const [body, paths] of bad) {
      const res = await post('/api/admin/affiliate-content', body);
      expectProblem(res, 400, 'validation_failed');
      for (const p of paths)
        expect(
          res.data.errors.map((e: { path: string }) => e.path),
          JSON.stringify(body),
        ).toContain(p);
    }
    const list = await ok(await get('/api/admin/affiliate-content'));
    expect(list.content.map((c: { id: string }) => c.id)).toEqual([text.id, banner.id, link.data.id]);
    expect(list).toMatchObject({ count: 3, limit: 50, offset: 0 });
    expect((await ok(await get('/api/admin/affiliate-content', { kind: 'banner' }))).content).toEqual([banner]);

    const a = await newAffiliate();
    await ok(await post('/api/admin/affiliates/invite', { email: a.email }));
    const session = await acceptInvite(t, 'affiliate', a.email);
    const portal = await ok(await call(t.app, 'GET', '/api/affiliate/content', { token: session }));
    expect(portal).toEqual(list);

    expect(
      (await call(t.app, 'DELETE', `/api/admin/affiliate-content/${banner.id}`, { token: f.owner })).statusCode,
    ).toBe(204);
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/affiliate-content/${banner.id}`, { token: f.owner }),
      404,
      'not_found',
    );
    const other = await financeShop(t);
    expectProblem(
      await call(t.app, 'DELETE', `/api/admin/affiliate-content/${text.id}`, { token: other.owner }),
      404,
      'not_found',
    );
    expect((await call(t.app, 'GET', '/api/admin/affiliate-content', { token: other.owner })).data.count).toBe(0);
    expect((await ok(await call(t.app, 'GET', '/api/affiliate/content', { token: session }))).count).toBe(2);
  });
});

describe('affiliate portal', () => {
  it('me: the affiliate, balances, referral link; earnings: own only, order number and date, no customer', async () => {
    const a = await newAffiliate({ commission_percent: 10 });
    const b = await newAffiliate({ commission_percent: 20 });
    for (const x of [a, b]) await ok(await post('/api/admin/affiliates/invite', { email: x.email }));
    const sa = await acceptInvite(t, 'affiliate', a.email);
    const sb = await acceptInvite(t, 'affiliate', b.email);
    const buyer = `kunde-${uniq('b')}@mail.test`;
    const oa = await paidOrder(t, f, { items: course(f), affiliate_code: a.code, email: buyer });
    const ob = await paidOrder(t, f, { items: course(f), affiliate_code: b.code, email: buyer });

    const me = await ok(await call(t.app, 'GET', '/api/affiliate/me', { token: sa }));
    expect(me).toMatchObject({
      id: a.id,
      email: a.email,
      code: a.code,
      status: 'active',
      portal: 'active',
      min_payout_cents: 5000,
      balances: [
        {
          currency: 'EUR',
          pending_cents: 832,
          available_cents: 0,
          in_payout_cents: 0,
          paid_out_cents: 0,
          earned_cents: 832,
          owed_cents: 832,
        },
      ],
    });
    expect(me).toHaveProperty('referral_link');

    const ea = await call(t.app, 'GET', '/api/affiliate/earnings', { token: sa });
    expect(ea.statusCode).toBe(200);
    expect(ea.data.count).toBe(1);
    const order = (await ok(await get(`/api/admin/orders/${oa}`))).order;
    expect(ea.data.earnings[0]).toEqual({
      id: expect.stringMatching(/^earn_/),
      order_id: oa,
      order_number: order.number,
      order_date: order.paid_at,
      subscription_payment_number: null,
      currency: 'EUR',
      net_cents: 8319,
      rate_percent: 10,
      amount_cents: 832,
      reversed_cents: 0,
      status: 'pending',
      earned_at: expect.any(String),
      released_at: null,
    });
    expect(ea.body).not.toContain(buyer);
    expect(ea.body).not.toContain(ob);
    const eb = await ok(await call(t.app, 'GET', '/api/affiliate/earnings', { token: sb }));
    expect(eb.earnings.map((e: { order_id: string }) => e.order_id)).toEqual([ob]);
    expect(eb.earnings[0].amount_cents).toBe(1664);
    // filters and pagination stay within the own data
    expect(
      (await ok(await call(t.app, 'GET', '/api/affiliate/earnings', { token: sa, query: { status: 'released' } })))
        .count,
    ).toBe(0);
    expect(
      (await ok(await call(t.app, 'GET', '/api/affiliate/earnings', { token: sa, query: { limit: '1', offset: '1' } })))
        .earnings,
    ).toEqual([]);
    // no way to name another affiliate: unknown query fields are refused
    expectProblem(
      await call(t.app, 'GET', '/api/affiliate/earnings', { token: sa, query: { affiliate_id: b.id } }),
      400,
      'validation_failed',
    );
    // an affiliate session never reaches the admin routes
    expectProblem(await call(t.app, 'GET', `/api/admin/affiliates/${b.id}`, { token: sa }), 403, 'credential_denied');
    expectProblem(await call(t.app, 'GET', '/api/admin/affiliate-earnings', { token: sa }), 403, 'credential_denied');
  });
});

describe('credentials (docs/partners.md, Routes)', () => {
  it('finance:read reads affiliates, one affiliate and earnings; catalog tokens and non-managers are refused', async () => {
    const a = await newAffiliate();
    const fin = await apiToken(t.app, f.shop, ['finance:read']);
    const catRead = await apiToken(t.app, f.shop, ['catalog:read']);
    const catWrite = await apiToken(t.app, f.shop, ['catalog:write']);
    const viewer = await employeeToken(t.app, f.shop, 'viewer');
    const editor = await employeeToken(t.app, f.shop, 'catalog_editor');
    const admin = await employeeToken(t.app, f.shop, 'admin');
    const reads = ['/api/admin/affiliates', `/api/admin/affiliates/${a.id}`, '/api/admin/affiliate-earnings'];
    for (const url of reads) {
      expect((await call(t.app, 'GET', url, { token: fin })).statusCode, url).toBe(200);
      expect((await call(t.app, 'GET', url, { token: admin })).statusCode, url).toBe(200);
      for (const tok of [catRead, catWrite])
        expectProblem(await call(t.app, 'GET', url, { token: tok }), 403, 'scope_denied');
      for (const s of [viewer, editor]) expectProblem(await call(t.app, 'GET', url, { token: s }), 403, 'role_denied');
    }
    // finance:read reads the same data the owner does
    const byToken = await call(t.app, 'GET', `/api/admin/affiliates/${a.id}`, { token: fin });
    expect(byToken.data).toEqual((await get(`/api/admin/affiliates/${a.id}`)).data);

    const mutations: [string, string, unknown][] = [
      ['POST', '/api/admin/affiliates', { name: 'T', email: 'token-made@nowhere.test', commission_percent: 1 }],
      ['POST', '/api/admin/affiliates/invite', { email: 'token-made@nowhere.test', name: 'T', commission_percent: 1 }],
      ['PATCH', `/api/admin/affiliates/${a.id}`, { status: 'blocked' }],
      ['POST', '/api/admin/affiliate-earnings/release', {}],
      ['GET', '/api/admin/affiliate-content', undefined],
      ['POST', '/api/admin/affiliate-content', { kind: 'text', title: 'T', body: 'B' }],
      ['DELETE', '/api/admin/affiliate-content/acnt_x', undefined],
    ];
    for (const [method, url, body] of mutations) {
      for (const tok of [fin, catRead, catWrite]) {
        expectProblem(await call(t.app, method, url, { token: tok, body }), 403, 'token_blocked');
      }
      for (const s of [viewer, editor])
        expectProblem(await call(t.app, method, url, { token: s, body }), 403, 'role_denied');
      expectProblem(await call(t.app, method, url, { body }), 401, 'unauthenticated');
    }
    // nothing changed
    expect((await get(`/api/admin/affiliates/${a.id}`)).data.status).toBe('active');
    expect((await get('/api/admin/affiliates', { q: 'token-made@nowhere.test' })).data.count).toBe(0);
    // the admin role may mutate
    expect(
      (await call(t.app, 'PATCH', `/api/admin/affiliates/${a.id}`, { token: admin, body: { name: 'By admin' } }))
        .statusCode,
    ).toBe(200);
  });
});

describe('ledger invariant', () => {
  it('per affiliate and account the postings sum to the API balances; every transaction and the whole ledger sum to 0', async () => {
    const a = await newAffiliate({ commission_percent: 10 });
    const b = await newAffiliate({ commission_percent: 7.5 });
    await paidOrder(t, f, { affiliate_code: a.code });
    await paidOrder(t, f, { affiliate_code: b.code });
    const inv = await finalInvoice(t, f, { affiliate_code: a.code });
    // a full credit note reverses the commission of that order
    const cn = await ok(await post(`/api/admin/invoices/${inv.id}/credit-note`, {}), 201);
    await ok(await post(`/api/admin/credit-notes/${cn.id}/finalize`));
    const [reversedEarning] = (await ok(await get('/api/admin/affiliate-earnings', { order_id: inv.order_id })))
      .earnings;
    expect(reversedEarning.reversed_cents).toBe(reversedEarning.amount_cents);
    // a release by id of one of b's earnings
    const bEarning = (await ok(await get('/api/admin/affiliate-earnings', { affiliate_id: b.id }))).earnings[0];
    await ok(await post('/api/admin/affiliate-earnings/release', { earning_ids: [bEarning.id] }));

    const postings = await query<{ partner_id: string; currency: string; account: string; total: number | string }>(
      db(),
      sql`SELECT partner_id, currency, account, sum(amount_cents)::bigint AS total FROM ledger_postings
          WHERE shop_id = ${f.shop.shopId} AND partner_type = 'affiliate'
          GROUP BY partner_id, currency, account`,
    );
    const list = await ok(await get('/api/admin/affiliates', { limit: '200' }));
    let checked = 0;
    for (const aff of list.affiliates as { id: string; balances: Record<string, any>[] }[]) {
      for (const bal of aff.balances) {
        const sum = (account: string) =>
          Number(
            postings.find((p) => p.partner_id === aff.id && p.currency === bal.currency && p.account === account)
              ?.total ?? 0,
          );
        expect(bal.pending_cents).toBe(sum('pending'));
        expect(bal.available_cents).toBe(sum('available'));
        expect(bal.in_payout_cents).toBe(sum('in_payout'));
        expect(bal.paid_out_cents).toBe(sum('paid_out'));
        expect(bal.earned_cents).toBe(-sum('expense'));
        expect(bal.owed_cents).toBe(bal.pending_cents + bal.available_cents + bal.in_payout_cents);
        // earned = Σ earnings − Σ clawbacks, from the earnings API
        const earnings = (await ok(await get('/api/admin/affiliate-earnings', { affiliate_id: aff.id, limit: '200' })))
          .earnings as { amount_cents: number; reversed_cents: number; currency: string }[];
        const net = earnings
          .filter((e) => e.currency === bal.currency)
          .reduce((s, e) => s + e.amount_cents - e.reversed_cents, 0);
        expect(bal.earned_cents).toBe(net);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(2);
    const aBal = list.affiliates.find((x: { id: string }) => x.id === a.id).balances[0];
    expect(aBal.pending_cents).toBe(1486);
    const bBal = list.affiliates.find((x: { id: string }) => x.id === b.id).balances[0];
    expect(bBal).toMatchObject({ pending_cents: 0, available_cents: 1114, earned_cents: 1114 }); // 14856 × 7.5 % = 1114.2

    const [whole] = await query<{ total: number | string }>(
      db(),
      sql`SELECT coalesce(sum(amount_cents), 0)::bigint AS total FROM ledger_postings WHERE shop_id = ${f.shop.shopId}`,
    );
    expect(Number(whole?.total)).toBe(0);
    const unbalanced = await query(
      db(),
      sql`SELECT transaction_id FROM ledger_postings WHERE shop_id = ${f.shop.shopId}
          GROUP BY transaction_id HAVING sum(amount_cents) <> 0`,
    );
    expect(unbalanced).toEqual([]);
  });
});
