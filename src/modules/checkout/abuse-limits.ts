/**
 * Checkout abuse limits (issue 16): how long a hosted session holds stock, and how many sessions
 * one storefront client may open. A publishable key is public, so these are what stops one
 * client from reserving a shop's stock away.
 */
import type { Ctx } from '../../platform/auth/types.js';
import { clientKey } from '../../platform/http/client-key.js';
import { consume } from '../../platform/http/rate-limit.js';

/** When a hosted checkout session created at `now` gives its stock back (CHECKOUT_RESERVATION_MINUTES). */
export function hostedReservationExpiry(ctx: Ctx, now: Date): Date {
  return new Date(now.getTime() + ctx.config.checkoutReservationMinutes * 60_000);
}

/**
 * Counts one checkout or abo session creation per publishable key and client address (an IPv6
 * client by its /64: `clientKey`), and
 * refuses with 429 and Retry-After past CHECKOUT_SESSION_RATE_LIMIT a minute. Counted in the
 * database, so every process agrees. A headless storefront's server creates sessions for many
 * shoppers from one address, hence the generous default (120). Its statement commits
 * asynchronously (see `consume`): that bucket is one hot row under such a server's load.
 */
export async function limitSessionCreation(ctx: Ctx, clientAddress: string): Promise<void> {
  if (ctx.actor?.kind !== 'publishable') return;
  await consume(
    ctx.db,
    {
      bucket: `checkout-session:${ctx.actor.keyId}:${clientKey(clientAddress)}`,
      max: ctx.config.checkoutSessionRateLimit,
      windowSeconds: 60,
    },
    // ctx.db is the pool here (never a transaction): see consume
    { asyncCommit: true },
  );
}
