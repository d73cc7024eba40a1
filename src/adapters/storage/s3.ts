/**
 * S3-compatible object storage over fetch with Signature V4 (AWS S3, MinIO, Cloudflare R2,
 * Hetzner, …). Path-style addressing: `{S3_ENDPOINT}/{S3_BUCKET}/{key}`.
 */
import type { ObjectStorage, StoredObject } from './port.js';
import { type SigV4Credentials, sha256Hex, signV4 } from './sigv4.js';

export interface S3Options extends SigV4Credentials {
  endpoint: string;
  bucket: string;
  /** Per request; default 30 s. */
  timeoutMs?: number;
}

export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  constructor(private readonly opts: S3Options) {}

  private urlOf(key: string): URL {
    const base = this.opts.endpoint.replace(/\/+$/, '');
    const path = [this.opts.bucket, ...key.split('/')].map(encodeURIComponent).join('/');
    return new URL(`${base}/${path}`);
  }

  private async send(method: 'GET' | 'PUT', key: string, body?: Buffer, headers: Record<string, string> = {}) {
    const url = this.urlOf(key);
    const signed = signV4({ method, url, headers, payloadHash: sha256Hex(body ?? ''), now: new Date() }, this.opts);
    return fetch(url, {
      method,
      headers: { ...headers, ...signed },
      ...(body ? { body } : {}),
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 30_000),
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const res = await this.send('PUT', key, body, { 'content-type': contentType });
    if (!res.ok) throw new Error(`S3 PUT ${key} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    await res.arrayBuffer();
  }

  async get(key: string): Promise<StoredObject | null> {
    const res = await this.send('GET', key);
    if (res.status === 404) {
      await res.arrayBuffer();
      return null;
    }
    if (!res.ok) throw new Error(`S3 GET ${key} answered ${res.status}: ${(await res.text()).slice(0, 300)}`);
    return {
      body: Buffer.from(await res.arrayBuffer()),
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
    };
  }
}
