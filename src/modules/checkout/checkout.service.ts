/**
 * One-time checkout sessions: price the cart in the resolved channel, reserve stock, hand the
 * buyer to the provider's hosted page, and complete exactly once into an order.
 */

import type { Static } from '@sinclair/typebox';
import { and, eq } from 'drizzle-orm';
import type { PaymentProvider } from '../../adapters/payment/port.js';
import type { Ctx } from '../../platform/auth/types.js';
import { jobs } from '../../platform/db/platform.tables.js';
import { type TxCtx, uniqueConstraintOf, withTx } from '../../platform/db/tx.js';
import { AppError, type FieldError, notFound, viaProvider } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { enqueue, jobValues } from '../../platform/jobs/queue.js';
import { catalogVersionOf, VersionedMemo } from '../../platform/versioned-memo.js';
import { releaseStock, reserveMany, reserveWith, shortRefs } from '../catalog/index.js';
import { channelAutoConfirmsOrders, type ResolvedChannel } from '../channels/index.js';
import { accountForPurchase, signedInBuyer } from '../identity/index.js';
import { type Address, createOrder, type OrderRow } from '../orders/index.js';
import { findShippingMethod, type ShippingMethod } from '../shipping/index.js';
import { emitEvent } from '../webhooks/index.js';
import { hostedReservationExpiry } from './abuse-limits.js';
import type { CheckoutCreate } from './checkout.schemas.js';
import { type CheckoutSessionRow, checkoutSessions, type PricedLine } from './checkout.tables.js';
import { enforceLineQuantity } from './checkout-settings.js';
import { destination, priceItems, type TaxContext, taxCart, type totals } from './pricing.js';
import { sessionStates } from './session-states.js';

export const EXPIRE_JOB = 'checkout.expire_session';
export const EXPIRE_ORDER_JOB = 'orders.expire_pending';

/** The body of the create-checkout-session route. */
export type CheckoutInput = Static<typeof CheckoutCreate>;

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

/** Shipping methods per (shop, method, country) and storefront version (method writes bump it). */
const shippingMethods = new VersionedMemo<ShippingMethod | null>();

function ttlHours(channel: ResolvedChannel): number {
  return channel.pending_payment_ttl_hours || 24;
}

type Flow = 'hosted' | 'direct';
type SessionValues = typeof checkoutSessions.$inferInsert;
/** A cart line that holds stock, with its index in the request's items (for out_of_stock). */
type TrackedLine = { line: PricedLine; i: number };

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

/**
 * The cart's items priced in the channel, and what the request must carry for them: addresses and
 * a shipping method for physical goods, the waiver for digital items in the direct flow, a channel
 * that allows unpaid orders for the direct flow.
 */
async function resolveCart(ctx: Ctx, channel: ResolvedChannel, input: CheckoutInput, flow: Flow) {
  const priced = await priceItems(ctx, channel.id, input.items);
  // the route summed the items as sent; a line without variant_id is its product's default variant
  await enforceLineQuantity(ctx, priced);
  const requiresShipping = priced.some((l) => !l.is_digital);
  const hasDigital = priced.some((l) => l.is_digital);

  const missing: FieldError[] = [];
  if (requiresShipping && !input.shipping_address)
    missing.push({ path: '/body/shipping_address', message: 'is required for physical goods' });
  if (requiresShipping && !input.shipping_method_id)
    missing.push({ path: '/body/shipping_method_id', message: 'is required for physical goods' });
  if (!input.customer.billing_address && (flow === 'direct' || !requiresShipping)) {
    missing.push({ path: '/body/customer/billing_address', message: 'is required' });
  }
  if (missing.length > 0) {
    throw new AppError('shipping_required', `Missing: ${missing.map((m) => m.path).join(', ')}`, missing);
  }
  if (flow === 'direct' && hasDigital && input.widerruf_verzicht !== true) {
    throw new AppError(
      'widerruf_verzicht_required',
      'Digital items in the direct flow need widerruf_verzicht: true (waiver of the right of withdrawal)',
      [{ path: '/body/widerruf_verzicht', message: 'must be true for digital items' }],
    );
  }
  if (flow === 'direct' && !channel.allow_unpaid_orders) {
    throw new AppError('direct_flow_unavailable', 'This channel takes payment at checkout; use the hosted flow', [
      { path: '/body/flow', message: 'direct flow needs a channel that allows unpaid orders' },
    ]);
  }
  return { priced, requiresShipping, hasDigital };
}

