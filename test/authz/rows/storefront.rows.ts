import type { MatrixRow } from '../matrix.types.js';

/**
 * Spec §5: the public catalog takes a publishable key with an Origin on its allowlist. The
 * matrix shop has no channel, so an allowed call ends in 404 channel_not_found.
 */
const store = (url: string): MatrixRow => ({
  method: 'GET',
  url,
  allow: ['pk_allowed_origin'],
  ok: 404,
  codes: {
    pk_other_origin: 'origin_denied',
    owner: 'credential_denied',
    tok_catalog_read: 'scope_denied',
    customer: 'credential_denied',
  },
});

export const storefrontRows: MatrixRow[] = [
  store('/api/store/products'),
  store('/api/store/products/prod_unknown'),
  store('/de/api/store/products'),
  store('/de/api/store/products/some-slug'),
];
