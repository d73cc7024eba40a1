/** The OpenAPI 3.1 document at /openapi.json and the interactive reference at /docs (local assets). */
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import type { AuthSpec, CredentialKind } from '../auth/types.js';
import { ProblemSchema } from '../errors.js';

const SECURITY: Record<CredentialKind, string> = {
  platform: 'platformToken',
  admin: 'adminSession',
  token: 'apiToken',
  publishable: 'publishableKey',
  customer: 'customerSession',
  vendor: 'vendorSession',
  affiliate: 'affiliateSession',
};

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
        },
      },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
  app.get('/openapi.json', { config: { auth: { accepts: 'public' } }, schema: { hide: true } }, async () =>
    app.swagger(),
  );
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
  if (auth.accepts !== 'public') {
    schema.security = auth.accepts.map((k) => ({ [SECURITY[k]]: [] }));
  }
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
