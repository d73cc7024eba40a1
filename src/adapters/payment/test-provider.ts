/** The built-in `test` provider: the checkout backend's own hosted page `/pay/:session_id`. */
import type { HostedCheckout, HostedCheckoutInput, PaymentProvider } from './port.js';

export class TestPaymentProvider implements PaymentProvider {
  readonly name = 'test' as const;
  readonly isTest = true;

  constructor(private readonly publicUrl: string) {}

  async createHostedCheckout(input: HostedCheckoutInput): Promise<HostedCheckout> {
    return { url: `${this.publicUrl}/pay/${input.sessionId}`, providerRef: null };
  }
}
