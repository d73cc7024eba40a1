/** Identity: who may call the service, and the authorization layer every route plugs into. */
import type { Module } from '../../platform/module.js';
import { identityRoutes } from './identity.routes.js';

export { registerAuthorization, requestOrigin } from './authorize.js';
export { accountForPurchase } from './customer-accounts.js';
export { createEmployee, createPublishableKey } from './identity.service.js';
export { configureLoginThrottle } from './login-throttle.js';
export { configureSessions } from './sessions.js';

export const identityModule: Module = {
  name: 'identity',
  group: 'shop',
  routes: identityRoutes,
};
