/**
 * The catalog: products with variants and images, reference records (categories, brands,
 * suppliers), the per-shop SKU register, channel listings and the token write policy.
 *
 * The per-shop trigram index on `(shop_id, products.search_text)`, the `f_unaccent` function and
 * the extensions they need live in the custom migrations `catalog_search` and
 * `catalog_search_per_shop` (drizzle cannot express them).
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { cents, ts } from '../../platform/db/columns.js';
import { channels } from '../channels/channels.tables.js';
import { shopRef, shops } from '../shops/shops.tables.js';

export interface ProductOption {
  name: string;
  values: string[];
}

export const categories = pgTable(
  'categories',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    name: text('name').notNull(),
    parentId: text('parent_id'),
    description: text('description'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'categories_pkey', columns: [t.shopId, t.id] }),
    // Sibling categories have distinct names; roots are siblings of each other.
    uniqueIndex('categories_name_uq').on(t.shopId, sql`coalesce(${t.parentId}, '')`, sql`lower(${t.name})`),
    index('categories_parent_idx').on(t.shopId, t.parentId),
    foreignKey({ name: 'categories_parent_fk', columns: [t.shopId, t.parentId], foreignColumns: [t.shopId, t.id] }),
  ],
);

export const brands = pgTable(
  'brands',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    name: text('name').notNull(),
    description: text('description'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'brands_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('brands_name_uq').on(t.shopId, sql`lower(${t.name})`),
  ],
);

export const suppliers = pgTable(
  'suppliers',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    name: text('name').notNull(),
    email: text('email'),
    phone: text('phone'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'suppliers_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('suppliers_name_uq').on(t.shopId, sql`lower(${t.name})`),
  ],
);

export const PRODUCT_STATUSES = ['draft', 'published', 'archived'] as const;
export type ProductStatus = (typeof PRODUCT_STATUSES)[number];
export const PRODUCT_TYPES = ['STANDARD', 'ASSEMBLY', 'INTERNAL'] as const;
export type ProductType = (typeof PRODUCT_TYPES)[number];

export const products = pgTable(
  'products',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    sku: text('sku'),
    /** draft | published | archived */
    status: text('status').$type<ProductStatus>().notNull().default('draft'),
    /** STANDARD | ASSEMBLY | INTERNAL */
    type: text('type').$type<ProductType>().notNull().default('STANDARD'),
    /** standard | food | books */
    taxClass: text('tax_class').notNull().default('standard'),
    basePriceCents: cents('base_price_cents').notNull().default(0),
    costPriceCents: cents('cost_price_cents'),
    // Soft-deleted products keep their references; deleting a reference record clears them (the
    // service nulls them in the deleting transaction: no ON DELETE SET NULL, docs/decisions.md).
    categoryId: text('category_id'),
    brandId: text('brand_id'),
    supplierId: text('supplier_id'),
    /** Marketplace vendor; the vendors table comes with a later issue. */
    vendorId: text('vendor_id'),
    isDigital: boolean('is_digital').notNull().default(false),
    trackStock: boolean('track_stock').notNull().default(true),
    /** Stock of a product without variants. */
    stockQuantity: integer('stock_quantity').notNull().default(0),
    description: text('description'),
    shortDescription: text('short_description'),
    options: jsonb('options').$type<ProductOption[]>().notNull().default(sql`'[]'::jsonb`),
    /** The admin list's `sort=name` key: the name as the search compares it. Written by the database. */
    nameSort: text('name_sort').notNull().generatedAlwaysAs(sql`lower(f_unaccent(name))`),
    /** lower(f_unaccent(name, sku, slug, variant SKUs)); kept current by the service on every write. */
    searchText: text('search_text').notNull().default(''),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    primaryKey({ name: 'products_pkey', columns: [t.shopId, t.id] }),
    uniqueIndex('products_slug_uq').on(t.shopId, t.slug).where(sql`deleted_at IS NULL`),
    index('products_list_idx')
      .on(t.shopId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at IS NULL`),
    index('products_status_idx')
      .on(t.shopId, t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at IS NULL`),
    index('products_category_idx')
      .on(t.shopId, t.categoryId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at IS NULL`),
    index('products_brand_idx')
      .on(t.shopId, t.brandId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at IS NULL`),
    index('products_supplier_idx')
      .on(t.shopId, t.supplierId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at IS NULL`),
    // the admin list's sort keys (products.read.ts); each serves both directions
    // a column, not an expression: the sorted page's ids then come from an index-only scan
    index('products_sort_name_idx').on(t.shopId, t.nameSort, t.id).where(sql`deleted_at IS NULL`),
    index('products_sort_sku_idx').on(t.shopId, t.sku, t.id).where(sql`deleted_at IS NULL`),
    index('products_sort_price_idx').on(t.shopId, t.basePriceCents, t.id).where(sql`deleted_at IS NULL`),
    index('products_sort_updated_idx').on(t.shopId, t.updatedAt, t.id).where(sql`deleted_at IS NULL`),
    index('products_digital_idx')
      .on(t.shopId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at IS NULL AND is_digital`),
    foreignKey({
      name: 'products_category_fk',
      columns: [t.shopId, t.categoryId],
      foreignColumns: [categories.shopId, categories.id],
    }),
    foreignKey({
      name: 'products_brand_fk',
      columns: [t.shopId, t.brandId],
      foreignColumns: [brands.shopId, brands.id],
    }),
    foreignKey({
      name: 'products_supplier_fk',
      columns: [t.shopId, t.supplierId],
      foreignColumns: [suppliers.shopId, suppliers.id],
    }),
  ],
);

