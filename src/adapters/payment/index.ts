import type { Config } from '../../config.js';
import type { PaymentProvider } from './port.js';
import { StripePaymentProvider } from './stripe-provider.js';
import { TestPaymentProvider } from './test-provider.js';

export type { PaymentProvider } from './port.js';

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
    });
  }
  return new TestPaymentProvider(config.publicUrl);
}
