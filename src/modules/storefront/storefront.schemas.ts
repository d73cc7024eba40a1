/** Request and response schemas of the public catalog (docs/catalog.md). Only public fields exist here. */
import { type Static, Type } from '@sinclair/typebox';
import { Nullable, PageMeta, Pagination } from '../../platform/http/schemas.js';

const PathPrefix = Type.String({
  pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
  maxLength: 32,
  description: "A channel's path prefix, e.g. `de` (channel resolution rule b)",
});

export const PrefixParams = Type.Object({ prefix: PathPrefix });
const IdOrSlug = Type.String({ minLength: 1, maxLength: 200, description: 'Product id or slug' });
export const ProductParams = Type.Object({ idOrSlug: IdOrSlug });
export const PrefixProductParams = Type.Object({ prefix: PathPrefix, idOrSlug: IdOrSlug });

export const StoreListQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({ maxLength: 200, description: 'Name, SKU, slug or variant SKU; case- and accent-insensitive' }),
    ),
    category_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Exactly this category' })),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type StoreListInput = Static<typeof StoreListQuery>;

const StoreVariant = Type.Object({
  id: Type.String(),
  sku: Nullable(Type.String()),
  title: Type.String(),
  option_values: Type.Record(Type.String(), Type.String()),
  price_cents: Type.Integer({
    description: 'The price in this channel: variant listing → variant price → product listing → base price',
  }),
  compare_at_price_cents: Nullable(Type.Integer()),
  is_default: Type.Boolean(),
  in_stock: Type.Boolean(),
});

const StoreImage = Type.Object({
  id: Type.String(),
  url: Type.String(),
  alt: Nullable(Type.String()),
  position: Type.Integer(),
  variant_id: Nullable(Type.String()),
});

export const StoreProduct = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  sku: Nullable(Type.String()),
  type: Type.String(),
  is_digital: Type.Boolean(),
  tax_class: Type.String(),
  description: Nullable(Type.String()),
  short_description: Nullable(Type.String()),
  category_id: Nullable(Type.String()),
  brand_id: Nullable(Type.String()),
  base_price_cents: Type.Integer({ description: 'The base product price (docs/storefront.md)' }),
  in_stock: Type.Boolean(),
  channel: Type.Object({
    id: Type.String(),
    currency: Type.String(),
    price_cents: Nullable(Type.Integer({ description: "The product's custom price in this channel, if any" })),
    compare_at_price_cents: Nullable(Type.Integer()),
  }),
  options: Type.Array(Type.Object({ name: Type.String(), values: Type.Array(Type.String()) })),
  variants: Type.Array(StoreVariant),
  images: Type.Array(StoreImage),
});

export const StoreProductList = Type.Object({ products: Type.Array(StoreProduct), ...PageMeta });
export const StoreProductWrapper = Type.Object({ product: StoreProduct });
