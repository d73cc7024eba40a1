import { ALL_CHANNELS_ONLY, MANAGERS, type MatrixRow } from '../matrix.types.js';

/**
 * Vendors (spec §4.7, §5): the listed reads (vendors, one vendor, vendor earnings, vendor
 * analytics) accept an owner/admin session or a finance:read token; catalog tokens get
 * scope_denied. Every mutation needs an owner/admin session (every token: token_blocked). The
 * portal reads accept only a vendor session (the matrix vendor is active). Allowed calls change
 * nothing: unknown ids (404), invalid bodies (400) or reads (200).
 */
const readCodes = {
  tok_catalog_read: 'scope_denied',
  tok_catalog_write: 'scope_denied',
  catalog_editor: 'role_denied',
  viewer: 'role_denied',
  vendor: 'credential_denied',
  affiliate: 'credential_denied',
} as const;

const manageCodes = {
  tok_catalog_read: 'token_blocked',
  tok_catalog_write: 'token_blocked',
  tok_finance_read: 'token_blocked',
  catalog_editor: 'role_denied',
  viewer: 'role_denied',
  vendor: 'credential_denied',
} as const;

const read = (url: string, ok = 200): MatrixRow => ({
  method: 'GET',
  url,
  allow: [...MANAGERS, 'tok_finance_read'],
  ok,
  codes: readCodes,
  expect: ALL_CHANNELS_ONLY,
});

const manage = (method: MatrixRow['method'], url: string, ok: number, body?: unknown): MatrixRow => ({
  method,
  url,
  allow: MANAGERS,
  ok,
  codes: manageCodes,
  expect: ALL_CHANNELS_ONLY,
  ...(body !== undefined ? { body } : {}),
});

const portal = (url: string, ok = 200): MatrixRow => ({
  method: 'GET',
  url,
  allow: ['vendor'],
  ok,
  codes: { owner: 'credential_denied', affiliate: 'credential_denied', tok_finance_read: 'scope_denied' },
});

export const vendorsRows: MatrixRow[] = [
  read('/api/admin/vendors'),
  read('/api/admin/vendors/ven_unknown', 404),
  read('/api/admin/vendors/ven_unknown/products', 404),
  read('/api/admin/vendors/ven_unknown/orders', 404),
  read('/api/admin/vendors/ven_unknown/ledger', 404),
  read('/api/admin/vendor-earnings'),
  read('/api/admin/vendor-analytics'),
  manage('POST', '/api/admin/vendors/invite', 400, { email: 'not-an-email', name: 'X' }),
  manage('PATCH', '/api/admin/vendors/ven_unknown', 404, { name: 'Nobody' }),
  manage('POST', '/api/admin/vendors/ven_unknown/commission-rule', 404, { percent: 10 }),
  manage('POST', '/api/admin/vendor-earnings/release', 409, { earning_ids: ['earn_unknown'] }),
  portal('/api/vendor/me'),
  portal('/api/vendor/dashboard'),
  portal('/api/vendor/products'),
  portal('/api/vendor/orders'),
  portal('/api/vendor/orders/ord_unknown', 404),
  portal('/api/vendor/earnings'),
  portal('/api/vendor/ledger'),
];
