/** The storefront: the public catalog of a sales channel (publishable key + Origin). */
import type { Module } from '../../platform/module.js';
import { storefrontRoutes } from './storefront.routes.js';

// Tables other modules still read directly (listed in docs/ARCHITECTURE.md, "Cross-module table reads").
export { storefrontVersions } from './storefront.tables.js';
export const storefrontModule: Module = { name: 'storefront', group: 'shop', routes: storefrontRoutes };
