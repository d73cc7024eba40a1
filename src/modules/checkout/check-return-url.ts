/** The return URL of a storefront's checkout request (one-time and abo sessions alike). */
import type { Ctx } from '../../platform/auth/types.js';
import { AppError } from '../../platform/errors.js';

/** A return URL must be on the publishable key's origin allowlist. */
export function checkReturnUrl(ctx: Ctx, returnUrl: string): void {
  const actor = ctx.actor;
  let origin: string | null = null;
  try {
    const u = new URL(returnUrl);
    if (u.protocol === 'http:' || u.protocol === 'https:') origin = u.origin.toLowerCase();
  } catch {
    origin = null;
  }
  if (!origin || actor?.kind !== 'publishable' || !actor.allowedOrigins.includes(origin)) {
    throw new AppError('return_url_denied', 'return_url must be on an origin this publishable key allows', [
      { path: '/body/return_url', message: 'origin is not on the allowlist' },
    ]);
  }
}
