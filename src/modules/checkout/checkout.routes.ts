/** Storefront checkout routes (checkout role). */

import type { FastifyRequest } from 'fastify';
import type { PaymentProvider } from '../../adapters/payment/port.js';
import type { AppDeps } from '../../app.js';
import { pathPrefixOf, type TypedApp } from '../../platform/http/typed-app.js';
import { resolveChannel } from '../channels/index.js';
import { limitSessionCreation } from './abuse-limits.js';
import { CheckoutCreate, CheckoutSessionOut } from './checkout.schemas.js';
import { type CheckoutInput, createCheckoutSession } from './checkout.service.js';
import type { CheckoutSessionRow } from './checkout.tables.js';
import { enforceLineQuantity } from './checkout-settings.js';
import { exemptionText, type TaxCategory } from './tax.js';

/** The shipping's tax and the VAT ID check of a session or an order (DESIGN §5). */
export function pricingTaxOut(s: {
  shippingTaxCents: number;
  shippingTaxRate: number | null;
  shippingTaxCategory: string | null;
  vatIdStatus: string | null;
  vatIdCheckedAt: Date | null;
}) {
  const category = s.shippingTaxCategory as TaxCategory | null;
  return {
    shipping_tax_cents: s.shippingTaxCents,
    shipping_tax_rate: s.shippingTaxRate,
    shipping_tax_category: category,
    shipping_tax_exemption_reason: exemptionText(category),
    vat_id_status: s.vatIdStatus,
    vat_id_checked_at: s.vatIdCheckedAt ? s.vatIdCheckedAt.toISOString() : null,
  };
}

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
    expires_at: s.expiresAt.toISOString(),
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
        await limitSessionCreation(request.ctx, request.ip);
        await enforceLineQuantity(request.ctx, request.body.items);
        const channel = await channelFor(request);
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
