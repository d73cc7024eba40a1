import { CREDENTIALS, MANAGERS, type MatrixRow } from '../matrix.types.js';

/**
 * Spec §5: the public catalog takes a publishable key with an Origin on its allowlist. The
 * matrix shop has only the default channel it was created with (DESIGN §2): lists answer 200
 * from it, an unknown product 404.
 */
const store = (url: string, ok = 404): MatrixRow => ({
  method: 'GET',
  url,
  allow: ['pk_allowed_origin'],
  ok,
  codes: {
    pk_other_origin: 'origin_denied',
    owner: 'credential_denied',
    tok_catalog_read: 'scope_denied',
    customer: 'credential_denied',
  },
});

export const storefrontRows: MatrixRow[] = [
  store('/api/store/products', 200),
  store('/api/store/products/prod_unknown'),
  store('/de/api/store/products', 200),
  store('/de/api/store/products/some-slug'),
];

/**
 * The built-in storefront (docs/storefront.md): its setting is the owner's and admins'; the
 * bootstrap read is public (the matrix shop names no storefront key: 404 for every caller); the
 * category list and a checkout session by id take the publishable key like the catalog.
 */
export const builtInStorefrontRows: MatrixRow[] = [
  {
    method: 'GET',
    url: '/api/admin/storefront-settings',
    allow: MANAGERS,
    codes: { catalog_editor: 'role_denied', viewer: 'role_denied', pk_allowed_origin: 'credential_denied' },
  },
  {
    method: 'PUT',
    url: '/api/admin/storefront-settings',
    body: { publishable_key_id: 'pk_unknown' },
    allow: MANAGERS,
    ok: 400,
    codes: { catalog_editor: 'role_denied', viewer: 'role_denied' },
  },
  { method: 'GET', url: '/api/storefront/bootstrap', allow: [...CREDENTIALS], ok: 404 },
  store('/api/store/categories', 200),
  store('/api/store/checkout-sessions/cs_unknown'),
];