export const productVariants = pgTable(
  'product_variants',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    productId: text('product_id').notNull(),
    sku: text('sku'),
    title: text('title').notNull(),
    optionValues: jsonb('option_values').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    /** null: the product's base price applies. */
    priceCents: cents('price_cents'),
    costPriceCents: cents('cost_price_cents'),
    stockQuantity: integer('stock_quantity').notNull().default(0),
    trackStock: boolean('track_stock').notNull().default(true),
    isDefault: boolean('is_default').notNull().default(false),
    position: integer('position').notNull().default(0),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'product_variants_pkey', columns: [t.shopId, t.id] }),
    index('product_variants_product_idx').on(t.shopId, t.productId, t.position),
    foreignKey({
      name: 'product_variants_product_fk',
      columns: [t.shopId, t.productId],
      foreignColumns: [products.shopId, products.id],
    }).onDelete('cascade'),
  ],
);

export const productImages = pgTable(
  'product_images',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    productId: text('product_id').notNull(),
    url: text('url').notNull(),
    alt: text('alt'),
    position: integer('position').notNull().default(0),
    variantId: text('variant_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'product_images_pkey', columns: [t.shopId, t.id] }),
    index('product_images_product_idx').on(t.shopId, t.productId, t.position),
    foreignKey({
      name: 'product_images_product_fk',
      columns: [t.shopId, t.productId],
      foreignColumns: [products.shopId, products.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'product_images_variant_fk',
      columns: [t.shopId, t.variantId],
      foreignColumns: [productVariants.shopId, productVariants.id],
    }),
  ],
);

/**
 * Every SKU in use by a live product or one of its variants. The primary key makes SKUs unique
 * per shop across products and variants, also under concurrent writes; soft-deleting a product
 * removes its rows, so its SKUs become free again.
 */
export const catalogSkus = pgTable(
  'catalog_skus',
  {
    shopId: shopRef(),
    sku: text('sku').notNull(),
    productId: text('product_id').notNull(),
    variantId: text('variant_id'),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.sku] }),
    index('catalog_skus_product_idx').on(t.shopId, t.productId),
    foreignKey({
      name: 'catalog_skus_product_fk',
      columns: [t.shopId, t.productId],
      foreignColumns: [products.shopId, products.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'catalog_skus_variant_fk',
      columns: [t.shopId, t.variantId],
      foreignColumns: [productVariants.shopId, productVariants.id],
    }).onDelete('cascade'),
  ],
);

/**
 * A product (or one variant) offered in a sales channel; the product list filters by it for
 * channel-restricted employees, the storefront lists by it.
 */
export const productChannelListings = pgTable(
  'product_channel_listings',
  {
    shopId: shopRef(),
    productId: text('product_id').notNull(),
    channelId: text('channel_id').notNull(),
    variantId: text('variant_id'),
    isPublished: boolean('is_published').notNull().default(false),
    priceCents: cents('price_cents'),
    compareAtPriceCents: cents('compare_at_price_cents'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('product_channel_listings_uq').on(
      t.shopId,
      t.productId,
      t.channelId,
      sql`coalesce(${t.variantId}, '')`,
    ),
    index('product_channel_listings_channel_idx').on(t.shopId, t.channelId),
    foreignKey({
      name: 'pcl_product_fk',
      columns: [t.shopId, t.productId],
      foreignColumns: [products.shopId, products.id],
    }).onDelete('cascade'),
    // deleting a channel takes its listings with it
    foreignKey({
      name: 'pcl_channel_fk',
      columns: [t.shopId, t.channelId],
      foreignColumns: [channels.shopId, channels.id],
    }).onDelete('cascade'),
    foreignKey({
      name: 'pcl_variant_fk',
      columns: [t.shopId, t.variantId],
      foreignColumns: [productVariants.shopId, productVariants.id],
    }).onDelete('cascade'),
  ],
);

/** Which product changes an API token may make (docs/catalog.md, write policy); no row = defaults. */
export const catalogSettings = pgTable('catalog_settings', {
  shopId: text('shop_id')
    .primaryKey()
    .references(() => shops.id, { onDelete: 'cascade' }),
  allowPriceChanges: boolean('allow_price_changes').notNull().default(true),
  allowStatusChanges: boolean('allow_status_changes').notNull().default(true),
  /** null = unlimited */
  maxPriceChangePercent: integer('max_price_change_percent'),
  /** The percent limit measures against the price at the start of this many hours back. */
  priceWindowHours: integer('price_window_hours').notNull().default(24),
  /** May API tokens change a product's vendor_id or tax_class (default: no, sessions only). */
  allowVendorTaxChanges: boolean('allow_vendor_tax_changes').notNull().default(false),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

/**
 * Every product price change (any actor), written in the same transaction as the change: the
 * token policy reads the price at the start of its window from the earliest row inside it.
 * `price_key` is `base`, `cost`, `variant:<id>:price` or `variant:<id>:cost`; `before_cents` is
 * the window-start price the change was measured from (for a new variant, the price it replaces).
 */
export const catalogPriceChanges = pgTable(
  'catalog_price_changes',
  {
    id: text('id').notNull(),
    shopId: shopRef(),
    productId: text('product_id').notNull(),
    priceKey: text('price_key').notNull(),
    beforeCents: cents('before_cents'),
    afterCents: cents('after_cents'),
    changedAt: ts('changed_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'catalog_price_changes_pkey', columns: [t.shopId, t.id] }),
    index('catalog_price_changes_lookup_idx').on(t.shopId, t.productId, t.priceKey, t.changedAt),
  ],
);
