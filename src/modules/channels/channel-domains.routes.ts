/** Routes of a channel's domains (docs/storefront.md). */
import { Type } from '@sinclair/typebox';
import { anyEmployee, configureShop } from '../../platform/auth/presets.js';
import { NoContent } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import * as cfg from './channel-config.service.js';
import * as S from './channels.schemas.js';
import { ChannelParams } from './channels.schemas.js';

const tags = ['channels'];
const DomainParams = Type.Object({ id: Type.String({ maxLength: 64 }), domainId: Type.String({ maxLength: 64 }) });

export function channelDomainRoutes(app: TypedApp): void {
  app.get(
    '/api/admin/channels/:id/domains',
    {
      config: anyEmployee,
      schema: {
        tags,
        summary: "List the channel's domains",
        params: ChannelParams,
        response: { 200: Type.Object({ domains: Type.Array(S.DomainSchema) }) },
      },
    },
    async (request) => ({ domains: (await cfg.listDomains(request.ctx, request.params.id)).map(cfg.domainOut) }),
  );

  app.post(
    '/api/admin/channels/:id/domains',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Map a domain to the channel (unique across all channels: 409 domain_taken)',
        params: ChannelParams,
        body: S.DomainCreate,
        response: { 201: S.DomainSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(cfg.domainOut(await cfg.addDomain(request.ctx, request.params.id, request.body.domain))),
  );

  app.delete(
    '/api/admin/channels/:id/domains/:domainId',
    {
      config: configureShop,
      schema: { tags, summary: 'Remove a domain mapping', params: DomainParams, response: { 204: NoContent } },
    },
    async (request, reply) => {
      const { id, domainId } = request.params;
      await cfg.removeDomain(request.ctx, id, domainId);
      return reply.code(204).send();
    },
  );
}
