/**
 * The payment provider port (docs/payments.md). `test` is the built-in provider with a hosted page
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
  /**
   * Our session's stored creation and expiry. The provider derives its own expiry from these, never
   * from the time of the call: a retry under the same idempotency key sends the same request.
   */
  createdAt: Date;
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
  /** Our session's stored creation and expiry (see HostedCheckoutInput). */
  createdAt: Date;
  expiresAt: Date;
  plan: {
    id: string;
    /** The name the provider shows for the recurring price: the session line's name as stored. */
    priceName: string;
    currency: string;
    /** The recurring amount to charge: the plan's gross price, or its net in a 0 % tax row (docs/finance.md). */
    priceCents: number;
    intervalUnit: 'day' | 'week' | 'month' | 'year';
    intervalCount: number;
    trialDays: number;
    introDiscountPercent: number | null;
    introDiscountMonths: number | null;
    /** The provider's price object made before for exactly these terms (amount, currency, interval, name), if any. */
    providerPriceRef: string | null;
    /** The provider's coupon made before for this plan's intro discount terms, if any. */
    providerCouponRef: string | null;
  };
}

export interface HostedSubscriptionCheckout extends HostedCheckout {
  /** The provider's price object used (to store for these terms and reuse), or null. */
  providerPriceRef: string | null;
  /** The provider's intro-discount coupon used (to store and reuse), or null. */
  providerCouponRef: string | null;
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

/** Which refund `findRefund` looks for: the one made for our `refundId` on the payment `paymentRef`. */
export interface RefundLookup {
  paymentRef: string;
  refundId: string;
}

/**
 * The provider refused a refund and says so: no refund was made (Stripe: a 4xx answer such as a
 * card or invalid-request error, not an idempotency conflict or a rate limit). `refund` throws it
 * for a definitive refusal only; any other error of `refund` (a 5xx, a timeout, a reset
 * connection) leaves open whether the money moved (docs/payments.md, "Refund states").
 */
export class RefundRefusedError extends Error {}

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
export type PaymentEvent = {
  id: string;
  type: string;
  /**
   * When the provider created the event (Stripe: `created`), if it says. Whatever the event made
   * us call at the provider was first called no earlier (the late-payment refund uses it to know
   * whether an idempotent call may still be replayed).
   */
  createdAt?: Date | null;
} & (
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
      refund: {
        ref: string;
        paymentRef: string | null;
        amountCents: number;
        refundId: string | null;
        /** Why the provider failed it (Stripe's `failure_reason`, e.g. `expired_or_canceled_card`), if it says. */
        failureReason?: string | null;
      };
    }
  | { kind: 'ignored' }
);

export type PaymentEventKind = PaymentEvent['kind'];

/** The webhook could not be authenticated (400 signature_invalid). */
export class WebhookSignatureError extends Error {}

/**
 * The payment method the provider stored at the first payment, as the subscription keeps it
 * (`abos.card_last4`, `abos.card_fails_later`). Opaque to the modules: they store what the
 * provider's hosted page returned and hand it back to `chargeRenewal`.
 */
export interface StoredPaymentMethod {
  last4: string | null;
  /** The test provider's 4000000000000341: it succeeded once and declines every later charge. */
  failsLater: boolean;
}

export interface RenewalChargeInput {
  /** Our subscription id. */
  subscriptionId: string;
  /** The payment number this charge would be (payments so far + 1). */
  paymentNumber: number;
  amountCents: number;
  currency: string;
  paymentMethod: StoredPaymentMethod;
}

export type RenewalChargeResult = { ok: true; paymentRef: string } | { ok: false; message: string };

/**
 * Who charges a subscription's renewals (trial end, period end, dunning retries):
 * - `charged_by_us`: our worker's lifecycle engine (modules/digital/renewals.ts) calls
 *   `chargeRenewal` when a payment is due (the test provider);
 * - `provider_managed`: the provider charges and retries by itself and reports each attempt by
 *   webhook (`invoice.paid` / `invoice.failed`); `chargeRenewal` is never called (Stripe).
 */
export type RenewalBilling = 'charged_by_us' | 'provider_managed';

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
  /** Who charges renewals; see RenewalBilling. */
  readonly renewalBilling: RenewalBilling;
  /**
   * Charges one renewal (or dunning retry) of a subscription with its stored payment method.
   * Only called when `renewalBilling` is `charged_by_us`; a provider-managed provider throws.
   * A declined charge is a result (`ok: false`), not an exception.
   */
  chargeRenewal(input: RenewalChargeInput): Promise<RenewalChargeResult>;
  /**
   * Moves money back to the buyer; idempotent on `refundId` (within the provider's replay window,
   * Stripe: 24 hours). Throws RefundRefusedError when the provider definitively made no refund;
   * any other error means the outcome is unknown (ask `findRefund`, never a fresh refund).
   */
  refund(input: RefundInput): Promise<RefundResult>;
  /**
   * The refund made for our `refundId` as the provider has it now, found by what `refund` stores
   * with it (Stripe: the metadata `refund_id` among the payment's refunds, which works for ever,
   * unlike the idempotency key); null when the provider definitively has none. Throws when it
   * cannot tell (the caller asks again later).
   */
  findRefund(input: RefundLookup): Promise<RefundResult | null>;
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
