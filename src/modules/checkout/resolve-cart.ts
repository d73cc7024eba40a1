/**
 * The cart of a checkout request (create-checkout-session.ts): priced and taxed in the resolved
 * channel, checked for what it needs (addresses, shipping method, waiver, flow), and turned into
 * the session row to insert.
 */
import type { PaymentProvider } from '../../adapters/payment/port.js';
import type { Ctx } from '../../platform/auth/types.js';
import { AppError, type FieldError } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { catalogVersionOf, VersionedMemo } from '../../platform/versioned-memo.js';
import type { ResolvedChannel } from '../channels/index.js';
import type { signedInBuyer } from '../identity/index.js';
import type { Address } from '../orders/index.js';
import { findShippingMethod, type ShippingMethod } from '../shipping/index.js';
import { hostedReservationExpiry } from './abuse-limits.js';
import type { CheckoutInput } from './checkout.schemas.js';
import type { checkoutSessions, PricedLine } from './checkout.tables.js';
import { enforceLineQuantity } from './checkout-settings.js';
import { destination, priceItems, type TaxContext, taxCart, type totals } from './pricing.js';

/** Shipping methods per (shop, method, country) and storefront version (method writes bump it). */
const shippingMethods = new VersionedMemo<ShippingMethod | null>();

function ttlHours(channel: ResolvedChannel): number {
  return channel.pending_payment_ttl_hours || 24;
}

type Flow = 'hosted' | 'direct';
type SessionValues = typeof checkoutSessions.$inferInsert;
/** A cart line that holds stock, with its index in the request's items (for out_of_stock). */
export type TrackedLine = { line: PricedLine; i: number };

/**
 * The cart's items priced in the channel, and what the request must carry for them: addresses and
 * a shipping method for physical goods, the waiver for digital items in the direct flow, a channel
 * that allows unpaid orders for the direct flow.
 */
export async function resolveCart(ctx: Ctx, channel: ResolvedChannel, input: CheckoutInput, flow: Flow) {
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
export async function priceAndTax(ctx: Ctx, channel: ResolvedChannel, input: CheckoutInput, cart: Cart) {
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
export function sessionValues(
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

export type NewSession = ReturnType<typeof sessionValues>;

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
export function outOfStock(items: number[]): AppError {
  return new AppError(
    'out_of_stock',
    'Some items are not in stock',
    [...new Set(items)]
      .sort((x, y) => x - y)
      .map((i) => ({ path: `/body/items/${i}/quantity`, message: 'is not in stock' })),
  );
}
