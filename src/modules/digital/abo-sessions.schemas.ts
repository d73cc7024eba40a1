/** Request and response schemas of the subscription checkout (docs/digital.md). */
import { Type } from '@sinclair/typebox';
import { Body, Email } from '../../platform/http/schemas.js';
import { AddressSchema } from '../checkout/index.js';

export const AboSessionCreate = Body({
  plan_id: Type.String({ minLength: 1, maxLength: 64 }),
  return_url: Type.String({ minLength: 1, maxLength: 2000, description: "On the publishable key's origin allowlist" }),
  customer_email: Email,
  affiliate_code: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  // A business buyer (docs/finance.md): the one-time checkout's billing_address fields, flat (rule 4
  // refuses the nested address prefill). They decide the tax row before the provider's page.
  company: Type.Optional({
    ...AddressSchema.properties.company,
    description: 'Business buyer: company name (shown on the hosted page and the invoice)',
  }),
  vat_id: Type.Optional({
    ...AddressSchema.properties.vat_id,
    description: 'Business buyer: EU VAT ID, checked by format and against VIES (needs billing_country)',
  }),
  billing_country: Type.Optional({
    ...AddressSchema.properties.country,
    description: 'ISO country of the billing address; decides the tax row (default: the channel’s default country)',
  }),
  channel_id: Type.Optional(
    Type.String({ maxLength: 64, description: 'Ignored: the channel is resolved from the request (rule 6)' }),
  ),
  // Rule 4: named here only to refuse them with a clear 400 (billing details are collected on the hosted page)
  customer: Type.Optional(Type.Unknown({ description: 'Refused: no customer or address prefill' })),
  billing_address: Type.Optional(Type.Unknown({ description: 'Refused: no address prefill' })),
  shipping_address: Type.Optional(Type.Unknown({ description: 'Refused: no address prefill' })),
  discount_code: Type.Optional(Type.Unknown({ description: 'Refused: no discount codes' })),
  express: Type.Optional(Type.Unknown({ description: 'Refused: no express shortcut' })),
  express_checkout: Type.Optional(Type.Unknown({ description: 'Refused: no express shortcut' })),
  flow: Type.Optional(Type.Unknown({ description: 'Only "hosted": subscriptions always use the hosted flow' })),
});

export const AboSessionOut = Type.Object({
  id: Type.String(),
  url: Type.String({ description: 'The hosted checkout: redirect the buyer here' }),
});
