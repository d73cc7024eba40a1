/**
 * Partners: marketplace vendors and affiliates, their commissions, the one earnings ledger,
 * payouts, statements and both portals (docs/partners.md).
 */
import type { Module } from '../../platform/module.js';
import { affiliateRoutes } from './affiliates.routes.js';
import { partnerAuthRoutes } from './partner-auth.routes.js';
import { payoutRoutes } from './payouts.routes.js';
import { vendorRoutes } from './vendors.routes.js';

export {
  type ClawbackWhatIf,
  creditOrderEarnings,
  previewRefundClawback,
  restoreFailedRefundEarnings,
  reverseCreditNoteEarnings,
  reverseOrderEarnings,
  reverseRefundedEarnings,
} from './earnings.js';
export { vendorExists } from './vendors.service.js';

export const partnersModule: Module = {
  name: 'partners',
  group: 'shop',
  routes(app, deps) {
    partnerAuthRoutes(app, deps);
    vendorRoutes(app);
    affiliateRoutes(app);
    payoutRoutes(app);
  },
};
