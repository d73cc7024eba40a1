/**
 * The hosted flow of a checkout request (create-checkout-session.ts): the session with its stock
 * reservation, then the provider's page; a retried request resumes the session it made.
 */
import { and, eq } from 'drizzle-orm';
import type { PaymentProvider } from '../../adapters/payment/port.js';
import type { Ctx } from '../../platform/auth/types.js';
import { jobs } from '../../platform/db/platform.tables.js';
import { uniqueConstraintOf } from '../../platform/db/tx.js';
import { viaProvider } from '../../platform/errors.js';
import { jobValues } from '../../platform/jobs/queue.js';
import { reserveWith, shortRefs } from '../catalog/index.js';
import { type CheckoutSessionRow, checkoutSessions } from './checkout.tables.js';
import { EXPIRE_JOB } from './expire-session.js';
import { type NewSession, outOfStock, type TrackedLine } from './resolve-cart.js';

/**
 * The hosted flow: the session, its expiry job and the stock reservation in one statement, then
 * the provider's page. The provider call happens after the commit: a failure leaves an open
 * session that a retry with the same Idempotency-Key resumes, or that expires.
 */
export async function openHostedSession(
  ctx: Ctx,
  values: NewSession,
  tracked: TrackedLine[],
  provider: PaymentProvider,
  idempotencyKey: string | null,
) {
  let reserved: Awaited<ReturnType<typeof reserveWith>>;
  try {
    reserved = await insertReserving(ctx, values, tracked);
  } catch (err) {
    // the same key raced in from another request: that one made the session
    const existing =
      idempotencyKey && uniqueConstraintOf(err) !== null ? await sessionByIdempotencyKey(ctx, idempotencyKey) : null;
    if (existing) return resumeHostedSession(ctx, existing, provider);
    throw err;
  }
  if (!reserved) {
    const short = await shortRefs(
      ctx,
      tracked.map(({ line }) => line),
    );
    throw outOfStock((short.length > 0 ? short : tracked.map((_, k) => k)).map((k) => tracked[k]?.i ?? k));
  }
  const session = openSessionRow(values);
  const url = await hostAtProvider(ctx, session, provider);
  return { session, url };
}

/**
 * Writes the session, its expiry job and the stock reservation in one short transaction
 * (`reserveWith`): the contended stock row locks (every buyer of an item waits on them) are held
 * only while its few statements run, never across the app's other round trips; a refusal leaves
 * nothing behind.
 */
function insertReserving(ctx: Ctx, values: NewSession, tracked: TrackedLine[]) {
  const job = jobValues(
    EXPIRE_JOB,
    { shop_id: ctx.shopId, session_id: values.id },
    { now: values.createdAt, runAt: values.expiresAt, shopId: ctx.shopId },
  );
  return reserveWith(
    ctx,
    tracked.map(({ line }) => line),
    [
      { table: checkoutSessions, values },
      { table: jobs, values: job },
    ],
  );
}

/** The row `insertReserving` wrote, without reading it back. */
function openSessionRow(values: NewSession): CheckoutSessionRow {
  return {
    ...(values as CheckoutSessionRow),
    status: 'open',
    kind: 'order',
    flow: values.flow,
    customerId: values.customerId,
    billingAddress: values.billingAddress ?? null,
    shippingAddress: values.shippingAddress ?? null,
    shippingMethodId: values.shippingMethodId ?? null,
    shippingCents: values.shippingCents,
    shippingTaxCents: values.shippingTaxCents,
    shippingTaxRate: values.shippingTaxRate ?? null,
    shippingTaxCategory: values.shippingTaxCategory ?? null,
    vatIdStatus: values.vatIdStatus ?? null,
    vatIdCheckedAt: values.vatIdCheckedAt ?? null,
    widerrufVerzicht: values.widerrufVerzicht,
    widerrufVerzichtAt: values.widerrufVerzichtAt ?? null,
    affiliateCode: values.affiliateCode ?? null,
    planId: null,
    providerRef: null,
    orderId: null,
    subscriptionId: null,
    completedAt: null,
    stockReserved: true,
    createdAt: values.createdAt,
  };
}

/** The session a caller's Idempotency-Key created before, if any. */
export async function sessionByIdempotencyKey(ctx: Ctx, key: string): Promise<CheckoutSessionRow | null> {
  const [row] = await ctx.db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.shopId, ctx.shopId), eq(checkoutSessions.idempotencyKey, key)));
  return row ?? null;
}

/** Answers a retried creation with the session it made (the provider call is idempotent per session). */
export async function resumeHostedSession(ctx: Ctx, session: CheckoutSessionRow, provider: PaymentProvider) {
  const url = session.status === 'open' ? await hostAtProvider(ctx, session, provider) : null;
  const [fresh] = await ctx.db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.shopId, session.shopId), eq(checkoutSessions.id, session.id)));
  return { session: fresh ?? session, url };
}

/** Creates (or, idempotently, fetches again) the provider's hosted page of a session. */
async function hostAtProvider(ctx: Ctx, session: CheckoutSessionRow, provider: PaymentProvider): Promise<string> {
  // a failure is a 5xx: the Idempotency-Key is released and a retry resumes this session
  const hosted = await viaProvider('The payment provider is unavailable', () =>
    provider.createHostedCheckout({
      sessionId: session.id,
      shopId: session.shopId,
      currency: session.currency,
      customerEmail: session.customerEmail,
      lines: session.lines.map((l) => ({ name: l.name, quantity: l.quantity, unit_price_cents: l.unit_price_cents })),
      shippingCents: session.shippingCents,
      totalCents: session.totalCents,
      returnUrl: session.returnUrl,
      // stored values only: a resumed session sends the provider the request it sent before
      createdAt: session.createdAt,
      expiresAt: session.expiresAt,
    }),
  );
  if (hosted.providerRef && hosted.providerRef !== session.providerRef) {
    await ctx.db
      .update(checkoutSessions)
      .set({ providerRef: hosted.providerRef })
      .where(and(eq(checkoutSessions.shopId, session.shopId), eq(checkoutSessions.id, session.id)));
  }
  return hosted.url;
}
