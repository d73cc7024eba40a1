/** The mailers: the outbox (default) and SMTP through nodemailer against a local SMTP server. */
import { createServer, type Server } from 'node:net';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  createShop,
  employeeToken,
  expectProblem,
  type ShopFixture,
  STORE_ORIGIN,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { query, withTx } from '../../platform/db/tx.js';
import { mailIsDelivered, queueEmail, redactSecrets } from './index.js';

/** A minimal SMTP server: accepts every message and keeps its DATA. */
function smtpServer(messages: string[], failFirst = { value: 0 }): Server {
  return createServer((socket) => {
    let data = false;
    let buffer = '';
    socket.write('220 test ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      while (true) {
        if (data) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          messages.push(buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = false;
          socket.write('250 queued\r\n');
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') socket.write('250-test\r\n250 8BITMIME\r\n');
        else if (cmd === 'MAIL') {
          if (failFirst.value > 0) {
            failFirst.value--;
            socket.write('451 try again later\r\n');
          } else socket.write('250 ok\r\n');
        } else if (cmd === 'RCPT') socket.write('250 ok\r\n');
        else if (cmd === 'DATA') {
          data = true;
          socket.write('354 go on\r\n');
        } else if (cmd === 'QUIT') {
          socket.end('221 bye\r\n');
        } else socket.write('250 ok\r\n');
      }
    });
  });
}

/** Queues one e-mail of the shop in a transaction of its own, as the modules do. */
const queue = (t: TestApp, shopId: string, mail: Parameters<typeof queueEmail>[1]) =>
  withTx(t.app.deps.database.db, (tx) => queueEmail({ db: tx, shopId }, mail));

describe('mail outbox (default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startApp();
  });
  afterAll(() => t.close());

  it('stores the e-mail, lists it for owner/admin only, newest first', async () => {
    const shop = await createShop(t.app);
    await queue(t, shop.shopId, {
      kind: 'test',
      to: 'a@kunde.test',
      subject: 'Eins',
      text: 'x',
      now: new Date(),
    });
    await queue(t, shop.shopId, {
      kind: 'test',
      to: 'b@kunde.test',
      subject: 'Zwei',
      text: 'y',
      now: new Date(),
    });
    const queued = await call(t.app, 'GET', '/api/admin/emails', { token: shop.ownerToken });
    expect(queued.data.emails.map((e: { status: string }) => e.status)).toEqual(['queued', 'queued']);
    await t.app.deps.worker.drain();
    const res = await call(t.app, 'GET', '/api/admin/emails', { token: shop.ownerToken });
    expect(res.data.count).toBe(2);
    expect(res.data.emails[0]).toMatchObject({ subject: 'Zwei', status: 'stored', transport: 'outbox' });
    const one = await call(t.app, 'GET', '/api/admin/emails', {
      token: shop.ownerToken,
      query: { to: 'A@kunde.test' },
    });
    expect(one.data.emails.map((e: { subject: string }) => e.subject)).toEqual(['Eins']);
    const viewer = await employeeToken(t.app, shop, 'viewer');
    expectProblem(await call(t.app, 'GET', '/api/admin/emails', { token: viewer }), 403, 'role_denied');
    const other = await createShop(t.app);
    expect((await call(t.app, 'GET', '/api/admin/emails', { token: other.ownerToken })).data.emails).toEqual([]);
  });
});

