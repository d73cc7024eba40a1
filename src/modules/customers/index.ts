/**
 * Customers in the admin (docs/customers.md): accounts and guest buyers, an account's purchases,
 * suspending sign-in and the data export. Owns no table; composes identity, orders, digital and
 * finance through their exports.
 */
import type { Module } from '../../platform/module.js';
import { customerRoutes } from './customers.routes.js';

export const customersModule: Module = {
  name: 'customers',
  group: 'shop',
  routes: customerRoutes,
};
