import { ALL_CHANNELS_ONLY, MANAGERS, type MatrixRow } from '../matrix.types.js';

/**
 * Partner settings, payouts and vendor statements (spec §4.7, §5). Session-only routes (every
 * mutation, GET /api/admin/vendor-payouts — "a token is denied on this path even for GET" — the
 * statements and the partner settings) refuse every API token with token_blocked;
 * GET /api/admin/affiliate-payouts (and one payout) also accepts a finance:read token. The
 * portals accept only their own session. Allowed calls change nothing: unknown ids (404),
 * invalid bodies (400), reads (200), or the matrix affiliate's empty balance (409 below_minimum).
 */
const sessionCodes = {
  tok_catalog_read: 'token_blocked',
  tok_catalog_write: 'token_blocked',
  tok_finance_read: 'token_blocked',
  catalog_editor: 'role_denied',
  viewer: 'role_denied',
  vendor: 'credential_denied',
  affiliate: 'credential_denied',
} as const;

const readCodes = {
  tok_catalog_read: 'scope_denied',
  tok_catalog_write: 'scope_denied',
  catalog_editor: 'role_denied',
  viewer: 'role_denied',
  vendor: 'credential_denied',
  affiliate: 'credential_denied',
} as const;

const session = (method: MatrixRow['method'], url: string, ok: number, body?: unknown): MatrixRow => ({
  method,
  url,
  allow: MANAGERS,
  ok,
  codes: sessionCodes,
  expect: ALL_CHANNELS_ONLY,
  ...(body !== undefined ? { body } : {}),
});

const financeRead = (url: string, ok = 200): MatrixRow => ({
  method: 'GET',
  url,
  allow: [...MANAGERS, 'tok_finance_read'],
  ok,
  codes: readCodes,
  expect: ALL_CHANNELS_ONLY,
});

const portal = (
  kind: 'vendor' | 'affiliate',
  method: MatrixRow['method'],
  url: string,
  ok = 200,
  body?: unknown,
): MatrixRow => ({
  method,
  url,
  allow: [kind],
  ok,
  codes: {
    owner: 'credential_denied',
    customer: 'credential_denied',
    [kind === 'vendor' ? 'affiliate' : 'vendor']: 'credential_denied',
    tok_finance_read: 'scope_denied',
  },
  ...(body !== undefined ? { body } : {}),
});

export const payoutsRows: MatrixRow[] = [
  // partner settings
  session('GET', '/api/admin/settings/partners', 200),
  session('PUT', '/api/admin/settings/partners', 400, { vendor_hold_days: -1 }),
  // vendor payouts
  session('GET', '/api/admin/vendor-payouts', 200),
  session('GET', '/api/admin/vendor-payouts/po_unknown', 404),
  session('POST', '/api/admin/vendor-payouts', 400, { vendor_id: 'ven_matrix', amount_cents: 0 }),
  session('POST', '/api/admin/vendor-payouts/po_unknown/process', 404),
  session('POST', '/api/admin/vendor-payouts/po_unknown/mark-paid', 404, { reference: 'R-1' }),
  session('POST', '/api/admin/vendor-payouts/po_unknown/cancel', 404),
  // affiliate payouts
  financeRead('/api/admin/affiliate-payouts'),
  financeRead('/api/admin/affiliate-payouts/po_unknown', 404),
  session('POST', '/api/admin/affiliate-payouts/po_unknown/mark-paid', 404, { reference: 'R-1' }),
  session('POST', '/api/admin/affiliate-payouts/po_unknown/cancel', 404),
  // vendor statements
  session('GET', '/api/admin/vendor-statements', 200),
  session('POST', '/api/admin/vendor-statements', 400, { vendor_id: 'ven_matrix', period: '2026-13' }),
  session('GET', '/api/admin/vendor-statements/stmt_unknown', 404),
  session('POST', '/api/admin/vendor-statements/stmt_unknown/finalize', 404),
  session('GET', '/api/admin/vendor-statements/stmt_unknown/pdf', 404),
  // affiliate portal
  portal('affiliate', 'GET', '/api/affiliate/payouts'),
  portal('affiliate', 'GET', '/api/affiliate/payouts/po_unknown', 404),
  portal('affiliate', 'POST', '/api/affiliate/payouts/request', 409, {}),
  // vendor portal
  portal('vendor', 'GET', '/api/vendor/payouts'),
  portal('vendor', 'GET', '/api/vendor/payouts/po_unknown', 404),
  portal('vendor', 'GET', '/api/vendor/statements'),
  portal('vendor', 'GET', '/api/vendor/statements/stmt_unknown', 404),
  portal('vendor', 'GET', '/api/vendor/statements/stmt_unknown/pdf', 404),
];
