/**
 * A local stand-in for an S3-compatible object store (path-style `PUT`/`GET /{bucket}/{key}`),
 * for tests. Every request must carry a Signature V4 Authorization header for the stub's key:
 * the credential scope, the signed headers (host, x-amz-content-sha256, x-amz-date at least),
 * the payload hash (the SHA-256 of the body it received) and the signature recomputed from the
 * request as received; otherwise 403 SignatureDoesNotMatch. Objects are kept in memory.
 */
import { createServer, type Server } from 'node:http';
import { sha256Hex, signV4 } from '../../src/adapters/storage/sigv4.js';

export interface S3Stub {
  url: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  objects: Map<string, { body: Buffer; contentType: string }>;
  requests: { method: string; path: string; authorization: string; refused?: string }[];
  close(): Promise<void>;
}

const AUTH =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/;

export async function startS3Stub(): Promise<S3Stub> {
  const stub: S3Stub = {
    url: '',
    bucket: 'media-bucket',
    region: 'eu-central-1',
    accessKeyId: 'AKIASTUBKEY',
    secretAccessKey: 'stub/secret+key',
    objects: new Map(),
    requests: [],
    close: async () => {},
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const authorization = String(req.headers.authorization ?? '');
      const entry: S3Stub['requests'][number] = { method: req.method ?? '', path: req.url ?? '', authorization };
      stub.requests.push(entry);
      const refuse = (why: string) => {
        entry.refused = why;
        res.writeHead(403, { 'content-type': 'application/xml' });
        res.end(`<Error><Code>SignatureDoesNotMatch</Code><Message>${why}</Message></Error>`);
      };
      const m = AUTH.exec(authorization);
      if (!m) return refuse('malformed Authorization');
      const [, keyId, day, region, signedHeaders] = m as unknown as string[];
      const date = String(req.headers['x-amz-date'] ?? '');
      if (keyId !== stub.accessKeyId) return refuse('unknown access key');
      if (region !== stub.region || !date.startsWith(day as string)) return refuse('wrong credential scope');
      const names = (signedHeaders as string).split(';');
      for (const required of ['host', 'x-amz-content-sha256', 'x-amz-date']) {
        if (!names.includes(required)) return refuse(`${required} not signed`);
      }
      if (req.headers['x-amz-content-sha256'] !== sha256Hex(body)) return refuse('payload hash mismatch');
      const now = new Date(
        `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${date.slice(9, 11)}:${date.slice(11, 13)}:${date.slice(13, 15)}Z`,
      );
      const headers = Object.fromEntries(
        names
          .filter((n) => !['host', 'x-amz-content-sha256', 'x-amz-date'].includes(n))
          .map((n) => [n, String(req.headers[n])]),
      );
      const expected = signV4(
        {
          method: req.method ?? '',
          url: new URL(`http://${req.headers.host}${req.url}`),
          headers,
          payloadHash: String(req.headers['x-amz-content-sha256']),
          now,
        },
        { accessKeyId: stub.accessKeyId, secretAccessKey: stub.secretAccessKey, region: stub.region },
      );
      if (expected.authorization !== authorization) return refuse('signature mismatch');
      const prefix = `/${stub.bucket}/`;
      const path = decodeURIComponent((req.url ?? '').split('?')[0] ?? '');
      if (!path.startsWith(prefix)) {
        res.writeHead(404).end('<Error><Code>NoSuchBucket</Code></Error>');
        return;
      }
      const key = path.slice(prefix.length);
      if (req.method === 'PUT') {
        stub.objects.set(key, { body, contentType: String(req.headers['content-type'] ?? '') });
        res.writeHead(200, { etag: `"${sha256Hex(body).slice(0, 32)}"` }).end();
        return;
      }
      const found = stub.objects.get(key);
      if (req.method === 'GET' && found) {
        res.writeHead(200, { 'content-type': found.contentType, 'content-length': found.body.length }).end(found.body);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchKey</Code></Error>');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const addr = server.address();
  stub.url = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  stub.close = () => new Promise<void>((r) => server.close(() => r()));
  return stub;
}
