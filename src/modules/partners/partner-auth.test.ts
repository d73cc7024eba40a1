/**
 * Portal access for vendors and affiliates: invitation token → accept (password + session),
 * login (also with one e-mail at two shops), logout, and the refusals around them.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createShop,
  expectProblem,
  PLATFORM_TOKEN,
  type ShopFixture,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { systemCtx } from '../../platform/auth/types.js';
import { query, withTx } from '../../platform/db/tx.js';
import { issueInvite } from './partner-auth.js';
import { inviteTokenFor } from './partners.fixtures.js';
import type { PartnerType } from './partners.tables.js';

let t: TestApp;
let a: ShopFixture;
let b: ShopFixture;
let n = 0;

beforeAll(async () => {
  t = await startApp();
  a = await createShop(t.app);
  b = await createShop(t.app);
});
afterAll(() => t.close());

const db = () => t.app.deps.database.db;
/** The context of a shop, as a job would have it. */
const ctxOf = (shop: ShopFixture) =>
  systemCtx({ db: db(), clock: t.app.deps.clock, config: t.app.deps.config }, shop.shopId, t.app.log);

/** A vendor or affiliate row with a fresh invitation (what the admin invite routes do). */
async function invited(kind: PartnerType, shop: ShopFixture, email: string, status?: string) {
  const id = `${kind === 'vendor' ? 'ven' : 'aff'}_auth${++n}`;
  await withTx(ctxOf(shop), async (c) => {
    const tx = c.db;
    if (kind === 'vendor') {
      await tx.execute(
        sql`INSERT INTO vendors (id, shop_id, name, email, status) VALUES (${id}, ${shop.shopId}, 'Händler', ${email}, ${status ?? 'invited'})`,
      );
    } else {
      await tx.execute(
        sql`INSERT INTO affiliates (id, shop_id, name, email, code, commission_percent, status)
            VALUES (${id}, ${shop.shopId}, 'Partner', ${email}, ${`CODE${n}`}, 10, ${status ?? 'active'})`,
      );
    }
    await issueInvite(c, kind, { id, email, name: 'Partner' }, t.app.deps.clock.now());
  });
  return id;
}

