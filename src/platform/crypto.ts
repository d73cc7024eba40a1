/** Secrets, hashes and encryption at rest (docs/ARCHITECTURE.md). */

import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { hash as argonHash, verify as argonVerify } from '@node-rs/argon2';
import { AppError } from './errors.js';

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

/** Constant-time comparison of two strings (compares their hashes, so lengths may differ). */
export function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

// OWASP's Argon2id baseline: 19 MiB, 2 iterations, 1 lane. Algorithm 2 = Argon2id.
const ARGON = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 } as const;

/**
 * Bounded password hashing: at most `concurrency` Argon2id runs at once in this process (each
 * takes 19 MiB and a core for tens of milliseconds); a caller waits at most `maxWaitMs` for a
 * slot, then gets 503 with Retry-After. This, not a low per-address limit, keeps hashing from
 * exhausting memory or CPU.
 */
const hashing = { concurrency: 2, maxWaitMs: 5000, running: 0, waiting: [] as Array<() => void> };

export function configurePasswordHashing(opts: { concurrency: number; maxWaitMs: number }): void {
  hashing.concurrency = opts.concurrency;
  hashing.maxWaitMs = opts.maxWaitMs;
}

/** Slots in use and callers waiting (for tests and metrics). */
export const passwordHashLoad = () => ({ running: hashing.running, waiting: hashing.waiting.length });

function busy(): AppError {
  const retry = String(Math.max(1, Math.ceil(hashing.maxWaitMs / 1000)));
  return new AppError('busy', 'Too many sign-ins at once; retry shortly', undefined, { 'retry-after': retry });
}

async function withHashSlot<T>(work: () => Promise<T>): Promise<T> {
  if (hashing.running >= hashing.concurrency) {
    await new Promise<void>((resolve, reject) => {
      const wake = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const i = hashing.waiting.indexOf(wake);
        if (i >= 0) hashing.waiting.splice(i, 1);
        reject(busy());
      }, hashing.maxWaitMs);
      hashing.waiting.push(wake);
    });
  } else {
    hashing.running++;
  }
  try {
    return await work();
  } finally {
    // hand the slot straight to the next waiter, else free it
    const next = hashing.waiting.shift();
    if (next) next();
    else hashing.running--;
  }
}

export const hashPassword = (password: string): Promise<string> => withHashSlot(() => argonHash(password, ARGON));

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  return withHashSlot(async () => {
    try {
      return await argonVerify(hash, password);
    } catch {
      return false;
    }
  });
}

/** A hash to verify against when the account does not exist, so both paths take the same time. */
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encrypt(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

export function decrypt(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown ciphertext format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * The key encrypting `purpose`'s data at rest: MASTER_KEY, or without it (development only;
 * production refuses to start without it) a fixed key derived from `purpose`.
 */
export function atRestKey(masterKey: Buffer | null, purpose: string): Buffer {
  return masterKey ?? createHash('sha256').update(`commerce-service development key for ${purpose}`).digest();
}
