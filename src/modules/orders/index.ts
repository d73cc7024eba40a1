/** Orders: what other modules may use. */

import { sql } from 'drizzle-orm';
import { systemCtx } from '../../platform/auth/types.js';
import { query } from '../../platform/db/tx.js';
import type { ChannelDependency } from '../../platform/hooks.js';
import type { Module } from '../../platform/module.js';
import { orderRoutes } from './orders.routes.js';
import { refundRoutes } from './refunds.routes.js';
import { RESUME_REFUND_JOB, RefundOutcomeUnknown, resumeRefund, resumeRefundRetryDelayMs } from './refunds.service.js';

export {
  FAILED_REFUND_DAYS,
  orderInChannelsSql,
  orderOverviewCounts,
  orderTimelineFacts,
  revenueSince,
} from './admin.queries.js';
export {
  type BuyerRef,
  buyerOrderIdsSql,
  buyerOrders,
  claimGuestOrders,
  customerOrderIdsSql,
  linesOfOrders,
  lockOrderStatus,
  orderBuyersSql,
  orderChannelScope,
  orderChannelSql,
  orderForEarnings,
  orderIdsInChannelsSql,
  orderInScope,
  orderLinesForEarnings,
  orderNumberSql,
  orderNumbers,
  orderSoldBy,
  ordersInScopeSql,
  ordersSoldBy,
  setRefundCreditNote,
  subscriptionOrders,
  subscriptionPaymentRecorded,
  succeededRefunds,
} from './orders.queries.js';
export {
  AddressOut,
  lineItemFields,
  OrderDetail,
  OrderSummary,
  PricedLineOut,
  RefundAmountIn,
  RefundLinesIn,
} from './orders.schemas.js';
export {
  createOrder,
  expirePendingOrder,
  getOrder,
  lineItemOut,
  type NewOrder,
  nextCounter,
  type OrderRow,
  orderDetailOut,
  orderOut,
  peekCounter,
} from './orders.service.js';
export type { Address, PricedLine } from './orders.tables.js';
export { planRefund, type RefundPlan } from './refund-plan.js';
export { refundPaymentEventHandler } from './refund-provider-events.js';
export { creditNotesOfFailedRefunds, refundedWithoutCreditNote } from './refunds.service.js';
// Orders lock a channel's currency and keep the channel from being deleted.
export const ordersChannelDependency: ChannelDependency = {
  what: 'orders',
  kinds: ['commerce', 'reference'],
  exists: async (ctx, channelId) =>
    (await query(ctx.db, sql`SELECT 1 FROM orders WHERE shop_id = ${ctx.shopId} AND channel_id = ${channelId} LIMIT 1`))
      .length > 0,
};

export const ordersModule: Module = {
  name: 'orders',
  group: 'shop',
  routes(app) {
    orderRoutes(app);
    refundRoutes(app);
  },
  jobs(registry, deps) {
    registry.register(RESUME_REFUND_JOB, {
      async run(payload, { db, clock, log, job }) {
        const ctx = systemCtx({ db, clock, config: deps.config }, String(payload.shop_id), log);
        try {
          await resumeRefund(ctx, String(payload.refund_id));
        } catch (err) {
          if (err instanceof RefundOutcomeUnknown && job.attempts >= job.max_attempts) {
            // bounded: the refund stays pending (and counted); a late provider webhook still settles it
            log.error(
              { refund_id: payload.refund_id, err: err.message },
              'the provider has not told for two days whether a refund was made; check it at the provider',
            );
          }
          throw err;
        }
      },
      // while the provider cannot tell: again after 15 minutes, doubling to 6 hours
      retryDelayMs: resumeRefundRetryDelayMs,
    });
  },
};
