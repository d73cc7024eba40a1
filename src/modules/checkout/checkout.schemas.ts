/** Request and response schemas of the storefront checkout routes. */
import { type Static, Type } from '@sinclair/typebox';
import { Body, Email, Nullable, Timestamp } from '../../platform/http/schemas.js';
import { PricedLineOut } from '../orders/index.js';
import { pricingTaxFields } from '../tax/index.js';

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
/** The body of the create-checkout-session route. */
export type CheckoutInput = Static<typeof CheckoutCreate>;

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
  order_number: Nullable(
    Type.String({ description: "The order's number (what the buyer quotes), once the session has an order" }),
  ),
  expires_at: Timestamp,
});

/** The form the hosted payment page posts (every kind of session: modules/digital's abo page too). */
export const PayForm = Type.Object({
  card_number: Type.Optional(Type.String({ maxLength: 40 })),
  name: Type.Optional(Type.String({ maxLength: 200 })),
  line1: Type.Optional(Type.String({ maxLength: 200 })),
  postal_code: Type.Optional(Type.String({ maxLength: 20 })),
  city: Type.Optional(Type.String({ maxLength: 100 })),
  country: Type.Optional(Type.String({ maxLength: 2 })),
  company: Type.Optional(Type.String({ maxLength: 200, description: 'Abo page: company (business buyer)' })),
  vat_id: Type.Optional(Type.String({ maxLength: 40, description: 'Abo page: VAT ID (business buyer)' })),
  widerruf_verzicht: Type.Optional(Type.String({ maxLength: 10 })),
});
export type FormValues = Static<typeof PayForm>;
