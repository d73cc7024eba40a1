/** Storefront checkout routes (checkout role). */

import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { PaymentProvider } from '../../adapters/payment/port.js';
import { storefrontKey } from '../../platform/auth/presets.js';
import type { Ctx } from '../../platform/auth/types.js';
import { iso } from '../../platform/dates.js';
import { notFound } from '../../platform/errors.js';
import { channelOriginOf, pathPrefixOf, type TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import { resolveChannel } from '../channels/index.js';
import { orderNumbers } from '../orders/index.js';
import { pricingTaxOut } from '../tax/index.js';
import { CheckoutCreate, CheckoutSessionOut } from './checkout.schemas.js';
import type { CheckoutSessionRow } from './checkout.tables.js';
import { getSession } from './get-session.js';
import { startCheckout } from './start-checkout.js';

export function sessionOut(s: CheckoutSessionRow, url: string | null, orderNumber: string | null = null) {
  return {
    id: s.id,
    url,
    status: s.status,
    flow: s.flow,
    requires_shipping: s.requiresShipping,
    currency: s.currency,
    channel_id: s.channelId,
    lines: s.lines.map((l) => ({
      ...l,
      tax_category: l.tax_category ?? 'S',
      tax_exemption_reason: l.tax_exemption_reason ?? null,
    })),
    subtotal_cents: s.subtotalCents,
    shipping_cents: s.shippingCents,
    ...pricingTaxOut(s),
    tax_cents: s.taxCents,
    total_cents: s.totalCents,
    order_id: s.orderId ?? null,
    order_number: s.orderId ? orderNumber : null,
    expires_at: iso(s.expiresAt),
  };
}

/** The session's answer with its order's number (the number a buyer quotes), read when it has an order. */
async function sessionWithNumber(ctx: Ctx, s: CheckoutSessionRow, url: string | null) {
  const [order] = s.orderId ? await orderNumbers(ctx, [s.orderId]) : [];
  return sessionOut(s, url, order?.number ?? null);
}

/** What names the sale channel of a checkout request: Origin, Referer, or the `/:prefix/…` of the path. */
const channelInputOf = (request: FastifyRequest) => ({
  origin: channelOriginOf(request),
  referer: request.headers.referer,
  pathPrefix: pathPrefixOf(request.params),
});

/** The sale channel of a checkout request (Origin, Referer, or the `/:prefix/…` of the path). */
export function channelFor(request: FastifyRequest) {
  return resolveChannel(request.ctx, channelInputOf(request));
}

export function checkoutRoutes(app: TypedApp, _deps: AppDeps, provider: PaymentProvider): void {
  for (const prefix of ['', '/:prefix']) {
    app.post(
      `${prefix}/api/store/checkout-sessions`,
      {
        config: { auth: { accepts: ['publishable'], signedInCustomer: true } },
        schema: {
          tags: ['checkout'],
          summary: 'Create a one-time checkout session (prices, currency and tax from the resolved channel)',
          ...(prefix ? { hide: true } : {}),
          body: CheckoutCreate,
          response: { 201: CheckoutSessionOut },
        },
      },
      async (request, reply) => {
        const claim = request.idempotency;
        const { session, url } = await startCheckout(
          request.ctx,
          {
            clientAddress: request.ip,
            channel: channelInputOf(request),
            body: request.body,
            idempotencyKey: claim ? `${claim.principal}|${claim.key}` : null,
            onChannel: (channel) => reply.header('x-channel-id', channel.id),
          },
          provider,
        );
        return reply.code(201).send(await sessionWithNumber(request.ctx, session, url));
      },
    );
  }

  // the thank-you page of a storefront reads the session it returned from (return_url?session_id=…)
  app.get(
    '/api/store/checkout-sessions/:id',
    {
      config: storefrontKey,
      schema: {
        tags: ['checkout'],
        summary: "A checkout session of the key's shop: status, lines, totals and the order once paid",
        description:
          'For the page return_url leads to (`?session_id=…`). `url` is null here: the payment page address is given at creation.',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
        response: { 200: CheckoutSessionOut },
      },
    },
    async (request) => {
      const session = await getSession(request.ctx, request.params.id);
      if (!session || session.shopId !== request.ctx.shopId || session.kind !== 'order') {
        throw notFound('Checkout session');
      }
      return sessionWithNumber(request.ctx, session, null);
    },
  );
}
