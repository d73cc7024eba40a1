/** Who may call the service: employees, sessions, API tokens, publishable keys, customers. */
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { shopRef } from '../shops/shops.tables.js';

export const users = pgTable(
  'users',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    email: text('email').notNull(),
    name: text('name'),
    passwordHash: text('password_hash').notNull(),
    /** owner | admin | catalog_editor | viewer */
    role: text('role').notNull(),
    /** The channels a restricted employee may work in (empty and restricted = none). */
    channelIds: text('channel_ids').array().notNull().default(sql`'{}'::text[]`),
    /** Whether `channel_ids` restricts the employee; false = every channel. */
    channelRestricted: boolean('channel_restricted').notNull().default(false),
    /** Set by the owner (POST /api/admin/employees/:id/suspend): sign-in refused, sessions revoked; null = may sign in. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'users_pkey', columns: [t.shopId, t.id] }),
    // Login names no shop: an employee e-mail is unique across the service through the directory
    // (docs/decisions.md, "Keys for Citus"); this index holds it per shop.
    uniqueIndex('users_email_uq').on(t.shopId, sql`lower(${t.email})`),
    index('users_shop_idx').on(t.shopId, t.createdAt),
  ],
);

export type SessionKind = 'admin' | 'customer' | 'vendor' | 'affiliate';

/** Sessions of every kind: admin (users), customer, vendor, affiliate. */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    /** admin | customer | vendor | affiliate */
    kind: text('kind').$type<SessionKind>().notNull(),
    subjectId: text('subject_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'sessions_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('sessions_token_uq').on(t.shopId, t.tokenHash),
    index('sessions_subject_idx').on(t.shopId, t.kind, t.subjectId),
  ],
);

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    tokenHash: text('token_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    createdBy: text('created_by'),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'api_tokens_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('api_tokens_hash_uq').on(t.shopId, t.tokenHash),
    index('api_tokens_shop_idx').on(t.shopId, t.createdAt),
  ],
);

export const publishableKeys = pgTable(
  'publishable_keys',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    name: text('name').notNull(),
    /** Publishable keys are not secret; the full key is stored and shown. */
    key: text('key').notNull(),
    allowedOrigins: text('allowed_origins').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ name: 'publishable_keys_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('publishable_keys_key_uq').on(t.shopId, t.key),
    index('publishable_keys_shop_idx').on(t.shopId, t.createdAt),
  ],
);

export const customers = pgTable(
  'customers',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    email: text('email').notNull(),
    name: text('name'),
    passwordHash: text('password_hash'),
    /** Proven by a verification or password-reset link; guest purchases of the e-mail show only then. */
    emailVerified: boolean('email_verified').notNull().default(false),
    /** Set by an admin (POST /api/admin/customers/:id/suspend): sign-in refused, sessions revoked; null = may sign in. */
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'customers_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('customers_email_uq').on(t.shopId, sql`lower(${t.email})`),
  ],
);

/**
 * One-use e-mailed tokens of customers, vendors and affiliates (e-mail verification, password
 * reset). Only the SHA-256 of the token is stored.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    /** customer | vendor | affiliate */
    subjectKind: text('subject_kind').$type<Exclude<SessionKind, 'admin'>>().notNull(),
    subjectId: text('subject_id').notNull(),
    /** verify_email | password_reset */
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'account_tokens_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('account_tokens_hash_uq').on(t.shopId, t.tokenHash),
    index('account_tokens_subject_idx').on(t.shopId, t.subjectKind, t.subjectId, t.purpose),
    index('account_tokens_expiry_idx').on(t.expiresAt),
  ],
);

/** Stored responses of POST requests sent with an Idempotency-Key (docs/ARCHITECTURE.md). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    shopId: text('shop_id').notNull(),
    /** The credential the request came with (kind and id), so keys never collide across callers. */
    principal: text('principal').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** running | done */
    state: text('state').$type<'running' | 'done'>().notNull(),
    statusCode: integer('status_code'),
    responseBody: text('response_body'),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Renewed every few seconds by the process running the request; a stale one was abandoned. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.principal, t.key] }), index('idempotency_expiry_idx').on(t.expiresAt)],
);

/** Fixed-window counters for rate limits shared by every process. */
export const rateLimits = pgTable(
  'rate_limits',
  {
    bucket: text('bucket').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.bucket, t.windowStart] })],
);
