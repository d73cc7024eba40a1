/**
 * The `stripe` provider: Checkout Sessions in hosted mode through the official SDK. The API
 * base is configurable (STRIPE_API_BASE) so tests run the real SDK against a local stub.
 */
import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import type { HostedCheckout, HostedCheckoutInput, PaymentProvider } from './port.js';

export interface StripeOptions {
  secretKey: string;
  apiBase: string | null;
}

/** The SDK is loaded on first use: a shop without Stripe never pays for its memory. */
let StripeSdk: typeof Stripe | null = null;

export function stripeClient(opts: StripeOptions): Stripe {
  StripeSdk ??= createRequire(import.meta.url)('stripe') as typeof Stripe;
  const base = opts.apiBase ? new URL(opts.apiBase) : null;
  return new StripeSdk(opts.secretKey, {
    telemetry: false,
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/** Stripe accepts expiry between 30 minutes and 24 hours ahead. */
function stripeExpiry(expiresAt: Date): number {
  const now = Date.now();
  const clamped = Math.min(Math.max(expiresAt.getTime(), now + 31 * 60_000), now + 23.9 * 3600_000);
  return Math.floor(clamped / 1000);
}

export class StripePaymentProvider implements PaymentProvider {
  readonly name = 'stripe' as const;
  readonly isTest: boolean;
  readonly stripe: Stripe;

  constructor(opts: StripeOptions) {
    this.stripe = stripeClient(opts);
    this.isTest = opts.secretKey.startsWith('sk_test_');
  }

  async createHostedCheckout(input: HostedCheckoutInput): Promise<HostedCheckout> {
    const currency = input.currency.toLowerCase();
    const lineItems: Stripe.Checkout.SessionCreateParams.LineItem[] = input.lines.map((l) => ({
      quantity: l.quantity,
      price_data: { currency, unit_amount: l.unit_price_cents, product_data: { name: l.name } },
    }));
    if (input.shippingCents > 0) {
      lineItems.push({
        quantity: 1,
        price_data: { currency, unit_amount: input.shippingCents, product_data: { name: 'Versand' } },
      });
    }
    const success = new URL(input.returnUrl);
    success.searchParams.set('session_id', input.sessionId);
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        customer_email: input.customerEmail,
        line_items: lineItems,
        success_url: success.toString(),
        cancel_url: input.returnUrl,
        client_reference_id: input.sessionId,
        metadata: { checkout_session_id: input.sessionId, shop_id: input.shopId },
        expires_at: stripeExpiry(input.expiresAt),
      },
      { idempotencyKey: `cs-create-${input.sessionId}` },
    );
    if (!session.url) throw new Error('Stripe returned a checkout session without a url');
    return { url: session.url, providerRef: session.id };
  }
}
