import { gzipSync } from 'node:zlib';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/platform/errors.js';
import { call, expectProblem, startApp, type TestApp } from '../helpers/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startApp({}, (app) => {
    app.post(
      '/test/typed',
      {
        config: { auth: { accepts: 'public' } },
        schema: {
          body: Type.Object(
            {
              count: Type.Integer({ minimum: 1 }),
              name: Type.String({ minLength: 2 }),
              email: Type.String({ format: 'email' }),
            },
            { additionalProperties: false },
          ),
          querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })) }),
          response: { 200: Type.Object({ count: Type.Integer(), limit: Type.Integer() }) },
        },
      },
      async (request) => {
        const body = request.body as { count: number };
        const q = request.query as { limit?: number };
        return { count: body.count, limit: q.limit ?? 50, secret: 'never serialized' };
      },
    );
    app.post('/test/no-body', { config: { auth: { accepts: 'public' } } }, async (request) => ({
      body: request.body ?? null,
    }));
    app.get('/test/boom', { config: { auth: { accepts: 'public' } } }, async () => {
      throw new Error('SELECT * FROM secret_table failed at /srv/app.js:12');
    });
    app.get('/test/conflict', { config: { auth: { accepts: 'public' } } }, async () => {
      throw new AppError('domain_taken', 'The domain is mapped already');
    });
  });
});
afterAll(() => t.close());