type Cart = Awaited<ReturnType<typeof resolveCart>>;

/** The destination country (shipping address, else billing address), the shipping price, and the taxed lines and totals. */
async function priceAndTax(ctx: Ctx, channel: ResolvedChannel, input: CheckoutInput, cart: Cart) {
  const destCode = cart.requiresShipping
    ? (input.shipping_address as Address).country
    : (input.customer.billing_address as Address).country;
  const country = await destination(
    ctx,
    channel.id,
    destCode,
    cart.requiresShipping ? '/body/shipping_address/country' : '/body/customer/billing_address/country',
  );
  const shippingCents = cart.requiresShipping
    ? await shippingPrice(ctx, input.shipping_method_id as string, destCode)
    : 0;
  return taxCart(
    ctx,
    channel.id,
    country,
    input.customer.billing_address,
    cart.priced,
    shippingCents,
    '/body/customer/billing_address/vat_id',
  );
}

/** The price of an active shipping method serving the country; 400 shipping_method_unavailable. */
async function shippingPrice(ctx: Ctx, methodId: string, countryCode: string): Promise<number> {
  const method = await shippingMethods.through(
    `${ctx.shopId}\u0000${methodId}\u0000${countryCode}`,
    catalogVersionOf(ctx.actor),
    () => findShippingMethod(ctx, methodId, countryCode),
  );
  if (!method) {
    throw new AppError('shipping_method_unavailable', 'The shipping method is not available for this address', [
      { path: '/body/shipping_method_id', message: 'is not available for this country' },
    ]);
  }
  return method.price_cents;
}

/** The session row to insert: the priced cart, the buyer, the provider and the expiry. */
function sessionValues(
  ctx: Ctx,
  channel: ResolvedChannel,
  input: CheckoutInput,
  flow: Flow,
  provider: PaymentProvider,
  idempotencyKey: string | null,
  buyer: Awaited<ReturnType<typeof signedInBuyer>>,
  cart: Cart,
  { lines, sums, tax }: Awaited<ReturnType<typeof taxCart>>,
) {
  const now = ctx.clock.now();
  // a hosted session holds stock for CHECKOUT_RESERVATION_MINUTES; a direct-flow unpaid order
  // keeps the channel's pending_payment_ttl_hours
  const expiresAt =
    flow === 'direct' ? new Date(now.getTime() + ttlHours(channel) * 3600_000) : hostedReservationExpiry(ctx, now);
  const values = {
    id: newId('checkoutSession'),
    shopId: ctx.shopId,
    channelId: channel.id,
    kind: 'order',
    flow,
    currency: channel.currency,
    customerEmail: buyer?.email ?? input.customer.email,
    customerId: buyer?.customerId ?? null,
    billingAddress: input.customer.billing_address ?? null,
    shippingAddress: input.shipping_address ?? null,
    shippingMethodId: input.shipping_method_id ?? null,
    lines,
    subtotalCents: sums.subtotal_cents,
    shippingCents: sums.shipping_cents,
    shippingTaxCents: sums.shipping_tax_cents,
    ...taxColumns(sums, tax),
    taxCents: sums.tax_cents,
    totalCents: sums.total_cents,
    requiresShipping: cart.requiresShipping,
    hasDigital: cart.hasDigital,
    widerrufVerzicht: input.widerruf_verzicht === true,
    widerrufVerzichtAt: input.widerruf_verzicht === true ? now : null,
    returnUrl: input.return_url,
    affiliateCode: input.affiliate_code ?? null,
    provider: provider.name,
    isTest: provider.isTest,
    stockReserved: true,
    expiresAt,
    idempotencyKey: flow === 'hosted' ? idempotencyKey : null,
    createdAt: now,
  } satisfies SessionValues;
  return values;
}

type NewSession = ReturnType<typeof sessionValues>;

