/** Identity: who may call the service, and the authorization layer every route plugs into. */
import type { Module } from '../../platform/module.js';
import { identityRoutes } from './identity.routes.js';

export { findAccountToken, issueAccountToken, tokenInvalid, useAccountToken } from './account-tokens.js';
export { CUSTOMER_SESSION_HEADER, checkSignInOrigin, registerAuthorization, requestOrigin } from './authorize.js';
export {
  accountForPurchase,
  customerPageLink,
  limitAccountCalls,
  resetMailAllowed,
  signedInBuyer,
} from './customer-accounts.js';
export {
  customerAccount,
  customerAccountOut,
  customerAccountsSql,
  resendCustomerVerification,
  restoreCustomer,
  suspendCustomer,
} from './customer-admin.js';
export { forgetDeletedChannel, type LivePublishableKey, livePublishableKey } from './identity.queries.js';
export { PublishableKeySchema, UserSchema } from './identity.schemas.js';
export {
  checkPassword,
  createEmployee,
  createPublishableKey,
  INVALID_LOGIN,
  keyOut,
  userOut,
} from './identity.service.js';
export { configureLoginThrottle } from './login-throttle.js';
export { clearSessionCookie, setSessionCookie } from './session-cookie.js';
export { configureSessions, createSession, revokeSession, revokeSessionsOf } from './sessions.js';
export const identityModule: Module = {
  name: 'identity',
  group: 'shop',
  routes: identityRoutes,
};
