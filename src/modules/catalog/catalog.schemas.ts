/** Request and response schemas of the catalog routes, and the input types the services take. */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { Body, Email, Nullable, PageMeta, Pagination, Timestamp } from '../../platform/http/schemas.js';
import { PRODUCT_STATUSES, PRODUCT_TYPES, type ProductStatus } from './catalog.tables.js';

/** A string enum as one `enum` keyword: one clear error message and a clean OpenAPI entry. */
const StringEnum = <T extends string>(values: readonly T[], description?: string) =>
  Type.Unsafe<T>({ type: 'string', enum: [...values], ...(description ? { description } : {}) });

export const TAX_CLASSES = ['standard', 'food', 'books'] as const;
export { PRODUCT_STATUSES as STATUSES, PRODUCT_TYPES, type ProductStatus };

/** Largest accepted amount: 100 million in the currency's main unit. */
export const MAX_CENTS = 10_000_000_000;

const Status = StringEnum(PRODUCT_STATUSES);
const ProductType = StringEnum(PRODUCT_TYPES);
const TaxClass = StringEnum(TAX_CLASSES);
const Cents = Type.Integer({ minimum: 0, maximum: MAX_CENTS, description: 'Integer cents, gross' });
const Quantity = Type.Integer({ minimum: 0, maximum: 1_000_000_000 });
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' });
const Sku = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^\\S(?:.*\\S)?$',
  description: 'Unique per shop across products and variants; no leading or trailing spaces',
});
const Slug = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '^[a-z0-9]+(?:-[a-z0-9]+)*$',
  description: 'Lowercase letters, digits and single dashes; unique per shop',
});
const RefId = Type.String({ minLength: 1, maxLength: 64 });
const Url = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2000 });

// ---- products ----------------------------------------------------------------------------------

export const OptionSchema = Type.Object({ name: Type.String(), values: Type.Array(Type.String()) });
const OptionInput = Body({
  name: Type.String({ minLength: 1, maxLength: 50 }),
  values: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 100, uniqueItems: true }),
});

export const VariantSchema = Type.Object({
  id: Type.String(),
  sku: Nullable(Type.String()),
  title: Type.String(),
  option_values: Type.Record(Type.String(), Type.String()),
  price_cents: Nullable(Type.Integer({ description: 'null: the product base price applies' })),
  effective_price_cents: Type.Integer({ description: 'price_cents, or the base price when that is null' }),
  cost_price_cents: Nullable(Type.Integer()),
  stock_quantity: Type.Integer(),
  track_stock: Type.Boolean(),
  is_default: Type.Boolean(),
  position: Type.Integer(),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ImageSchema = Type.Object({
  id: Type.String(),
  url: Type.String(),
  alt: Nullable(Type.String()),
  position: Type.Integer(),
  variant_id: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});

export const ProductSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  sku: Nullable(Type.String()),
  status: Status,
  type: ProductType,
  tax_class: TaxClass,
  base_price_cents: Type.Integer(),
  cost_price_cents: Nullable(Type.Integer()),
  category_id: Nullable(Type.String()),
  brand_id: Nullable(Type.String()),
  supplier_id: Nullable(Type.String()),
  vendor_id: Nullable(Type.String()),
  is_digital: Type.Boolean(),
  track_stock: Type.Boolean(),
  stock_quantity: Type.Integer({ description: 'Stock of a product without variants' }),
  description: Nullable(Type.String()),
  short_description: Nullable(Type.String()),
  options: Type.Array(OptionSchema),
  variants: Type.Array(VariantSchema),
  images: Type.Array(ImageSchema),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type ProductOut = Static<typeof ProductSchema>;

const variantFields = {
  sku: Type.Optional(Nullable(Sku)),
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  option_values: Type.Optional(
    Type.Record(Type.String(), Type.String({ minLength: 1, maxLength: 100 }), {
      maxProperties: 10,
      description: 'Option name → value; each must be one of the product options',
    }),
  ),
  price_cents: Type.Optional(Nullable(Cents)),
  cost_price_cents: Type.Optional(Nullable(Cents)),
  stock_quantity: Type.Optional(Quantity),
  track_stock: Type.Optional(Type.Boolean({ description: "Default: the product's track_stock" })),
  is_default: Type.Optional(Type.Boolean({ description: 'At most one; default: the first variant' })),
};
const VariantCreate = Body(variantFields);
const VariantEntry = Body(
  { id: Type.Optional(RefId), ...variantFields },
  { description: 'With id: changes that variant (omitted fields stay); without: a new variant' },
);

const imageFields = {
  alt: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  position: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000, description: 'Default: index in the list' })),
  variant_id: Type.Optional(Nullable(RefId)),
  variant_index: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 1000,
      description: 'Links the image to the variant at this index of `variants` in the same request',
    }),
  ),
};
const ImageCreate = Body({ url: Url, ...imageFields });
const ImageEntry = Body(
  { id: Type.Optional(RefId), url: Type.Optional(Url), ...imageFields },
  { description: 'With id: changes that image (omitted fields stay); without: a new image (url required)' },
);

