/**
 * Who is calling, and what a route accepts (docs/ARCHITECTURE.md). Routes declare an AuthSpec in
 * `config.auth`; one hook (modules/identity/authorize.ts) enforces it before any handler runs.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/client.js';

export const CREDENTIAL_KINDS = [
  'platform',
  'admin',
  'token',
  'publishable',
  'customer',
  'vendor',
  'affiliate',
] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

export const SCOPES = ['catalog:read', 'catalog:write', 'finance:read'] as const;
export type Scope = (typeof SCOPES)[number];

export const ROLES = ['owner', 'admin', 'catalog_editor', 'viewer'] as const;
export type EmployeeRole = (typeof ROLES)[number];

/** Roles that may write the catalog (docs/ARCHITECTURE.md "Admin role"). */
export const CATALOG_WRITERS: EmployeeRole[] = ['owner', 'admin', 'catalog_editor'];
/** Roles that may manage money and shop configuration. */
export const MANAGERS: EmployeeRole[] = ['owner', 'admin'];

export interface AuthSpec {
  /** Credential kinds the route accepts; `public` needs none. */
  accepts: CredentialKind[] | 'public';
  /** The scope an API token needs (only when `token` is accepted). */
  scope?: Scope;
  /** Roles an admin session needs; absent = any employee. */
  roles?: EmployeeRole[];
  /** Only the shop owner. */
  ownerOnly?: boolean;
  /**
   * The route covers every channel at once and cannot be narrowed to some (partner balances and
   * payouts, the webhook delivery log): an employee restricted to channels is refused with 403
   * channel_restricted (docs/decisions.md "Channel restriction of order-derived records").
   */
  allChannels?: true;
  /** Refuse every API token with 403 token_blocked (financial mutations, accounting routes). */
  tokenBlocked?: boolean;
  /** Add-on gates and other per-route checks run after authentication. */
  gate?: 'digital';
  /**
   * A publishable-key route that also takes a signed-in customer (docs/ARCHITECTURE.md "purchases made while
   * logged in"): the customer session comes in `X-Customer-Session: csess_…` or the customer
   * cookie; when sent it must be a live session of the key's shop (else 401 customer_session_invalid).
   */
  signedInCustomer?: true;
}

/** The customer signed in behind a storefront's publishable-key call (AuthSpec.signedInCustomer). */
export interface SignedInCustomer {
  customerId: string;
  sessionId: string;
}

export type Actor =
  | { kind: 'platform' }
  | {
      kind: 'admin';
      userId: string;
      sessionId: string;
      role: EmployeeRole;
      email: string;
      channelIds: string[];
      /** Whether channelIds restricts the employee (an empty restricted list allows no channel). */
      channelRestricted: boolean;
      /** The shop's catalog version, read with the session (version-checked caches). */
      catalogVersion: number;
    }
  | { kind: 'token'; tokenId: string; scopes: Scope[]; catalogVersion: number }
  | {
      kind: 'publishable';
      keyId: string;
      origin: string;
      allowedOrigins: string[];
      /** The shop's catalog version, read with the key in the same query (version-checked caches). */
      catalogVersion: number;
      /** The signed-in customer the storefront buys for, on routes that take one. */
      customer?: SignedInCustomer;
    }
  | { kind: 'customer'; customerId: string; sessionId: string }
  | { kind: 'vendor'; vendorId: string; sessionId: string }
  | { kind: 'affiliate'; affiliateId: string; sessionId: string };

/** What every service function receives first: the tenant, the caller and the handles. */
export interface Ctx {
  /** The shop of the credential; empty only for platform and public routes. */
  shopId: string;
  actor: Actor | null;
  db: Db;
  clock: Clock;
  config: Config;
  log: FastifyBaseLogger;
}

/**
 * The context of work no credential asked for (a job, a provider event, startup): the shop it
 * concerns and no actor.
 */
export function systemCtx(
  handles: { db: Db; clock: Clock; config: Config },
  shopId: string,
  log: FastifyBaseLogger,
): Ctx {
  return { shopId, actor: null, db: handles.db, clock: handles.clock, config: handles.config, log };
}

/** A stable identity of the caller, used to key idempotency records. */
export function principalOf(actor: Actor | null): string {
  if (!actor) return 'public';
  switch (actor.kind) {
    case 'platform':
      return 'platform';
    case 'admin':
      return `admin:${actor.userId}`;
    case 'token':
      return `token:${actor.tokenId}`;
    case 'publishable':
      // a signed-in buyer's retries never resume a guest's (or another buyer's) session
      return actor.customer ? `pk:${actor.keyId}:customer:${actor.customer.customerId}` : `pk:${actor.keyId}`;
    case 'customer':
      return `customer:${actor.customerId}`;
    case 'vendor':
      return `vendor:${actor.vendorId}`;
    case 'affiliate':
      return `affiliate:${actor.affiliateId}`;
  }
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthSpec;
  }
  interface FastifyRequest {
    ctx: Ctx;
  }
}
