/**
 * Marketplace vendors, affiliates and their money. Every amount a partner is owed lives in one
 * double-entry ledger (ledger_transactions + ledger_postings, see ledger.ts); earnings, payouts
 * and statements are the documents the ledger entries point to. No balance is stored anywhere.
 */
import { sql } from 'drizzle-orm';
import {
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { cents, ts } from '../../platform/db/columns.js';
import { shopRef, shops } from '../shops/shops.tables.js';
import type { EarningStatus } from './earning-states.js';
import type { PartnerType, PayoutStatus } from './payout-states.js';
import type { StatementStatus } from './statement-states.js';

/** The portal login of a partner (vendors and affiliates alike): password, invitation, timestamps. */
const portalAccountColumns = () => ({
  passwordHash: text('password_hash'),
  inviteTokenHash: text('invite_token_hash'),
  inviteExpiresAt: ts('invite_expires_at'),
  invitedAt: ts('invited_at'),
  acceptedAt: ts('accepted_at'),
  createdAt: ts('created_at').notNull().defaultNow(),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export type { PartnerType };

/** The status and kind columns' values (the schemas and the ledger take them from here). */
export const VENDOR_STATUSES = ['invited', 'active', 'suspended'] as const;
export type VendorStatus = (typeof VENDOR_STATUSES)[number];
export const AFFILIATE_STATUSES = ['active', 'paused', 'blocked'] as const;
export type AffiliateStatus = (typeof AFFILIATE_STATUSES)[number];
export const CONTENT_KINDS = ['link', 'banner', 'text'] as const;
export type ContentKind = (typeof CONTENT_KINDS)[number];
export const LEDGER_KINDS = [
  'earning',
  'release',
  'clawback',
  'payout_requested',
  'payout_paid',
  'payout_cancelled',
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];
export const ACCOUNTS = ['pending', 'available', 'in_payout', 'paid_out', 'expense'] as const;
export type Account = (typeof ACCOUNTS)[number];
export { EARNING_STATUSES, type EarningStatus } from './earning-states.js';
export { STATEMENT_STATUSES, type StatementStatus } from './statement-states.js';

/** Per-shop partner settings; a missing row means the defaults. */
export const partnerSettings = pgTable('partner_settings', {
  shopId: text('shop_id')
    .primaryKey()
    .references(() => shops.id, { onDelete: 'cascade' }),
  /** Vendor earnings become releasable this many days after the order was paid. */
  vendorHoldDays: integer('vendor_hold_days').notNull().default(14),
  /** Affiliate earnings become releasable this many days after the order was paid. */
  affiliateHoldDays: integer('affiliate_hold_days').notNull().default(30),
  /** An affiliate may request a payout once the available balance reaches this. */
  affiliateMinPayoutCents: cents('affiliate_min_payout_cents').notNull().default(5000),
  /** Base of affiliate referral links; null = the default channel's primary domain. */
  referralBaseUrl: text('referral_base_url'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const vendors = pgTable(
  'vendors',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** invited | active | suspended */
    status: text('status').$type<VendorStatus>().notNull(),
    ...portalAccountColumns(),
  },
  (t) => [
    primaryKey({ name: 'vendors_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('vendors_email_uq').on(t.shopId, sql`lower(${t.email})`),
    uniqueIndex('vendors_invite_uq').on(t.shopId, t.inviteTokenHash).where(sql`invite_token_hash IS NOT NULL`),
    index('vendors_shop_created_idx').on(t.shopId, t.createdAt.desc(), t.id.desc()),
  ],
);

/**
 * Commission rules are append-only versions: the rule for an order line is the newest one of
 * its vendor (category-specific before general) whose `effective_from` is not after the payment.
 */
export const vendorCommissionRules = pgTable(
  'vendor_commission_rules',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    vendorId: text('vendor_id').notNull(),
    /** null = every category */
    categoryId: text('category_id'),
    /** Platform commission in percent of the line's net amount (0–100, two decimals). */
    percent: numeric('percent', { precision: 5, scale: 2, mode: 'number' }).notNull().default(0),
    /** Fixed platform commission per order line, in cents. */
    fixedCents: cents('fixed_cents').notNull().default(0),
    effectiveFrom: ts('effective_from').notNull(),
    createdBy: text('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'vendor_commission_rules_pkey', columns: [t.shopId, t.id] }),
    index('vendor_rules_lookup_idx').on(t.shopId, t.vendorId, t.effectiveFrom.desc()),
    foreignKey({
      name: 'vendor_commission_rules_vendor_fk',
      columns: [t.shopId, t.vendorId],
      foreignColumns: [vendors.shopId, vendors.id],
    }).onDelete('cascade'),
  ],
);

export const affiliates = pgTable(
  'affiliates',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    /** Referral code, unique per shop case-insensitively. */
    code: text('code').notNull(),
    /** Commission in percent of the order's net item value (0–100, two decimals). */
    commissionPercent: numeric('commission_percent', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    /** active | paused | blocked — only active affiliates earn. */
    status: text('status').$type<AffiliateStatus>().notNull(),
    ...portalAccountColumns(),
  },
  (t) => [
    primaryKey({ name: 'affiliates_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('affiliates_code_uq').on(t.shopId, sql`lower(${t.code})`),
    uniqueIndex('affiliates_email_uq').on(t.shopId, sql`lower(${t.email})`),
    uniqueIndex('affiliates_invite_uq').on(t.shopId, t.inviteTokenHash).where(sql`invite_token_hash IS NOT NULL`),
    index('affiliates_shop_created_idx').on(t.shopId, t.createdAt.desc(), t.id.desc()),
  ],
);

/** Promotional material the shop publishes for its affiliates. */
export const affiliateContent = pgTable(
  'affiliate_content',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    /** link | banner | text */
    kind: text('kind').$type<ContentKind>().notNull(),
    title: text('title').notNull(),
    url: text('url'),
    imageUrl: text('image_url'),
    body: text('body'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'affiliate_content_pkey', columns: [t.shopId, t.id] }),
    index('affiliate_content_shop_idx').on(t.shopId, t.createdAt.desc()),
  ],
);

/**
 * What one paid order (line) earned one partner. The document behind the ledger's `earning`
 * entry; `source_key` makes crediting idempotent (`vendor:<order_line_id>`,
 * `affiliate:<order_id>`). What was reversed or released is read from the ledger.
 */
export const partnerEarnings = pgTable(
  'partner_earnings',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    partnerType: text('partner_type').notNull().$type<PartnerType>(),
    partnerId: text('partner_id').notNull(),
    sourceKey: text('source_key').notNull(),
    orderId: text('order_id').notNull(),
    orderLineId: text('order_line_id'),
    subscriptionId: text('subscription_id'),
    subscriptionPaymentNumber: integer('subscription_payment_number'),
    currency: text('currency').notNull(),
    /** Gross sales behind the earning (line total, or the order's item total). */
    grossCents: cents('gross_cents').notNull(),
    /** Net of tax (and shipping): the commission basis. */
    netCents: cents('net_cents').notNull(),
    /** Platform commission kept by the shop (vendors; 0 for affiliates). */
    commissionCents: cents('commission_cents').notNull(),
    /** What the partner earned. */
    amountCents: cents('amount_cents').notNull(),
    /** The percent applied (vendor: platform commission; affiliate: affiliate commission). */
    ratePercent: numeric('rate_percent', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    ruleId: text('rule_id'),
    /** earning-states.ts: pending | released */
    status: text('status').$type<EarningStatus>().notNull(),
    /** The order's payment time: the hold period counts from here. */
    earnedAt: ts('earned_at').notNull(),
    releasedAt: ts('released_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'partner_earnings_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('partner_earnings_source_uq').on(t.shopId, t.sourceKey),
    index('partner_earnings_partner_idx').on(t.shopId, t.partnerType, t.partnerId, t.earnedAt.desc()),
    index('partner_earnings_pending_idx').on(t.shopId, t.partnerType, t.earnedAt).where(sql`status = 'pending'`),
    index('partner_earnings_order_idx').on(t.shopId, t.orderId),
  ],
);

/**
 * One balanced movement of partner money. `idem_key` is unique per shop, so the same cause
 * (an earning, its release, a payout step, a clawback for one credit note) is booked once.
 */
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    partnerType: text('partner_type').notNull().$type<PartnerType>(),
    partnerId: text('partner_id').notNull(),
    currency: text('currency').notNull(),
    /** earning | release | clawback | payout_requested | payout_paid | payout_cancelled */
    kind: text('kind').$type<LedgerKind>().notNull(),
    idemKey: text('idem_key').notNull(),
    earningId: text('earning_id'),
    payoutId: text('payout_id'),
    orderId: text('order_id'),
    creditNoteId: text('credit_note_id'),
    memo: text('memo'),
    occurredAt: ts('occurred_at').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'ledger_transactions_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('ledger_transactions_idem_uq').on(t.shopId, t.idemKey),
    index('ledger_transactions_partner_idx').on(t.shopId, t.partnerType, t.partnerId, t.occurredAt, t.id),
    index('ledger_transactions_earning_idx').on(t.earningId).where(sql`earning_id IS NOT NULL`),
  ],
);

/**
 * The postings of a transaction; they sum to zero per transaction (checked by a deferred
 * constraint trigger). Partner accounts are credit-positive: `pending`, `available`,
 * `in_payout`, `paid_out` hold what the partner earned in that state; `expense` is the shop's
 * side (negative of everything earned net of clawbacks).
 */
export const ledgerPostings = pgTable(
  'ledger_postings',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    transactionId: text('transaction_id').notNull(),
    partnerType: text('partner_type').notNull().$type<PartnerType>(),
    partnerId: text('partner_id').notNull(),
    /** pending | available | in_payout | paid_out | expense */
    account: text('account').$type<Account>().notNull(),
    currency: text('currency').notNull(),
    amountCents: cents('amount_cents').notNull(),
    occurredAt: ts('occurred_at').notNull(),
  },
  (t) => [
    primaryKey({ name: 'ledger_postings_pkey', columns: [t.shopId, t.id] }),
    index('ledger_postings_balance_idx').on(t.shopId, t.partnerType, t.partnerId, t.account, t.currency),
    index('ledger_postings_tx_idx').on(t.transactionId),
    foreignKey({
      name: 'ledger_postings_transaction_fk',
      columns: [t.shopId, t.transactionId],
      foreignColumns: [ledgerTransactions.shopId, ledgerTransactions.id],
    }).onDelete('cascade'),
  ],
);

/** Payouts to vendors (created by admins) and affiliates (requested in the portal). */
export const partnerPayouts = pgTable(
  'partner_payouts',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    partnerType: text('partner_type').notNull().$type<PartnerType>(),
    partnerId: text('partner_id').notNull(),
    currency: text('currency').notNull(),
    amountCents: cents('amount_cents').notNull(),
    /** payout-states.ts: pending | processing | paid | cancelled */
    status: text('status').$type<PayoutStatus>().notNull(),
    /** admin | partner */
    requestedBy: text('requested_by').$type<'admin' | 'partner'>().notNull(),
    reference: text('reference'),
    note: text('note'),
    createdAt: ts('created_at').notNull().defaultNow(),
    processingAt: ts('processing_at'),
    paidAt: ts('paid_at'),
    cancelledAt: ts('cancelled_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'partner_payouts_pkey', columns: [t.shopId, t.id] }),
    index('partner_payouts_partner_idx').on(t.shopId, t.partnerType, t.partnerId, t.createdAt.desc()),
    index('partner_payouts_list_idx').on(t.shopId, t.partnerType, t.createdAt.desc(), t.id.desc()),
    // an affiliate has at most one open payout request
    uniqueIndex('partner_payouts_open_affiliate_uq')
      .on(t.shopId, t.partnerId)
      .where(sql`partner_type = 'affiliate' AND status IN ('pending', 'processing')`),
  ],
);

export interface StatementEntry {
  transaction_id: string;
  occurred_at: string;
  kind: string;
  description: string;
  order_id: string | null;
  order_number: string | null;
  payout_id: string | null;
  credit_note_id: string | null;
  /** Change of what the shop owes the vendor (earnings +, clawbacks and paid payouts −). */
  amount_cents: number;
  balance_cents: number;
}

export interface StatementTotals {
  earnings_cents: number;
  clawbacks_cents: number;
  payouts_cents: number;
  gross_sales_cents: number;
  commission_cents: number;
}

/** Monthly vendor statements: drafts are recomputable, final ones numbered and immutable. */
export const vendorStatements = pgTable(
  'vendor_statements',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    vendorId: text('vendor_id').notNull(),
    /** YYYY-MM */
    period: text('period').notNull(),
    periodStart: ts('period_start').notNull(),
    periodEnd: ts('period_end').notNull(),
    currency: text('currency').notNull(),
    /** draft | final */
    status: text('status').$type<StatementStatus>().notNull(),
    number: text('number'),
    vendorSnapshot: jsonb('vendor_snapshot').notNull().$type<{ name: string; email: string }>(),
    openingBalanceCents: cents('opening_balance_cents').notNull(),
    closingBalanceCents: cents('closing_balance_cents').notNull(),
    totals: jsonb('totals').notNull().$type<StatementTotals>(),
    entries: jsonb('entries').notNull().$type<StatementEntry[]>(),
    contentHash: text('content_hash'),
    finalizedAt: ts('finalized_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'vendor_statements_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('vendor_statements_period_uq').on(t.shopId, t.vendorId, t.period, t.currency),
    uniqueIndex('vendor_statements_number_uq').on(t.shopId, t.number).where(sql`number IS NOT NULL`),
    index('vendor_statements_list_idx').on(t.shopId, t.createdAt.desc(), t.id.desc()),
    foreignKey({
      name: 'vendor_statements_vendor_fk',
      columns: [t.shopId, t.vendorId],
      foreignColumns: [vendors.shopId, vendors.id],
    }).onDelete('cascade'),
  ],
);

/** An earning row (earnings.ts and its operation files share it). */
export type EarningRow = typeof partnerEarnings.$inferSelect;
