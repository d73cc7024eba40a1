/** The storefront: the public catalog of a sales channel (publishable key + Origin). */
import type { Module } from '../../platform/module.js';
import { storefrontRoutes } from './storefront.routes.js';
import { storefrontSettingsRoutes } from './storefront-settings.js';

export { builtInStorefrontUrl, setStorefrontSettings } from './storefront-settings.js';

export const storefrontModule: Module = {
  name: 'storefront',
  group: 'shop',
  routes(app, deps) {
    storefrontRoutes(app, deps);
    storefrontSettingsRoutes(app, deps);
  },
};
