/**
 * Typed configuration read from the environment (README.md). Every value is checked once at
 * start-up; a bad value stops the process with a message naming the variable.
 */

import { isIP } from 'node:net';
import { availableParallelism } from 'node:os';

export type Role = 'all' | 'shop' | 'checkout' | 'worker';
export type ClockMode = 'real' | 'simulated';
export type PaymentProviderName = 'test' | 'stripe';

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  databaseUrl: string | null;
  /** Connections of this process's PostgreSQL pool (DATABASE_POOL_SIZE). */
  databasePoolSize: number;
  dataDir: string;
  role: Role;
  platformToken: string | null;
  masterKey: Buffer | null;
  clock: ClockMode;
  demo: boolean;
  /** Serve the built-in storefront at /shop/ and its bootstrap read (STOREFRONT, default on). */
  storefront: boolean;
  paymentProvider: PaymentProviderName;
  stripeSecretKey: string | null;
  stripeWebhookSecret: string | null;
  /** Signing secret of the Stripe endpoint for subscription events (/api/webhooks/stripe/abos); default STRIPE_WEBHOOK_SECRET. */
  stripeAboWebhookSecret: string | null;
  stripeApiBase: string | null;
  /** Stripe refund calls: milliseconds one attempt may take, and the SDK's retries (STRIPE_REFUND_TIMEOUT_MS, STRIPE_REFUND_MAX_NETWORK_RETRIES). */
  stripeRefundCalls: { timeoutMs: number; maxNetworkRetries: number };
  smtpUrl: string | null;
  /** Sender of e-mails (MAIL_FROM); default no-reply@<PUBLIC_URL host>. */
  mailFrom: string;
  lexwareApiUrl: string;
  /** Base of the EU VIES REST service (VIES_API_URL); `POST {base}/check-vat-number`. */
  viesApiUrl: string;
  adminOrigins: string[];
  webhookAllowPrivate: boolean;
  /** Days finished webhook deliveries and their events are kept (WEBHOOK_RETENTION_DAYS). */
  webhookRetentionDays: number;
  /** Minutes a hosted checkout session holds its stock (CHECKOUT_RESERVATION_MINUTES). */
  checkoutReservationMinutes: number;
  /** Checkout and abo sessions one publishable key may create per minute from one client address (CHECKOUT_SESSION_RATE_LIMIT). */
  checkoutSessionRateLimit: number;
  logLevel: string;
  production: boolean;
  /** Run the background worker inside this process (ROLE=all or worker). */
  runWorker: boolean;
  /** Poll interval of the job worker in milliseconds. */
  workerPollMs: number;
  /** Bearer token of GET /metrics on the app's port (METRICS_TOKEN); null: not served there. */
  metricsToken: string | null;
  /** A separate port serving only /metrics (METRICS_PORT); then the app's port never serves it. */
  metricsPort: number | null;
  /** Fastify `trustProxy` (TRUST_PROXY): false, true, a hop count, or addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  /** Login throttling (docs/ARCHITECTURE.md): failed attempts only, per (account, IP) and per IP. */
  loginThrottle: {
    accountMaxFailures: number;
    accountWindowSeconds: number;
    ipMaxFailures: number;
    ipWindowSeconds: number;
  };
  /** Calls per minute and client address of register, password reset, verify and accept. */
  accountIpLimitPerMinute: number;
  /** Password hashes (Argon2id, 19 MiB each) running at once in this process, and the longest wait. */
  passwordHashConcurrency: number;
  passwordHashMaxWaitMs: number;
  /**
   * Uploaded images (docs/catalog.md, "Image uploads"): `local` under DATA_DIR/uploads (in memory
   * when DATA_DIR=memory) or an S3-compatible bucket (STORAGE=s3); the largest upload in bytes.
   */
  storage: {
    driver: 'local' | 's3';
    /** null: in memory (DATA_DIR=memory). */
    uploadsDir: string | null;
    s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string } | null;
    uploadMaxBytes: number;
  };
  /** Sliding idle timeout and absolute lifetime of sessions, in seconds. */
  sessions: {
    staffIdleSeconds: number;
    staffMaxAgeSeconds: number;
    customerIdleSeconds: number;
    customerMaxAgeSeconds: number;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/**
 * Default PostgreSQL pool: twice this host's cores, at least 4. More connections than the
 * database can run at once only queue inside PostgreSQL: on the 2-core benchmark machine a pool
 * of 20 gave the admin list a p99 about a third higher than 4 at the same throughput.
 */
export const defaultPoolSize = (): number => Math.max(4, 2 * availableParallelism());

function oneOf<T extends string>(env: Env, name: string, values: readonly T[], fallback: T): T {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!(values as readonly string[]).includes(raw)) {
    throw new ConfigError(`${name} must be one of ${values.join(', ')} (got "${raw}")`);
  }
  return raw as T;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer (got "${raw}")`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max} (got ${n})`);
  return n;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(`${name} must be 1 or 0 (got "${raw}")`);
}

