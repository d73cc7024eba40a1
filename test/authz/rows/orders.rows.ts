import { ANY_EMPLOYEE, CREDENTIALS, MANAGERS, type MatrixRow, storeSessionRow } from '../matrix.types.js';

const tokenBlocked = {
  tok_catalog_read: 'token_blocked',
  tok_catalog_write: 'token_blocked',
  tok_finance_read: 'token_blocked',
} as const;

/** Creating a checkout session (storefront), also under a channel's path prefix. */
const checkoutSession = (url: string) =>
  storeSessionRow(url, { pk_other_origin: 'origin_denied', customer: 'credential_denied' });

/** Orders (admin session; state changes owner/admin, never a token), the customer's orders, checkout. */
export const orderRows: MatrixRow[] = [
  { method: 'GET', url: '/api/admin/orders', allow: ANY_EMPLOYEE },
  { method: 'GET', url: '/api/admin/orders/ord_unknown', allow: ANY_EMPLOYEE, ok: 404 },
  {
    method: 'POST',
    url: '/api/admin/orders/ord_unknown/mark-paid',
    allow: MANAGERS,
    ok: 404,
    codes: { viewer: 'role_denied', ...tokenBlocked },
  },
  { method: 'POST', url: '/api/admin/orders/ord_unknown/fulfill', allow: MANAGERS, ok: 404, codes: tokenBlocked },
  { method: 'POST', url: '/api/admin/orders/ord_unknown/cancel', allow: MANAGERS, ok: 404, codes: tokenBlocked },
  { method: 'GET', url: '/api/customer/orders', allow: ['customer'] },
  // refunds (issue 14): owner/admin session, never a token
  {
    method: 'POST',
    url: '/api/admin/orders/ord_unknown/refunds',
    body: { reason: 'matrix' },
    allow: MANAGERS,
    ok: 404,
    codes: { viewer: 'role_denied', ...tokenBlocked },
  },
  {
    method: 'GET',
    url: '/api/admin/orders/ord_unknown/refunds',
    allow: MANAGERS,
    ok: 404,
    codes: { viewer: 'role_denied', ...tokenBlocked },
  },
  // payment provider events (issue 14): owner/admin session, never a token
  {
    method: 'GET',
    url: '/api/admin/payment-events',
    allow: MANAGERS,
    codes: { viewer: 'role_denied', ...tokenBlocked },
  },
  // provider webhooks are public (signature-checked); the test provider has none: 404
  { method: 'POST', url: '/api/webhooks/stripe', body: {}, allow: [...CREDENTIALS], ok: 404 },
  checkoutSession('/api/store/checkout-sessions'),
  checkoutSession('/de/api/store/checkout-sessions'),
  // public: the session id in the path is the credential of the hosted page
  { method: 'GET', url: '/pay/cs_unknown', allow: [...CREDENTIALS], ok: 404 },
  { method: 'POST', url: '/pay/cs_unknown', body: {}, allow: [...CREDENTIALS], ok: 404 },
];
