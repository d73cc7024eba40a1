/** Shipping methods: what other modules may use. */
import type { Module } from '../../platform/module.js';
import { shippingRoutes } from './shipping.routes.js';

export { findShippingMethod, type ShippingMethod } from './shipping.service.js';

export const shippingModule: Module = { name: 'shipping', group: 'shop', routes: shippingRoutes };
