/**
 * Earnings: what paid orders earn vendors and affiliates, booked into the ledger (ledger.ts).
 *
 * - Vendor: each order line of a vendor's product earns its net amount (gross − VAT) minus the
 *   platform commission of the vendor's rule in force when the order was paid (the newest rule
 *   with effective_from ≤ paid_at; a rule for the product's category wins over the general
 *   one; no rule = no commission): commission = round-half-up(net × percent / 100) + fixed cents
 *   per line, at most the net.
 * - Affiliate: an order whose affiliate_code matches an active affiliate of the shop
 *   (case-insensitive) earns round-half-up(Σ line net × percent / 100) — net of tax and
 *   shipping. Subscription orders follow the shop's abo_provision: erste = the first paid order
 *   only, monate = the first abo_provision_monate paid orders, immer = every paid order.
 * - Clawbacks: a final credit note reverses the share of each earning it credits (per order line
 *   for vendors, of the order's item net for affiliates; amount credits proportionally); a
 *   refund without a credit note (the order had no final invoice) reverses the refunded share of
 *   what was paid (refunded ÷ order total, on every earning alike); an order cancelled or fully
 *   refunded after payment reverses everything. The target is cumulative, so several partial
 *   credit notes or refunds end exactly at the full earning.
 *
 * Everything runs in the caller's transaction and is idempotent: an earning per source
 * (`vendor:<order_line_id>`, `affiliate:<order_id>`) and a ledger entry per cause.
 *
 * One operation (or one group) per file: credit-order-earnings.ts (booking a paid order's
 * earnings), claw-back-earnings.ts (reversals and the refund preview), release-earnings.ts,
 * list-earnings.ts. This file re-exports them, so importers keep importing `./earnings.js`.
 */
export {
  type ClawbackWhatIf,
  previewRefundClawback,
  restoreFailedRefundEarnings,
  reverseCreditNoteEarnings,
  reverseOrderEarnings,
  reverseRefundedEarnings,
} from './claw-back-earnings.js';
export { creditOrderEarnings } from './credit-order-earnings.js';
export { type EarningFilters, type EarningView, earningOut, listEarnings } from './list-earnings.js';
export type { EarningRow } from './partners.tables.js';
export { type ReleaseSelection, releaseEarnings } from './release-earnings.js';
