import { FINANCE_READERS, MANAGERS, type MatrixRow } from '../matrix.types.js';

/**
 * Finance (spec §4.6, §5): reading needs an owner, admin or viewer session (`readMoney`, issue 31:
 * a viewer sees finance but cannot change it), every change an owner or admin session; every API
 * token is refused with token_blocked (finance:read included), other employees with role_denied.
 * Requests that change nothing: unknown ids (404), invalid bodies (400), or the integration not
 * connected (409).
 */
const codes = {
  tok_catalog_read: 'token_blocked',
  tok_catalog_write: 'token_blocked',
  tok_finance_read: 'token_blocked',
  catalog_editor: 'role_denied',
  viewer: 'role_denied',
} as const;

const row = (method: MatrixRow['method'], url: string, ok: number, body?: unknown): MatrixRow => ({
  method,
  url,
  allow: MANAGERS,
  ok,
  codes,
  ...(body !== undefined ? { body } : {}),
});

/** A finance read: viewers too. */
const { viewer: _viewer, ...readCodes } = codes;
const read = (url: string, ok: number): MatrixRow => ({
  method: 'GET',
  url,
  allow: FINANCE_READERS,
  ok,
  codes: readCodes,
});

export const financeRows: MatrixRow[] = [
  read('/api/admin/settings/company', 200),
  read('/api/admin/settings/company/einvoice-readiness', 200),
  read('/api/admin/invoices/inv_unknown/einvoice-check', 404),
  read('/api/admin/accounting/syncs?status=failed', 200),
  row('PUT', '/api/admin/settings/company', 400, { payment_terms_days: -1 }),
  read('/api/admin/invoices', 200),
  read('/api/admin/invoices/inv_unknown', 404),
  row('POST', '/api/admin/orders/ord_unknown/invoice', 404, {}),
  row('PATCH', '/api/admin/invoices/inv_unknown', 404, {}),
  row('DELETE', '/api/admin/invoices/inv_unknown', 404),
  row('POST', '/api/admin/invoices/inv_unknown/finalize', 404),
  row('GET', '/api/admin/invoices/inv_unknown/finalize-preview', 404),
  row('POST', '/api/admin/invoices/inv_unknown/credit-note-preview', 404, {}),
  row('POST', '/api/admin/invoices/inv_unknown/send-email', 404, {}),
  read('/api/admin/invoices/inv_unknown/pdf', 404),
  read('/api/admin/invoices/inv_unknown/pdf?format=zugferd', 404),
  read('/api/admin/invoices/inv_unknown/xrechnung', 404),
  row('POST', '/api/admin/invoices/inv_unknown/credit-note', 404, {}),
  read('/api/admin/credit-notes', 200),
  read('/api/admin/credit-notes/cn_unknown', 404),
  row('DELETE', '/api/admin/credit-notes/cn_unknown', 404),
  row('POST', '/api/admin/credit-notes/cn_unknown/finalize', 404),
  read('/api/admin/credit-notes/cn_unknown/pdf', 404),
  read('/api/admin/credit-notes/cn_unknown/xrechnung', 404),
  read('/api/admin/credentials/lexware', 200),
  row('POST', '/api/admin/credentials/lexware/connect', 400, {}),
  row('POST', '/api/admin/credentials/test/lexware', 409),
  read('/api/admin/orders/ord_unknown/lexware', 404),
  row('POST', '/api/admin/orders/ord_unknown/lexware-retry', 404),
  row('POST', '/api/admin/orders/ord_unknown/lexware-cancel', 404),
  // the customer's own invoices in the account area (customer session only; another's is 404)
  { method: 'GET', url: '/api/customer/invoices', allow: ['customer'] },
  { method: 'GET', url: '/api/customer/invoices/inv_unknown/pdf', allow: ['customer'], ok: 404 },
];
