/** The OpenAPI 3.1 document at /openapi.json and the interactive reference at /docs (local assets). */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { publicRoute } from '../auth/presets.js';
import { type AuthSpec, type CredentialKind, type EmployeeRole, ROLES } from '../auth/types.js';
import { ERROR_CODES } from '../error-codes.js';
import { ProblemSchema } from '../errors.js';
import { assignOperationIds } from './operation-ids.js';

const SECURITY: Record<CredentialKind, string> = {
  platform: 'platformToken',
  admin: 'adminSession',
  token: 'apiToken',
  publishable: 'publishableKey',
  customer: 'customerSession',
  vendor: 'vendorSession',
  affiliate: 'affiliateSession',
};

/** The credential names of `x-credentials` (snake_case, one per credential kind). */
export const CREDENTIAL_NAMES: Record<CredentialKind, string> = {
  platform: 'platform_token',
  admin: 'admin_session',
  token: 'api_token',
  publishable: 'publishable_key',
  customer: 'customer_session',
  vendor: 'vendor_session',
  affiliate: 'affiliate_session',
};

/**
 * Who may call an operation, derived from its `config.auth` (the one derivation; the OpenAPI
 * document carries it as `x-credentials`, `x-roles` and `x-scope`): the credentials it accepts, the
 * employee roles an admin session needs (absent when no admin session is accepted), and the API
 * token scope. Pages read it to hide what the signed-in employee may not do; the authorization
 * hook still enforces the AuthSpec itself.
 */
export function operationAccess(auth: AuthSpec): { credentials: string[]; roles?: EmployeeRole[]; scope?: string } {
  if (auth.accepts === 'public') return { credentials: [] };
  const kinds = auth.accepts.filter((k) => !(k === 'token' && auth.tokenBlocked));
  const access: { credentials: string[]; roles?: EmployeeRole[]; scope?: string } = {
    credentials: kinds.map((k) => CREDENTIAL_NAMES[k]),
  };
  if (kinds.includes('admin')) access.roles = auth.ownerOnly ? ['owner'] : [...(auth.roles ?? ROLES)];
  if (kinds.includes('token') && auth.scope) access.scope = auth.scope;
  return access;
}

const ERROR_STATUSES = ['400', '401', '403', '404', '409', '413', '429', '500'] as const;

export async function registerOpenApi(app: FastifyInstance, publicUrl: string): Promise<void> {
  app.addSchema(ProblemSchema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Commerce service API',
        version: '1',
        description:
          'Catalog, sales channels, checkout, digital subscriptions, finance, vendors and affiliates. ' +
          'Errors are RFC 9457 problem documents with a stable `code`.',
      },
      servers: [{ url: publicUrl }],
      components: {
        securitySchemes: {
          platformToken: { type: 'http', scheme: 'bearer', description: 'PLATFORM_TOKEN' },
          adminSession: {
            type: 'http',
            scheme: 'bearer',
            description: 'sess_… from POST /api/auth/login, or cookie sid',
          },
          apiToken: { type: 'http', scheme: 'bearer', description: 'tok_… with scopes' },
          publishableKey: { type: 'http', scheme: 'bearer', description: 'pk_… plus an allowed Origin header' },
          customerSession: { type: 'http', scheme: 'bearer', description: 'csess_…' },
          vendorSession: { type: 'http', scheme: 'bearer', description: 'vsess_…' },
          affiliateSession: { type: 'http', scheme: 'bearer', description: 'asess_…' },
          // with the publishable key, on checkout and abo session creation: buy as the signed-in customer
          customerSessionHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Customer-Session',
            description:
              'csess_… of a signed-in customer of the same shop, sent with the publishable key (server-side ' +
              'storefronts): the purchase belongs to that account at once and uses its e-mail. Unknown, ' +
              'expired, revoked or other-shop sessions: 401 customer_session_invalid.',
          },
          customerSessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: 'csid',
            description:
              'The customer session cookie (browsers), with the publishable key; same meaning as X-Customer-Session, ' +
              'which wins when both are sent. A stale cookie is answered 401 customer_session_invalid and cleared.',
          },
        },
      },
    },
    transformObject: (document) =>
      completeDocument((document as { openapiObject: OpenApiDocument }).openapiObject) as never,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { config: publicRoute, schema: { hide: true } }, async () => app.swagger());
}

/**
 * Completes each route's schema for the reference: the credentials it accepts and the problem
 * responses. Every route must declare `config.auth`, so no route is open by accident.
 */
