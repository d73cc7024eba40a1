/** Request and response schemas of the storefront checkout routes. */
import { Type } from '@sinclair/typebox';
import { Body, Email, Nullable, Timestamp } from '../../platform/http/schemas.js';

export const AddressSchema = Body({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  company: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  vat_id: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  line1: Type.String({ minLength: 1, maxLength: 200 }),
  line2: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  postal_code: Type.String({ minLength: 1, maxLength: 20 }),
  city: Type.String({ minLength: 1, maxLength: 100 }),
  country: Type.String({ pattern: '^[A-Z]{2}$' }),
});

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

export const CheckoutCreate = Body({
  items: Type.Array(
    Body({
      product_id: Type.String({ minLength: 1, maxLength: 64 }),
      variant_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      quantity: Type.Integer({ minimum: 1, maximum: 1000 }),
    }),
    { minItems: 1, maxItems: 100 },
  ),
  customer: Body({ email: Email, billing_address: Type.Optional(AddressSchema) }),
  shipping_address: Type.Optional(AddressSchema),
  shipping_method_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  widerruf_verzicht: Type.Optional(Type.Boolean()),
  return_url: Type.String({ minLength: 1, maxLength: 2000 }),
  flow: Type.Optional(Type.Union([Type.Literal('hosted'), Type.Literal('direct')])),
  affiliate_code: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  discount_code: Type.Optional(Type.String({ maxLength: 64 })),
  channel_id: Type.Optional(
    Type.String({
      maxLength: 64,
      description: 'Ignored: the channel is resolved from the request (docs/storefront.md)',
    }),
  ),
});

const TaxCategoryOut = Type.Union(
  ['S', 'Z', 'K', 'AE', 'G', 'O'].map((c) => Type.Literal(c)),
  {
    description: 'EN 16931 VAT category (docs/finance.md, "Which tax applies")',
  },
);

/** Per line: which row of the tax table applied. */
const lineTaxFields = {
  tax_category: TaxCategoryOut,
  tax_exemption_reason: Nullable(Type.String({ description: 'Text the invoice carries for a 0 % category' })),
};

/** The shipping's tax and the buyer's VAT ID check (docs/finance.md). */
const pricingTaxFields = {
  shipping_tax_cents: Type.Integer(),
  shipping_tax_rate: Nullable(Type.Number()),
  shipping_tax_category: Nullable(TaxCategoryOut),
  shipping_tax_exemption_reason: Nullable(Type.String()),
  vat_id_status: Nullable(
    Type.String({
      description:
        'valid | invalid (VIES) | unverified (VIES unreachable, accepted) | unchecked (VIES unreachable, VAT charged); null when no VAT ID decided the tax',
    }),
  ),
  vat_id_checked_at: Nullable(Timestamp),
};

export const PricedLineOut = Type.Object({
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
  ...lineTaxFields,
  tax_class: Type.String(),
  is_digital: Type.Boolean(),
});

export const CheckoutSessionOut = Type.Object({
  id: Type.String(),
  url: Nullable(Type.String()),
  status: Type.String(),
  flow: Type.String(),
  requires_shipping: Type.Boolean(),
  currency: Type.String(),
  channel_id: Type.String(),
  lines: Type.Array(PricedLineOut),
  subtotal_cents: Type.Integer(),
  shipping_cents: Type.Integer(),
  ...pricingTaxFields,
  tax_cents: Type.Integer(),
  total_cents: Type.Integer(),
  order_id: Nullable(Type.String()),
  expires_at: Timestamp,
});

export const OrderLineOut = Type.Object({
  id: Type.String(),
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
  ...lineTaxFields,
  tax_class: Type.String(),
  is_digital: Type.Boolean(),
});

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
