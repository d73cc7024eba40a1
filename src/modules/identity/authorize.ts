/**
 * The one authorization layer (docs/ARCHITECTURE.md). Each route declares `config.auth`; this hook
 * identifies the credential, refuses what the declaration does not allow, applies the CSRF rule
 * to cookie-authenticated mutations, and gives the handler a typed `request.ctx`.
 */
import { and, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Config, normalizeOrigin } from '../../config.js';
import { publicRoute } from '../../platform/auth/presets.js';
import type { Actor, AuthSpec, CredentialKind, Ctx, EmployeeRole, Scope } from '../../platform/auth/types.js';
import { atRestKey, safeEqual, sha256 } from '../../platform/crypto.js';
import { BatchLoader } from '../../platform/db/batch.js';
import type { Db } from '../../platform/db/client.js';
import { prepared } from '../../platform/db/prepared.js';
import { query } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import { registerIdempotency } from '../../platform/http/idempotency.js';
import type { AppDeps } from '../../platform/module.js';
import { catalogVersionOf, productListedInChannels } from '../catalog/index.js';
import { orderInScope } from '../orders/index.js';
import { shopDigitalFlags } from '../shops/index.js';
import { publishableKeys } from './identity.tables.js';
import { findSession, SESSION_COOKIE, SESSION_PREFIX, type SessionKind } from './sessions.js';

const SESSION_KINDS: SessionKind[] = ['admin', 'customer', 'vendor', 'affiliate'];

const BEARER_PREFIX: [string, CredentialKind][] = [
  ['sess_', 'admin'],
  ['csess_', 'customer'],
  ['vsess_', 'vendor'],
  ['asess_', 'affiliate'],
  ['tok_', 'token'],
  ['pk_', 'publishable'],
];

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Token last-use is written at most once a minute per token. */
const TOKEN_TOUCH_SECONDS = 60;

const unauthenticated = (detail: string) => new AppError('unauthenticated', detail);
const invalidCredential = () => new AppError('invalid_credential', 'The credential is unknown, expired or revoked');

function kindOf(bearer: string): CredentialKind | null {
  for (const [prefix, kind] of BEARER_PREFIX) if (bearer.startsWith(prefix)) return kind;
  return null;
}

function readBearer(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!m?.[1]) throw unauthenticated('The Authorization header must be "Bearer <credential>"');
  return m[1];
}

/** Scopes a token's scope implies: writing the catalog includes reading it. */
function hasScope(scopes: Scope[], needed: Scope): boolean {
  return scopes.includes(needed) || (needed === 'catalog:read' && scopes.includes('catalog:write'));
}

interface Identified {
  shopId: string;
  actor: Actor;
}

async function identifySession(db: Db, kind: SessionKind, token: string): Promise<Identified | null> {
  const s = await findSession(db, kind, token);
  if (!s) return null;
  if (kind === 'admin') {
    const user = s.user;
    if (!user) return null;
    return {
      shopId: s.shop_id,
      actor: {
        kind: 'admin',
        userId: s.subject_id,
        sessionId: s.id,
        role: user.role as EmployeeRole,
        email: user.email,
        channelIds: user.channel_ids,
        channelRestricted: user.channel_restricted,
        catalogVersion: s.catalog_version,
      },
    };
  }
  if (kind === 'customer') return { shopId: s.shop_id, actor: { kind, customerId: s.subject_id, sessionId: s.id } };
  if (kind === 'vendor') return { shopId: s.shop_id, actor: { kind, vendorId: s.subject_id, sessionId: s.id } };
  return { shopId: s.shop_id, actor: { kind: 'affiliate', affiliateId: s.subject_id, sessionId: s.id } };
}

