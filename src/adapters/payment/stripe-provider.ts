/**
 * The `stripe` provider: Checkout Sessions in hosted mode through the official SDK. The API
 * base is configurable (STRIPE_API_BASE) so tests run the real SDK against a local stub.
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type Stripe from 'stripe';
import {
  type HostedCheckout,
  type HostedCheckoutInput,
  type HostedSubscriptionCheckout,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderSubscription,
  type RefundInput,
  type RefundLookup,
  RefundRefusedError,
  type RefundResult,
  type RenewalBilling,
  type RenewalChargeResult,
  type SubscriptionCheckoutInput,
  WebhookSignatureError,
} from './port.js';

export interface StripeOptions {
  secretKey: string;
  apiBase: string | null;
  /** Timeout of one attempt and the SDK's retries of the refund calls (default 20 s and 2). */
  refundCalls?: { timeoutMs: number; maxNetworkRetries: number };
}

/**
 * The Stripe API version of every request (`Stripe-Version`) and the one the webhook endpoint must
 * be created with (docs/payments.md): the version the installed SDK (stripe@23.1.0) is generated
 * for, whose types `normalize` reads. Pinned here so that an SDK upgrade does not change it
 * silently: the type is the SDK's `LatestApiVersion`, so an SDK with another version fails the
 * type check until this constant (and the webhook endpoint) is moved on with it.
 */
export const STRIPE_API_VERSION: Stripe.LatestApiVersion = '2026-10-28.endive';

/**
 * The first API version whose event shapes `normalize` reads: `invoice.parent.subscription_details
 * .subscription` and `subscription.items.data[0].current_period_*` (2025-03-31.basil). An invoice or
 * subscription event rendered in an older version (an endpoint created with one) is read from the
 * API instead (in STRIPE_API_VERSION), never as nulls.
 */
export const EVENT_SHAPES_SINCE = '2025-03-31.basil';

/** Whether an event's `api_version` predates EVENT_SHAPES_SINCE (dates compare as text). */
export function predatesEventShapes(apiVersion: string | null | undefined): boolean {
  return !!apiVersion && apiVersion.slice(0, 10) < EVENT_SHAPES_SINCE.slice(0, 10);
}

/** The SDK is loaded on first use: a shop without Stripe never pays for its memory. */
let StripeSdk: typeof Stripe | null = null;

