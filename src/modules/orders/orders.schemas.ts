/** Response schemas of orders: admin routes, the customer's orders, vendor and subscription views. */
import { Type } from '@sinclair/typebox';
import { Nullable, Pagination, Timestamp } from '../../platform/http/schemas.js';
import { lineTaxFields, pricingTaxFields } from '../tax/index.js';
import { ORDER_STATUSES } from './order-states.js';

export const AddressOut = Type.Object({
  name: Type.String(),
  company: Type.Optional(Nullable(Type.String())),
  vat_id: Type.Optional(Nullable(Type.String())),
  line1: Type.String(),
  line2: Type.Optional(Nullable(Type.String())),
  postal_code: Type.String(),
  city: Type.String(),
  country: Type.String(),
});

/** What a sold item's line says in every response: the product, quantity, prices and tax. */
export const lineItemFields = {
  product_id: Type.String(),
  variant_id: Nullable(Type.String()),
  name: Type.String(),
  sku: Nullable(Type.String()),
  quantity: Type.Integer(),
  unit_price_cents: Type.Integer(),
  line_total_cents: Type.Integer(),
  tax_rate: Type.Number(),
  tax_cents: Type.Integer(),
  net_cents: Type.Integer(),
};

/** A priced line (PricedLine in orders.tables.ts) as a checkout session shows it. */
export const PricedLineOut = Type.Object({
  ...lineItemFields,
  ...lineTaxFields,
  tax_class: Type.String(),
  is_digital: Type.Boolean(),
});

/** An order line: the priced line it was copied from, with its id. */
export const OrderLineOut = Type.Object({ id: Type.String(), ...PricedLineOut.properties });

const orderFields = {
  id: Type.String(),
  number: Type.String(),
  status: Type.String(),
  channel_id: Type.String(),
  checkout_session_id: Nullable(Type.String()),
  customer_id: Nullable(Type.String()),
  customer_email: Type.String(),
  billing_address: Nullable(AddressOut),
  shipping_address: Nullable(AddressOut),
  shipping_method_id: Nullable(Type.String()),
  currency: Type.String(),
  subtotal_cents: Type.Integer(),
  shipping_cents: Type.Integer(),
  ...pricingTaxFields,
  tax_cents: Type.Integer(),
  total_cents: Type.Integer(),
  requires_shipping: Type.Boolean(),
  widerruf_verzicht: Type.Boolean(),
  widerruf_verzicht_at: Nullable(Timestamp),
  affiliate_code: Nullable(Type.String()),
  subscription_id: Nullable(Type.String()),
  service_period_start: Nullable(
    Type.String({
      format: 'date-time',
      description: 'A subscription payment: start of the billed period (its invoice states the service period)',
    }),
  ),
  service_period_end: Nullable(
    Type.String({ format: 'date-time', description: 'End of the billed period (exclusive: the next one starts here)' }),
  ),
  is_test: Type.Boolean(),
  payment_provider: Nullable(Type.String()),
  confirmed_at: Nullable(Timestamp),
  paid_at: Nullable(Timestamp),
  expires_at: Nullable(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
};

export const OrderSummary = Type.Object(orderFields);
export const OrderDetail = Type.Object({
  ...orderFields,
  lines: Type.Array(OrderLineOut),
  entitlements: Type.Array(
    Type.Object({ product_id: Type.String(), variant_id: Nullable(Type.String()), quantity: Type.Integer() }),
    { description: 'Digital products this order entitles; delivery and access are the client application’s' },
  ),
});

/** The sort orders of the admin order list: a field, descending with a leading `-`. */
export const ORDER_SORTS = ['-created_at', 'created_at', '-total_cents', 'total_cents', '-number', 'number'] as const;

/** A day (YYYY-MM-DD, midnight UTC) or an RFC 3339 time. */
const DayOrTime = (description: string) =>
  Type.Union([Type.String({ format: 'date', pattern: '^[1-9][0-9]{3}-' }), Timestamp], {
    description: `${description}: a date (YYYY-MM-DD, midnight UTC) or an RFC 3339 time`,
  });

/** The admin order list's query. */
export const OrderListQuery = Type.Object(
  {
    status: Type.Optional(Type.Union(ORDER_STATUSES.map((s) => Type.Literal(s)))),
    channel_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    q: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description:
          'The order number (exactly, a leading # ignored), or part of the customer e-mail or the billing name (case-insensitive)',
      }),
    ),
    created_from: Type.Optional(DayOrTime('Created at or after (inclusive)')),
    created_to: Type.Optional(DayOrTime('Created before (exclusive)')),
    paid: Type.Optional(
      Type.Boolean({ description: 'true: the order was paid (paid_at set, refunds included); false: never paid' }),
    ),
    sort: Type.Optional(
      Type.Union(
        ORDER_SORTS.map((s) => Type.Literal(s)),
        { default: '-created_at', description: 'A field, descending with a leading -; ties by id' },
      ),
    ),
    email: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 254,
        description:
          'Exactly this buyer e-mail (case aside): a customer’s or guest’s orders (GET /api/admin/customers)',
      }),
    ),
    customer_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'Orders of this customer account (placed or claimed)' }),
    ),
    ...Pagination,
  },
  { additionalProperties: false },
);

/** A refund's amount (refunds and their preview). */
export const RefundAmountIn = Type.Optional(
  Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, description: 'Default: all that is still refundable' }),
);

/** A refund by lines: order lines (`lines[].id` of the order) and how many units of each (refunds and their preview). */
export const RefundLinesIn = Type.Optional(
  Type.Array(
    Type.Object(
      {
        line_id: Type.String({ minLength: 1, maxLength: 100 }),
        quantity: Type.Integer({ minimum: 1, maximum: 1_000_000 }),
      },
      { additionalProperties: false },
    ),
    { minItems: 1, maxItems: 500 },
  ),
);
