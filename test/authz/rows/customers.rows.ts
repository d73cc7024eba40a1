import { type Credential, MANAGERS, type MatrixRow } from '../matrix.types.js';

/**
 * Customers in the admin (issue 31, docs/customers.md): owner, admin and viewer read; owner and
 * admin change and export. No API token (no scope covers personal data: scope_denied); catalog
 * editors role_denied. Unknown ids answer 404 and change nothing.
 */
const READERS: Credential[] = ['owner', 'admin', 'viewer'];
const noToken = {
  tok_catalog_read: 'scope_denied',
  tok_catalog_write: 'scope_denied',
  tok_finance_read: 'scope_denied',
  catalog_editor: 'role_denied',
} as const;
const managers = { ...noToken, viewer: 'role_denied' } as const;

export const customersRows: MatrixRow[] = [
  { method: 'GET', url: '/api/admin/customers', allow: READERS, codes: noToken },
  { method: 'GET', url: '/api/admin/customers/cus_unknown', allow: READERS, ok: 404, codes: noToken },
  { method: 'POST', url: '/api/admin/customers/cus_unknown/suspend', allow: MANAGERS, ok: 404, codes: managers },
  { method: 'POST', url: '/api/admin/customers/cus_unknown/restore', allow: MANAGERS, ok: 404, codes: managers },
  {
    method: 'POST',
    url: '/api/admin/customers/cus_unknown/resend-verification',
    allow: MANAGERS,
    ok: 404,
    codes: managers,
  },
  { method: 'GET', url: '/api/admin/customers/cus_unknown/export', allow: MANAGERS, ok: 404, codes: managers },
];
