/**
 * One-time checkout sessions: price the cart in the resolved channel (resolve-cart.ts), reserve
 * stock, and hand the buyer to the provider's hosted page (open-hosted-session.ts) or, in the
 * direct flow, make the unpaid order (create-direct-order.ts). A paid session completes exactly
 * once into an order (complete-session.ts); an unpaid one expires (expire-session.ts).
 */
import type { PaymentProvider } from '../../adapters/payment/port.js';
import type { Ctx } from '../../platform/auth/types.js';
import { AppError } from '../../platform/errors.js';
import type { ResolvedChannel } from '../channels/index.js';
import { signedInBuyer } from '../identity/index.js';
import { checkReturnUrl } from './check-return-url.js';
import type { CheckoutInput } from './checkout.schemas.js';
import { createDirectOrder } from './create-direct-order.js';
import { openHostedSession, resumeHostedSession, sessionByIdempotencyKey } from './open-hosted-session.js';
import { priceAndTax, resolveCart, sessionValues } from './resolve-cart.js';

/**
 * Creates a session (hosted) or, in the direct flow of a channel that allows it, an unpaid order:
 * resolve the cart, price and tax it, then persist it with its stock reservation.
 */
export async function createCheckoutSession(
  ctx: Ctx,
  channel: ResolvedChannel,
  input: CheckoutInput,
  provider: PaymentProvider,
  idempotencyKey: string | null = null,
) {
  const flow = input.flow ?? 'hosted';
  if (flow === 'hosted' && idempotencyKey) {
    // a retry of a request that already created its session (its answer was lost, the provider
    // failed, or the process died) resumes that session: no second reservation
    const existing = await sessionByIdempotencyKey(ctx, idempotencyKey);
    if (existing) return resumeHostedSession(ctx, existing, provider);
  }
  refuseDiscountCode(input);
  checkReturnUrl(ctx, input.return_url);
  // a signed-in buyer's purchase belongs to the account at once (docs/ARCHITECTURE.md)
  const buyer = await signedInBuyer(ctx, input.customer.email, '/body/customer/email');
  const cart = await resolveCart(ctx, channel, input, flow);
  const taxed = await priceAndTax(ctx, channel, input, cart);
  const values = sessionValues(ctx, channel, input, flow, provider, idempotencyKey, buyer, cart, taxed);
  const tracked = values.lines.map((line, i) => ({ line, i })).filter(({ line }) => line.track_stock);
  if (flow === 'direct') return createDirectOrder(ctx, channel, values, tracked);
  return openHostedSession(ctx, values, tracked, provider, idempotencyKey);
}

function refuseDiscountCode(input: CheckoutInput): void {
  if (input.discount_code !== undefined) {
    throw new AppError('discount_unsupported', 'Discount codes are not supported', [
      { path: '/body/discount_code', message: 'discount codes are not supported' },
    ]);
  }
}