/**
 * The direct flow: the session and an unpaid order (e.g. invoice or bank transfer) in one
 * transaction; the order keeps the stock until paid or expired.
 */
async function createDirectOrder(ctx: Ctx, channel: ResolvedChannel, values: NewSession, tracked: TrackedLine[]) {
  const now = values.createdAt;
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const [session] = (await tx.insert(checkoutSessions).values(values).returning()) as [CheckoutSessionRow];
    const failed = await reserveMany(
      t,
      tracked.map(({ line }) => line),
    );
    if (failed.length > 0) throw outOfStock(failed.map((k) => tracked[k]?.i ?? k));
    const order = await completeInTx(t, session, {
      now,
      status: 'pending_payment',
      autoConfirm: channel.auto_confirm_orders,
      paymentRef: null,
      orderExpiresAt: values.expiresAt,
    });
    await enqueue(
      tx,
      EXPIRE_ORDER_JOB,
      { shop_id: ctx.shopId, order_id: order.id },
      { now, runAt: values.expiresAt, shopId: ctx.shopId },
    );
    return { session: { ...session, status: 'complete' as const, orderId: order.id }, url: null as string | null };
  });
}

/**
 * The hosted flow: the session, its expiry job and the stock reservation in one statement, then
 * the provider's page. The provider call happens after the commit: a failure leaves an open
 * session that a retry with the same Idempotency-Key resumes, or that expires.
 */
async function openHostedSession(
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
async function sessionByIdempotencyKey(ctx: Ctx, key: string): Promise<CheckoutSessionRow | null> {
  const [row] = await ctx.db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.shopId, ctx.shopId), eq(checkoutSessions.idempotencyKey, key)));
  return row ?? null;
}

/** Answers a retried creation with the session it made (the provider call is idempotent per session). */
async function resumeHostedSession(ctx: Ctx, session: CheckoutSessionRow, provider: PaymentProvider) {
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

/** The session/order columns that record the shipping's tax and the VAT ID check. */
export function taxColumns(sums: ReturnType<typeof totals>, tax: TaxContext) {
  return {
    shippingTaxRate: sums.shipping_cents > 0 ? sums.shipping_tax_rate : null,
    shippingTaxCategory: sums.shipping_cents > 0 ? sums.shipping_tax_category : null,
    vatIdStatus: tax.vatId?.status ?? null,
    vatIdCheckedAt: tax.vatId?.checked_at ?? null,
  };
}

/** 409 out_of_stock naming the cart items (body indexes) the stock cannot serve. */
function outOfStock(items: number[]): AppError {
  return new AppError(
    'out_of_stock',
    'Some items are not in stock',
    [...new Set(items)]
      .sort((x, y) => x - y)
      .map((i) => ({ path: `/body/items/${i}/quantity`, message: 'is not in stock' })),
  );
}

export interface Completion {
  now: Date;
  status: 'paid' | 'pending_payment';
  autoConfirm: boolean;
  paymentRef: string | null;
  billingAddress?: Address;
  lines?: PricedLine[];
  taxCents?: number;
  shippingTaxCents?: number;
  shippingTaxRate?: number | null;
  shippingTaxCategory?: string | null;
  widerrufVerzicht?: boolean;
  orderExpiresAt?: Date | null;
}

/**
 * Turns a locked open (or, paid late, expired) session of `ctx.shopId` into an order and emits
 * checkout.completed, in the caller's transaction.
 */
export async function completeInTx(ctx: TxCtx, session: CheckoutSessionRow, c: Completion): Promise<OrderRow> {
  const tx = ctx.db;
  sessionStates.assert(session.status, 'complete');
  const customerId = await accountForPurchase(tx, ctx.shopId, session.customerId, session.customerEmail);
  const waiver = c.widerrufVerzicht ?? session.widerrufVerzicht;
  const order = await createOrder(ctx, {
    channelId: session.channelId,
    checkoutSessionId: session.id,
    customerId,
    customerEmail: session.customerEmail,
    billingAddress: c.billingAddress ?? session.billingAddress ?? null,
    shippingAddress: session.shippingAddress ?? null,
    shippingMethodId: session.shippingMethodId,
    status: c.status,
    autoConfirm: c.autoConfirm,
    currency: session.currency,
    lines: c.lines ?? session.lines,
    subtotalCents: session.subtotalCents,
    shippingCents: session.shippingCents,
    shippingTaxCents: c.shippingTaxCents ?? session.shippingTaxCents,
    shippingTaxRate: c.shippingTaxRate !== undefined ? c.shippingTaxRate : session.shippingTaxRate,
    shippingTaxCategory: c.shippingTaxCategory !== undefined ? c.shippingTaxCategory : session.shippingTaxCategory,
    vatIdStatus: session.vatIdStatus,
    vatIdCheckedAt: session.vatIdCheckedAt,
    taxCents: c.taxCents ?? session.taxCents,
    totalCents: session.totalCents,
    requiresShipping: session.requiresShipping,
    widerrufVerzicht: waiver,
    widerrufVerzichtAt: waiver ? (session.widerrufVerzichtAt ?? c.now) : null,
    affiliateCode: session.affiliateCode,
    isTest: session.isTest,
    paymentProvider: session.provider,
    paymentRef: c.paymentRef,
    expiresAt: c.orderExpiresAt ?? null,
    now: c.now,
  });
  await tx
    .update(checkoutSessions)
    .set({
      status: 'complete',
      orderId: order.id,
      completedAt: c.now,
      stockReserved: false,
      ...(c.billingAddress ? { billingAddress: c.billingAddress } : {}),
    })
    .where(and(eq(checkoutSessions.shopId, session.shopId), eq(checkoutSessions.id, session.id)));
  await emitEvent(ctx, {
    type: 'checkout.completed',
    isTest: session.isTest,
    orderingKey: `order:${order.id}`,
    now: c.now,
    data: {
      checkout_session_id: session.id,
      order_id: order.id,
      order_number: order.number,
      customer_email: session.customerEmail,
      amount_cents: order.totalCents,
      currency: order.currency,
      is_test: session.isTest,
    },
  });
  return order;
}

/** A session by its id, whatever its shop (the pay page knows only the id). */
export async function getSession(ctx: Ctx, id: string): Promise<CheckoutSessionRow | null> {
  const [row] = await ctx.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id));
  return row ?? null;
}