async function identifyToken(db: Db, token: string): Promise<Identified | null> {
  const rows = await query<{
    id: string;
    shop_id: string;
    scopes: Scope[];
    touch: boolean;
    catalog_version: number | null;
  }>(
    db,
    sql`SELECT t.id, t.shop_id, t.scopes, ${catalogVersionOf(sql`t.shop_id`)} AS catalog_version,
               (t.last_used_at IS NULL OR t.last_used_at < now() - make_interval(secs => ${TOKEN_TOUCH_SECONDS})) AS touch
        FROM api_tokens t
        WHERE t.token_hash = ${sha256(token)} AND t.revoked_at IS NULL`,
  );
  const row = rows[0];
  if (!row) return null;
  if (row.touch)
    await db.execute(sql`UPDATE api_tokens SET last_used_at = now() WHERE shop_id = ${row.shop_id} AND id = ${row.id}`);
  return {
    shopId: row.shop_id,
    actor: {
      kind: 'token',
      tokenId: row.id,
      scopes: row.scopes,
      catalogVersion: Number(row.catalog_version ?? 0),
    },
  };
}

interface PublishableRow {
  id: string;
  shop_id: string;
  key: string;
  allowed_origins: string[];
  catalog_version: number | null;
}

const publishableLoaders = new WeakMap<Db, BatchLoader<string, PublishableRow>>();

/**
 * Publishable keys are looked up in batches (platform/db/batch.ts): concurrent storefront and
 * checkout requests share one prepared query, which also reads the storefront cache version.
 */
function publishableLoader(db: Db): BatchLoader<string, PublishableRow> {
  let loader = publishableLoaders.get(db);
  if (!loader) {
    const statement = prepared(db, 'auth_publishable_keys', (d, name) =>
      d
        .select({
          id: publishableKeys.id,
          shop_id: publishableKeys.shopId,
          key: publishableKeys.key,
          allowed_origins: publishableKeys.allowedOrigins,
          catalog_version: catalogVersionOf(publishableKeys.shopId),
        })
        .from(publishableKeys)
        .where(
          and(sql`${publishableKeys.key} = ANY(${sql.placeholder('keys')}::text[])`, isNull(publishableKeys.revokedAt)),
        )
        .prepare(name),
    );
    loader = new BatchLoader(async (keys) => {
      const rows = await statement.execute({ keys });
      return new Map(rows.map((r) => [r.key, r]));
    });
    publishableLoaders.set(db, loader);
  }
  return loader;
}

async function identifyPublishable(db: Db, key: string, origin: string): Promise<Identified | null> {
  const row = await publishableLoader(db).load(key);
  if (!row) return null;
  return {
    shopId: row.shop_id,
    actor: {
      kind: 'publishable',
      keyId: row.id,
      origin,
      allowedOrigins: row.allowed_origins,
      catalogVersion: Number(row.catalog_version ?? 0),
    },
  };
}

/** The header a server-side storefront sends its shopper's customer session in (AuthSpec.signedInCustomer). */
export const CUSTOMER_SESSION_HEADER = 'x-customer-session';

/**
 * On a route that takes a signed-in customer behind the publishable key: the customer session of
 * `X-Customer-Session` (server-side storefronts) or else of the customer cookie (browsers). Absent
 * = a guest. Sent but not a live customer session of the key's shop = 401 customer_session_invalid
 * (nothing is created); a stale cookie is cleared with that answer so the shopper can go on as a guest.
 */
