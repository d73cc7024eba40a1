/** Routes of docs/storefront.md: channels, domains, countries, payment methods; and the shop-wide payment methods. */
import { Type } from '@sinclair/typebox';
import { anyEmployee, configureShop, ownerOnly, readCatalog } from '../../platform/auth/presets.js';
import { NoContent } from '../../platform/http/schemas.js';
import { deleteByIdRoute, type TypedApp } from '../../platform/http/typed-app.js';
import * as cfg from './channel-config.service.js';
import * as S from './channels.schemas.js';
import * as svc from './channels.service.js';

const tags = ['channels'];
const ChannelParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const DomainParams = Type.Object({ id: Type.String({ maxLength: 64 }), domainId: Type.String({ maxLength: 64 }) });
const CodeParams = Type.Object({ id: Type.String({ maxLength: 64 }), code: S.CountryCode });

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

  // ---- domains ----
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

  // ---- countries ----
  app.get(
    '/api/admin/channels/:id/countries',
    {
      config: anyEmployee,
      schema: {
        tags,
        summary: "The channel's countries with effective values and overrides",
        params: ChannelParams,
        response: { 200: S.CountriesResponse },
      },
    },
    async (request) => cfg.listChannelCountries(request.ctx, request.params.id),
  );

  app.put(
    '/api/admin/channels/:id/countries',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Replace the country selection (empty = every active country)',
        params: ChannelParams,
        body: S.CountriesPut,
        response: { 200: S.CountriesResponse },
      },
    },
    async (request) => cfg.replaceCountrySelection(request.ctx, request.params.id, request.body.country_codes),
  );

  app.patch(
    '/api/admin/channels/:id/countries/:code',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Set per-channel overrides of name, currency and tax rates; null removes an override',
        params: CodeParams,
        body: S.CountryPatch,
        response: { 200: S.ChannelCountrySchema },
      },
    },
    async (request) => {
      const { id, code } = request.params;
      return cfg.patchChannelCountry(request.ctx, id, code, request.body);
    },
  );

  app.post(
    '/api/admin/channels/:id/countries/custom',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Add a shop-owned country',
        params: ChannelParams,
        body: S.CustomCountryCreate,
        response: { 201: S.ChannelCountrySchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await cfg.addCustomCountry(request.ctx, request.params.id, request.body)),
  );

  app.delete(
    '/api/admin/channels/:id/countries/custom/:code',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Delete a shop-owned country and its assignments in every channel',
        params: CodeParams,
        response: { 204: NoContent },
      },
    },
    async (request, reply) => {
      const { id, code } = request.params;
      await cfg.deleteCustomCountry(request.ctx, id, code);
      return reply.code(204).send();
    },
  );

  // ---- payment methods ----
  app.get(
    '/api/admin/channels/:id/payment-methods',
    {
      config: anyEmployee,
      schema: {
        tags,
        summary: "The channel's payment methods and what applies",
        params: ChannelParams,
        response: { 200: S.PaymentMethodsResponse },
      },
    },
    async (request) => cfg.channelPaymentMethods(request.ctx, request.params.id),
  );

  app.put(
    '/api/admin/channels/:id/payment-methods',
    {
      config: configureShop,
      schema: {
        tags,
        summary: "Set the channel's payment methods (empty = inherit the shop's)",
        params: ChannelParams,
        body: S.PaymentMethodsPut,
        response: { 200: S.PaymentMethodsResponse },
      },
    },
    async (request) => cfg.setChannelPaymentMethods(request.ctx, request.params.id, request.body.method_codes),
  );

  app.get(
    '/api/admin/settings/payment-methods',
    {
      config: anyEmployee,
      schema: { tags, summary: 'Shop-wide payment methods', response: { 200: S.ShopPaymentMethods } },
    },
    async (request) => ({ method_codes: (await cfg.shopPaymentMethods(request.ctx)).codes }),
  );

  app.put(
    '/api/admin/settings/payment-methods',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Set the shop-wide payment methods (at least one; channels without their own selection offer them)',
        body: S.ShopPaymentMethodsPut,
        response: { 200: S.ShopPaymentMethods },
      },
    },
    async (request) => cfg.setShopPaymentMethods(request.ctx, request.body.method_codes),
  );
}
