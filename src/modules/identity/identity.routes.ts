/**
 * Routes of admin login, employees, API tokens, publishable keys and customer accounts, one file
 * per sub-resource; registered in this order (the OpenAPI document lists them so).
 */
import type { TypedApp } from '../../platform/http/typed-app.js';
import type { AppDeps } from '../../platform/module.js';
import { adminSessionRoutes } from './admin-session.routes.js';
import { apiTokenRoutes } from './api-tokens.routes.js';
import { customerAccountRoutes } from './customer-accounts.routes.js';
import { employeeRoutes } from './employees.routes.js';
import { publishableKeyRoutes } from './publishable-keys.routes.js';

export function identityRoutes(app: TypedApp, deps: AppDeps): void {
  adminSessionRoutes(app, deps);
  employeeRoutes(app);
  apiTokenRoutes(app);
  publishableKeyRoutes(app);
  customerAccountRoutes(app, deps);
}