async function attachSignedInCustomer(request: FastifyRequest, reply: FastifyReply, found: Identified, deps: AppDeps) {
  const actor = found.actor;
  if (actor.kind !== 'publishable') return;
  const header = request.headers[CUSTOMER_SESSION_HEADER];
  const cookie = request.cookies[SESSION_COOKIE.customer];
  const token = header !== undefined ? header : cookie;
  if (token === undefined) return;
  const session =
    typeof token === 'string' && token.startsWith(`${SESSION_PREFIX.customer}_`)
      ? await findSession(deps.database.db, 'customer', token.trim())
      : null;
  if (!session || session.shop_id !== found.shopId) {
    if (header === undefined) {
      const secure = deps.config.publicUrl.startsWith('https:');
      reply.clearCookie(SESSION_COOKIE.customer, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
    }
    throw new AppError(
      'customer_session_invalid',
      'The customer session is unknown, expired, revoked or of another shop; sign in again or buy as a guest',
    );
  }
  actor.customer = { customerId: session.subject_id, sessionId: session.id };
}

/**
 * The CSRF rule of admin-session cookies (DESIGN §2): a change sent with the cookie must come from
 * PUBLIC_URL's origin or one of ADMIN_ORIGINS. `origin` is normalised (normalizeOrigin).
 */
export function adminOriginAllowed(config: Config, origin: string): boolean {
  return origin === normalizeOrigin(config.publicUrl) || config.adminOrigins.includes(origin);
}

/** The request's Origin, normalised; falls back to nothing (Referer is not an origin proof). */
export function requestOrigin(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin !== 'null' ? normalizeOrigin(origin) : null;
}

/**
 * The origin of a browser's same-origin GET, which carries no Origin header: the page was served
 * by this service, so its origin is the request's own (scheme and Host, as TRUST_PROXY gives them).
 * Only with `Sec-Fetch-Site: same-origin`, which only browsers set (a script could forge it, as it
 * could forge Origin: the allowlist binds browsers, docs/decisions.md "The built-in storefront's
 * requests"). The built-in storefront at /shop/ reads the catalog this way.
 */
function sameOriginFetch(request: FastifyRequest): string | null {
  if (request.headers['sec-fetch-site'] !== 'same-origin') return null;
  return normalizeOrigin(`${request.protocol}://${request.host}`);
}

async function authenticate(request: FastifyRequest, spec: AuthSpec, deps: AppDeps): Promise<Identified> {
  const db = deps.database.db;
  const accepts = spec.accepts as CredentialKind[];
  let credential = readBearer(request);
  let viaCookie: SessionKind | null = null;
  if (credential === null) {
    for (const kind of SESSION_KINDS) {
      const value = request.cookies[SESSION_COOKIE[kind]];
      if (value && accepts.includes(kind)) {
        credential = value;
        viaCookie = kind;
        break;
      }
    }
  }
  if (credential === null) {
    throw unauthenticated(`This route needs a credential: ${accepts.join(', ')}`);
  }

  const kind = viaCookie ?? kindOf(credential);
  let found: Identified | null = null;
  if (kind === null) {
    if (!(await isPlatformToken(deps, credential))) throw invalidCredential();
    found = { shopId: '', actor: { kind: 'platform' } };
  } else if (kind === 'token') {
    found = await identifyToken(db, credential);
  } else if (kind === 'publishable') {
    found = await identifyPublishable(db, credential, requestOrigin(request) ?? sameOriginFetch(request) ?? '');
  } else {
    found = await identifySession(db, kind as SessionKind, credential);
  }
  if (!found) throw invalidCredential();
  const actor = found.actor;

  if (!accepts.includes(actor.kind)) {
    if (actor.kind === 'token') {
      throw spec.tokenBlocked
        ? new AppError('token_blocked', 'API tokens cannot use this route; sign in as an administrator')
        : new AppError('scope_denied', 'No API token scope grants this route');
    }
    throw new AppError('credential_denied', `This route does not accept a ${actor.kind} credential`);
  }

  switch (actor.kind) {
    case 'token':
      if (spec.tokenBlocked) {
        throw new AppError('token_blocked', 'API tokens cannot use this route; sign in as an administrator');
      }
      if (spec.scope && !hasScope(actor.scopes, spec.scope)) {
        throw new AppError('scope_denied', `This route needs the ${spec.scope} scope`);
      }
      break;
    case 'admin':
      if (spec.ownerOnly && actor.role !== 'owner') {
        throw new AppError('owner_only', 'Only the shop owner may do this');
      }
      if (spec.roles && !spec.roles.includes(actor.role)) {
        throw new AppError('role_denied', `Your role (${actor.role}) may not do this`);
      }
      if (spec.allChannels && actor.channelRestricted) {
        throw new AppError(
          'channel_restricted',
          'This covers every channel; an employee restricted to channels may not use it',
        );
      }
      break;
    case 'publishable':
      if (!actor.origin) throw new AppError('origin_denied', 'Storefront requests must send an Origin header');
      if (!actor.allowedOrigins.includes(actor.origin)) {
        throw new AppError('origin_denied', `Origin ${actor.origin} is not allowed for this publishable key`);
      }
      break;
  }

  if (viaCookie && !SAFE_METHODS.has(request.method)) {
    // CSRF: a cookie-authenticated mutation must come from the service's own pages or an admin origin.
    const origin = requestOrigin(request);
    const allowed = origin !== null && adminOriginAllowed(deps.config, origin);
    if (!allowed && !(viaCookie !== 'admin' && origin && (await originOfShop(db, found.shopId, origin)))) {
      throw new AppError('origin_denied', 'A cookie-authenticated change must come from an allowed Origin');
    }
  }
  return found;
}

/**
 * The platform token is PLATFORM_TOKEN; without it, a token generated for the demo at first
 * start (stored hashed) serves, so `npm start` on a fresh machine is usable end to end.
 */
async function isPlatformToken(deps: AppDeps, credential: string): Promise<boolean> {
  const configured = deps.config.platformToken;
  if (configured) return safeEqual(credential, configured);
  const rows = await query<{ value_hash: string }>(
    deps.database.db,
    sql`SELECT value_hash FROM platform_secrets WHERE name = 'platform_token'`,
  );
  return rows[0] ? safeEqual(sha256(credential), rows[0].value_hash) : false;
}

/** True when the origin is on one of the shop's publishable-key allowlists (its storefronts). */
/**
 * Login CSRF (docs/decisions.md): a sign-in that sets a session cookie is refused with 403
 * origin_denied when its `Origin` is foreign. No Origin (a server or script client) passes; the
 * service's own origin and ADMIN_ORIGINS pass; for the partner portals (`storefronts: true`) so
 * does an origin some live publishable key allows (a shop's own portal front end). The routes
 * take JSON only besides (app.ts), which a cross-site form cannot send.
 */
export async function checkSignInOrigin(
  request: FastifyRequest,
  deps: AppDeps,
  opts: { storefronts: boolean },
): Promise<void> {
  const origin = requestOrigin(request);
  if (origin === null) return;
  if (origin === normalizeOrigin(deps.config.publicUrl) || deps.config.adminOrigins.includes(origin)) return;
  if (opts.storefronts) {
    const rows = await query(
      deps.database.db,
      sql`SELECT 1 FROM publishable_keys WHERE revoked_at IS NULL AND ${origin} = ANY(allowed_origins) LIMIT 1`,
    );
    if (rows.length > 0) return;
  }
  throw new AppError('origin_denied', `A sign-in from ${origin} is not allowed`);
}

async function originOfShop(db: Db, shopId: string, origin: string): Promise<boolean> {
  const rows = await query(
    db,
    sql`SELECT 1 FROM publishable_keys WHERE shop_id = ${shopId} AND revoked_at IS NULL AND ${origin} = ANY(allowed_origins) LIMIT 1`,
  );
  return rows.length > 0;
}

/** The digital add-on gate (docs/ARCHITECTURE.md): available (erlaubt, the platform's) and active (aktiv, the shop's). */
async function digitalGate(db: Db, shopId: string): Promise<void> {
  const shop = await shopDigitalFlags({ db, shopId });
  if (!shop?.allowed) {
    throw new AppError('addon_unavailable', 'The digital add-on is not available to this shop');
  }
  if (!shop.active) {
    throw new AppError('addon_inactive', 'The digital add-on is not active; activate it in the digital settings');
  }
}

function allowCors(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-allow-credentials', 'true');
  reply.header('access-control-expose-headers', 'x-request-id, x-channel-id, idempotent-replayed, retry-after');
  reply.header('vary', 'Origin');
}

/**
 * An employee restricted to channels (docs/ARCHITECTURE.md) reaches one product only when it is listed in one
 * of their channels, writes listings only of their channels, and reaches one order only of their
 * channels (with everything under it: refunds, its invoice, its Lexware sync); anything else is
 * answered like a missing resource (404). Lists, and reads of the other order-derived records
 * (invoices, credit notes, subscriptions, payment events), filter in their own queries with
 * `channelScope` / `orderChannelScope`. Routes over every channel at once (`AuthSpec.allChannels`)
 * refuse a restricted employee with 403 channel_restricted above. An empty restricted list allows no channel.
 */
async function enforceChannelRestriction(request: FastifyRequest, actor: Actor, db: Db): Promise<void> {
  if (actor.kind !== 'admin' || !actor.channelRestricted) return;
  const route = request.routeOptions.url ?? '';
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  const allowed = actor.channelIds;
  const inList = (id: string | undefined) => id !== undefined && allowed.includes(id);
  if (route === '/api/products/:id/channels/:channelId') {
    if (!inList(params.channelId)) throw new AppError('not_found', 'Channel not found');
    return;
  }
  const shop = { db, shopId: request.ctx.shopId };
  if (/^\/api\/(admin\/)?products\/:id(\/|$)/.test(route)) {
    // an empty list never reaches a query
    const listed = allowed.length > 0 && (await productListedInChannels(shop, params.id ?? '', allowed));
    if (!listed) throw new AppError('not_found', 'Product not found');
    return;
  }
  const order = /^\/api\/admin\/orders\/:(id|orderId)(\/|$)/.exec(route);
  if (order) {
    const id = params[order[1] as string] ?? '';
    // an empty list never reaches a query
    const found = allowed.length > 0 && (await orderInScope({ ...shop, actor }, id));
    if (!found) throw new AppError('not_found', 'Order not found');
  }
}

export function registerAuthorization(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('ctx', null as unknown as Ctx);
  app.addHook('onRequest', async (request, reply) => {
    const ctx: Ctx = {
      shopId: '',
      actor: null,
      db: deps.database.db,
      clock: deps.clock,
      config: deps.config,
      log: request.log,
    };
    request.ctx = ctx;
    const spec = request.routeOptions.config?.auth;
    if (!spec || spec.accepts === 'public') return;
    const found = await authenticate(request, spec, deps);
    if (spec.gate === 'digital') await digitalGate(deps.database.db, found.shopId);
    ctx.shopId = found.shopId;
    ctx.actor = found.actor;
    if (spec.signedInCustomer) await attachSignedInCustomer(request, reply, found, deps);
    await enforceChannelRestriction(request, found.actor, deps.database.db);
    if (found.actor.kind === 'publishable') allowCors(reply, found.actor.origin);
    else if (['customer', 'vendor', 'affiliate'].includes(found.actor.kind)) {
      const origin = requestOrigin(request);
      if (origin && (await originOfShop(deps.database.db, found.shopId, origin))) allowCors(reply, origin);
    }
  });

  // CORS preflight: answered only for origins some storefront key allows.
  app.options('*', { config: publicRoute, schema: { hide: true } }, async (request, reply) => {
    const origin = requestOrigin(request);
    const rows = origin
      ? await query(
          deps.database.db,
          sql`SELECT 1 FROM publishable_keys WHERE revoked_at IS NULL AND ${origin} = ANY(allowed_origins) LIMIT 1`,
        )
      : [];
    if (!origin || rows.length === 0) {
      throw new AppError('origin_denied', 'This origin is not allowed');
    }
    allowCors(reply, origin);
    reply.header('access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE');
    reply.header('access-control-allow-headers', 'authorization, content-type, idempotency-key, x-customer-session');
    reply.header('access-control-max-age', '600');
    return reply.code(204).send();
  });

  registerIdempotency(app, deps.database.db, atRestKey(deps.config.masterKey, 'stored idempotent answers'));
}
