/**
 * AWS Signature Version 4 for S3-compatible object stores (header-based, signed payload hash):
 * the canonical request, the string to sign and the derived signing key, as AWS documents them
 * ("Authenticating Requests: Using the Authorization Header"). No SDK.
 */
import { createHash, createHmac } from 'node:crypto';

export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service?: string;
}

export const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding of one path segment, as S3 canonicalises it. */
const encodeSegment = (s: string) =>
  encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** `20130524T000000Z` */
export const amzDate = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/**
 * The headers that sign a request: `x-amz-date`, `x-amz-content-sha256` and `authorization`.
 * `headers` are the other headers to sign (lowercase names); `host` is taken from the URL.
 */
export function signV4(
  req: { method: string; url: URL; headers?: Record<string, string>; payloadHash: string; now: Date },
  creds: SigV4Credentials,
): Record<string, string> {
  const date = amzDate(req.now);
  const day = date.slice(0, 8);
  const service = creds.service ?? 's3';
  const all: Record<string, string> = {
    ...Object.fromEntries(Object.entries(req.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v.trim()])),
    host: req.url.host,
    'x-amz-content-sha256': req.payloadHash,
    'x-amz-date': date,
  };
  const names = Object.keys(all).sort();
  const signedHeaders = names.join(';');
  const canonicalQuery = [...req.url.searchParams.entries()]
    .map(([k, v]) => `${encodeSegment(k)}=${encodeSegment(v)}`)
    .sort()
    .join('&');
  const canonicalUri = req.url.pathname
    .split('/')
    .map((s) => encodeSegment(decodeURIComponent(s)))
    .join('/');
  const canonical = [
    req.method.toUpperCase(),
    canonicalUri,
    canonicalQuery,
    ...names.map((n) => `${n}:${all[n]}`),
    '',
    signedHeaders,
    req.payloadHash,
  ].join('\n');
  const scope = `${day}/${creds.region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, sha256Hex(canonical)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${creds.secretAccessKey}`, day), creds.region), service), 'aws4_request');
  const signature = createHmac('sha256', key).update(toSign).digest('hex');
  return {
    'x-amz-date': date,
    'x-amz-content-sha256': req.payloadHash,
    authorization: `AWS4-HMAC-SHA256 Credential=${creds.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
  };
}
