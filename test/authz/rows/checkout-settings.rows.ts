import { MANAGERS, type MatrixRow } from '../matrix.types.js';

/** Checkout settings (issue 16): owner and admin read and write them. */
export const checkoutSettingsRows: MatrixRow[] = [
  {
    method: 'GET',
    url: '/api/admin/settings/checkout',
    allow: MANAGERS,
    codes: { catalog_editor: 'role_denied', viewer: 'role_denied', pk_allowed_origin: 'credential_denied' },
  },
  {
    method: 'PUT',
    url: '/api/admin/settings/checkout',
    body: { max_line_quantity: 0 },
    allow: MANAGERS,
    ok: 400,
    codes: { catalog_editor: 'role_denied', viewer: 'role_denied' },
  },
];
