/** The catalog: products, variants, images, categories, brands, suppliers and the token write policy. */
import type { Module } from '../../app.js';
import { catalogRoutes } from './catalog.routes.js';

export { seedDemoCatalog } from './catalog.demo.js';
export { slugify } from './catalog.util.js';
export { getProduct, listProducts } from './products.read.js';

export const catalogModule: Module = {
  name: 'catalog',
  group: 'shop',
  routes: catalogRoutes,
};
