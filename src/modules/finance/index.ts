/** Finance: invoices, credit notes, company settings and the accounting integration. */
import type { Module } from '../../platform/module.js';
import { SYNC_JOB, syncJob } from './accounting.service.js';
import { customerInvoiceRoutes } from './customer-invoices.js';
import { financeRoutes } from './finance.routes.js';

export { creditCancelledOrder } from './corrections.js';
export { creditNoteLinesOfOrder, creditRefund, previewRefundCredit } from './credit-notes.service.js';
export {
  creditNoteNumberSql,
  financeOverviewCounts,
  financeTimelineFacts,
  invoiceMetaOut,
  invoicesOfOrders,
} from './finance.queries.js';

export type { DocLine } from './finance.tables.js';
export { loadSettings } from './settings.service.js';
export const financeModule: Module = {
  name: 'finance',
  group: 'shop',
  routes(app) {
    financeRoutes(app);
    customerInvoiceRoutes(app);
  },
  jobs(registry, deps) {
    registry.register(SYNC_JOB, syncJob(deps.config));
  },
};