function optional(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw === '' ? null : raw;
}

function url(env: Env, name: string, fallback: string | null, protocols: string[]): string | null {
  const raw = optional(env, name) ?? fallback;
  if (raw === null) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (got "${raw}")`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')} (got "${parsed.protocol}")`);
  }
  return raw;
}

/** TRUST_PROXY: `false` (default), `true`, a hop count, or a comma list of addresses/CIDRs. */
export function trustProxy(env: Env): boolean | number | string[] {
  const raw = (optional(env, 'TRUST_PROXY') ?? 'false').trim();
  if (raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops > 100) throw new ConfigError(`TRUST_PROXY hop count must be at most 100 (got ${hops})`);
    return hops === 0 ? false : hops;
  }
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of list) {
    const [addr, bits, extra] = entry.split('/');
    const family = isIP(addr ?? '');
    const bitsOk =
      bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32) && extra === undefined);
    if (!family || !bitsOk) {
      throw new ConfigError(`TRUST_PROXY must be true, false, a hop count or addresses/CIDRs (got "${entry}")`);
    }
  }
  if (list.length === 0) throw new ConfigError('TRUST_PROXY is empty');
  return list;
}

/** Normalises an origin the way browsers send it: lowercase scheme and host, no default port. */
export function normalizeOrigin(raw: string): string | null {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
    return u.origin.toLowerCase();
  } catch {
    return null;
  }
}

function masterKey(env: Env, production: boolean): Buffer | null {
  const raw = optional(env, 'MASTER_KEY');
  if (raw === null) {
    if (production) throw new ConfigError('MASTER_KEY is required when NODE_ENV=production');
    return null;
  }
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) {
    throw new ConfigError('MASTER_KEY must be 32 bytes, as 64 hex characters or base64');
  }
  return key;
}

/** STORAGE, S3_*, UPLOAD_MAX_BYTES (README, configuration). */
function storage(env: Env, dataDir: string): Config['storage'] {
  const driver = oneOf(env, 'STORAGE', ['local', 's3'] as const, 'local');
  const uploadMaxBytes = integer(env, 'UPLOAD_MAX_BYTES', 10 * 1024 * 1024, 1024, 100 * 1024 * 1024);
  const uploadsDir = dataDir === 'memory' ? null : `${dataDir.replace(/\/+$/, '')}/uploads`;
  if (driver === 'local') return { driver, uploadsDir, s3: null, uploadMaxBytes };
  const missing = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter(
    (name) => optional(env, name) === null,
  );
  if (missing.length > 0) throw new ConfigError(`STORAGE=s3 needs ${missing.join(', ')}`);
  return {
    driver,
    uploadsDir,
    s3: {
      endpoint: url(env, 'S3_ENDPOINT', null, ['http:', 'https:']) as string,
      bucket: optional(env, 'S3_BUCKET') as string,
      region: optional(env, 'S3_REGION') ?? 'us-east-1',
      accessKeyId: optional(env, 'S3_ACCESS_KEY_ID') as string,
      secretAccessKey: optional(env, 'S3_SECRET_ACCESS_KEY') as string,
    },
    uploadMaxBytes,
  };
}