const productFields = {
  sku: Type.Optional(Nullable(Sku)),
  status: Type.Optional(Status),
  type: Type.Optional(ProductType),
  tax_class: Type.Optional(TaxClass),
  base_price_cents: Type.Optional(Cents),
  cost_price_cents: Type.Optional(Nullable(Cents)),
  category_id: Type.Optional(Nullable(RefId)),
  brand_id: Type.Optional(Nullable(RefId)),
  supplier_id: Type.Optional(Nullable(RefId)),
  vendor_id: Type.Optional(Nullable(RefId)),
  is_digital: Type.Optional(Type.Boolean()),
  track_stock: Type.Optional(Type.Boolean({ description: 'Default on create: false for digital products, else true' })),
  stock_quantity: Type.Optional(Quantity),
  description: Type.Optional(Nullable(Type.String({ maxLength: 50_000 }))),
  short_description: Type.Optional(Nullable(Type.String({ maxLength: 1000 }))),
  options: Type.Optional(Type.Array(OptionInput, { maxItems: 10 })),
};

export const ProductCreate = Body({
  name: Name,
  slug: Type.Optional(Slug),
  ...productFields,
  variants: Type.Optional(Type.Array(VariantCreate, { maxItems: 250 })),
  images: Type.Optional(Type.Array(ImageCreate, { maxItems: 50 })),
});
export type ProductCreateInput = Static<typeof ProductCreate>;

export const ProductPatch = Body({
  name: Type.Optional(Name),
  slug: Type.Optional(Slug),
  ...productFields,
  variants: Type.Optional(
    Type.Array(VariantEntry, {
      maxItems: 250,
      description: 'The complete new list: listed ids are updated, entries without id created, the rest deleted',
    }),
  ),
  images: Type.Optional(
    Type.Array(ImageEntry, {
      maxItems: 50,
      description: 'The complete new list: listed ids are updated, entries without id created, the rest deleted',
    }),
  ),
});
export type ProductPatchInput = Static<typeof ProductPatch>;
export type VariantInput = Static<typeof VariantEntry>;
export type ImageInput = Static<typeof ImageEntry>;

/** Sort keys of the admin product list; a leading `-` is descending. */
export const PRODUCT_SORTS = [
  '-created_at',
  'created_at',
  'name',
  '-name',
  'sku',
  '-sku',
  'base_price_cents',
  '-base_price_cents',
  'updated_at',
  '-updated_at',
] as const;
export type ProductSort = (typeof PRODUCT_SORTS)[number];

const RefFilter = Type.String({ minLength: 1, maxLength: 64, description: 'An id, or `ohne` for none' });

export const ProductListQuery = Type.Object(
  {
    q: Type.Optional(
      Type.String({ maxLength: 200, description: 'Name, SKU, slug or variant SKU; case- and accent-insensitive' }),
    ),
    status: Type.Optional(Status),
    category_id: Type.Optional(RefFilter),
    brand_id: Type.Optional(RefFilter),
    supplier_id: Type.Optional(RefFilter),
    digital: Type.Optional(
      Type.Unsafe<'ja' | 'alle'>({
        type: 'string',
        enum: ['ja', 'alle'],
        default: 'alle',
        description: 'ja: digital products only; alle: the whole catalog',
      }),
    ),
    sort: Type.Optional(
      Type.Unsafe<ProductSort>({
        type: 'string',
        enum: [...PRODUCT_SORTS],
        default: '-created_at',
        description:
          'Order of the list: a field, ascending, or with a leading `-` descending; ties by id in the same ' +
          'direction. `name` ignores case and accents; products without a SKU come last ascending, first descending. ' +
          'Default `-created_at` (newest first)',
      }),
    ),
    ...Pagination,
  },
  { additionalProperties: false },
);
export type ProductListInput = Static<typeof ProductListQuery>;

export const ProductList = Type.Object({ products: Type.Array(ProductSchema), ...PageMeta });
export const ProductWrapper = Type.Object({ product: ProductSchema });

// ---- reference records -------------------------------------------------------------------------

export const CategorySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  parent_id: Nullable(Type.String()),
  description: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const CategoryCreate = Body({
  name: Name,
  parent_id: Type.Optional(Nullable(RefId)),
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
});
export const CategoryPatch = Body({
  name: Type.Optional(Name),
  parent_id: Type.Optional(Nullable(RefId)),
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
});
export type CategoryInput = Static<typeof CategoryPatch>;

export const BrandSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const BrandCreate = Body({
  name: Name,
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
});
export const BrandPatch = Body({
  name: Type.Optional(Name),
  description: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
});
export type BrandInput = Static<typeof BrandPatch>;

export const SupplierSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  created_at: Timestamp,
  updated_at: Timestamp,
});
const Phone = Type.String({ minLength: 1, maxLength: 50 });
export const SupplierCreate = Body({
  name: Name,
  email: Type.Optional(Nullable(Email)),
  phone: Type.Optional(Nullable(Phone)),
});
export const SupplierPatch = Body({
  name: Type.Optional(Name),
  email: Type.Optional(Nullable(Email)),
  phone: Type.Optional(Nullable(Phone)),
});
export type SupplierInput = Static<typeof SupplierPatch>;

