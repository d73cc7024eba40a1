/** Routes of shipping methods: admin management and the storefront's list for a country. */
import { anyEmployee, configureShop, storefrontKey } from '../../platform/auth/presets.js';
import { IdParams } from '../../platform/http/schemas.js';
import { deleteByIdRoute, type TypedApp } from '../../platform/http/typed-app.js';
import * as S from './shipping.schemas.js';
import * as svc from './shipping.service.js';

const tags = ['shipping'];

export function shippingRoutes(app: TypedApp): void {
  app.get(
    '/api/admin/shipping-methods',
    {
      config: anyEmployee,
      schema: { tags, summary: 'List shipping methods', response: { 200: S.ShippingMethodList } },
    },
    async (request) => ({
      shipping_methods: (await svc.listShippingMethods(request.ctx)).map(svc.shippingMethodOut),
    }),
  );

  app.post(
    '/api/admin/shipping-methods',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Create a shipping method (countries empty = every country)',
        body: S.ShippingMethodCreate,
        response: { 201: S.ShippingMethodSchema },
      },
    },
    async (request, reply) =>
      reply.code(201).send(svc.shippingMethodOut(await svc.createShippingMethod(request.ctx, request.body))),
  );

  app.patch(
    '/api/admin/shipping-methods/:id',
    {
      config: configureShop,
      schema: {
        tags,
        summary: 'Change name, price, countries or activation',
        params: IdParams,
        body: S.ShippingMethodPatch,
        response: { 200: S.ShippingMethodSchema },
      },
    },
    async (request) =>
      svc.shippingMethodOut(await svc.updateShippingMethod(request.ctx, request.params.id, request.body)),
  );

  deleteByIdRoute(
    app,
    '/api/admin/shipping-methods/:id',
    { config: configureShop, tags, summary: 'Delete a shipping method' },
    svc.deleteShippingMethod,
  );

  app.get(
    '/api/store/shipping-methods',
    {
      config: storefrontKey,
      schema: {
        tags,
        summary: 'Active shipping methods for a destination country, cheapest first',
        querystring: S.StoreShippingQuery,
        response: { 200: S.StoreShippingList },
      },
    },
    async (request) => ({
      shipping_methods: (await svc.storeShippingMethods(request.ctx, request.query.country)).map(
        svc.storeShippingMethodOut,
      ),
    }),
  );
}
