/** Checkout: sessions, the hosted payment page, provider webhooks, completion into orders. */
import { sql } from 'drizzle-orm';
import { paymentProviderFor } from '../../adapters/payment/index.js';
import { systemCtx } from '../../platform/auth/types.js';
import { query } from '../../platform/db/tx.js';
import type { ChannelDependency } from '../../platform/hooks.js';
import type { Module } from '../../platform/module.js';
import { expirePendingOrder } from '../orders/index.js';
import { checkoutRoutes } from './checkout.routes.js';
import { checkoutSettingsRoutes } from './checkout-settings.js';
import { EXPIRE_JOB, EXPIRE_ORDER_JOB, expireSession } from './expire-session.js';
import { payPageRoutes } from './pay-page.js';
import { paymentEventRoutes } from './payment-events.routes.js';
import { paymentWebhookRoutes } from './payment-webhook.js';

export { limitSessionCreation } from './abuse-limits.js';
export { checkReturnUrl } from './check-return-url.js';
// digital's abo sessions are checkout sessions of kind 'abo' (docs/ARCHITECTURE.md)
export {
  completeAboSessionRow,
  insertAboSession,
  lockedAboSessionSql,
  lockSession,
  type NewAboSession,
  paymentEventsOfOrder,
  setSessionProviderRef,
} from './checkout.queries.js';
export { channelFor } from './checkout.routes.js';
export { AddressSchema, type FormValues } from './checkout.schemas.js';
export type { AboSessionTax, CheckoutSessionRow, PricedLine } from './checkout.tables.js';
export { completePaidSession } from './complete-session.js';
export { EXPIRE_JOB } from './expire-session.js';
export { getSession } from './get-session.js';
export { esc, money, page, registerHostedPage, returnTo } from './pay-page.js';
/** One-time sessions complete from the provider's session.paid event (wired in app.ts). */
export { completeOrderFromEvent } from './payment-completion.js';
export { applyPaymentEvent } from './payment-webhook.js';
export { type AboTax, aboTax, consumerDigitalTax, destination, rateFor } from './pricing.js';
export { sessionStates } from './session-states.js';
export { normalizeVatId, type VatIdCheck } from './vat-id.js';

/** Checkout sessions keep their channel from being deleted and lock its currency. */
export const checkoutChannelDependency: ChannelDependency = {
  what: 'checkout sessions',
  kinds: ['commerce', 'reference'],
  exists: async (ctx, channelId) =>
    (
      await query(
        ctx.db,
        sql`SELECT 1 FROM checkout_sessions WHERE shop_id = ${ctx.shopId} AND channel_id = ${channelId} LIMIT 1`,
      )
    ).length > 0,
};

export const checkoutModule: Module = {
  name: 'checkout',
  group: 'checkout',
  routes(app, deps) {
    const provider = paymentProviderFor(deps.config);
    checkoutRoutes(app, deps, provider);
    payPageRoutes(app, deps);
    paymentWebhookRoutes(app, deps, provider);
  },
  jobs(registry, deps) {
    registry.register(EXPIRE_JOB, {
      async run(payload, { db, clock, log }) {
        const ctx = systemCtx({ db, clock, config: deps.config }, String(payload.shop_id), log);
        await expireSession(ctx, String(payload.session_id));
      },
    });
    registry.register(EXPIRE_ORDER_JOB, {
      async run(payload, { db, clock, log }) {
        const ctx = systemCtx({ db, clock, config: deps.config }, String(payload.shop_id), log);
        await expirePendingOrder(ctx, String(payload.order_id));
      },
    });
  },
};

/** The shop's checkout settings (admin routes, served with the shop's other admin routes). */
export const checkoutSettingsModule: Module = {
  name: 'checkout-settings',
  group: 'shop',
  routes: (app) => checkoutSettingsRoutes(app),
};

/** The admin side of payments (shop role): the payment-events list. */
export const paymentsAdminModule: Module = {
  name: 'payments-admin',
  group: 'shop',
  routes(app) {
    paymentEventRoutes(app);
  },
};
