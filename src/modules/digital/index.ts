/**
 * The digital add-on (docs/digital.md; docs/decisions.md): settings, plans, subscriptions and their
 * lifecycle, hosted abo sessions, self-service and token links. Two modules: the admin and
 * customer routes are served by the shop role, abo sessions, the hosted page and token links by
 * the checkout role; the lifecycle jobs run in the worker.
 */
import { sql } from 'drizzle-orm';
import { query } from '../../platform/db/tx.js';
import type { ChannelDependency } from '../../platform/hooks.js';
import type { Module } from '../../platform/module.js';
import { registerAboHostedPage } from './abo-sessions.page.js';
import { aboSessionRoutes } from './abo-sessions.routes.js';
import { aboRoutes } from './abos.routes.js';
import { planRoutes } from './plans.routes.js';
import { DUE_JOB, dueJob } from './renewals.js';
import { customerAboRoutes, tokenAboRoutes } from './self-service.js';

/** Subscription events of the provider webhook (wired in app.ts into checkout's webhook route). */
export { aboPaymentEventHandlers } from './abo-payment-events.js';
export { AboOut } from './abos.schemas.js';
export { buyerAbos, claimGuestAbos, type OfferedPlan, plansOfShop } from './digital.queries.js';
export { processDue } from './renewals.js';

// Subscriptions bill in their channel: it cannot be deleted while they exist.
export const subscriptionsChannelDependency: ChannelDependency = {
  what: 'subscriptions',
  kinds: ['commerce', 'reference'],
  exists: async (ctx, channelId) =>
    (await query(ctx.db, sql`SELECT 1 FROM abos WHERE shop_id = ${ctx.shopId} AND channel_id = ${channelId} LIMIT 1`))
      .length > 0,
};

export const digitalModule: Module = {
  name: 'digital',
  group: 'shop',
  routes(app) {
    planRoutes(app);
    aboRoutes(app);
    customerAboRoutes(app);
  },
  jobs(registry, deps) {
    registry.register(DUE_JOB, dueJob(deps.config));
  },
};

export const digitalCheckoutModule: Module = {
  name: 'digital-checkout',
  group: 'checkout',
  routes(app, deps) {
    registerAboHostedPage(deps);
    aboSessionRoutes(app, deps);
    tokenAboRoutes(app, deps);
  },
};
