import { ANY_EMPLOYEE, MANAGERS, type MatrixRow } from '../matrix.types.js';

const tokenBlocked = {
  tok_catalog_read: 'token_blocked',
  tok_catalog_write: 'token_blocked',
  tok_finance_read: 'token_blocked',
} as const;

/** Back office (issue 27): saved views and the overview (any employee), the order timeline, the refund preview. */
export const backofficeRows: MatrixRow[] = [
  { method: 'GET', url: '/api/admin/saved-views?resource=orders', allow: ANY_EMPLOYEE },
  // an invalid body: 400 once the route is reached, nothing stored
  { method: 'POST', url: '/api/admin/saved-views', body: { resource: 'nope' }, allow: ANY_EMPLOYEE, ok: 400 },
  { method: 'PATCH', url: '/api/admin/saved-views/view_unknown', body: { name: 'x' }, allow: ANY_EMPLOYEE, ok: 404 },
  { method: 'DELETE', url: '/api/admin/saved-views/view_unknown', allow: ANY_EMPLOYEE, ok: 404 },
  { method: 'GET', url: '/api/admin/overview', allow: ANY_EMPLOYEE },
  { method: 'GET', url: '/api/admin/orders/ord_unknown/timeline', allow: ANY_EMPLOYEE, ok: 404 },
  {
    method: 'POST',
    url: '/api/admin/orders/ord_unknown/refunds/preview',
    body: {},
    allow: MANAGERS,
    ok: 404,
    codes: { viewer: 'role_denied', ...tokenBlocked },
  },
];