export function loadConfig(env: Env = process.env): Config {
  const production = env.NODE_ENV === 'production';
  const port = integer(env, 'PORT', 3000, 0, 65535);
  const host = optional(env, 'HOST') ?? '0.0.0.0';
  const publicUrl = (url(env, 'PUBLIC_URL', `http://localhost:${port}`, ['http:', 'https:']) as string).replace(
    /\/+$/,
    '',
  );
  const role = oneOf(env, 'ROLE', ['all', 'shop', 'checkout', 'worker'] as const, 'all');
  const paymentProvider = oneOf(env, 'PAYMENT_PROVIDER', ['test', 'stripe'] as const, 'test');
  const stripeSecretKey = optional(env, 'STRIPE_SECRET_KEY');
  if (paymentProvider === 'stripe' && !stripeSecretKey) {
    throw new ConfigError('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY');
  }
  const metricsToken = optional(env, 'METRICS_TOKEN');
  if (metricsToken !== null && metricsToken.length < 16) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  }
  const metricsPort = optional(env, 'METRICS_PORT') === null ? null : integer(env, 'METRICS_PORT', 0, 1, 65535);
  if (metricsPort !== null && metricsPort === port) throw new ConfigError('METRICS_PORT must differ from PORT');
  // a test payment must never pass for real money (docs/payments.md)
  if (production && paymentProvider === 'test' && !flag(env, 'ALLOW_TEST_PAYMENTS', false)) {
    throw new ConfigError(
      'NODE_ENV=production with PAYMENT_PROVIDER=test would accept test payments: set PAYMENT_PROVIDER=stripe, or ALLOW_TEST_PAYMENTS=1 to run the test provider on purpose',
    );
  }
  const adminOrigins = (optional(env, 'ADMIN_ORIGINS') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((o) => {
      const n = normalizeOrigin(o);
      if (!n) throw new ConfigError(`ADMIN_ORIGINS holds an invalid origin: "${o}"`);
      return n;
    });
  const dataDir = optional(env, 'DATA_DIR') ?? './data';
  return {
    port,
    host,
    publicUrl,
    databaseUrl: url(env, 'DATABASE_URL', null, ['postgres:', 'postgresql:']),
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', defaultPoolSize(), 1, 1_000),
    dataDir,
    storage: storage(env, dataDir),
    role,
    platformToken: optional(env, 'PLATFORM_TOKEN'),
    masterKey: masterKey(env, production),
    clock: oneOf(env, 'CLOCK', ['real', 'simulated'] as const, 'real'),
    demo: flag(env, 'DEMO', !production),
    storefront: flag(env, 'STOREFRONT', true),
    paymentProvider,
    stripeSecretKey,
    stripeWebhookSecret: optional(env, 'STRIPE_WEBHOOK_SECRET'),
    stripeAboWebhookSecret: optional(env, 'STRIPE_ABO_WEBHOOK_SECRET') ?? optional(env, 'STRIPE_WEBHOOK_SECRET'),
    stripeApiBase: url(env, 'STRIPE_API_BASE', null, ['http:', 'https:']),
    stripeRefundCalls: {
      timeoutMs: integer(env, 'STRIPE_REFUND_TIMEOUT_MS', 20_000, 100, 120_000),
      maxNetworkRetries: integer(env, 'STRIPE_REFUND_MAX_NETWORK_RETRIES', 2, 0, 5),
    },
    smtpUrl: url(env, 'SMTP_URL', null, ['smtp:', 'smtps:']),
    mailFrom: optional(env, 'MAIL_FROM') ?? `no-reply@${new URL(publicUrl).hostname}`,
    lexwareApiUrl: url(env, 'LEXWARE_API_URL', 'https://api.lexware.io', ['http:', 'https:']) as string,
    viesApiUrl: url(env, 'VIES_API_URL', 'https://ec.europa.eu/taxation_customs/vies/rest-api', [
      'http:',
      'https:',
    ]) as string,
    adminOrigins,
    webhookAllowPrivate: flag(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    webhookRetentionDays: integer(env, 'WEBHOOK_RETENTION_DAYS', 30, 1, 3650),
    checkoutReservationMinutes: integer(env, 'CHECKOUT_RESERVATION_MINUTES', 30, 1, 10_080),
    checkoutSessionRateLimit: integer(env, 'CHECKOUT_SESSION_RATE_LIMIT', 120, 1, 1_000_000),
    logLevel: oneOf(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
      production ? 'info' : 'info',
    ),
    production,
    runWorker: role === 'all' || role === 'worker',
    workerPollMs: integer(env, 'WORKER_POLL_MS', 1000, 10, 60_000),
    metricsToken,
    metricsPort,
    trustProxy: trustProxy(env),
    loginThrottle: {
      accountMaxFailures: integer(env, 'LOGIN_ACCOUNT_MAX_FAILURES', 5, 1, 10_000),
      accountWindowSeconds: integer(env, 'LOGIN_ACCOUNT_WINDOW_SECONDS', 900, 1, 86_400),
      ipMaxFailures: integer(env, 'LOGIN_IP_MAX_FAILURES', 100, 1, 1_000_000),
      ipWindowSeconds: integer(env, 'LOGIN_IP_WINDOW_SECONDS', 900, 1, 86_400),
    },
    accountIpLimitPerMinute: integer(env, 'ACCOUNT_IP_LIMIT_PER_MINUTE', 120, 60, 1_000_000),
    passwordHashConcurrency: integer(env, 'PASSWORD_HASH_CONCURRENCY', Math.max(2, availableParallelism()), 1, 256),
    passwordHashMaxWaitMs: integer(env, 'PASSWORD_HASH_MAX_WAIT_MS', 5000, 0, 60_000),
    sessions: {
      staffIdleSeconds: 60 * integer(env, 'SESSION_IDLE_MINUTES', 720, 1, 525_600),
      staffMaxAgeSeconds: 3600 * integer(env, 'SESSION_MAX_AGE_HOURS', 168, 1, 87_600),
      customerIdleSeconds: 60 * integer(env, 'CUSTOMER_SESSION_IDLE_MINUTES', 43_200, 1, 525_600),
      customerMaxAgeSeconds: 3600 * integer(env, 'CUSTOMER_SESSION_MAX_AGE_HOURS', 2160, 1, 87_600),
    },
  };
}