describe('error contract (RFC 9457)', () => {
  it('reports every invalid field with JSON pointers and changes nothing', async () => {
    const res = await call(t.app, 'POST', '/test/typed', { body: { count: 0, name: 'x', email: 'no', extra: 1 } });
    expectProblem(res, 400, 'validation_failed');
    const paths = res.data.errors.map((e: { path: string }) => e.path).sort();
    expect(paths).toEqual(['/body/count', '/body/email', '/body/extra', '/body/name']);
    expect(res.data).toMatchObject({ type: '/problems/validation_failed', title: 'Bad Request', status: 400 });
  });

  it('rejects a string where an integer is required in a body (no coercion)', async () => {
    const res = await call(t.app, 'POST', '/test/typed', { body: { count: '5', name: 'ab', email: 'a@b.de' } });
    expectProblem(res, 400, 'validation_failed');
    expect(res.data.errors).toEqual([{ path: '/body/count', message: 'must be integer' }]);
  });

  it('coerces query strings to their declared types and refuses non-numbers', async () => {
    const ok = await call(t.app, 'POST', '/test/typed?limit=100', { body: { count: 5, name: 'ab', email: 'a@b.de' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.data).toEqual({ count: 5, limit: 100 });
    const bad = await call(t.app, 'POST', '/test/typed?limit=abc', { body: { count: 5, name: 'ab', email: 'a@b.de' } });
    expectProblem(bad, 400, 'validation_failed');
    expect(bad.data.errors[0].path).toBe('/query/limit');
    const over = await call(t.app, 'POST', '/test/typed?limit=201', {
      body: { count: 5, name: 'ab', email: 'a@b.de' },
    });
    expectProblem(over, 400, 'validation_failed');
  });

  it('never serializes fields that are not in the response schema', async () => {
    const ok = await call(t.app, 'POST', '/test/typed', { body: { count: 5, name: 'ab', email: 'a@b.de' } });
    expect(ok.body).not.toContain('secret');
  });

  it('answers malformed JSON with 400 malformed_json', async () => {
    const res = await call(t.app, 'POST', '/test/typed', {
      body: '{"count": 1,',
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 400, 'malformed_json');
  });

  it('takes an empty body declared as JSON as no body: fine where none is needed, 400 where one is', async () => {
    const json = { 'content-type': 'application/json' };
    const none = await call(t.app, 'POST', '/test/no-body', { body: '', headers: json });
    expect(none.statusCode).toBe(200);
    expect(none.data).toEqual({ body: null });
    const needed = await call(t.app, 'POST', '/test/typed', { body: '', headers: json });
    expectProblem(needed, 400, 'validation_failed');
    // JSON whitespace alone is no body either (a client that appends a newline)
    for (const blank of ['\n', ' \r\n\t ']) {
      const bare = await call(t.app, 'POST', '/test/no-body', { body: blank, headers: json });
      expect(bare.statusCode).toBe(200);
      expect(bare.data).toEqual({ body: null });
      expectProblem(await call(t.app, 'POST', '/test/typed', { body: blank, headers: json }), 400, 'validation_failed');
    }
    // other blanks are not JSON whitespace
    expectProblem(await call(t.app, 'POST', '/test/no-body', { body: '\u00a0', headers: json }), 400, 'malformed_json');
    // the parser is still the safe one: prototype poisoning is refused
    const poisoned = await call(t.app, 'POST', '/test/no-body', { body: '{"__proto__":{"x":1}}', headers: json });
    expectProblem(poisoned, 400, 'malformed_json');
    const parsed = await call(t.app, 'POST', '/test/no-body', { body: '{"a":[1]}', headers: json });
    expect(parsed.data).toEqual({ body: { a: [1] } });
  });

  it('answers an unsupported content type with 415', async () => {
    const res = await call(t.app, 'POST', '/test/typed', {
      body: 'count=1',
      headers: { 'content-type': 'text/plain' },
    });
    expectProblem(res, 415, 'unsupported_media_type');
  });

  it('answers a compressed body (Content-Encoding) with 415 instead of reading its bytes as JSON', async () => {
    const body = JSON.stringify({ count: 1, name: 'ab', email: 'a@b.de' });
    for (const coding of ['gzip', 'br', 'deflate', 'GZIP', 'identity, gzip']) {
      const res = await call(t.app, 'POST', '/test/typed', {
        body: coding === 'gzip' ? gzipSync(body) : body,
        headers: { 'content-type': 'application/json', 'content-encoding': coding },
      });
      expectProblem(res, 415, 'unsupported_media_type');
      expect(res.data.detail).toContain('Content-Encoding');
    }
    // identity is no coding; a request without a body is not refused for the header
    const plain = await call(t.app, 'POST', '/test/typed', {
      body,
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    });
    expect(plain.statusCode).toBe(200);
    const none = await call(t.app, 'POST', '/test/no-body', { headers: { 'content-encoding': 'gzip' } });
    expect(none.statusCode).toBe(200);
  });

  it('answers a body over 1 MB with 413', async () => {
    const big = JSON.stringify({ count: 1, name: 'x'.repeat(1_100_000), email: 'a@b.de' });
    const res = await call(t.app, 'POST', '/test/typed', {
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(res, 413, 'body_too_large');
  });

  it('answers an unknown route with 404 not_found', async () => {
    const res = await call(t.app, 'GET', '/api/nothing-here');
    expectProblem(res, 404, 'not_found');
  });

  it('passes AppError codes through', async () => {
    const res = await call(t.app, 'GET', '/test/conflict');
    expectProblem(res, 409, 'domain_taken');
    expect(res.data.detail).toBe('The domain is mapped already');
  });

  it('hides unexpected errors behind a 500 with the request id', async () => {
    const res = await call(t.app, 'GET', '/test/boom', { headers: { 'x-request-id': 'trace-123' } });
    expectProblem(res, 500, 'internal_error');
    expect(res.body).not.toContain('secret_table');
    expect(res.body).not.toContain('/srv/app.js');
    expect(res.headers['x-request-id']).toBe('trace-123');
    expect(res.data.request_id).toBe('trace-123');
  });

  it('gives every response an x-request-id', async () => {
    const res = await call(t.app, 'GET', '/health');
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['x-request-id'])).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives every response the security headers: success, refusal, unknown route and 500', async () => {
    const answers = [
      await call(t.app, 'GET', '/health'),
      await call(t.app, 'POST', '/test/typed', { body: { count: 0 } }),
      await call(t.app, 'GET', '/no/such/route'),
      await call(t.app, 'GET', '/test/boom'),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 400, 404, 500]);
    for (const res of answers) {
      expect(res.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'referrer-policy': 'no-referrer',
        'cross-origin-resource-policy': 'cross-origin',
        'cross-origin-opener-policy': 'same-origin',
      });
      expect(res.headers['x-request-id']).toBeTruthy();
      expect(res.headers['content-security-policy']).toBeUndefined();
    }
  });
});