describe.each(['vendor', 'affiliate'] as const)('%s portal access', (kind) => {
  it('accepts an invitation once: password set, session issued, cookie set, vendor activated', async () => {
    const email = `${kind}${n}-accept@partner.test`;
    const id = await invited(kind, a, email);
    const mails = await query<{ subject: string; text: string }>(
      db(),
      sql`SELECT subject, text_body AS text FROM emails WHERE kind = ${`${kind}_invite`} AND to_address = ${email}`,
    );
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain(`${t.config.publicUrl}/${kind}/accept?token=`);
    const token = await inviteTokenFor(t, kind, email);

    const short = await call(t.app, 'POST', `/api/${kind}/auth/accept`, { body: { token, password: 'short' } });
    expectProblem(short, 400, 'validation_failed');

    const res = await call(t.app, 'POST', `/api/${kind}/auth/accept`, { body: { token, password: 'partner-pass-1' } });
    expect(res.statusCode).toBe(200);
    expect(res.data[kind]).toMatchObject({ id, shop_id: a.shopId, email, status: 'active' });
    expect(res.data.token).toMatch(kind === 'vendor' ? /^vsess_/ : /^asess_/);
    expect(String(res.headers['set-cookie'])).toContain(kind === 'vendor' ? 'vsid=' : 'asid=');

    const again = await call(t.app, 'POST', `/api/${kind}/auth/accept`, {
      body: { token, password: 'partner-pass-2' },
    });
    expectProblem(again, 400, 'invite_invalid');

    const login = await call(t.app, 'POST', `/api/${kind}/auth/login`, { body: { email, password: 'partner-pass-1' } });
    expect(login.statusCode).toBe(200);
    const wrong = await call(t.app, 'POST', `/api/${kind}/auth/login`, { body: { email, password: 'partner-pass-2' } });
    expectProblem(wrong, 401, 'invalid_credentials');
    const unknown = await call(t.app, 'POST', `/api/${kind}/auth/login`, {
      body: { email: 'nobody@partner.test', password: 'partner-pass-1' },
    });
    expectProblem(unknown, 401, 'invalid_credentials');

    // logout ends exactly that session
    const out = await call(t.app, 'POST', `/api/${kind}/auth/logout`, { token: login.data.token });
    expect(out.statusCode).toBe(204);
    const after = await call(t.app, 'POST', `/api/${kind}/auth/logout`, { token: login.data.token });
    expect(after.statusCode).toBe(401);
    const other = await call(t.app, 'POST', `/api/${kind}/auth/logout`, { token: res.data.token });
    expect(other.statusCode).toBe(204);
  });

  it('refuses unknown and expired tokens and the other kind’s token', async () => {
    const email = `${kind}${n}-expired@partner.test`;
    await invited(kind, a, email);
    const token = await inviteTokenFor(t, kind, email);
    const otherKind = kind === 'vendor' ? 'affiliate' : 'vendor';
    expectProblem(
      await call(t.app, 'POST', `/api/${otherKind}/auth/accept`, { body: { token, password: 'partner-pass-1' } }),
      400,
      'invite_invalid',
    );
    expectProblem(
      await call(t.app, 'POST', `/api/${kind}/auth/accept`, { body: { token: 'nope', password: 'partner-pass-1' } }),
      400,
      'invite_invalid',
    );
    await call(t.app, 'POST', '/api/platform/clock/advance', { token: PLATFORM_TOKEN, body: { seconds: 8 * 86400 } });
    expectProblem(
      await call(t.app, 'POST', `/api/${kind}/auth/accept`, { body: { token, password: 'partner-pass-1' } }),
      400,
      'invite_invalid',
    );
  });

  it('a re-invite replaces the earlier link', async () => {
    const email = `${kind}${n}-reinvite@partner.test`;
    const id = await invited(kind, a, email);
    const first = await inviteTokenFor(t, kind, email);
    await withTx(ctxOf(a), (c) => issueInvite(c, kind, { id, email, name: 'Partner' }, t.app.deps.clock.now()));
    const second = await inviteTokenFor(t, kind, email);
    expect(second).not.toBe(first);
    expectProblem(
      await call(t.app, 'POST', `/api/${kind}/auth/accept`, { body: { token: first, password: 'partner-pass-1' } }),
      400,
      'invite_invalid',
    );
    const ok = await call(t.app, 'POST', `/api/${kind}/auth/accept`, {
      body: { token: second, password: 'partner-pass-1' },
    });
    expect(ok.statusCode).toBe(200);
  });

  it('one e-mail at two shops needs shop_id; a locked account cannot sign in', async () => {
    const email = `${kind}${n}-two@partner.test`;
    await invited(kind, a, email);
    await call(t.app, 'POST', `/api/${kind}/auth/accept`, {
      body: { token: await inviteTokenFor(t, kind, email), password: 'partner-pass-1' },
    });
    const idB = await invited(kind, b, email);
    await call(t.app, 'POST', `/api/${kind}/auth/accept`, {
      body: { token: await inviteTokenFor(t, kind, email), password: 'partner-pass-b' },
    });
    const ambiguous = await call(t.app, 'POST', `/api/${kind}/auth/login`, {
      body: { email, password: 'partner-pass-1' },
    });
    expectProblem(ambiguous, 400, 'shop_required');
    const inB = await call(t.app, 'POST', `/api/${kind}/auth/login`, {
      body: { email, password: 'partner-pass-b', shop_id: b.shopId },
    });
    expect(inB.statusCode).toBe(200);
    expect(inB.data[kind].shop_id).toBe(b.shopId);
    const wrongShop = await call(t.app, 'POST', `/api/${kind}/auth/login`, {
      body: { email, password: 'partner-pass-b', shop_id: a.shopId },
    });
    expectProblem(wrongShop, 401, 'invalid_credentials');

    const table = kind === 'vendor' ? sql`vendors` : sql`affiliates`;
    const lockedStatus = kind === 'vendor' ? 'suspended' : 'blocked';
    await db().execute(sql`UPDATE ${table} SET status = ${lockedStatus} WHERE id = ${idB}`);
    const locked = await call(t.app, 'POST', `/api/${kind}/auth/login`, {
      body: { email, password: 'partner-pass-b', shop_id: b.shopId },
    });
    expectProblem(locked, 403, 'account_locked');
  });

  it('failed logins are throttled per account and address; the same account signs in from another address', async () => {
    // fixed 15-minute windows: start well inside one so the six attempts share it
    const left = 900_000 - (Date.now() % 900_000);
    if (left < 8000) await new Promise((r) => setTimeout(r, left + 50));
    const email = `${kind}${n}-throttle@partner.test`;
    await invited(kind, a, email);
    const token = await inviteTokenFor(t, kind, email);
    const accepted = await call(t.app, 'POST', `/api/${kind}/auth/accept`, {
      body: { token, password: 'partner-pass-1' },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const attempt = async (password: string, remoteAddress: string) => {
      const res = (await t.app.inject({
        method: 'POST',
        url: `/api/${kind}/auth/login`,
        payload: { email, password },
        remoteAddress,
      })) as Awaited<ReturnType<typeof call>>;
      res.data = res.body ? JSON.parse(res.body) : null;
      return res;
    };
    for (let i = 0; i < 5; i++)
      expectProblem(await attempt('wrong-password', '198.51.100.21'), 401, 'invalid_credentials');
    const blocked = await attempt('partner-pass-1', '198.51.100.21');
    expectProblem(blocked, 429, 'rate_limited');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    const elsewhere = await attempt('partner-pass-1', '198.51.100.22');
    expect(elsewhere.statusCode, elsewhere.body).toBe(200);
  });
});

describe.each(['vendor', 'affiliate'] as const)('%s password reset', (kind) => {
  const resetToken = async (email: string) => {
    const rows = await query<{ text: string }>(
      db(),
      sql`SELECT coalesce(unredacted_text, text_body) AS text FROM emails WHERE kind = ${`${kind}_password_reset`} AND lower(to_address) = lower(${email})
          ORDER BY created_at DESC, id DESC LIMIT 1`,
    );
    const text = rows[0]?.text ?? '';
    // the e-mail links the portal's page, which posts …/password-reset/confirm
    const link = /(\S+\/reset-password\?token=\S+)/.exec(text)?.[1];
    const token = /Token: (\S+)/.exec(text)?.[1];
    if (token) expect(link).toBe(`${t.config.publicUrl}/${kind}/reset-password?token=${encodeURIComponent(token)}`);
    return token;
  };

  it('answers a known and an unknown address alike; the token works once and ends every session', async () => {
    const email = `${kind}${n}-reset@partner.test`;
    await invited(kind, a, email);
    const accepted = await call(t.app, 'POST', `/api/${kind}/auth/accept`, {
      body: { token: await inviteTokenFor(t, kind, email), password: 'partner-pass-1' },
    });
    const sessionA = accepted.data.token;
    const sessionB = (
      await call(t.app, 'POST', `/api/${kind}/auth/login`, { body: { email, password: 'partner-pass-1' } })
    ).data.token;

    const known = await call(t.app, 'POST', `/api/${kind}/auth/password-reset`, { body: { email } });
    const unknown = await call(t.app, 'POST', `/api/${kind}/auth/password-reset`, {
      body: { email: `nobody-${n}@partner.test` },
    });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expectProblem(
      await call(t.app, 'POST', `/api/${kind}/auth/password-reset`, { body: {} }),
      400,
      'validation_failed',
    );
    const token = await resetToken(email);
    expect(token).toMatch(/^reset_/);

    const confirm = (body: unknown) => call(t.app, 'POST', `/api/${kind}/auth/password-reset/confirm`, { body });
    expectProblem(await confirm({ token, password: 'short' }), 400, 'validation_failed');
    expectProblem(await confirm({ token: 'reset_unknown', password: 'partner-pass-2' }), 400, 'token_invalid');
    // the other kind's confirm route does not take this token
    const otherKind = kind === 'vendor' ? 'affiliate' : 'vendor';
    expectProblem(
      await call(t.app, 'POST', `/api/${otherKind}/auth/password-reset/confirm`, {
        body: { token, password: 'partner-pass-2' },
      }),
      400,
      'token_invalid',
    );
    const ok = await confirm({ token, password: 'partner-pass-2' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.data[kind]).toMatchObject({ email, shop_id: a.shopId });
    for (const old of [sessionA, sessionB]) {
      expect((await call(t.app, 'POST', `/api/${kind}/auth/logout`, { token: old })).statusCode).toBe(401);
    }
    expectProblem(await confirm({ token, password: 'partner-pass-3' }), 400, 'token_invalid');
    expect(
      (await call(t.app, 'POST', `/api/${kind}/auth/login`, { body: { email, password: 'partner-pass-2' } }))
        .statusCode,
    ).toBe(200);
  });

  it('an expired reset token is refused', async () => {
    const email = `${kind}${n}-reset-late@partner.test`;
    await invited(kind, a, email);
    await call(t.app, 'POST', `/api/${kind}/auth/accept`, {
      body: { token: await inviteTokenFor(t, kind, email), password: 'partner-pass-1' },
    });
    await call(t.app, 'POST', `/api/${kind}/auth/password-reset`, { body: { email, shop_id: a.shopId } });
    const token = (await resetToken(email)) as string;
    await db().execute(
      sql`UPDATE account_tokens SET expires_at = now() - interval '1 second' WHERE subject_kind = ${kind}`,
    );
    expectProblem(
      await call(t.app, 'POST', `/api/${kind}/auth/password-reset/confirm`, {
        body: { token, password: 'partner-pass-2' },
      }),
      400,
      'token_invalid',
    );
  });
});