/**
 * Completes a paid session of `ctx.shopId` exactly once (both providers call this). A session
 * already complete returns its order; an expired one is refused.
 */
export async function completePaidSession(
  ctx: Ctx,
  sessionId: string,
  c: Omit<Completion, 'status' | 'autoConfirm'>,
): Promise<{ order: OrderRow | null; alreadyComplete: boolean; session: CheckoutSessionRow }> {
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const [session] = await tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.shopId, ctx.shopId)))
      .for('update');
    if (!session) throw notFound('Checkout session');
    // subscription sessions (kind abo) complete through modules/digital, never into a one-time order
    if (session.kind !== 'order') return { order: null, alreadyComplete: session.status === 'complete', session };
    if (session.status === 'complete') return { order: null, alreadyComplete: true, session };
    if (session.status !== 'open' || session.expiresAt <= c.now) {
      throw new AppError('session_expired', 'This checkout session has expired');
    }
    const order = await completeInTx(t, session, {
      ...c,
      status: 'paid',
      autoConfirm: await channelAutoConfirmsOrders(t, session.channelId),
    });
    return { order, alreadyComplete: false, session };
  });
}

/** Expires an open session of `ctx.shopId` and gives back its stock (job at expires_at). Idempotent. */
export async function expireSession(ctx: Ctx, sessionId: string): Promise<boolean> {
  const now = ctx.clock.now();
  return withTx(ctx, async (t) => {
    const tx = t.db;
    const [s] = await tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.shopId, ctx.shopId)))
      .for('update');
    if (!s || !sessionStates.can(s.status, 'expired') || s.expiresAt > now) return false;
    if (s.stockReserved) {
      for (const l of s.lines) if (l.track_stock) await releaseStock(t, l);
    }
    await tx
      .update(checkoutSessions)
      .set({ status: 'expired', stockReserved: false })
      .where(and(eq(checkoutSessions.shopId, ctx.shopId), eq(checkoutSessions.id, sessionId)));
    return true;
  });
}
