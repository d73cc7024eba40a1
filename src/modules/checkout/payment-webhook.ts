/**
 * Provider webhooks (docs/payments.md): one route per provider, `POST /api/webhooks/stripe`, with the
 * old subscription path as a deprecated alias. The provider adapter verifies and normalizes the
 * event; the event is recorded under (provider, event id) in the SAME transaction that applies
 * it, so a failure rolls both back and answers 5xx (the provider retries), and a redelivery to
 * any alias finds the row and does nothing.
 */
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import { type PaymentEvent, type PaymentProvider, WebhookSignatureError } from '../../adapters/payment/port.js';
import { publicRoute } from '../../platform/auth/presets.js';
import type { Db } from '../../platform/db/client.js';
import { query, withTx } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import { type EventContext, type EventOutcome, hookList } from '../../platform/hooks.js';
import type { TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import { paymentEvents } from './checkout.tables.js';

// The handlers are the `paymentEventHandlers` hook list (platform/hooks.ts), wired in app.ts:
// checkout's one-time completion, digital's subscriptions, orders' refunds.
export type { EventContext, EventOutcome, PaymentEventHandler } from '../../platform/hooks.js';

/**
 * Records and applies one normalized event exactly once. Returns `duplicate: true` when the
 * (provider, event id) row already exists; throws (rolling back the row) when a handler fails.
 */
export async function applyPaymentEvent(
  db: Db,
  event: PaymentEvent,
  c: EventContext,
): Promise<{ duplicate: boolean; outcome: EventOutcome | null }> {
  return withTx(db, async (tx) => {
    const fresh = await query(
      tx,
      sql`INSERT INTO payment_events (provider, event_id, type, status, received_at)
          VALUES (${c.provider.name}, ${event.id}, ${event.type}, 'processing', ${c.now})
          ON CONFLICT DO NOTHING RETURNING event_id`,
    );
    if (fresh.length === 0) return { duplicate: true, outcome: null };
    let outcome: EventOutcome | null = null;
    for (const h of hookList('paymentEventHandlers')) {
      if (!h.kinds.includes(event.kind)) continue;
      outcome = await h.handle(tx, event, c);
      if (outcome) break;
    }
    outcome ??= { status: 'ignored', reason: event.kind === 'ignored' ? 'event_type_not_used' : 'no_matching_record' };
    await tx
      .update(paymentEvents)
      .set({
        status: outcome.status,
        reason: outcome.reason,
        shopId: outcome.shopId ?? null,
        checkoutSessionId: outcome.checkoutSessionId ?? null,
        providerSessionId: outcome.providerSessionId ?? null,
        orderId: outcome.orderId ?? null,
        amountCents: outcome.amountCents ?? null,
        currency: outcome.currency ?? null,
      })
      .where(sql`${paymentEvents.provider} = ${c.provider.name} AND ${paymentEvents.eventId} = ${event.id}`);
    return { duplicate: false, outcome };
  });
}

const WebhookAnswer = Type.Object({ received: Type.Boolean(), duplicate: Type.Boolean() });

/** The Stripe webhook route and its deprecated aliases. */
export function paymentWebhookRoutes(app: TypedApp, deps: AppDeps, provider: PaymentProvider): void {
  const { config } = deps;
  const db = deps.database.db;
  const routes = [
    { url: '/api/webhooks/stripe', deprecated: false },
    // until this release the subscription events had their own endpoint; it stays one release
    { url: '/api/webhooks/stripe/abos', deprecated: true },
  ];
  app.register(async (scope) => {
    // the signature covers the exact bytes, so this route keeps the raw body
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_req, body, done) =>
      done(null, body),
    );
    for (const r of routes) {
      // no body schema: the body is the raw bytes the content-type parser above keeps
      scope.post<{ Body: Buffer }>(
        r.url,
        {
          config: publicRoute,
          schema: {
            tags: ['checkout'],
            summary: r.deprecated
              ? 'Deprecated alias of POST /api/webhooks/stripe (kept for one release; point the Stripe endpoint at /api/webhooks/stripe)'
              : 'Stripe webhook endpoint for every payment, subscription and refund event (Stripe-Signature verified)',
            ...(r.deprecated ? { deprecated: true } : {}),
            response: { 200: WebhookAnswer },
          },
        },
        async (request) => {
          const secrets = [
            ...new Set([config.stripeWebhookSecret, config.stripeAboWebhookSecret].filter((s): s is string => !!s)),
          ];
          if (!provider.hasWebhooks || secrets.length === 0) {
            throw new AppError('not_found', 'The Stripe provider is not configured');
          }
          let event: PaymentEvent;
          try {
            event = await provider.parseWebhook(request.body, request.headers, secrets);
          } catch (err) {
            if (err instanceof WebhookSignatureError) throw new AppError('signature_invalid', err.message);
            // a signed event whose reading needed the provider (a Stripe lookup) while it failed:
            // nothing was recorded, the provider must retry
            request.log.error({ err }, 'payment event not read');
            throw new AppError('event_not_applied', 'The event could not be read; it was not recorded, retry later');
          }
          try {
            const { duplicate } = await applyPaymentEvent(db, event, {
              provider,
              now: deps.clock.now(),
              deps,
              log: request.log,
            });
            return { received: true, duplicate };
          } catch (err) {
            // whatever failed (a provider call answering 4xx included), the provider must retry
            request.log.error({ err, event_id: event.id, event_type: event.type }, 'payment event not applied');
            throw new AppError('event_not_applied', 'The event could not be applied; it was not recorded, retry later');
          }
        },
      );
    }
  });
}
