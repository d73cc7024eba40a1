/** Routes of the shop's publishable keys, one per storefront (owner or admin). */
import { Type } from '@sinclair/typebox';
import { configureShop } from '../../platform/auth/presets.js';
import { IdParams } from '../../platform/http/schemas.js';
import { deleteByIdRoute, type TypedApp } from '../../platform/http/typed-app.js';
import * as S from './identity.schemas.js';
import * as svc from './identity.service.js';

export function publishableKeyRoutes(app: TypedApp): void {
  const tags = ['identity'];

  app.get(
    '/api/admin/publishable-keys',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'List publishable keys',
        response: { 200: Type.Object({ publishable_keys: Type.Array(S.PublishableKeySchema) }) },
      },
    },
    async (request) => ({ publishable_keys: (await svc.listPublishableKeys(request.ctx)).map(svc.keyOut) }),
  );

  app.post(
    '/api/admin/publishable-keys',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Create a publishable key for a storefront',
        body: S.PublishableKeyCreate,
        response: { 201: S.PublishableKeySchema },
      },
    },
    async (request, reply) => {
      const row = await svc.createPublishableKey(request.ctx, request.body);
      return reply.code(201).send(svc.keyOut(row));
    },
  );

  app.patch(
    '/api/admin/publishable-keys/:id',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Rename a key or change its allowed origins',
        params: IdParams,
        body: S.PublishableKeyPatch,
        response: { 200: S.PublishableKeySchema },
      },
    },
    async (request) => svc.keyOut(await svc.updatePublishableKey(request.ctx, request.params.id, request.body)),
  );

  deleteByIdRoute(
    app,
    '/api/admin/publishable-keys/:id',
    { config: configureShop, tags, summary: 'Revoke a publishable key' },
    svc.revokePublishableKey,
  );
}
