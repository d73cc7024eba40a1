/**
 * The payment provider port (DESIGN §6a). `test` is the built-in provider with a hosted page
 * and test cards; `stripe` uses the official SDK. Modules call only this interface: none
 * imports a provider SDK or branches on the provider's name.
 */

export interface HostedCheckoutInput {
  sessionId: string;
  shopId: string;
  currency: string;
  customerEmail: string;
  lines: { name: string; quantity: number; unit_price_cents: number }[];
  shippingCents: number;
  totalCents: number;
  returnUrl: string;
  expiresAt: Date;
}

export interface HostedCheckout {
  url: string;
  /** The provider's id of the checkout, when it has one. */
  providerRef: string | null;
}

export interface SubscriptionCheckoutInput {
  sessionId: string;
  shopId: string;
  customerEmail: string;
  returnUrl: string;
  expiresAt: Date;
  plan: {
    id: string;
    name: string;
    productName: string;
    currency: string;
    priceCents: number;
    intervalUnit: 'day' | 'week' | 'month' | 'year';
    intervalCount: number;
    trialDays: number;
    introDiscountPercent: number | null;
    introDiscountMonths: number | null;
    /** The provider's price object made for this plan version before, if any. */
    providerPriceRef: string | null;
    /** Changes whenever price or interval change (the provider-side idempotency key uses it). */
    version: number;
  };
}

export interface HostedSubscriptionCheckout extends HostedCheckout {
  /** The provider's price object for the plan (to store on the plan), or null. */
  providerPriceRef: string | null;
}

export interface RefundInput {
  /** The provider's payment reference stored on the order (payment intent, charge …). */
  paymentRef: string;
  amountCents: number;
  currency: string;
  /** Our id for the refund; also the provider-side idempotency key. */
  refundId: string;
  reason: string;
}

export interface RefundResult {
  /** The provider's refund id. */
  providerRef: string | null;
  /** `succeeded` at once (test provider) or `pending` until the provider's webhook confirms. */
  status: 'pending' | 'succeeded' | 'failed';
}

/** A subscription as the provider reports it (webhooks). */
export interface ProviderSubscription {
  ref: string;
  /** trialing | active | past_due | unpaid | canceled | incomplete | incomplete_expired | … */
  status: string;
  cancelAtPeriodEnd: boolean;
  periodStart: Date | null;
  periodEnd: Date | null;
  trialEnd: Date | null;
  endedAt: Date | null;
  latestInvoice: { id: string; status: string | null; amountPaidCents: number } | null;
}

export interface ProviderAddress {
  name: string;
  line1: string;
  postal_code: string;
  city: string;
  country: string;
}

/**
 * A provider webhook, normalized. `id` is the provider's event id (the deduplication key with the
 * provider's name); `type` is the provider's own event type, kept for the payment-events list.
 */
export type PaymentEvent = { id: string; type: string } & (
  | {
      kind: 'session.paid';
      /** Our checkout session id, as the provider echoes it (metadata / client reference). */
      sessionId: string | null;
      /** The provider's id of the hosted checkout. */
      providerSessionId: string;
      mode: 'payment' | 'subscription';
      /** What the buyer paid (0 for a free trial start). */
      amountCents: number | null;
      currency: string | null;
      paymentRef: string | null;
      billing: ProviderAddress | null;
      subscription: ProviderSubscription | null;
    }
  | { kind: 'session.failed' | 'session.expired'; sessionId: string | null; providerSessionId: string }
  | {
      kind: 'subscription.created' | 'subscription.updated' | 'subscription.deleted';
      subscription: ProviderSubscription;
    }
  | {
      kind: 'invoice.paid' | 'invoice.failed';
      invoice: {
        id: string;
        subscriptionRef: string | null;
        amountPaidCents: number;
        amountDueCents: number;
        attempt: number;
        nextAttemptAt: Date | null;
        periodStart: Date | null;
        periodEnd: Date | null;
      };
    }
  | {
      kind: 'refund.succeeded' | 'refund.failed';
      refund: { ref: string; paymentRef: string | null; amountCents: number; refundId: string | null };
    }
  | { kind: 'ignored' }
);

export type PaymentEventKind = PaymentEvent['kind'];

/** The webhook could not be authenticated (400 signature_invalid). */
export class WebhookSignatureError extends Error {}

export interface PaymentProvider {
  readonly name: 'test' | 'stripe';
  /** Payments through this provider are test payments (`is_test`). */
  readonly isTest: boolean;
  /** Whether this provider delivers webhooks (and so has a webhook route). */
  readonly hasWebhooks: boolean;
  createHostedCheckout(input: HostedCheckoutInput): Promise<HostedCheckout>;
  /** A hosted checkout that starts a subscription (trial and intro discount included). */
  createSubscriptionCheckout(input: SubscriptionCheckoutInput): Promise<HostedSubscriptionCheckout>;
  /**
   * Cancels a provider-managed subscription (`ref`): now, or at the end of its period. A
   * provider that bills in-process (test) has nothing to do.
   */
  cancelSubscription(ref: string, when: 'now' | 'period_end'): Promise<void>;
  /** Withdraws a scheduled cancellation. */
  resumeSubscription(ref: string): Promise<void>;
  /** Moves money back to the buyer; idempotent on `refundId`. */
  refund(input: RefundInput): Promise<RefundResult>;
  /**
   * Verifies and normalizes one webhook delivery. `secrets` are the signing secrets the
   * endpoint accepts. Throws WebhookSignatureError when none matches.
   */
  parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    secrets: string[],
  ): Promise<PaymentEvent>;
}

/** Test cards of the built-in provider (DESIGN §6). */
export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  /** Succeeds now, fails every later charge (renewals go past_due). */
  failsLater: '4000000000000341',
} as const;

export type CardOutcome = { ok: true; failsLater: boolean; last4: string } | { ok: false; message: string };

/** What the test provider does with a card number. */
export function testCardOutcome(raw: string): CardOutcome {
  const number = raw.replace(/[\s-]/g, '');
  if (number === TEST_CARDS.success) return { ok: true, failsLater: false, last4: '4242' };
  if (number === TEST_CARDS.failsLater) return { ok: true, failsLater: true, last4: '0341' };
  if (number === TEST_CARDS.declined) return { ok: false, message: 'Your card was declined.' };
  return { ok: false, message: 'Use a test card: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.' };
}
