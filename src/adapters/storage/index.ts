/**
 * Image uploads and the files they become (docs/catalog.md, "Image uploads"): `POST
 * /api/admin/uploads` takes the raw bytes of one image, tells its type by content, stores it under
 * a content-hashed key of the shop through the storage port, and answers the URL to put in a
 * product's `images[].url`. `GET /media/<shop>/<hash>.<ext>` serves it, immutable, as an image
 * that can never run as a page.
 */
import { createHash } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { publicRoute, writeCatalog } from '../../platform/auth/presets.js';
import { AppError, invalidField, notFound } from '../../platform/errors.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import { validatorCompiler } from '../../platform/http/validation.js';
import type { AppDeps, Module } from '../../platform/module.js';
import { IMAGE_TYPES, type ImageMime, mimeOfExtension, sniffImage } from './image-type.js';
import { LocalDiskStorage, MemoryStorage } from './local.js';
import type { ObjectStorage } from './port.js';
import { S3Storage } from './s3.js';

export type { ObjectStorage, StoredObject } from './port.js';

/** The storage the configuration names: S3 (STORAGE=s3), else DATA_DIR/uploads, or memory. */
export function createStorage(config: Config): ObjectStorage {
  const { storage } = config;
  if (storage.driver === 's3' && storage.s3) return new S3Storage(storage.s3);
  return storage.uploadsDir === null ? new MemoryStorage() : new LocalDiskStorage(storage.uploadsDir);
}

const ACCEPTED = Object.keys(IMAGE_TYPES) as ImageMime[];
const MEDIA_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  // an image, never a document: no script, style or frame even when opened directly
  'content-security-policy': "default-src 'none'; sandbox",
  'content-disposition': 'inline',
};

const Upload = Type.Object({
  url: Type.String({ description: "Absolute URL of the file (PUBLIC_URL/media/…): use it as a product image's url" }),
  key: Type.String({ description: '<shop id>/<sha256 of the bytes>.<extension>' }),
  content_type: Type.Unsafe<ImageMime>({ type: 'string', enum: ACCEPTED, description: 'Told by the content' }),
  size: Type.Integer({ description: 'Bytes' }),
});

const MediaParams = Type.Object({
  shop: Type.String({ pattern: '^shop_[0-9a-z]{1,40}$', maxLength: 64 }),
  file: Type.String({
    pattern: `^[0-9a-f]{64}\\.(${Object.values(IMAGE_TYPES).join('|')})$`,
    maxLength: 80,
    description: 'sha256 of the bytes, and the extension of their type',
  }),
});

const tooLarge = (max: number) => new AppError('body_too_large', `The image exceeds ${max} bytes (UPLOAD_MAX_BYTES)`);

/** Reads the raw body up to `max` bytes; beyond that 413, without reading the rest into memory. */
function readLimited(request: FastifyRequest, payload: NodeJS.ReadableStream, max: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > max) {
      reject(tooLarge(max));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (err: Error | null, body?: Buffer) => {
      if (settled) return;
      settled = true;
      if (err) reject(err);
      else resolve(body as Buffer);
    };
    payload.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > max) {
        chunks.length = 0;
        finish(tooLarge(max));
        return;
      }
      chunks.push(chunk);
    });
    payload.on('end', () => finish(null, Buffer.concat(chunks)));
    payload.on('error', (err) => finish(err));
  });
}

function mediaRoutes(app: TypedApp, deps: AppDeps): void {
  const { config } = deps;
  const storage = createStorage(config);
  const max = config.storage.uploadMaxBytes;

  app.register(async (scope) => {
    // every body of this scope is raw bytes, whatever its Content-Type (checked in the handler)
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (request: FastifyRequest, payload: NodeJS.ReadableStream) =>
      readLimited(request, payload, max),
    );
    scope.post(
      '/api/admin/uploads',
      {
        config: writeCatalog,
        // the body is raw bytes, checked in the handler; its schema only documents it
        validatorCompiler: (req) => (req.httpPart === 'body' ? () => true : validatorCompiler(req)),
        schema: {
          consumes: ACCEPTED,
          body: Type.Unsafe<Buffer>({ type: 'string', format: 'binary', description: 'The image bytes' }),
          tags: ['catalog'],
          summary:
            'Upload one image (raw bytes, Content-Type image/png, image/jpeg, image/gif, image/webp or image/avif; ' +
            'at most UPLOAD_MAX_BYTES, default 10 MB). The type is told by the content; the answer is the URL to use ' +
            "in a product's images",
          response: { 201: Upload },
        },
      },
      async (request, reply) => {
        const declared = String(request.headers['content-type'] ?? '')
          .split(';')[0]
          ?.trim()
          .toLowerCase() as ImageMime;
        if (!ACCEPTED.includes(declared)) {
          throw new AppError('unsupported_media_type', `Send the image bytes with Content-Type ${ACCEPTED.join(', ')}`);
        }
        const body = request.body;
        if (!Buffer.isBuffer(body) || body.length === 0) throw invalidField('/body', 'is empty: send the image bytes');
        const actual = sniffImage(body);
        if (!actual) {
          throw new AppError('unsupported_image', 'The bytes are not a PNG, JPEG, GIF, WebP or AVIF image');
        }
        if (actual !== declared) {
          throw new AppError(
            'image_type_mismatch',
            `The content is ${actual}, not ${declared} as the Content-Type says`,
          );
        }
        const hash = createHash('sha256').update(body).digest('hex');
        const key = `${request.ctx.shopId}/${hash}.${IMAGE_TYPES[actual]}`;
        await storage.put(key, body, actual);
        return reply.code(201).send({
          url: `${config.publicUrl}/media/${key}`,
          key,
          content_type: actual,
          size: body.length,
        });
      },
    );
  });

  app.get(
    '/media/:shop/:file',
    {
      config: publicRoute,
      schema: {
        tags: ['catalog'],
        summary: 'An uploaded image: immutable (content-hashed), served with its type and a CSP that runs nothing',
        params: MediaParams,
        response: {
          200: {
            description: 'The image',
            content: Object.fromEntries(ACCEPTED.map((m) => [m, { schema: { type: 'string', format: 'binary' } }])),
          },
          304: { description: 'Not modified (If-None-Match)', type: 'null' },
        },
      },
    },
    async (request, reply) => {
      const { shop, file } = request.params;
      const [hash, ext] = file.split('.') as [string, string];
      const etag = `"${hash}"`;
      // the type comes from the key, which the upload named after the content
      const type = mimeOfExtension(ext) as ImageMime;
      const found = await storage.get(`${shop}/${file}`);
      if (!found) throw notFound('File');
      if (request.headers['if-none-match'] === etag)
        return reply
          .code(304)
          .headers({ ...MEDIA_HEADERS, etag })
          .send();
      return reply
        .type(type)
        .headers({ ...MEDIA_HEADERS, etag })
        .send(found.body);
    },
  );
}

export const mediaModule: Module = { name: 'media', group: 'shop', routes: mediaRoutes };
