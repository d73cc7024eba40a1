/** Routes of a channel's countries: the selection, per-channel overrides, shop-owned countries (docs/storefront.md). */
import { Type } from '@sinclair/typebox';
import { anyEmployee, configureShop } from '../../platform/auth/presets.js';
import { NoContent } from '../../platform/http/schemas.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import * as cfg from './channel-config.service.js';
import * as S from './channels.schemas.js';
import { ChannelParams } from './channels.schemas.js';

const tags = ['channels'];
const CodeParams = Type.Object({ id: Type.String({ maxLength: 64 }), code: S.CountryCode });

export function channelCountryRoutes(app: TypedApp): void {
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
}
