/**
 * Login throttling (docs/ARCHITECTURE.md). Only failed attempts count, in two fixed windows: per (account,
 * client IP) and per client IP (an IPv6 client by its /64: `clientKey`). A failure slot is reserved in both windows BEFORE the password is
 * verified, so parallel guesses can never verify more passwords than the limit; a correct password
 * gives its slots back (a successful login never counts), a refused attempt gives them back too.
 * The owner of an account can still sign in from another address while one address is throttled.
 */
import type { Config } from '../../config.js';
import type { Ctx } from '../../platform/auth/types.js';
import { clientKey } from '../../platform/http/client-key.js';
import { release, reserve, tooMany } from '../../platform/http/rate-limit.js';

let limits: Config['loginThrottle'] = {
  accountMaxFailures: 5,
  accountWindowSeconds: 900,
  ipMaxFailures: 100,
  ipWindowSeconds: 900,
};

/** Applies LOGIN_* (called once when the app is built). */
export function configureLoginThrottle(l: Config['loginThrottle']): void {
  limits = l;
}

/**
 * Runs `verify` (the password check) under the throttle of `scope` (e.g. `admin`,
 * `customer:<shop>`) for this e-mail and address. Returns its result; 429 with Retry-After when a
 * window is full, without verifying anything.
 */
export async function throttledVerify(
  ctx: Ctx,
  scope: string,
  email: string,
  ip: string,
  verify: () => Promise<boolean>,
): Promise<boolean> {
  const client = clientKey(ip); // an IPv6 client by its /64
  const buckets = [
    {
      bucket: `login:fail:${scope}:${email.toLowerCase()}:${client}`,
      max: limits.accountMaxFailures,
      windowSeconds: limits.accountWindowSeconds,
    },
    { bucket: `login:fail:ip:${client}`, max: limits.ipMaxFailures, windowSeconds: limits.ipWindowSeconds },
  ];
  const { db } = ctx;
  const taken: Array<{ bucket: string; start: Date }> = [];
  const giveBack = () => Promise.all(taken.map((t) => release(db, t.bucket, t.start)));
  // The first full window refuses: the attempt does not go on to take (even for a moment) a slot of
  // the next one, where it could make a parallel attempt that is within both limits look over one.
  let refusedFor = 0;
  for (const b of buckets) {
    const r = await reserve(db, b);
    taken.push({ bucket: b.bucket, start: r.start });
    if (!r.ok) {
      refusedFor = r.retryAfter;
      break;
    }
  }
  if (refusedFor > 0) {
    await giveBack();
    throw tooMany(refusedFor);
  }
  let ok: boolean;
  try {
    ok = await verify();
  } catch (err) {
    await giveBack(); // e.g. 503 busy: nothing was verified
    throw err;
  }
  if (ok) await giveBack();
  return ok;
}
