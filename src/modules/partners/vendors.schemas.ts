/** Request and response schemas of the vendor admin routes and the vendor portal. */
import { Type } from '@sinclair/typebox';
import { Body, Email, Nullable, PageMeta, Pagination, Timestamp } from '../../platform/http/schemas.js';
import { AddressOut, lineItemFields } from '../orders/index.js';
import { VENDOR_STATUSES } from './partners.tables.js';

const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });
const RefId = Type.String({ minLength: 1, maxLength: 64 });
/** A query bound: `YYYY-MM-DD` (a whole UTC day) or an RFC 3339 timestamp. */
const DateOrTime = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}([Tt ]\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?([Zz]|[+-]\\d{2}:\\d{2}))?$',
    description,
  });
const From = DateOrTime('From (inclusive): YYYY-MM-DD (UTC day) or RFC 3339');
const To = DateOrTime('To: YYYY-MM-DD includes that whole UTC day; an RFC 3339 time is exclusive');

export { VENDOR_STATUSES };

const VendorStatus = Type.Union(VENDOR_STATUSES.map((s) => Type.Literal(s)));

/** A partner balance in one currency, summed from the ledger. */
export const BalanceSchema = Type.Object({
  currency: Type.String(),
  pending_cents: Type.Integer({ description: 'Earned, still in the hold period' }),
  available_cents: Type.Integer({ description: 'Released, may be paid out' }),
  in_payout_cents: Type.Integer({ description: 'Reserved by an open payout' }),
  paid_out_cents: Type.Integer(),
  earned_cents: Type.Integer({ description: 'Everything earned net of clawbacks' }),
  owed_cents: Type.Integer({ description: 'pending + available + in_payout' }),
});

const vendorFields = {
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  status: Type.String({ description: 'invited | active | suspended' }),
  invited_at: Nullable(Timestamp),
  accepted_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
};
export const Vendor = Type.Object(vendorFields);
export const VendorWithBalances = Type.Object({ ...vendorFields, balances: Type.Array(BalanceSchema) });

export const VendorInvite = Body({ email: Email, name: Text(200) });

export const VendorListQuery = Type.Object(
  {
    status: Type.Optional(VendorStatus),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Part of the name or e-mail' })),
    ...Pagination,
  },
  { additionalProperties: false },
);
export const VendorList = Type.Object({ vendors: Type.Array(VendorWithBalances), ...PageMeta });

export const VendorPatch = Body({
  name: Type.Optional(Text(200)),
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('suspended')])),
});

// ---- commission rules ----

export const CommissionRuleCreate = Body(
  {
    percent: Type.Optional(Type.Number({ minimum: 0, maximum: 100, description: 'Platform commission, ≤ 2 decimals' })),
    fixed_cents: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000_000, description: 'Per order line' })),
    category_id: Type.Optional(RefId),
    effective_from: Type.Optional(Type.String({ format: 'date-time', description: 'Default now; not in the past' })),
  },
  { description: 'A new version of the rule (for the category, or general); at least percent or fixed_cents' },
);

export const CommissionRule = Type.Object({
  id: Type.String(),
  vendor_id: Type.String(),
  category_id: Nullable(Type.String({ description: 'null: every category without its own rule' })),
  category_name: Nullable(Type.String()),
  percent: Type.Number(),
  fixed_cents: Type.Integer(),
  effective_from: Timestamp,
  created_by: Nullable(Type.String()),
  created_at: Timestamp,
});

export const VendorDetail = Type.Object({
  ...vendorFields,
  balances: Type.Array(BalanceSchema),
  commission_rules: Type.Object({
    current: Type.Array(CommissionRule, {
      description: 'The rule in effect now, per category (category_id null = general)',
    }),
    history: Type.Array(CommissionRule, { description: 'Every version, newest effective_from first' }),
  }),
});

// ---- earnings ----

export const Earning = Type.Object({
  id: Type.String(),
  vendor_id: Type.String(),
  order_id: Type.String(),
  order_line_id: Nullable(Type.String()),
  subscription_id: Nullable(Type.String()),
  subscription_payment_number: Nullable(Type.Integer()),
  currency: Type.String(),
  gross_cents: Type.Integer(),
  net_cents: Type.Integer(),
  commission_cents: Type.Integer(),
  amount_cents: Type.Integer(),
  reversed_cents: Type.Integer(),
  rate_percent: Type.Number(),
  status: Type.String({ description: 'pending | released' }),
  earned_at: Timestamp,
  released_at: Nullable(Timestamp),
});

const earningFilters = {
  status: Type.Optional(Type.Union([Type.Literal('pending'), Type.Literal('released')])),
  order_id: Type.Optional(RefId),
  currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
  from: Type.Optional(From),
  to: Type.Optional(To),
  ...Pagination,
};
export const EarningListQuery = Type.Object(
  { vendor_id: Type.Optional(RefId), ...earningFilters },
  { additionalProperties: false },
);
export const PortalEarningQuery = Type.Object(earningFilters, { additionalProperties: false });
export const EarningList = Type.Object({ earnings: Type.Array(Earning), ...PageMeta });
/** The portal's earnings: each with its order's number (the vendor sees that order's own lines). */
export const PortalEarningList = Type.Object({
  earnings: Type.Array(Type.Object({ ...Earning.properties, order_number: Nullable(Type.String()) })),
  ...PageMeta,
});