const RefListQuery = <T extends Record<string, TSchema>>(extra: T) =>
  Type.Object(
    {
      q: Type.Optional(Type.String({ maxLength: 200, description: 'Part of the name; case- and accent-insensitive' })),
      ...extra,
      counts: Type.Optional(
        Type.Boolean({
          default: true,
          description:
            "false: leave out `product_count` (and a category's `subcategory_count`): counting the products of " +
            'every record listed is the costly part of the list, and a picker does not show them',
        }),
      ),
      ...Pagination,
    },
    { additionalProperties: false },
  );
export const CategoryListQuery = RefListQuery({
  parent_id: Type.Optional(RefFilter),
});
export const RefListQueryPlain = RefListQuery({});
export type RefListInput = Static<typeof CategoryListQuery>;

const ProductCount = Type.Optional(
  Type.Integer({
    description:
      'Live products that use the record (what a delete would refuse with, 409 in_use); absent with counts=false',
  }),
);
const CategoryListItem = Type.Object({
  ...CategorySchema.properties,
  product_count: ProductCount,
  subcategory_count: Type.Optional(
    Type.Integer({ description: 'Direct subcategories (they also block a delete); absent with counts=false' }),
  ),
});
const BrandListItem = Type.Object({ ...BrandSchema.properties, product_count: ProductCount });
const SupplierListItem = Type.Object({ ...SupplierSchema.properties, product_count: ProductCount });
export const CategoryList = Type.Object({ categories: Type.Array(CategoryListItem), ...PageMeta });
export const BrandList = Type.Object({ brands: Type.Array(BrandListItem), ...PageMeta });
export const SupplierList = Type.Object({ suppliers: Type.Array(SupplierListItem), ...PageMeta });

// ---- token write policy ------------------------------------------------------------------------

export const WritePolicySchema = Type.Object({
  allow_price_changes: Type.Boolean(),
  allow_status_changes: Type.Boolean(),
  max_price_change_percent: Nullable(Type.Integer()),
  price_change_window_hours: Type.Integer(),
  allow_vendor_tax_changes: Type.Boolean(),
});
export const WritePolicyPut = Body({
  allow_price_changes: Type.Boolean({ description: 'May API tokens change prices (default true)' }),
  allow_status_changes: Type.Boolean({ description: 'May API tokens change the status (default true)' }),
  max_price_change_percent: Nullable(
    Type.Integer({
      minimum: 0,
      maximum: 10_000,
      description:
        'Largest relative change of one price by a token, in percent, measured against both the current price ' +
        'and the price at the start of the window; null = unlimited',
    }),
  ),
  price_change_window_hours: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 8760,
      description: 'Window of max_price_change_percent, in hours (default 24; omitted = default)',
    }),
  ),
  allow_vendor_tax_changes: Type.Optional(
    Type.Boolean({
      description: "May API tokens change a product's vendor_id or tax_class (default false; omitted = false)",
    }),
  ),
});
export type WritePolicy = Static<typeof WritePolicySchema>;
export type WritePolicyInput = Static<typeof WritePolicyPut>;

// ---- bulk actions ------------------------------------------------------------------------------

export const BULK_ACTIONS = [
  'publish',
  'archive',
  'set_category',
  'set_brand',
  'set_supplier',
  'add_to_channel',
  'remove_from_channel',
] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export const ProductBulk = Body({
  ids: Type.Array(RefId, {
    minItems: 1,
    maxItems: 200,
    uniqueItems: true,
    description: 'The products, each changed in a transaction of its own; results come in this order',
  }),
  action: StringEnum(
    BULK_ACTIONS,
    'publish / archive: status published / archived; set_category, set_brand, set_supplier: the field ' +
      '(null clears it); add_to_channel: the product listing in channel_id, published; remove_from_channel: ' +
      "the product's and its variants' listings in channel_id removed",
  ),
  category_id: Type.Optional(Nullable(RefId)),
  brand_id: Type.Optional(Nullable(RefId)),
  supplier_id: Type.Optional(Nullable(RefId)),
  channel_id: Type.Optional(RefId),
});
export type ProductBulkInput = Static<typeof ProductBulk>;

const BulkFieldError = Type.Object({ path: Type.String(), message: Type.String() });
export const BulkResult = Type.Union([
  Type.Object({ id: Type.String(), ok: Type.Literal(true) }),
  Type.Object({
    id: Type.String(),
    ok: Type.Literal(false),
    code: Type.String({ description: 'The problem code the single write would answer (policy_denied, not_found …)' }),
    detail: Type.String(),
    errors: Type.Optional(
      Type.Array(BulkFieldError, { description: 'Field errors of the single write (paths of its body)' }),
    ),
  }),
]);
export type BulkResultOut = Static<typeof BulkResult>;
export const ProductBulkResult = Type.Object({
  results: Type.Array(BulkResult),
  succeeded: Type.Integer(),
  failed: Type.Integer(),
});
