/**
 * Image uploads (POST /api/admin/uploads) and the files they become (GET /media/…): the type by
 * content, the size limit, the headers of a served file, credentials; the local-disk, memory and
 * S3-compatible adapters (the last against a stub that checks Signature V4), and the signer
 * against AWS's documented example.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiToken,
  call,
  createShop,
  employeeToken,
  expectProblem,
  type ShopFixture,
  startApp,
  type TestApp,
} from '../../../test/helpers/app.js';
import { type S3Stub, startS3Stub } from '../../../test/helpers/s3-stub.js';
import { ConfigError, loadConfig } from '../../config.js';
import { sniffImage } from './image-type.js';
import { S3Storage } from './s3.js';
import { sha256Hex, signV4 } from './sigv4.js';

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF\0rest-of-jpeg')]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 rest')]);
const avif = (major: string, compatible: string[]) => {
  const brands = Buffer.from(compatible.join(''), 'latin1');
  const box = Buffer.alloc(16 + brands.length);
  box.writeUInt32BE(box.length, 0);
  box.write('ftyp', 4, 'latin1');
  box.write(major, 8, 'latin1');
  brands.copy(box, 16);
  return Buffer.concat([box, Buffer.from('meta-and-data')]);
};
const AVIF = avif('avif', ['mif1', 'miaf']);
const HTML = Buffer.from('<html><script>alert(1)</script></html>');
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');

const upload = (
  t: TestApp,
  token: string,
  body: Buffer | string,
  type?: string,
  headers: Record<string, string> = {},
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/uploads',
    headers: { authorization: `Bearer ${token}`, ...(type ? { 'content-type': type } : {}), ...headers },
    payload: body,
  });
const json = (res: { body: string }) => JSON.parse(res.body);
const pathOf = (url: string) => new URL(url).pathname;

describe('image types by content', () => {
  it('tells PNG, JPEG, GIF, WebP and AVIF by their bytes, and nothing else', () => {
    expect(sniffImage(PNG)).toBe('image/png');
    expect(sniffImage(JPEG)).toBe('image/jpeg');
    expect(sniffImage(GIF)).toBe('image/gif');
    expect(sniffImage(Buffer.from('GIF87a....'))).toBe('image/gif');
    expect(sniffImage(WEBP)).toBe('image/webp');
    expect(sniffImage(AVIF)).toBe('image/avif');
    expect(sniffImage(avif('mif1', ['avif']))).toBe('image/avif');
    expect(sniffImage(avif('avis', []))).toBe('image/avif');
    // HEIC and MP4 are ISO BMFF too, but not AVIF
    expect(sniffImage(avif('heic', ['mif1']))).toBeNull();
    expect(sniffImage(avif('isom', ['mp41']))).toBeNull();
    expect(sniffImage(HTML)).toBeNull();
    expect(sniffImage(SVG)).toBeNull();
    expect(sniffImage(Buffer.from('RIFF\0\0\0\0WAVE'))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
    expect(sniffImage(Buffer.from([0x89, 0x50]))).toBeNull();
  });
});

describe('Signature V4', () => {
  it("signs AWS's documented GET Object example to its published signature", () => {
    const signed = signV4(
      {
        method: 'GET',
        url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
        headers: { range: 'bytes=0-9' },
        payloadHash: sha256Hex(''),
        now: new Date('2013-05-24T00:00:00Z'),
      },
      {
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        region: 'us-east-1',
      },
    );
    expect(signed.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
    expect(signed['x-amz-date']).toBe('20130524T000000Z');
  });
});

describe('configuration', () => {
  it('defaults to the local disk under DATA_DIR; STORAGE=s3 needs its settings', () => {
    expect(loadConfig({ DATA_DIR: '/srv/shop' }).storage).toEqual({
      driver: 'local',
      uploadsDir: '/srv/shop/uploads',
      s3: null,
      uploadMaxBytes: 10 * 1024 * 1024,
    });
    expect(loadConfig({ DATA_DIR: 'memory' }).storage.uploadsDir).toBeNull();
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b' })).toThrow(ConfigError);
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'b' })).toThrow(/S3_ENDPOINT, S3_ACCESS_KEY_ID/);
    expect(() => loadConfig({ STORAGE: 'ftp' })).toThrow(ConfigError);
    expect(() => loadConfig({ UPLOAD_MAX_BYTES: '10' })).toThrow(ConfigError);
    const s3 = loadConfig({
      STORAGE: 's3',
      S3_ENDPOINT: 'https://s3.example',
      S3_BUCKET: 'b',
      S3_ACCESS_KEY_ID: 'k',
      S3_SECRET_ACCESS_KEY: 's',
    }).storage.s3;
    expect(s3).toEqual({
      endpoint: 'https://s3.example',
      bucket: 'b',
      region: 'us-east-1',
      accessKeyId: 'k',
      secretAccessKey: 's',
    });
  });
});

describe('uploads (memory storage)', () => {
  let t: TestApp;
  let shop: ShopFixture;
  beforeAll(async () => {
    t = await startApp({ UPLOAD_MAX_BYTES: '4096' });
    shop = await createShop(t.app);
  });
  afterAll(() => t.close());

  it('stores an image under a content-hashed key and serves it with its type, immutable, never as a page', async () => {
    const res = await upload(t, shop.ownerToken, PNG, 'image/png');
    expect(res.statusCode).toBe(201);
    const hash = sha256Hex(PNG);
    expect(json(res)).toEqual({
      url: `http://service.test/media/${shop.shopId}/${hash}.png`,
      key: `${shop.shopId}/${hash}.png`,
      content_type: 'image/png',
      size: PNG.length,
    });
    const file = await t.app.inject({ method: 'GET', url: pathOf(json(res).url) });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PNG)).toBe(true);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(file.headers.etag).toBe(`"${hash}"`);
    const again = await t.app.inject({
      method: 'GET',
      url: pathOf(json(res).url),
      headers: { 'if-none-match': `"${hash}"` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    // the same bytes again: the same key
    expect(json(await upload(t, shop.ownerToken, PNG, 'image/png')).key).toBe(json(res).key);
    // every accepted type, with a charset-like parameter on the header
    for (const [bytes, type, ext] of [
      [JPEG, 'image/jpeg', 'jpg'],
      [GIF, 'image/gif', 'gif'],
      [WEBP, 'image/webp', 'webp'],
      [AVIF, 'image/avif', 'avif'],
    ] as const) {
      const r = await upload(t, shop.ownerToken, bytes, `${type}; q=1`);
      expect(r.statusCode, type).toBe(201);
      expect(json(r).key).toBe(`${shop.shopId}/${sha256Hex(bytes)}.${ext}`);
      const served = await t.app.inject({ method: 'GET', url: pathOf(json(r).url) });
      expect(served.headers['content-type']).toBe(type);
    }

    // the URL is what a product image takes
    const product = await call(t.app, 'POST', '/api/products', {
      token: shop.ownerToken,
      body: { name: 'Mit Bild', images: [{ url: json(res).url, alt: 'Ein Pixel' }] },
    });
    expect(product.statusCode).toBe(201);
    expect(product.data.images[0].url).toBe(json(res).url);
  });

  it('tells the type by content: unknown bytes, SVG, HTML or a mismatch are refused (415) and nothing is stored', async () => {
    const cases: [Buffer | string, string | undefined, number, string][] = [
      [HTML, 'image/png', 415, 'unsupported_image'],
      [SVG, 'image/webp', 415, 'unsupported_image'],
      [JPEG, 'image/png', 415, 'image_type_mismatch'],
      [PNG, 'image/gif', 415, 'image_type_mismatch'],
      [SVG, 'image/svg+xml', 415, 'unsupported_media_type'],
      [PNG, 'application/octet-stream', 415, 'unsupported_media_type'],
      [PNG, 'text/html', 415, 'unsupported_media_type'],
      ['{"url":"x"}', 'application/json', 415, 'unsupported_media_type'],
      [PNG, undefined, 415, 'unsupported_media_type'],
      [Buffer.alloc(0), 'image/png', 400, 'validation_failed'],
    ];
    for (const [body, type, status, code] of cases) {
      const res = await upload(t, shop.ownerToken, body, type);
      expect(res.statusCode, `${type}`).toBe(status);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(json(res).code, `${type}`).toBe(code);
    }
    const stored = await t.app.inject({ method: 'GET', url: `/media/${shop.shopId}/${sha256Hex(HTML)}.png` });
    expect(stored.statusCode).toBe(404);
  });

  it('refuses a body beyond UPLOAD_MAX_BYTES with 413, declared or streamed', async () => {
    const big = Buffer.concat([PNG, Buffer.alloc(5000)]);
    const res = await upload(t, shop.ownerToken, big, 'image/png');
    expect(res.statusCode).toBe(413);
    expect(json(res)).toMatchObject({
      code: 'body_too_large',
      detail: 'The image exceeds 4096 bytes (UPLOAD_MAX_BYTES)',
    });
    // exactly the limit is fine
    const exact = Buffer.concat([PNG, Buffer.alloc(4096 - PNG.length)]);
    expect((await upload(t, shop.ownerToken, exact, 'image/png')).statusCode).toBe(201);
  });

  it('lets catalog writers and catalog:write tokens upload; refuses everyone else', async () => {
    expect((await upload(t, await employeeToken(t.app, shop, 'catalog_editor'), GIF, 'image/gif')).statusCode).toBe(
      201,
    );
    expect((await upload(t, await apiToken(t.app, shop, ['catalog:write']), GIF, 'image/gif')).statusCode).toBe(201);
    const none = await t.app.inject({
      method: 'POST',
      url: '/api/admin/uploads',
      headers: { 'content-type': 'image/gif' },
      payload: GIF,
    });
    expect(none.statusCode).toBe(401);
    expect(json(await upload(t, 'sess_unknown', GIF, 'image/gif')).code).toBe('invalid_credential');
    expect(json(await upload(t, await employeeToken(t.app, shop, 'viewer'), GIF, 'image/gif')).code).toBe(
      'role_denied',
    );
    expect(json(await upload(t, await apiToken(t.app, shop, ['catalog:read']), GIF, 'image/gif')).code).toBe(
      'scope_denied',
    );
    expect(json(await upload(t, shop.publishableKey, GIF, 'image/gif', { origin: 'https://store.example' })).code).toBe(
      'credential_denied',
    );
  });

  it('honours Idempotency-Key on the bytes', async () => {
    const headers = { 'idempotency-key': 'upload-1' };
    const first = await upload(t, shop.ownerToken, WEBP, 'image/webp', headers);
    const again = await upload(t, shop.ownerToken, WEBP, 'image/webp', headers);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(json(again)).toEqual(json(first));
    const other = await upload(t, shop.ownerToken, GIF, 'image/gif', headers);
    expect(json(other).code).toBe('idempotency_key_reused');
  });

  it('answers 404 for a file that is not there and 400 for a path that is no media key', async () => {
    const missing = await t.app.inject({ method: 'GET', url: `/media/${shop.shopId}/${'a'.repeat(64)}.png` });
    expectProblem({ ...missing, data: json(missing) } as never, 404, 'not_found');
    for (const url of [
      `/media/${shop.shopId}/${'a'.repeat(64)}.svg`,
      `/media/${shop.shopId}/..%2F..%2Fetc%2Fpasswd`,
      `/media/..%2F/${'a'.repeat(64)}.png`,
      `/media/${shop.shopId}/${'A'.repeat(64)}.png`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(json(res).code).toBe('validation_failed');
    }
  });
});

describe('local disk storage', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'uploads-'));
    t = await startApp({ DATA_DIR: dir });
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the file under DATA_DIR/uploads/<shop>/ and serves it from there', async () => {
    const shop = await createShop(t.app);
    const res = await upload(t, shop.ownerToken, JPEG, 'image/jpeg');
    expect(res.statusCode).toBe(201);
    const onDisk = await readFile(join(dir, 'uploads', shop.shopId, `${sha256Hex(JPEG)}.jpg`));
    expect(onDisk.equals(JPEG)).toBe(true);
    const served = await t.app.inject({ method: 'GET', url: pathOf(json(res).url) });
    expect(served.rawPayload.equals(JPEG)).toBe(true);
    expect(served.headers['content-type']).toBe('image/jpeg');
  });
});

describe('S3-compatible storage', () => {
  let stub: S3Stub;
  let t: TestApp;
  beforeAll(async () => {
    stub = await startS3Stub();
    t = await startApp({
      STORAGE: 's3',
      S3_ENDPOINT: stub.url,
      S3_BUCKET: stub.bucket,
      S3_REGION: stub.region,
      S3_ACCESS_KEY_ID: stub.accessKeyId,
      S3_SECRET_ACCESS_KEY: stub.secretAccessKey,
    });
  });
  afterAll(async () => {
    await t.close();
    await stub.close();
  });

  it('puts the upload into the bucket with a valid signature and serves it back from there', async () => {
    const shop = await createShop(t.app);
    const res = await upload(t, shop.ownerToken, PNG, 'image/png');
    expect(res.statusCode).toBe(201);
    const key = `${shop.shopId}/${sha256Hex(PNG)}.png`;
    expect(stub.objects.get(key)).toEqual({ body: PNG, contentType: 'image/png' });
    const put = stub.requests.at(-1);
    expect(put).toMatchObject({ method: 'PUT', path: `/${stub.bucket}/${key}` });
    expect(put?.refused).toBeUndefined();
    expect(put?.authorization).toContain('SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date');
    const served = await t.app.inject({ method: 'GET', url: `/media/${key}` });
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(served.headers['content-type']).toBe('image/png');
    expect(stub.requests.at(-1)).toMatchObject({ method: 'GET', path: `/${stub.bucket}/${key}` });
    expect(stub.requests.every((r) => r.refused === undefined)).toBe(true);
    // a key the bucket does not hold is 404
    const missing = await t.app.inject({ method: 'GET', url: `/media/${shop.shopId}/${'b'.repeat(64)}.png` });
    expect(missing.statusCode).toBe(404);
  });

  it('is refused by the store with a wrong secret (the stub checks the signature)', async () => {
    const wrong = new S3Storage({
      endpoint: stub.url,
      bucket: stub.bucket,
      region: stub.region,
      accessKeyId: stub.accessKeyId,
      secretAccessKey: 'not-the-secret',
    });
    await expect(wrong.put('x/y.png', PNG, 'image/png')).rejects.toThrow(/403/);
    expect(stub.requests.at(-1)?.refused).toBe('signature mismatch');
  });
});
