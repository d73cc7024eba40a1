import type { MatrixRow } from '../matrix.types.js';

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
