/** Routes of payment methods: a channel's selection and the shop-wide one (docs/storefront.md). */
import { anyEmployee, configureShop } from '../../platform/auth/presets.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import * as cfg from './channel-config.service.js';
import * as S from './channels.schemas.js';
import { ChannelParams } from './channels.schemas.js';

const tags = ['channels'];

export function paymentMethodRoutes(app: TypedApp): void {
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
