/**
 * The catalog: products, variants, images, categories, brands, suppliers, channel listings and the
 * token write policy; the public (storefront) view of a channel's catalog and its channel prices.
 */
import type { Module } from '../../platform/module.js';
import { catalogRoutes } from './catalog.routes.js';

export { seedDemoCatalog } from './catalog.demo.js';
export {
  catalogVersionOf,
  categoryNames,
  countVendorProducts,
  prepareCatalogVersion,
  productCategories,
  productIsDigital,
  productListedInChannels,
  productSql,
  refsTrackingStock,
  storeCategories,
  vendorProducts,
} from './catalog.queries.js';
export { slugify } from './catalog.util.js';
export {
  type ChannelPrice,
  channelPrices,
  type PriceRef,
  type PublicChannel,
  type PublicListInput,
  PublicListMemo,
  type PublicProduct,
  publicPageIds,
  publicProduct,
  publicProducts,
  publicProductsByIds,
} from './listings.public.js';
export { listingsChannelDependency } from './listings.service.js';
export { getProduct, listProducts } from './products.read.js';
export { releaseStock, reserveMany, reserveWith, shortRefs } from './stock.js';
export const catalogModule: Module = {
  name: 'catalog',
  group: 'shop',
  routes: catalogRoutes,
};
