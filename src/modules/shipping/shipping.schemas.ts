/** Request and response schemas of the shipping-method routes. */
import { Type } from '@sinclair/typebox';
import { Body, Timestamp } from '../../platform/http/schemas.js';

const CountryCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' });
const Name = Type.String({ minLength: 1, maxLength: 200 });
const PriceCents = Type.Integer({ minimum: 0, maximum: 10_000_000, description: 'Gross price in cents' });
const Countries = Type.Array(CountryCode, {
  uniqueItems: true,
  maxItems: 300,
  description: 'Countries served; empty = every country',
});

export const ShippingMethodSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  price_cents: Type.Integer(),
  countries: Type.Array(Type.String()),
  is_active: Type.Boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ShippingMethodCreate = Body({
  name: Name,
  price_cents: PriceCents,
  countries: Type.Optional(Countries),
  is_active: Type.Optional(Type.Boolean()),
});

export const ShippingMethodPatch = Body({
  name: Type.Optional(Name),
  price_cents: Type.Optional(PriceCents),
  countries: Type.Optional(Countries),
  is_active: Type.Optional(Type.Boolean()),
});

export const ShippingMethodList = Type.Object({ shipping_methods: Type.Array(ShippingMethodSchema) });

/** What a storefront sees: no activation flag, no audit timestamps. */
export const StoreShippingMethod = Type.Object({
  id: Type.String(),
  name: Type.String(),
  price_cents: Type.Integer(),
});

export const StoreShippingQuery = Type.Object({ country: CountryCode });

export const StoreShippingList = Type.Object({ shipping_methods: Type.Array(StoreShippingMethod) });
