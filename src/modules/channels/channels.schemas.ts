/** Request and response schemas of the channel routes. */
import { Type } from '@sinclair/typebox';
import { Body, Nullable, Timestamp } from '../../platform/http/schemas.js';
import { ALLOCATION_STRATEGIES, PAYMENT_METHOD_CODES, SUPPORTED_CURRENCIES } from './channels.reference.js';

export const CurrencyCode = Type.Union(
  SUPPORTED_CURRENCIES.map((c) => Type.Literal(c)),
  {
    description: 'ISO 4217 code with two minor digits',
  },
);
export const CountryCode = Type.String({ pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' });
const Slug = Type.String({ pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$', maxLength: 80 });
const PathPrefix = Type.String({
  pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
  maxLength: 32,
  description: 'e.g. "de" for /de/api/store/…',
});
/** A tax rate as a fraction: 0.19 means 19 %. Values above 1 are refused, not read as percent. */
export const TaxRate = Type.Number({ minimum: 0, maximum: 1 });
const Allocation = Type.Union(ALLOCATION_STRATEGIES.map((a) => Type.Literal(a)));
export const MethodCode = Type.Union(PAYMENT_METHOD_CODES.map((m) => Type.Literal(m)));

/** The `:id` of a channel's routes. */
export const ChannelParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const ChannelSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  is_default: Type.Boolean(),
  is_active: Type.Boolean(),
  currency: Type.String(),
  default_country: Type.String(),
  allocation_strategy: Type.String(),
  auto_confirm_orders: Type.Boolean(),
  allow_unpaid_orders: Type.Boolean(),
  pending_payment_ttl_hours: Type.Integer(),
  path_prefix: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ChannelCreate = Body({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  slug: Type.Optional(Slug),
  default_country: CountryCode,
  currency: CurrencyCode,
  path_prefix: Type.Optional(Nullable(PathPrefix)),
  is_active: Type.Optional(Type.Boolean()),
  allocation_strategy: Type.Optional(Allocation),
  auto_confirm_orders: Type.Optional(Type.Boolean()),
  allow_unpaid_orders: Type.Optional(Type.Boolean()),
  pending_payment_ttl_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720 })),
});

export const ChannelPatch = Body({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  slug: Type.Optional(Slug),
  is_active: Type.Optional(Type.Boolean()),
  currency: Type.Optional(CurrencyCode),
  default_country: Type.Optional(CountryCode),
  path_prefix: Type.Optional(Nullable(PathPrefix)),
  allocation_strategy: Type.Optional(Allocation),
  auto_confirm_orders: Type.Optional(Type.Boolean()),
  allow_unpaid_orders: Type.Optional(Type.Boolean()),
  pending_payment_ttl_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720 })),
});

export const ChannelListItem = Type.Composite([
  ChannelSchema,
  Type.Object({ domain_count: Type.Integer({ description: 'How many domains are mapped to the channel' }) }),
]);

export const DomainSchema = Type.Object({
  id: Type.String({ description: 'The mapping id' }),
  channel_id: Type.String(),
  domain: Type.String(),
  created_at: Timestamp,
});
export const DomainCreate = Body({ domain: Type.String({ minLength: 1, maxLength: 300 }) });

const Overrides = Type.Object({
  name: Nullable(Type.String()),
  currency: Nullable(Type.String()),
  tax_rate: Nullable(Type.Number()),
  food_tax_rate: Nullable(Type.Number()),
  books_tax_rate: Nullable(Type.Number()),
});

export const ChannelCountrySchema = Type.Object({
  code: Type.String(),
  name: Type.String(),
  currency: Nullable(Type.String()),
  tax_rate: Nullable(Type.Number()),
  food_tax_rate: Nullable(Type.Number()),
  books_tax_rate: Nullable(Type.Number()),
  is_custom: Type.Boolean({ description: 'A shop-owned country' }),
  overrides: Overrides,
});

export const CountriesResponse = Type.Object({
  countries: Type.Array(ChannelCountrySchema),
  inherited: Type.Boolean({ description: 'True when the selection is empty and every active country applies' }),
});

export const CountriesPut = Body({ country_codes: Type.Array(CountryCode, { maxItems: 300, uniqueItems: true }) });

export const CountryPatch = Body({
  name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
  currency: Type.Optional(Nullable(CurrencyCode)),
  tax_rate: Type.Optional(Nullable(TaxRate)),
  food_tax_rate: Type.Optional(Nullable(TaxRate)),
  books_tax_rate: Type.Optional(Nullable(TaxRate)),
});

export const CustomCountryCreate = Body({
  code: CountryCode,
  name: Type.String({ minLength: 1, maxLength: 100 }),
  currency: Type.Optional(Nullable(CurrencyCode)),
  tax_rate: Type.Optional(Nullable(TaxRate)),
  food_tax_rate: Type.Optional(Nullable(TaxRate)),
  books_tax_rate: Type.Optional(Nullable(TaxRate)),
});

export const MethodCodes = Type.Array(MethodCode, { maxItems: 30, uniqueItems: true });
export const PaymentMethodsResponse = Type.Object({
  method_codes: Type.Array(Type.String(), { description: "The channel's own selection (empty = inherit)" }),
  inherited: Type.Boolean(),
  effective_method_codes: Type.Array(Type.String()),
});
export const PaymentMethodsPut = Body({ method_codes: MethodCodes });
/**
 * The shop's own selection cannot be empty: there is nothing further to inherit from, and an empty
 * list would silently mean the built-in default (card) again.
 */
export const ShopPaymentMethodsPut = Body({
  method_codes: Type.Array(MethodCode, {
    minItems: 1,
    maxItems: 30,
    uniqueItems: true,
    description: 'The methods every channel without its own selection offers (at least one)',
  }),
});
export const ShopPaymentMethods = Type.Object({ method_codes: Type.Array(Type.String()) });
