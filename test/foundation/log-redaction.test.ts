/** Request logs hold no secrets: token path segments and `token` query values are redacted, credential headers never appear. */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type App, buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { redactUrl } from '../../src/platform/http/log-redaction.js';
import { freshDatabase, type TestDatabase } from '../helpers/db.js';

const lines: string[] = [];
let app: App;
let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase();
  const config = loadConfig({ DATA_DIR: 'memory', DEMO: '0', PUBLIC_URL: 'http://service.test', LOG_LEVEL: 'info' });
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  app = await buildApp({ config, database: db.database, skipMigrations: true, logger: { level: 'info', stream } });
});
afterAll(async () => {
  await app.close();
  await db.drop();
});

const SECRET = `abolink_${'S3cr3tT0k3n'.repeat(4)}xyz`; // 47 characters after the prefix

describe('request log redaction', () => {
  it('redacts token URLs and never logs authorization or cookie headers', async () => {
    lines.length = 0;
    await app.inject({ method: 'GET', url: `/api/checkout/abo/${SECRET}` });
    await app.inject({ method: 'POST', url: `/api/checkout/abo/${SECRET}/kuendigen`, payload: {} });
    await app.inject({ method: 'GET', url: '/vendor/accept?lang=de&token=vinv_query-secret-value' });
    await app.inject({ method: 'GET', url: `/no/such/route/${SECRET}?Token=other-query-secret` });
    await app.inject({ method: 'GET', url: '/api/checkout/abo/short-guess-secret' });
    // broken percent-encoding: refused by the router (no route params), still not logged
    await app.inject({ method: 'GET', url: `/api/checkout/abo/${SECRET}%zz` });
    await app.inject({ method: 'GET', url: '/api/checkout/abo/typo-guess-secret%E0%A4%A' });
    await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { authorization: 'Bearer sess_header-secret-value', cookie: 'sid=cookie-secret-value' },
    });
    const log = lines.join('');
    expect(lines.length).toBeGreaterThan(6);
    for (const secret of [
      SECRET,
      'vinv_query-secret-value',
      'other-query-secret',
      'short-guess-secret',
      'typo-guess-secret',
      'sess_header-secret-value',
      'cookie-secret-value',
    ]) {
      expect(log).not.toContain(secret);
    }
    const urls = lines.map((l) => JSON.parse(l)).flatMap((e) => (e.req?.url ? [e.req.url] : []));
    expect(urls).toEqual(
      expect.arrayContaining([
        '/api/checkout/abo/[redacted]',
        '/api/checkout/abo/[redacted]/kuendigen',
        '/vendor/accept?lang=de&token=[redacted]',
        '/no/such/route/[redacted]?Token=[redacted]',
        '/api/checkout/abo/[redacted]',
        '/api/auth/me',
      ]),
    );
  });

  it('leaves ordinary ids and queries alone', () => {
    expect(redactUrl('/api/products/prod_01m84zp2ck13wmh9ckt72v3w8h?limit=5')).toBe(
      '/api/products/prod_01m84zp2ck13wmh9ckt72v3w8h?limit=5',
    );
    expect(redactUrl('/pay/cs_01m84zp2ck13wmh9ckt72v3w8h?session_id=x')).toBe(
      '/pay/cs_01m84zp2ck13wmh9ckt72v3w8h?session_id=x',
    );
    expect(redactUrl('/x?token')).toBe('/x?token');
  });
});
