/** The storefront: the public catalog of a sales channel (publishable key + Origin). */
import type { Module } from '../../platform/module.js';
import { storefrontRoutes } from './storefront.routes.js';

export const storefrontModule: Module = { name: 'storefront', group: 'shop', routes: storefrontRoutes };
