/** The built-in `test` provider: the checkout backend's own hosted page `/pay/:session_id`. */
import type {
  HostedCheckout,
  HostedCheckoutInput,
  HostedSubscriptionCheckout,
  PaymentEvent,
  PaymentProvider,
  RefundInput,
  RefundLookup,
  RefundResult,
  RenewalBilling,
  RenewalChargeInput,
  RenewalChargeResult,
  SubscriptionCheckoutInput,
} from './port.js';
import { WebhookSignatureError } from './port.js';

/** Test cards of the built-in provider (docs/payments.md). */
export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  /** Succeeds now, fails every later charge (renewals go past_due). */
  failsLater: '4000000000000341',
} as const;

export type CardOutcome = { ok: true; failsLater: boolean; last4: string } | { ok: false; message: string };

/**
 * What the test provider does with a card number entered on its hosted page (`/pay/:id`). On
 * success, `{last4, failsLater}` is the stored payment method a subscription keeps for
 * `chargeRenewal`.
 */
export function testCardOutcome(raw: string): CardOutcome {
  const number = raw.replace(/[\s-]/g, '');
  if (number === TEST_CARDS.success) return { ok: true, failsLater: false, last4: '4242' };
  if (number === TEST_CARDS.failsLater) return { ok: true, failsLater: true, last4: '0341' };
  if (number === TEST_CARDS.declined) return { ok: false, message: 'Your card was declined.' };
  return { ok: false, message: 'Use a test card: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined.' };
}

export class TestPaymentProvider implements PaymentProvider {
  /** The worker charges the test provider's renewals (modules/digital/renewals.ts). */
  static readonly renewalBilling: RenewalBilling = 'charged_by_us';
  readonly name = 'test' as const;
  readonly isTest = true;
  /** The hosted page completes in-process: there is nothing to receive. */
  readonly hasWebhooks = false;
  readonly renewalBilling = TestPaymentProvider.renewalBilling;

  constructor(private readonly publicUrl: string) {}

  async createHostedCheckout(input: HostedCheckoutInput): Promise<HostedCheckout> {
    return { url: `${this.publicUrl}/pay/${input.sessionId}`, providerRef: null };
  }

  async createSubscriptionCheckout(input: SubscriptionCheckoutInput): Promise<HostedSubscriptionCheckout> {
    return {
      url: `${this.publicUrl}/pay/${input.sessionId}`,
      providerRef: null,
      providerPriceRef: null,
      providerCouponRef: null,
    };
  }

  /** The test provider's subscriptions are billed by the worker (modules/digital): nothing to tell. */
  async cancelSubscription(): Promise<void> {}

  async resumeSubscription(): Promise<void> {}

  /**
   * A renewal charge of the stored test card: 4242… always succeeds; 4000000000000341 succeeded
   * at the first payment and declines every later charge (docs/payments.md). The payment reference is
   * deterministic per subscription and payment number.
   */
  async chargeRenewal(input: RenewalChargeInput): Promise<RenewalChargeResult> {
    if (input.paymentMethod.failsLater) return { ok: false, message: 'Your card was declined.' };
    return {
      ok: true,
      paymentRef: `test_${input.paymentMethod.last4 ?? '0000'}_${input.subscriptionId}_${input.paymentNumber}`,
    };
  }

  /** The refunds this process made (refund id → result): what `findRefund` knows. */
  private readonly refunded = new Map<string, RefundResult>();

  /** Test money goes back at once. */
  async refund(input: RefundInput): Promise<RefundResult> {
    const result: RefundResult = { providerRef: `test_re_${input.refundId}`, status: 'succeeded' };
    this.refunded.set(input.refundId, result);
    return result;
  }

  /**
   * The refund this process made for `refundId`, or null. No money moves here: after a restart a
   * refund is simply made again (as `test_re_<refund id>`, the same reference).
   */
  async findRefund(input: RefundLookup): Promise<RefundResult | null> {
    return this.refunded.get(input.refundId) ?? null;
  }

  async parseWebhook(): Promise<PaymentEvent> {
    throw new WebhookSignatureError('The test provider sends no webhooks');
  }
}
