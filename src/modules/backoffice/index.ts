/**
 * Back office: what the admin's screens read in one call — the Heute overview, an order's
 * timeline, the refund preview — and the list views employees save. It sits above the modules
 * it reads (orders, finance, partners, checkout, webhooks, mail) and reads them only through
 * their exports; its own table is `saved_views`.
 */
import type { Module } from '../../platform/module.js';
import { backofficeRoutes } from './backoffice.routes.js';

export const backofficeModule: Module = {
  name: 'backoffice',
  group: 'shop',
  routes: backofficeRoutes,
};