describe('SMTP mailer (SMTP_URL)', () => {
  let t: TestApp;
  let server: Server;
  const messages: string[] = [];
  const failFirst = { value: 1 };
  beforeAll(async () => {
    server = smtpServer(messages, failFirst);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    t = await startApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'shop@service.test' });
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => server.close(r));
  });

  it('sends through nodemailer, retries a temporary failure and records it', async () => {
    const shop = await createShop(t.app);
    const db = t.app.deps.database.db;
    await queue(t, shop.shopId, {
      kind: 'abo.created',
      to: 'kunde@kunde.test',
      subject: 'Ihr Abo',
      text: 'Hallo Welt',
      now: t.app.deps.clock.now(),
    });
    await t.app.deps.worker.drain();
    let list = await call(t.app, 'GET', '/api/admin/emails', { token: shop.ownerToken });
    expect(list.data.emails[0]).toMatchObject({ status: 'queued' });
    expect(list.data.emails[0].last_error).toMatch(/451|try again/);
    await t.app.deps.clock.advance(db, 3600);
    await t.app.deps.worker.drain();
    list = await call(t.app, 'GET', '/api/admin/emails', { token: shop.ownerToken });
    expect(list.data.emails[0]).toMatchObject({ status: 'sent', transport: 'smtp', last_error: null });
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('Subject: Ihr Abo');
    expect(messages[0]).toContain('From: shop@service.test');
    expect(messages[0]).toContain('To: kunde@kunde.test');
    expect(messages[0]).toContain('Hallo Welt');
  });

  it('sends attachments stored with the e-mail', async () => {
    const shop = await createShop(t.app);
    const pdf = Buffer.from('%PDF-1.7 test attachment');
    await queue(t, shop.shopId, {
      kind: 'invoice',
      to: 'buchhaltung@kunde.test',
      subject: 'Ihre Rechnung',
      text: 'Anbei die Rechnung',
      attachments: [{ filename: 'RE-2026-00001.pdf', contentType: 'application/pdf', content: pdf }],
      now: t.app.deps.clock.now(),
    });
    const before = messages.length;
    await t.app.deps.worker.drain();
    expect(messages.length).toBe(before + 1);
    const sent = messages.at(-1) as string;
    expect(sent).toContain('Content-Type: application/pdf; name=RE-2026-00001.pdf');
    expect(sent).toContain('Content-Disposition: attachment; filename=RE-2026-00001.pdf');
    expect(sent.replace(/\r?\n/g, '')).toContain(pdf.toString('base64'));
  });

  it('gives up after the last attempt: status failed, listed by ?status=failed', async () => {
    const shop = await createShop(t.app);
    const db = t.app.deps.database.db;
    failFirst.value = 8;
    await queue(t, shop.shopId, {
      kind: 'test',
      to: 'nie@kunde.test',
      subject: 'Kommt nie an',
      text: 'x',
      now: t.app.deps.clock.now(),
    });
    for (let i = 0; i < 8; i++) {
      await t.app.deps.worker.drain();
      await t.app.deps.clock.advance(db, 6 * 3600);
    }
    await queue(t, shop.shopId, {
      kind: 'test',
      to: 'nie@kunde.test',
      subject: 'Kommt an',
      text: 'y',
      now: t.app.deps.clock.now(),
    });
    await t.app.deps.worker.drain();
    const list = (status?: string) =>
      call(t.app, 'GET', '/api/admin/emails', {
        token: shop.ownerToken,
        query: { to: 'nie@kunde.test', ...(status ? { status } : {}) },
      });
    const failed = await list('failed');
    expect(failed.data.count).toBe(1);
    expect(failed.data.emails[0]).toMatchObject({ subject: 'Kommt nie an', status: 'failed', sent_at: null });
    expect(failed.data.emails[0].last_error).toMatch(/451|try again/);
    expect((await list('sent')).data.emails.map((e: { subject: string }) => e.subject)).toEqual(['Kommt an']);
    expect((await list()).data.count).toBe(2);
    expectProblem(await list('lost'), 400, 'validation_failed');
  });
});

/** A stream that keeps every log line the app writes. */
function logCapture(): { stream: Writable; text: () => string } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { stream, text: () => lines.join('') };
}

/**
 * Triggers one e-mail of each kind that carries a secret: customer verification and password
 * reset, vendor and affiliate invitation.
 */
async function mailSecrets(t: TestApp, shop: ShopFixture, tag: string): Promise<string[]> {
  const email = `geheim-${tag}-${Date.now()}@mail.test`;
  const store = { token: shop.publishableKey, headers: { origin: STORE_ORIGIN } };
  const reg = await call(t.app, 'POST', '/api/customer/register', {
    ...store,
    body: { email, password: 'customer-pass-1' },
  });
  expect(reg.statusCode, reg.body).toBe(202);
  const reset = await call(t.app, 'POST', '/api/customer/password-reset', { ...store, body: { email } });
  expect(reset.statusCode).toBe(202);
  for (const kind of ['vendors', 'affiliates']) {
    const res = await call(t.app, 'POST', `/api/admin/${kind}/invite`, {
      token: shop.ownerToken,
      body: {
        email: `p-${kind}-${tag}@partner.test`,
        name: 'Partner',
        ...(kind === 'affiliates' ? { commission_percent: 5 } : {}),
      },
    });
    expect(res.statusCode, res.body).toBeLessThan(300);
  }
  return [email, `p-vendors-${tag}@partner.test`, `p-affiliates-${tag}@partner.test`];
}

const TOKEN = /(?:verify|reset|vinv|ainv)_[A-Za-z0-9_-]{20,}/g;

