/**
 * A storefront's checkout request (`POST /api/store/checkout-sessions`, also under a channel's
 * path prefix): the checks that need no session, then the session itself (create-checkout-session.ts).
 */
import type { PaymentProvider } from '../../adapters/payment/port.js';
import type { Ctx } from '../../platform/auth/types.js';
import { type ResolvedChannel, resolveChannel } from '../channels/index.js';
import { limitSessionCreation } from './abuse-limits.js';
import type { CheckoutInput } from './checkout.schemas.js';
import { enforceLineQuantity } from './checkout-settings.js';
import { createCheckoutSession } from './create-checkout-session.js';

export interface CheckoutRequest {
  /** The client's address, for the creation limit per client (abuse-limits.ts). */
  clientAddress: string;
  /** What names the sale channel: Origin, Referer, the path's `/:prefix`. */
  channel: Parameters<typeof resolveChannel>[1];
  body: CheckoutInput;
  /** The request's idempotency claim (`principal|key`): a retry resumes the session it made. */
  idempotencyKey: string | null;
  /** Told the channel once it is resolved, before the session is made (the route's X-Channel-Id, on a refusal of the session too). */
  onChannel(channel: ResolvedChannel): void;
}

/**
 * Checks the creation limit, the line-quantity maximum and the sale channel side by side, in one
 * round trip's time; their refusals keep their order (429 before a line above the maximum before
 * channel_not_found), and the creation is counted whatever the outcome. Then creates (or resumes)
 * the session in the resolved channel.
 */
export async function startCheckout(ctx: Ctx, request: CheckoutRequest, provider: PaymentProvider) {
  const [limited, quantity, resolved] = await Promise.allSettled([
    limitSessionCreation(ctx, request.clientAddress),
    enforceLineQuantity(ctx, request.body.items),
    resolveChannel(ctx, request.channel),
  ]);
  if (limited.status === 'rejected') throw limited.reason;
  if (quantity.status === 'rejected') throw quantity.reason;
  if (resolved.status === 'rejected') throw resolved.reason;
  const channel = resolved.value;
  request.onChannel(channel);
  return createCheckoutSession(ctx, channel, request.body, provider, request.idempotencyKey);
}
