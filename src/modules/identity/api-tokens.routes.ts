/** Routes of the shop's API tokens (owner or admin). */
import { Type } from '@sinclair/typebox';
import { configureShop } from '../../platform/auth/presets.js';
import { deleteByIdRoute, type TypedApp } from '../../platform/http/typed-app.js';
import * as S from './identity.schemas.js';
import * as svc from './identity.service.js';

export function apiTokenRoutes(app: TypedApp): void {
  const tags = ['identity'];

  app.get(
    '/api/admin/api-tokens',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'List API tokens (secrets are never shown again)',
        response: { 200: Type.Object({ api_tokens: Type.Array(S.ApiTokenSchema) }) },
      },
    },
    async (request) => ({ api_tokens: (await svc.listApiTokens(request.ctx)).map(svc.tokenOut) }),
  );

  app.post(
    '/api/admin/api-tokens',
    {
      config: configureShop,
      schema: { tags, summary: 'Create an API token', body: S.ApiTokenCreate, response: { 201: S.ApiTokenCreated } },
    },
    async (request, reply) => {
      const { row, token } = await svc.createApiToken(request.ctx, request.body);
      return reply.code(201).send({ ...svc.tokenOut(row), token });
    },
  );

  deleteByIdRoute(
    app,
    '/api/admin/api-tokens/:id',
    { config: configureShop, tags, summary: 'Revoke an API token' },
    svc.revokeApiToken,
  );
}
