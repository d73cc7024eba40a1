/** The built-in `test` provider: the checkout backend's own hosted page `/pay/:session_id`. */
import type {
  HostedCheckout,
  HostedCheckoutInput,
  HostedSubscriptionCheckout,
  PaymentEvent,
  PaymentProvider,
  RefundInput,
  RefundResult,
  SubscriptionCheckoutInput,
} from './port.js';
import { WebhookSignatureError } from './port.js';

export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test' as const;
  readonly isTest = true;
  /** The hosted page completes in-process: there is nothing to receive. */
  readonly hasWebhooks = false;

  constructor(private readonly publicUrl: string) {}

  async createHostedCheckout(input: HostedCheckoutInput): Promise<HostedCheckout> {
    return { url: `${this.publicUrl}/pay/${input.sessionId}`, providerRef: null };
  }

  async createSubscriptionCheckout(input: SubscriptionCheckoutInput): Promise<HostedSubscriptionCheckout> {
    return { url: `${this.publicUrl}/pay/${input.sessionId}`, providerRef: null, providerPriceRef: null };
  }

  /** The test provider's subscriptions are billed by the worker (modules/digital): nothing to tell. */
  async cancelSubscription(): Promise<void> {}

  async resumeSubscription(): Promise<void> {}

  /** Test money goes back at once. */
  async refund(input: RefundInput): Promise<RefundResult> {
    return { providerRef: `test_re_${input.refundId}`, status: 'succeeded' };
  }

  async parseWebhook(): Promise<PaymentEvent> {
    throw new WebhookSignatureError('The test provider sends no webhooks');
  }
}