export function stripeClient(opts: StripeOptions): Stripe {
  StripeSdk ??= createRequire(import.meta.url)('stripe') as typeof Stripe;
  const base = opts.apiBase ? new URL(opts.apiBase) : null;
  return new StripeSdk(opts.secretKey, {
    apiVersion: STRIPE_API_VERSION,
    telemetry: false,
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(base
      ? {
          host: base.hostname,
          port: base.port || (base.protocol === 'https:' ? 443 : 80),
          protocol: base.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

/**
 * The `expires_at` of a Checkout Session, from our session's stored creation and expiry only, never
 * from the time of the call: the retry of a lost answer, under the same idempotency key, sends the
 * same value (Stripe answers 400 `idempotency_error` to changed parameters under one key). Stripe
 * takes 30 minutes to 24 hours ahead of its receipt: at least 35 minutes after our creation
 * (a retry up to 5 minutes later still meets the minimum should the first attempt never have
 * reached Stripe; one that did is replayed whatever the time), at most 23.5 hours.
 */
export function stripeExpiry(createdAt: Date, expiresAt: Date): number {
  const created = createdAt.getTime();
  const clamped = Math.min(Math.max(expiresAt.getTime(), created + 35 * 60_000), created + 23.5 * 3600_000);
  return Math.floor(clamped / 1000);
}

/**
 * An idempotency key that names every parameter of the request (a hash of them) within `scope`:
 * requests that differ in anything never share a key.
 */
function paramsKey(prefix: string, scope: string, params: object): string {
  return `${prefix}-${scope}-${createHash('sha256').update(JSON.stringify(params)).digest('hex').slice(0, 32)}`;
}

export class StripePaymentProvider implements PaymentProvider {
  /**
   * Stripe Billing charges renewals and runs its own retries (Smart Retries / the dunning
   * settings of the account); we learn of each attempt by `invoice.paid` / `invoice.payment_failed`.
   */
  static readonly renewalBilling: RenewalBilling = 'provider_managed';
  readonly name = 'stripe' as const;
  readonly isTest: boolean;
  readonly hasWebhooks = true;
  readonly renewalBilling = StripePaymentProvider.renewalBilling;
  readonly stripe: Stripe;
  private readonly refundCalls: { timeout: number; maxNetworkRetries: number };

  constructor(opts: StripeOptions) {
    this.stripe = stripeClient(opts);
    this.refundCalls = {
      timeout: opts.refundCalls?.timeoutMs ?? 20_000,
      maxNetworkRetries: opts.refundCalls?.maxNetworkRetries ?? 2,
    };
    this.isTest = opts.secretKey.startsWith('sk_test_');
  }

  async createHostedCheckout(input: HostedCheckoutInput): Promise<HostedCheckout> {
    const currency = input.currency.toLowerCase();
    const lineItems: Stripe.Checkout.SessionCreateParams.LineItem[] = input.lines.map((l) => ({
      quantity: l.quantity,
      price_data: { currency, unit_amount: l.unit_price_cents, product_data: { name: l.name } },
    }));
    if (input.shippingCents > 0) {
      lineItems.push({
        quantity: 1,
        price_data: { currency, unit_amount: input.shippingCents, product_data: { name: 'Versand' } },
      });
    }
    const success = new URL(input.returnUrl);
    success.searchParams.set('session_id', input.sessionId);
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'payment',
        customer_email: input.customerEmail,
        line_items: lineItems,
        success_url: success.toString(),
        cancel_url: input.returnUrl,
        client_reference_id: input.sessionId,
        metadata: { checkout_session_id: input.sessionId, shop_id: input.shopId },
        expires_at: stripeExpiry(input.createdAt, input.expiresAt),
      },
      { idempotencyKey: `cs-create-${input.sessionId}` },
    );
    if (!session.url) throw new Error('Stripe returned a checkout session without a url');
    return { url: session.url, providerRef: session.id };
  }

  async createSubscriptionCheckout(input: SubscriptionCheckoutInput): Promise<HostedSubscriptionCheckout> {
    const { plan } = input;
    // Price and coupon are made once per terms and stored by the caller (providerPriceRef,
    // providerCouponRef). A creation's key is our session's plus a hash of all its parameters:
    // the SDK's retries of a lost answer replay it, and a Stripe 500 (replayed for a day under its
    // key) stays with the one session instead of failing every checkout of the plan for a day.
    let price = plan.providerPriceRef;
    if (!price) {
      const params: Stripe.PriceCreateParams = {
        currency: plan.currency.toLowerCase(),
        unit_amount: plan.priceCents,
        recurring: { interval: plan.intervalUnit, interval_count: plan.intervalCount },
        product_data: { name: plan.priceName, metadata: { plan_id: plan.id } },
        metadata: { plan_id: plan.id, shop_id: input.shopId },
      };
      price = (
        await this.stripe.prices.create(params, { idempotencyKey: paramsKey('abo-price', input.sessionId, params) })
      ).id;
    }
    let coupon = plan.providerCouponRef;
    if (!coupon && plan.introDiscountPercent && plan.introDiscountMonths) {
      const params: Stripe.CouponCreateParams = {
        percent_off: plan.introDiscountPercent,
        duration: 'repeating',
        duration_in_months: plan.introDiscountMonths,
        metadata: { plan_id: plan.id },
      };
      coupon = (
        await this.stripe.coupons.create(params, { idempotencyKey: paramsKey('abo-coupon', input.sessionId, params) })
      ).id;
    }
    const discounts: Stripe.Checkout.SessionCreateParams.Discount[] | undefined =
      coupon && plan.introDiscountPercent && plan.introDiscountMonths ? [{ coupon }] : undefined;
    const success = new URL(input.returnUrl);
    success.searchParams.set('session_id', input.sessionId);
    const metadata = { checkout_session_id: input.sessionId, shop_id: input.shopId, plan_id: plan.id };
    const session = await this.stripe.checkout.sessions.create(
      {
        mode: 'subscription',
        customer_email: input.customerEmail,
        line_items: [{ price, quantity: 1 }],
        success_url: success.toString(),
        cancel_url: input.returnUrl,
        client_reference_id: input.sessionId,
        billing_address_collection: 'required',
        metadata,
        subscription_data: { metadata, ...(plan.trialDays > 0 ? { trial_period_days: plan.trialDays } : {}) },
        ...(discounts ? { discounts } : {}),
        expires_at: stripeExpiry(input.createdAt, input.expiresAt),
      },
      { idempotencyKey: `abo-cs-create-${input.sessionId}` },
    );
    if (!session.url) throw new Error('Stripe returned a checkout session without a url');
    return {
      url: session.url,
      providerRef: session.id,
      providerPriceRef: price,
      providerCouponRef: discounts ? coupon : null,
    };
  }

  async cancelSubscription(ref: string, when: 'now' | 'period_end'): Promise<void> {
    if (when === 'now') await this.stripe.subscriptions.cancel(ref);
    else await this.stripe.subscriptions.update(ref, { cancel_at_period_end: true });
  }

  async resumeSubscription(ref: string): Promise<void> {
    await this.stripe.subscriptions.update(ref, { cancel_at_period_end: false });
  }

  /** The charge or payment intent behind our payment reference (subscription orders keep the invoice id). */
  /**
   * Never called (`renewalBilling` is `provider_managed`): charging a Stripe subscription from
   * here would bill the customer twice.
   */
  async chargeRenewal(): Promise<RenewalChargeResult> {
    throw new Error('Stripe charges subscription renewals itself and reports them by invoice webhooks');
  }

  private async refundTarget(ref: string): Promise<{ charge: string } | { payment_intent: string }> {
    if (ref.startsWith('ch_')) return { charge: ref };
    if (!ref.startsWith('in_')) return { payment_intent: ref };
    const payments = await this.stripe.invoicePayments.list({ invoice: ref, limit: 10 }, this.refundCalls);
    for (const p of payments.data) {
      if (p.status !== 'paid') continue;
      const pi = p.payment.payment_intent;
      if (pi) return { payment_intent: typeof pi === 'string' ? pi : pi.id };
      const ch = p.payment.charge;
      if (ch) return { charge: typeof ch === 'string' ? ch : ch.id };
    }
    throw new RefundRefusedError(`Stripe invoice ${ref} has no paid payment to refund`);
  }

  /**
   * One refund, idempotent on our refund id for Stripe's 24 hours, and found for ever after by
   * its metadata `refund_id` (findRefund). Only a definitive refusal throws RefundRefusedError;
   * a 5xx (Stripe replays a stored 500 under the same key), a timeout, a reset connection, a
   * rate limit or an idempotency conflict leave the outcome unknown and are thrown as they are.
   */
  async refund(input: RefundInput): Promise<RefundResult> {
    try {
      const refund = await this.stripe.refunds.create(
        {
          ...(await this.refundTarget(input.paymentRef)),
          amount: input.amountCents,
          metadata: { refund_id: input.refundId },
        },
        { idempotencyKey: `refund-${input.refundId}`, ...this.refundCalls },
      );
      return refundResultOf(refund);
    } catch (err) {
      if (isRefusal(err)) throw new RefundRefusedError((err as Error).message);
      throw err;
    }
  }

  /** The payment's refunds, all pages, matched on the metadata `refund_id` that `refund` stores. */
  async findRefund(input: RefundLookup): Promise<RefundResult | null> {
    const target = await this.refundTarget(input.paymentRef);
    for await (const r of this.stripe.refunds.list({ ...target, limit: 100 }, this.refundCalls)) {
      if (r.metadata?.refund_id === input.refundId) return refundResultOf(r);
    }
    return null;
  }

  async parseWebhook(
    rawBody: Buffer,
    headers: Record<string, string | string[] | undefined>,
    secrets: string[],
  ): Promise<PaymentEvent> {
    const signature = headers['stripe-signature'];
    if (typeof signature !== 'string') throw new WebhookSignatureError('Stripe-Signature header missing');
    let event: Stripe.Event | null = null;
    for (const secret of secrets) {
      try {
        event = this.stripe.webhooks.constructEvent(rawBody, signature, secret);
        break;
      } catch {
        // try the next secret
      }
    }
    if (!event) throw new WebhookSignatureError('The Stripe signature does not match');
    return this.normalize(event);
  }

  private async normalize(event: Stripe.Event): Promise<PaymentEvent> {
    const base = { id: event.id, type: event.type, createdAt: toDate(event.created) };
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        // completed with payment_status unpaid: a delayed method (SEPA) is still processing, or
        // the subscription's first payment still needs the buyer (3-D Secure): a later event
        // (async_payment_succeeded, or the subscription leaving `incomplete`) completes it
        if (session.payment_status === 'unpaid') return { ...base, kind: 'ignored' };
        return this.paidSession(base, session);
      }
      case 'checkout.session.async_payment_failed':
      case 'checkout.session.expired': {
        const session = event.data.object;
        return {
          ...base,
          kind: event.type === 'checkout.session.expired' ? 'session.expired' : 'session.failed',
          sessionId: session.metadata?.checkout_session_id ?? session.client_reference_id ?? null,
          providerSessionId: session.id,
        };
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted': {
        const completion = await this.completionOfIncomplete(base, event);
        if (completion) return completion;
        // Stripe does not deliver events in order: an update carries the subscription as it was
        // when that update was made, which a later one may have undone (a cancellation withdrawn,
        // a past_due paid again, the subscription ended). It is applied as Stripe's current state,
        // retrieved now (a failed lookup answers 503 and Stripe retries). A deletion is final and
        // carries the ended subscription itself.
        // (a deletion rendered in an API version before EVENT_SHAPES_SINCE has no item periods:
        // the subscription is read from the API in ours; a creation is not acted on)
        const current =
          event.type === 'customer.subscription.updated' ||
          (event.type === 'customer.subscription.deleted' && predatesEventShapes(event.api_version))
            ? await this.currentSubscription(event.data.object)
            : event.data.object;
        return {
          ...base,
          kind:
            event.type === 'customer.subscription.created'
              ? 'subscription.created'
              : event.type === 'customer.subscription.updated'
                ? 'subscription.updated'
                : 'subscription.deleted',
          subscription: subscriptionOf(current),
        };
      }
      case 'invoice.paid':
      case 'invoice.payment_failed': {
        // an invoice rendered before EVENT_SHAPES_SINCE has no `parent`: read it from the API in our version
        const inv = predatesEventShapes(event.api_version)
          ? await this.stripe.invoices.retrieve(event.data.object.id as string)
          : event.data.object;
        const line = inv.lines?.data?.[0];
        const sub = inv.parent?.subscription_details?.subscription;
        return {
          ...base,
          kind: event.type === 'invoice.paid' ? 'invoice.paid' : 'invoice.failed',
          invoice: {
            id: inv.id as string,
            subscriptionRef: sub ? (typeof sub === 'string' ? sub : sub.id) : null,
            amountPaidCents: inv.amount_paid,
            amountDueCents: inv.amount_due,
            attempt: inv.attempt_count,
            nextAttemptAt: toDate(inv.next_payment_attempt),
            periodStart: toDate(line?.period?.start),
            periodEnd: toDate(line?.period?.end),
          },
        };
      }
      case 'refund.updated':
      case 'refund.failed': {
        const r = event.data.object;
        // a canceled refund (e.g. one that required action) moved no money: it failed
        const failed = r.status === 'failed' || r.status === 'canceled';
        if (r.status !== 'succeeded' && !failed) return { ...base, kind: 'ignored' };
        return {
          ...base,
          kind: failed ? 'refund.failed' : 'refund.succeeded',
          refund: {
            ref: r.id,
            paymentRef: typeof r.payment_intent === 'string' ? r.payment_intent : (r.payment_intent?.id ?? null),
            amountCents: r.amount,
            refundId: r.metadata?.refund_id ?? null,
            failureReason: failed ? (r.failure_reason ?? r.status) : null,
          },
        };
      }
      default:
        return { ...base, kind: 'ignored' };
    }
  }

  /** A paid (or trial-starting) Checkout Session as `session.paid`, with its subscription (retrieved) in subscription mode. */
  private async paidSession(
    base: { id: string; type: string },
    session: Stripe.Checkout.Session,
  ): Promise<PaymentEvent> {
    const subId = typeof session.subscription === 'string' ? session.subscription : session.subscription?.id;
    const subscription =
      session.mode === 'subscription' && subId
        ? subscriptionOf(await this.stripe.subscriptions.retrieve(subId, { expand: ['latest_invoice'] }))
        : null;
    const addr = session.customer_details?.address;
    return {
      ...base,
      kind: 'session.paid',
      sessionId: session.metadata?.checkout_session_id ?? session.client_reference_id ?? null,
      providerSessionId: session.id,
      mode: session.mode === 'subscription' ? 'subscription' : 'payment',
      amountCents: session.amount_total ?? null,
      currency: session.currency ? session.currency.toUpperCase() : null,
      paymentRef:
        typeof session.payment_intent === 'string' ? session.payment_intent : (session.payment_intent?.id ?? null),
      billing: addr?.country
        ? {
            name: session.customer_details?.name ?? '',
            line1: addr.line1 ?? '',
            postal_code: addr.postal_code ?? '',
            city: addr.city ?? '',
            country: addr.country,
          }
        : null,
      subscription,
    };
  }

  /**
   * A subscription of one of our checkouts that leaves `incomplete` for `active` or `trialing`
   * (its first payment needed the buyer after the Checkout Session completed, e.g. 3-D Secure):
   * no checkout event follows, so this update completes our session, as `session.paid` of the
   * subscription's Checkout Session (found by the subscription; the handler checks it is the one
   * stored for our session). Null for every other subscription event.
   */
  /**
   * The subscription as Stripe has it now; the event's own copy when Stripe no longer knows it
   * (404: deleted test data), which otherwise would answer 503 to every redelivery for ever.
   */
  private async currentSubscription(sent: Stripe.Subscription): Promise<Stripe.Subscription> {
    try {
      return await this.stripe.subscriptions.retrieve(sent.id);
    } catch (err) {
      if ((err as { statusCode?: number }).statusCode === 404) return sent;
      throw err;
    }
  }

  private async completionOfIncomplete(
    base: { id: string; type: string },
    event: Stripe.Event,
  ): Promise<PaymentEvent | null> {
    if (event.type !== 'customer.subscription.updated') return null;
    const sub = event.data.object;
    const before = (event.data.previous_attributes as { status?: string } | undefined)?.status;
    if (before !== 'incomplete' || (sub.status !== 'active' && sub.status !== 'trialing')) return null;
    if (!sub.metadata?.checkout_session_id) return null;
    const found = await this.stripe.checkout.sessions.list({ subscription: sub.id, limit: 1 });
    const session = found.data[0];
    if (session?.status !== 'complete') return null;
    return this.paidSession(base, session);
  }
}

const toDate = (unix: number | null | undefined) => (unix ? new Date(unix * 1000) : null);

function refundResultOf(refund: Stripe.Refund): RefundResult {
  const status = refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' ? 'failed' : 'pending';
  return { providerRef: refund.id, status };
}

/**
 * Whether a Stripe error says that no refund was made: a 4xx answer (a card or invalid-request
 * error, a bad key or permission), except an idempotency conflict (409, or a 400
 * `idempotency_error`) and a rate limit (429), after which a refund may exist. Our own refusal
 * (RefundRefusedError: nothing to refund) too. Everything else (5xx, no answer) is unknown.
 */
function isRefusal(err: unknown): boolean {
  if (err instanceof RefundRefusedError) return true;
  const e = err as { type?: string; statusCode?: number };
  if (e.type === 'StripeIdempotencyError' || e.type === 'StripeRateLimitError') return false;
  if (e.type === 'StripeConnectionError' || e.type === 'StripeAPIError') return false;
  const status = e.statusCode ?? 0;
  return typeof e.type === 'string' && status >= 400 && status < 500 && status !== 409 && status !== 429;
}

function subscriptionOf(sub: Stripe.Subscription): ProviderSubscription {
  const item = sub.items?.data?.[0];
  const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
  return {
    ref: sub.id,
    status: sub.status,
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    periodStart: toDate(item?.current_period_start),
    periodEnd: toDate(item?.current_period_end),
    trialEnd: toDate(sub.trial_end),
    endedAt: toDate(sub.ended_at),
    latestInvoice: invoice
      ? { id: invoice.id as string, status: invoice.status, amountPaidCents: invoice.amount_paid }
      : null,
  };
}