export function documentRoute(route: RouteOptions): void {
  const url = route.url ?? '';
  if (url.startsWith('/docs') || url === '/openapi.json') return;
  const auth = (route.config as { auth?: AuthSpec } | undefined)?.auth;
  if (!auth) throw new Error(`route ${String(route.method)} ${url} declares no config.auth`);
  route.schema ??= {};
  const schema = route.schema as Record<string, unknown>;
  // A public operation says so (`security: []`) rather than leaving it unstated.
  schema.security = auth.accepts === 'public' ? [] : auth.accepts.map((k) => ({ [SECURITY[k]]: [] }));
  if (auth.signedInCustomer) {
    // the publishable key alone (a guest) or with a customer session (a signed-in buyer)
    (schema.security as Record<string, string[]>[]).push(
      { publishableKey: [], customerSessionHeader: [] },
      { publishableKey: [], customerSessionCookie: [] },
    );
  }
  const access = operationAccess(auth);
  schema['x-credentials'] = access.credentials;
  if (access.roles) schema['x-roles'] = access.roles;
  if (access.scope) schema['x-scope'] = access.scope;
  schema.response ??= {};
  const response = schema.response as Record<string, unknown>;
  for (const status of ERROR_STATUSES) {
    if (!(status in response)) {
      response[status] = {
        description: 'RFC 9457 problem details',
        content: { 'application/problem+json': { schema: { $ref: 'Problem#' } } },
      };
    }
  }
}

type Operation = { operationId?: string; summary?: string; tags?: string[] };
type OpenApiDocument = {
  paths?: Record<string, Record<string, Operation>>;
  tags?: { name: string }[];
  'x-error-codes'?: ErrorCodeDoc[];
};
type ErrorCodeDoc = {
  code: string;
  status: number;
  meaning: string;
  also_status?: number | string;
  also_when?: string;
};

/** The table of error codes (error-codes.ts) as the document lists it, sorted by status, then code. */
export function errorCodesDoc(): ErrorCodeDoc[] {
  return Object.entries(ERROR_CODES)
    .map(([code, entry]): ErrorCodeDoc => {
      const also = 'alsoStatus' in entry ? entry.alsoStatus : undefined;
      return {
        code,
        status: entry.status,
        meaning: entry.meaning,
        ...(also ? { also_status: also.status, also_when: also.when } : {}),
      };
    })
    .sort((a, b) => a.status - b.status || a.code.localeCompare(b.code));
}

/**
 * The finishing pass over the generated document, the same in every process whatever its ROLE:
 * paths sorted (registration order differs between ROLEs), an operationId on every operation
 * (operation-ids.ts), a summary and a tag where a route lacks them, the tags declared, and the
 * table of error codes (`x-error-codes`).
 */
export function completeDocument<T extends OpenApiDocument>(doc: T): T {
  const paths = doc.paths ?? {};
  const sorted: Record<string, Record<string, Operation>> = {};
  for (const path of Object.keys(paths).sort()) sorted[path] = paths[path] as Record<string, Operation>;
  doc.paths = sorted;
  const tags = new Set<string>();
  for (const [path, ops] of Object.entries(sorted)) {
    for (const [method, op] of Object.entries(ops)) {
      op.summary ||= `${method.toUpperCase()} ${path}`;
      if (!op.tags?.length) op.tags = [path.split('/').filter((s) => s && s !== 'api' && s !== 'admin')[0] ?? 'other'];
      for (const tag of op.tags) tags.add(tag);
    }
  }
  assignOperationIds(sorted);
  doc.tags = [...tags].sort().map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name }));
  doc['x-error-codes'] = errorCodesDoc();
  return doc;
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  platform: 'Health, readiness and the platform operator: shops, simulated clock',
  identity: 'Employee sign-in, employees, API tokens and publishable keys',
  customer: 'Customer accounts of a storefront and what a signed-in customer sees',
  customers: 'Customers in the admin: accounts and guest buyers, their purchases, sign-in suspension, data export',
  catalog: 'Products, variants, categories, brands, suppliers, channel listings, write policy',
  channels: 'Sales channels, domains, countries and taxes, payment methods',
  webhooks: 'The checkout webhook destination and its delivery log',
  shipping: 'Shipping methods',
  storefront: 'Products as a storefront sees them',
  orders: 'Orders and their states',
  checkout: 'Checkout sessions, the hosted payment page, subscription management links, Stripe webhook',
  finance: 'Company data printed on documents',
  invoices: 'Invoices, their PDF and e-invoice formats',
  'credit-notes': 'Credit notes, their PDF and e-invoice formats',
  accounting: 'Lexware Office connection and order sync',
  emails: 'The mail outbox',
  digital: 'Digital add-on: plans (plaene), subscriptions (abos), abo sessions',
  vendors: 'Marketplace vendors, commission rules, earnings, analytics',
  'vendor portal': 'What a signed-in vendor sees',
  'vendor payouts': 'Payouts to vendors',
  'vendor statements': 'Monthly vendor statements',
  affiliates: 'Affiliates, their earnings and promotional content',
  'affiliate portal': 'What a signed-in affiliate sees',
  'affiliate payouts': 'Payouts to affiliates',
  partners: 'Settings shared by vendors and affiliates',
};