/** Every row of the e-mail and job tables, as text (where a secret could remain). */
async function storedText(t: TestApp): Promise<string> {
  const db = t.app.deps.database.db;
  const mails = await query<{ t: string }>(db, sql`SELECT row_to_json(e)::text AS t FROM emails e`);
  const jobs = await query<{ t: string }>(db, sql`SELECT row_to_json(j)::text AS t FROM jobs j`);
  return [...mails, ...jobs].map((r) => r.t).join('\n');
}

describe('secrets in e-mails: outbox-only development mode (no SMTP_URL)', () => {
  let t: TestApp;
  const log = logCapture();
  beforeAll(async () => {
    t = await startApp({}, undefined, log.stream);
  });
  afterAll(() => t.close());

  it('the unrestricted owner reads the full text; other employees and the log see [redacted]', async () => {
    expect(mailIsDelivered(t.config)).toBe(false);
    const shop = await createShop(t.app);
    const recipients = await mailSecrets(t, shop, 'dev');
    await t.app.deps.worker.drain();
    const owner = await call(t.app, 'GET', '/api/admin/emails', { token: shop.ownerToken });
    const mails = owner.data.emails.filter((e: { to: string }) => recipients.includes(e.to));
    expect(mails.map((e: { kind: string }) => e.kind).sort()).toEqual([
      'affiliate_invite',
      'customer_password_reset',
      'customer_verify_email',
      'vendor_invite',
    ]);
    const tokens = mails.flatMap((e: { text: string }) => e.text.match(TOKEN) ?? []) as string[];
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    const admin = await employeeToken(t.app, shop, 'admin');
    const listed = await call(t.app, 'GET', '/api/admin/emails', { token: admin });
    expect(listed.statusCode).toBe(200);
    const adminText = JSON.stringify(listed.data);
    expect(adminText).toContain('[redacted]');
    // an owner restricted to channels is refused like every restricted employee
    const restricted = await employeeToken(t.app, shop, 'owner', [shop.defaultChannelId]);
    expectProblem(await call(t.app, 'GET', '/api/admin/emails', { token: restricted }), 403, 'role_denied');
    const logged = log.text();
    expect(logged).toContain('e-mail (outbox)');
    for (const token of tokens) {
      expect(adminText).not.toContain(token);
      expect(logged).not.toContain(token);
    }
    // the full text is kept only beside the e-mail (owner), not in a job
    const jobs = await query<{ t: string }>(t.app.deps.database.db, sql`SELECT payload::text AS t FROM jobs`);
    for (const token of tokens) expect(jobs.map((j) => j.t).join()).not.toContain(token);
  });

  it('redacts a secret as is and URL-encoded', () => {
    expect(redactSecrets('a x/y b x%2Fy c', ['x/y'])).toBe('a [redacted] b [redacted] c');
    expect(redactSecrets('nothing', [''])).toBe('nothing');
  });
});

describe('secrets in e-mails: mail really delivered (SMTP_URL)', () => {
  let t: TestApp;
  let server: Server;
  const messages: string[] = [];
  const log = logCapture();
  beforeAll(async () => {
    server = smtpServer(messages);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    t = await startApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'shop@service.test' }, undefined, log.stream);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((r) => server.close(r));
  });

  it('the token reaches the recipient only: the outbox (even the owner), the tables and the log hold [redacted]', async () => {
    expect(mailIsDelivered(t.config)).toBe(true);
    const shop = await createShop(t.app);
    const recipients = await mailSecrets(t, shop, 'smtp');
    await t.app.deps.worker.drain();
    const sent = messages.join('\n').replace(/=\r?\n/g, '');
    const tokens = [...new Set(sent.match(TOKEN) ?? [])];
    expect(tokens.length).toBeGreaterThanOrEqual(4);
    const owner = await call(t.app, 'GET', '/api/admin/emails', { token: shop.ownerToken });
    const mails = owner.data.emails.filter((e: { to: string }) => recipients.includes(e.to));
    expect(mails).toHaveLength(4);
    for (const m of mails) {
      expect(m).toMatchObject({ status: 'sent', transport: 'smtp' });
      expect(m.text).toContain('[redacted]');
    }
    const listed = JSON.stringify(owner.data);
    const stored = await storedText(t);
    const logged = log.text();
    for (const token of tokens) {
      expect(listed).not.toContain(token);
      expect(stored).not.toContain(token);
      expect(logged).not.toContain(token);
    }
    // the delivered link works
    const verify = tokens.find((x) => x.startsWith('verify_')) as string;
    const ok = await call(t.app, 'POST', '/api/customer/verify-email', {
      token: shop.publishableKey,
      headers: { origin: STORE_ORIGIN },
      body: { token: verify, password: 'customer-pass-1' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});
