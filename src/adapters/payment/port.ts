/**
 * The payment provider port (DESIGN §1). `test` is the built-in provider with a hosted page
 * and test cards; `stripe` uses the official SDK. Completion is one code path for both.
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

export interface PaymentProvider {
  readonly name: 'test' | 'stripe';
  /** Payments through this provider are test payments (`is_test`). */
  readonly isTest: boolean;
  createHostedCheckout(input: HostedCheckoutInput): Promise<HostedCheckout>;
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
