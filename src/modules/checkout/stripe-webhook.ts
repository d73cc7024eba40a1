/**
 * `POST /api/webhooks/stripe`: verifies `Stripe-Signature` over the raw body and feeds paid
 * Checkout Sessions into the same completion path as the test provider. Each Stripe event is
 * processed once; completion itself is idempotent on the session.
 */
import { Type } from '@sinclair/typebox';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { stripeClient } from '../../adapters/payment/stripe-provider.js';
import type { AppDeps } from '../../app.js';
import { query } from '../../platform/db/tx.js';
import { AppError } from '../../platform/errors.js';
import { completePaidSession } from './checkout.service.js';

export function stripeWebhookRoutes(app: FastifyInstance, deps: AppDeps): void {
  const { config } = deps;
  const db = deps.database.db;
  app.register(async (scope) => {
    // the signature covers the exact bytes, so this route keeps the raw body
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1_048_576 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(
      '/api/webhooks/stripe',
      {
        config: { auth: { accepts: 'public' } },
        schema: {
          tags: ['checkout'],
          summary: 'Stripe webhook endpoint (Stripe-Signature verified)',
          response: { 200: Type.Object({ received: Type.Boolean(), duplicate: Type.Boolean() }) },
        },
      },
      async (request) => {
        if (config.paymentProvider !== 'stripe' || !config.stripeSecretKey || !config.stripeWebhookSecret) {
          throw new AppError('not_found', 404, 'The Stripe provider is not configured');
        }
        const signature = request.headers['stripe-signature'];
        if (typeof signature !== 'string')
          throw new AppError('signature_invalid', 400, 'Stripe-Signature header missing');
        let event: Stripe.Event;
        try {
          const stripe = stripeClient({ secretKey: config.stripeSecretKey, apiBase: config.stripeApiBase });
          event = stripe.webhooks.constructEvent(request.body as Buffer, signature, config.stripeWebhookSecret);
        } catch {
          throw new AppError('signature_invalid', 400, 'The Stripe signature does not match');
        }
        const fresh = await query(
          db,
          sql`INSERT INTO payment_events (provider, event_id) VALUES ('stripe', ${event.id}) ON CONFLICT DO NOTHING RETURNING event_id`,
        );
        if (fresh.length === 0) return { received: true, duplicate: true };
        try {
          if (
            event.type === 'checkout.session.completed' ||
            event.type === 'checkout.session.async_payment_succeeded'
          ) {
            const session = event.data.object as Stripe.Checkout.Session;
            const ours = session.metadata?.checkout_session_id ?? session.client_reference_id;
            if (ours && session.payment_status === 'paid') {
              const paymentRef = typeof session.payment_intent === 'string' ? session.payment_intent : session.id;
              await completePaidSession(db, ours, { now: deps.clock.now(), paymentRef });
            }
          }
        } catch (err) {
          // let Stripe retry: forget that we saw the event
          await db.execute(sql`DELETE FROM payment_events WHERE event_id = ${event.id}`);
          throw err;
        }
        return { received: true, duplicate: false };
      },
    );
  });
}
