import { ANY_EMPLOYEE, MANAGERS, type MatrixRow } from '../matrix.types.js';

/** Shipping methods: any employee reads, owner/admin write; the storefront reads with a publishable key. */
export const shippingRows: MatrixRow[] = [
  {
    method: 'GET',
    url: '/api/admin/shipping-methods',
    allow: ANY_EMPLOYEE,
    codes: { tok_catalog_read: 'scope_denied', pk_allowed_origin: 'credential_denied' },
  },
  {
    method: 'POST',
    url: '/api/admin/shipping-methods',
    body: {},
    allow: MANAGERS,
    ok: 400,
    codes: { catalog_editor: 'role_denied', viewer: 'role_denied' },
  },
  {
    method: 'PATCH',
    url: '/api/admin/shipping-methods/ship_unknown',
    body: {},
    allow: MANAGERS,
    ok: 404,
    codes: { viewer: 'role_denied' },
  },
  { method: 'DELETE', url: '/api/admin/shipping-methods/ship_unknown', allow: MANAGERS, ok: 404 },
  {
    method: 'GET',
    url: '/api/store/shipping-methods?country=DE',
    allow: ['pk_allowed_origin'],
    codes: { pk_other_origin: 'origin_denied', owner: 'credential_denied' },
  },
];
