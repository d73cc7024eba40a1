/**
 * Finance routes (docs/finance.md): company settings, invoices, credit notes, and the `lexware`
 * accounting integration. Reading needs an owner, admin or viewer session (`readMoney`: a viewer
 * sees finance but cannot change it); every change an owner or admin session (`manageMoney`).
 * Every API token is refused with 403 token_blocked (docs/ARCHITECTURE.md: finance:read included).
 *
 * One file per sub-resource, registered in this order (the OpenAPI document lists them so).
 */
import type { TypedApp } from '../../platform/http/typed-app.js';
import { accountingRoutes } from './accounting.routes.js';
import { companySettingsRoutes } from './company-settings.routes.js';
import { creditNoteRoutes } from './credit-notes.routes.js';
import { invoiceRoutes } from './invoices.routes.js';

export function financeRoutes(app: TypedApp): void {
  companySettingsRoutes(app);
  invoiceRoutes(app);
  creditNoteRoutes(app);
  accountingRoutes(app);
}
