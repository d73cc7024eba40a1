/** Request and response schemas of partner settings, payouts and vendor statements. */
import { Type } from '@sinclair/typebox';
import { Body, Nullable, PageMeta, Pagination, Timestamp } from '../../platform/http/schemas.js';
import { PAYOUT_STATUSES } from './payout-states.js';

const Currency = Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217 code' });
const PayoutStatus = Type.Union(PAYOUT_STATUSES.map((s) => Type.Literal(s)));
const IdText = Type.String({ minLength: 1, maxLength: 64 });
const Period = Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$', description: 'YYYY-MM' });

// ---- partner settings ----

export const PartnerSettings = Type.Object({
  vendor_hold_days: Type.Integer({ description: 'Vendor earnings become releasable this many days after payment' }),
  affiliate_hold_days: Type.Integer({
    description: 'Affiliate earnings become releasable this many days after payment',
  }),
  affiliate_min_payout_cents: Type.Integer({ description: 'Available balance an affiliate needs to request a payout' }),
  referral_base_url: Nullable(
    Type.String({ description: "Base of referral links; null = the default channel's domain" }),
  ),
  updated_at: Nullable(Timestamp),
});

export const PartnerSettingsPut = Body(
  {
    vendor_hold_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
    affiliate_hold_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 365 })),
    affiliate_min_payout_cents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000 })),
    referral_base_url: Type.Optional(
      Nullable(Type.String({ pattern: '^https://[^\\s/?#]+[^\\s]*$', maxLength: 2000, description: 'https URL' })),
    ),
  },
  { description: 'Sets the given fields; omitted fields keep their value (defaults until first set)' },
);

// ---- payouts ----

const payoutFields = {
  id: Type.String(),
  currency: Type.String(),
  amount_cents: Type.Integer(),
  status: PayoutStatus,
  requested_by: Type.Union([Type.Literal('admin'), Type.Literal('partner')]),
  reference: Nullable(Type.String({ description: 'Bank or transfer reference, set when paid' })),
  note: Nullable(Type.String()),
  created_at: Timestamp,
  processing_at: Nullable(Timestamp),
  paid_at: Nullable(Timestamp),
  cancelled_at: Nullable(Timestamp),
};

export const VendorPayout = Type.Object({ ...payoutFields, vendor_id: Type.String() });
export const AffiliatePayout = Type.Object({ ...payoutFields, affiliate_id: Type.String() });

export const VendorPayoutList = Type.Object({ payouts: Type.Array(VendorPayout), ...PageMeta });
export const AffiliatePayoutList = Type.Object({ payouts: Type.Array(AffiliatePayout), ...PageMeta });

export const VendorPayoutQuery = Type.Object({
  vendor_id: Type.Optional(IdText),
  status: Type.Optional(PayoutStatus),
  currency: Type.Optional(Currency),
  ...Pagination,
});

export const AffiliatePayoutQuery = Type.Object({
  affiliate_id: Type.Optional(IdText),
  status: Type.Optional(PayoutStatus),
  currency: Type.Optional(Currency),
  ...Pagination,
});

export const PortalPayoutQuery = Type.Object({
  status: Type.Optional(PayoutStatus),
  currency: Type.Optional(Currency),
  ...Pagination,
});

export const VendorPayoutCreate = Body(
  {
    vendor_id: IdText,
    amount_cents: Type.Optional(Type.Integer({ minimum: 1, description: 'Default: the whole available balance' })),
    currency: Type.Optional(Currency),
    note: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  },
  {
    description:
      'Reserves the amount (≤ the available balance) in a pending payout. Currency default: the only ' +
      "currency the vendor has a balance in, else the shop's default channel currency",
  },
);

export const PayoutRequest = Body(
  {
    amount_cents: Type.Optional(Type.Integer({ minimum: 1, description: 'Default: the whole available balance' })),
    currency: Type.Optional(Currency),
  },
  { description: 'Requests a payout of the available balance (at least the minimum payout)' },
);

export const MarkPaid = Body({
  reference: Type.String({ minLength: 1, maxLength: 140, description: 'Bank transfer reference' }),
});

// ---- statements ----

const StatementTotals = Type.Object({
  earnings_cents: Type.Integer({ description: 'Earnings booked in the period (+)' }),
  clawbacks_cents: Type.Integer({ description: 'Clawbacks in the period, as a positive amount (−)' }),
  payouts_cents: Type.Integer({ description: 'Payouts paid in the period, as a positive amount (−)' }),
  gross_sales_cents: Type.Integer({ description: 'Gross sales behind the earnings of the period' }),
  commission_cents: Type.Integer({ description: 'Platform commission kept on the earnings of the period' }),
});

const StatementEntry = Type.Object({
  transaction_id: Type.String(),
  occurred_at: Timestamp,
  date: Type.String({ description: "Calendar date in the shop's time zone (YYYY-MM-DD)" }),
  kind: Type.String({ description: 'earning | clawback | payout_paid' }),
  description: Type.String(),
  order_id: Nullable(Type.String()),
  order_number: Nullable(Type.String()),
  payout_id: Nullable(Type.String()),
  credit_note_id: Nullable(Type.String()),
  amount_cents: Type.Integer({ description: 'Change of what the shop owes the vendor' }),
  balance_cents: Type.Integer({ description: 'Running balance after this entry' }),
});

const statementFields = {
  id: Type.String(),
  vendor_id: Type.String(),
  period: Type.String(),
  period_start: Timestamp,
  period_end: Timestamp,
  currency: Type.String(),
  status: Type.Union([Type.Literal('draft'), Type.Literal('final')]),
  number: Nullable(Type.String()),
  vendor: Type.Object({ name: Type.String(), email: Type.String() }),
  opening_balance_cents: Type.Integer({ description: 'What the shop owed the vendor at the period start' }),
  closing_balance_cents: Type.Integer({ description: 'opening + Σ entries: owed at the period end' }),
  totals: StatementTotals,
  content_hash: Nullable(Type.String()),
  finalized_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const Statement = Type.Object({ ...statementFields, entries: Type.Array(StatementEntry) });
export const StatementSummary = Type.Object({ ...statementFields, entry_count: Type.Integer() });
export const StatementList = Type.Object({ statements: Type.Array(StatementSummary), ...PageMeta });

export const StatementCreate = Body(
  {
    vendor_id: IdText,
    period: Period,
    currency: Type.Optional(Currency),
  },
  {
    description:
      "A draft for the calendar month in the shop's time zone (201); again for the same vendor, period " +
      'and currency: the draft is recomputed (200), a final statement is 409 statement_final',
  },
);

export const StatementQuery = Type.Object({
  vendor_id: Type.Optional(IdText),
  status: Type.Optional(Type.Union([Type.Literal('draft'), Type.Literal('final')])),
  period: Type.Optional(Period),
  currency: Type.Optional(Currency),
  ...Pagination,
});

export const PortalStatementQuery = Type.Object({
  period: Type.Optional(Period),
  currency: Type.Optional(Currency),
  ...Pagination,
});

/** A binary body: no serializer runs, the OpenAPI document shows the media type. */
export const binary = (mediaType: string, description: string) => ({
  description,
  content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } },
});