export const ReleaseBody = Body(
  {
    earning_ids: Type.Optional(Type.Array(RefId, { minItems: 1, maxItems: 500, uniqueItems: true })),
    vendor_id: Type.Optional(RefId),
  },
  {
    description:
      'Without earning_ids: every pending earning (of vendor_id) older than the hold period; with them: exactly those',
  },
);
const Amount = Type.Object({ currency: Type.String(), amount_cents: Type.Integer() });
export const ReleaseResult = Type.Object({
  released: Type.Integer(),
  amounts: Type.Array(Amount, { description: 'What became available, per currency' }),
  earnings: Type.Array(Earning),
});

// ---- analytics ----

export const AnalyticsQuery = Type.Object(
  { from: Type.Optional(From), to: Type.Optional(To), vendor_id: Type.Optional(RefId) },
  { additionalProperties: false },
);
export const Analytics = Type.Object({
  from: Timestamp,
  to: Timestamp,
  vendors: Type.Array(
    Type.Object({
      vendor_id: Type.String(),
      name: Type.String(),
      currency: Type.String(),
      gross_sales_cents: Type.Integer({ description: 'Line totals of orders paid in the period' }),
      net_sales_cents: Type.Integer({ description: 'The same lines net of tax' }),
      commission_cents: Type.Integer({ description: 'Platform commission on them' }),
      earnings_cents: Type.Integer({ description: 'What the vendor earned on them' }),
      clawbacks_cents: Type.Integer({ description: 'Clawed back in the period (credit notes, refunds)' }),
      orders: Type.Integer(),
      lines: Type.Integer(),
      pending_cents: Type.Integer({ description: 'Current balance' }),
      available_cents: Type.Integer({ description: 'Current balance' }),
      in_payout_cents: Type.Integer({ description: 'Current balance' }),
      paid_out_cents: Type.Integer({ description: 'Current balance' }),
    }),
  ),
});

// ---- portal ----

export const PortalProduct = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  sku: Nullable(Type.String()),
  status: Type.String(),
  base_price_cents: Type.Integer(),
  is_digital: Type.Boolean(),
  stock: Nullable(Type.Integer({ description: 'Units in stock (variants summed); null when not tracked' })),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const PortalProductList = Type.Object({ products: Type.Array(PortalProduct), ...PageMeta });

export const PortalOrderLine = Type.Object({
  id: Type.String(),
  position: Type.Integer(),
  ...lineItemFields,
  is_digital: Type.Boolean(),
});
export const PortalOrder = Type.Object({
  id: Type.String(),
  number: Type.String(),
  status: Type.String(),
  created_at: Timestamp,
  paid_at: Nullable(Timestamp),
  currency: Type.String(),
  requires_shipping: Type.Boolean(),
  shipping_address: Nullable(AddressOut),
  lines: Type.Array(PortalOrderLine, { description: "Only this vendor's lines" }),
  vendor_total_cents: Type.Integer({ description: "Sum of this vendor's lines (gross)" }),
});
export const PortalOrderList = Type.Object({ orders: Type.Array(PortalOrder), ...PageMeta });
export const PortalListQuery = Type.Object(Pagination, { additionalProperties: false });

const SalesFigures = Type.Object({
  currency: Type.String(),
  gross_cents: Type.Integer(),
  earnings_cents: Type.Integer(),
  orders: Type.Integer(),
});
export const Dashboard = Type.Object({
  balances: Type.Array(BalanceSchema),
  sales_last_30_days: Type.Array(SalesFigures, { description: 'Per currency, by payment time' }),
  sales_this_month: Type.Array(SalesFigures, { description: 'Per currency, calendar month (UTC)' }),
  products: Type.Integer({ description: 'Products (not deleted)' }),
  pending_earnings: Type.Integer({ description: 'Earnings still pending' }),
  recent_orders: Type.Array(PortalOrder, { description: 'The last 5 orders with their lines' }),
});

export const LedgerQuery = Type.Object(
  {
    currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$' })),
    from: Type.Optional(From),
    to: Type.Optional(To),
    ...Pagination,
  },
  { additionalProperties: false },
);
export const LedgerList = Type.Object({
  entries: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String({
        description: 'earning | release | clawback | payout_requested | payout_paid | payout_cancelled',
      }),
      currency: Type.String(),
      earning_id: Nullable(Type.String()),
      payout_id: Nullable(Type.String()),
      order_id: Nullable(Type.String()),
      credit_note_id: Nullable(Type.String()),
      memo: Nullable(Type.String()),
      occurred_at: Timestamp,
      postings: Type.Array(Type.Object({ account: Type.String(), amount_cents: Type.Integer() })),
    }),
  ),
  ...PageMeta,
});
