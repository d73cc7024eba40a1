/**
 * Routes of docs/storefront.md: channels, then their sub-resources in their own files (domains,
 * countries, payment methods with the shop-wide ones), registered in this order.
 */
import { Type } from '@sinclair/typebox';
import { anyEmployee, configureShop, ownerOnly, readCatalog } from '../../platform/auth/presets.js';
import { deleteByIdRoute, type TypedApp } from '../../platform/http/typed-app.js';
import * as cfg from './channel-config.service.js';
import { channelCountryRoutes } from './channel-countries.routes.js';
import { channelDomainRoutes } from './channel-domains.routes.js';
import * as S from './channels.schemas.js';
import { ChannelParams } from './channels.schemas.js';
import * as svc from './channels.service.js';
import { paymentMethodRoutes } from './payment-methods.routes.js';

const tags = ['channels'];

export function channelRoutes(app: TypedApp): void {
  app.get(
    '/api/admin/channels',
    {
      config: readCatalog,
      schema: {
        tags,
        summary: 'List sales channels (each with the number of its domains)',
        response: { 200: Type.Object({ channels: Type.Array(S.ChannelListItem) }) },
      },
    },
    async (request) => {
      const [rows, domains] = await Promise.all([svc.listChannels(request.ctx), cfg.domainCounts(request.ctx)]);
      return { channels: rows.map((c) => ({ ...svc.channelOut(c), domain_count: domains.get(c.id) ?? 0 })) };
    },
  );

  app.get(
    '/api/admin/channels/:id',
    {
      config: anyEmployee,
      schema: { tags, summary: 'Read a channel', params: ChannelParams, response: { 200: S.ChannelSchema } },
    },
    async (request) => svc.channelOut(await svc.getChannel(request.ctx, request.params.id)),
  );

  app.post(
    '/api/admin/channels',
    {
      config: ownerOnly,
      schema: {
        tags,
        summary:
          'Create a channel (owner only); never the default (the shop has one from its creation; see set-default)',
        body: S.ChannelCreate,
        response: { 201: S.ChannelSchema },
      },
    },
    async (request, reply) => reply.code(201).send(svc.channelOut(await svc.createChannel(request.ctx, request.body))),
  );

  app.patch(
    '/api/admin/channels/:id',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Change name, activation, currency, default country, order and allocation rules',
        params: ChannelParams,
        body: S.ChannelPatch,
        response: { 200: S.ChannelSchema },
      },
    },
    async (request) => svc.channelOut(await svc.updateChannel(request.ctx, request.params.id, request.body)),
  );

  app.post(
    '/api/admin/channels/:id/set-default',
    {
      config: ownerOnly,
      schema: {
        tags,
        summary: 'Make this the default channel (owner only)',
        params: ChannelParams,
        response: { 200: S.ChannelSchema },
      },
    },
    async (request) => svc.channelOut(await svc.setDefaultChannel(request.ctx, request.params.id)),
  );

  deleteByIdRoute(
    app,
    '/api/admin/channels/:id',
    { config: ownerOnly, tags, summary: 'Delete a channel with its domains, listings and selections (owner only)' },
    svc.deleteChannel,
  );

  channelDomainRoutes(app);
  channelCountryRoutes(app);
  paymentMethodRoutes(app);
}
