/** Storefront checkout routes (checkout role). */

import type { FastifyRequest } from 'fastify';
import type { PaymentProvider } from '../../adapters/payment/port.js';
import { iso } from '../../platform/dates.js';
import { pathPrefixOf, type TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import { resolveChannel } from '../channels/index.js';
import { pricingTaxOut } from '../tax/index.js';
import { limitSessionCreation } from './abuse-limits.js';
import { CheckoutCreate, CheckoutSessionOut } from './checkout.schemas.js';
import { createCheckoutSession } from './checkout.service.js';
import type { CheckoutSessionRow } from './checkout.tables.js';
import { enforceLineQuantity } from './checkout-settings.js';

export function sessionOut(s: CheckoutSessionRow, url: string | null) {
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
    expires_at: iso(s.expiresAt),
  };
}

/** The sale channel of a checkout request (Origin, Referer, or the `/:prefix/…` of the path). */
export function channelFor(request: FastifyRequest) {
  const prefix = pathPrefixOf(request.params);
  return resolveChannel(request.ctx, {
    origin: request.headers.origin,
    referer: request.headers.referer,
    pathPrefix: prefix,
  });
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
        // Three independent steps in one round trip's time; their refusals keep their order
        // (429 before a line above the maximum before channel_not_found), and the creation is
        // counted whatever the outcome, as before.
        const [limited, quantity, resolved] = await Promise.allSettled([
          limitSessionCreation(request.ctx, request.ip),
          enforceLineQuantity(request.ctx, request.body.items),
          channelFor(request),
        ]);
        if (limited.status === 'rejected') throw limited.reason;
        if (quantity.status === 'rejected') throw quantity.reason;
        if (resolved.status === 'rejected') throw resolved.reason;
        const channel = resolved.value;
        reply.header('x-channel-id', channel.id);
        const claim = request.idempotency;
        const { session, url } = await createCheckoutSession(
          request.ctx,
          channel,
          request.body,
          provider,
          claim ? `${claim.principal}|${claim.key}` : null,
        );
        return reply.code(201).send(sessionOut(session, url));
      },
    );
  }
}
