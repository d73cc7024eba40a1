/**
 * The payment port's renewal charge (docs/payments.md): the test provider charges its stored test
 * cards; Stripe bills renewals itself and is never asked to.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createPaymentProvider, paymentProviderOf, renewalBillingOf } from './index.js';
import { TestPaymentProvider, testCardOutcome } from './test-provider.js';

const renewal = (last4: string | null, failsLater: boolean) => ({
  subscriptionId: 'abo_1',
  paymentNumber: 2,
  amountCents: 990,
  currency: 'EUR',
  paymentMethod: { last4, failsLater },
});

describe('payment port: renewal charges', () => {
  const test = new TestPaymentProvider('http://localhost:3000');

  it('test cards: 4242 stores a card that keeps paying, 0341 one that declines every later charge', async () => {
    const good = testCardOutcome('4242 4242 4242 4242');
    const later = testCardOutcome('4000-0000-0000-0341');
    expect(good).toEqual({ ok: true, failsLater: false, last4: '4242' });
    expect(later).toEqual({ ok: true, failsLater: true, last4: '0341' });
    expect(testCardOutcome('4000000000000002')).toEqual({ ok: false, message: 'Your card was declined.' });
    expect(testCardOutcome('1234').ok).toBe(false);

    expect(await test.chargeRenewal(renewal('4242', false))).toEqual({ ok: true, paymentRef: 'test_4242_abo_1_2' });
    expect(await test.chargeRenewal(renewal(null, false))).toEqual({ ok: true, paymentRef: 'test_0000_abo_1_2' });
    expect(await test.chargeRenewal(renewal('0341', true))).toEqual({ ok: false, message: 'Your card was declined.' });
  });

  it('the test provider is charged by us, Stripe manages its renewals and refuses to charge', async () => {
    expect(test.renewalBilling).toBe('charged_by_us');
    expect(renewalBillingOf('test')).toBe('charged_by_us');
    expect(renewalBillingOf('stripe')).toBe('provider_managed');
    expect(renewalBillingOf('unknown')).toBe('provider_managed');

    const stripe = createPaymentProvider(
      loadConfig({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x', DATA_DIR: 'memory' }),
    );
    expect(stripe.renewalBilling).toBe('provider_managed');
    await expect(stripe.chargeRenewal(renewal('4242', false))).rejects.toThrow(/invoice webhooks/);
  });

  it('a test subscription is charged by the test provider even when Stripe is configured', () => {
    const stripeConfig = loadConfig({ PAYMENT_PROVIDER: 'stripe', STRIPE_SECRET_KEY: 'sk_test_x', DATA_DIR: 'memory' });
    expect(paymentProviderOf(stripeConfig, 'stripe').name).toBe('stripe');
    const forTest = paymentProviderOf(stripeConfig, 'test');
    expect(forTest.name).toBe('test');
    expect(paymentProviderOf(stripeConfig, 'test')).toBe(forTest);
    const testConfig = loadConfig({ DATA_DIR: 'memory' });
    expect(() => paymentProviderOf(testConfig, 'stripe')).toThrow(/not configured/);
  });
});
