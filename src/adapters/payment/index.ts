import type { Config } from '../../config.js';
import type { PaymentProvider, RenewalBilling } from './port.js';
import { StripePaymentProvider } from './stripe-provider.js';
import { TestPaymentProvider } from './test-provider.js';

export type { PaymentProvider, RenewalBilling } from './port.js';

const byConfig = new WeakMap<Config, PaymentProvider>();

/** The one provider instance of a configuration (the SDK client is made once). */
export function paymentProviderFor(config: Config): PaymentProvider {
  let provider = byConfig.get(config);
  if (!provider) {
    provider = createPaymentProvider(config);
    byConfig.set(config, provider);
  }
  return provider;
}

/** The provider the configuration names (PAYMENT_PROVIDER). */
export function createPaymentProvider(config: Config): PaymentProvider {
  if (config.paymentProvider === 'stripe') {
    return new StripePaymentProvider({
      secretKey: config.stripeSecretKey as string,
      apiBase: config.stripeApiBase,
      refundCalls: config.stripeRefundCalls,
    });
  }
  return new TestPaymentProvider(config.publicUrl);
}

const RENEWAL_BILLING: Record<PaymentProvider['name'], RenewalBilling> = {
  test: TestPaymentProvider.renewalBilling,
  stripe: StripePaymentProvider.renewalBilling,
};

/**
 * Who charges the renewals of a subscription recorded with `providerName` — a capability of the
 * provider's class, known without configuration (the lifecycle engine schedules where no
 * configuration is at hand). An unknown name is never charged here.
 */
export function renewalBillingOf(providerName: string): RenewalBilling {
  return RENEWAL_BILLING[providerName as PaymentProvider['name']] ?? 'provider_managed';
}

const testByConfig = new WeakMap<Config, TestPaymentProvider>();

/**
 * The provider a stored subscription or payment belongs to, by the name recorded on it: the
 * configured provider when the names match; the built-in test provider for test subscriptions
 * made before a switch to Stripe (they keep renewing in the worker, as they always did).
 */
export function paymentProviderOf(config: Config, providerName: string): PaymentProvider {
  const configured = paymentProviderFor(config);
  if (configured.name === providerName) return configured;
  if (providerName === 'test') {
    let test = testByConfig.get(config);
    if (!test) {
      test = new TestPaymentProvider(config.publicUrl);
      testByConfig.set(config, test);
    }
    return test;
  }
  throw new Error(`Payment provider ${providerName} is not configured`);
}
