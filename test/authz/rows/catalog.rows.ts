import {
  ANY_EMPLOYEE,
  CATALOG_WRITERS,
  CREDENTIALS,
  type Credential,
  MANAGERS,
  type MatrixRow,
} from '../matrix.types.js';

/** Catalog reads: any employee, or a catalog token (catalog:write implies catalog:read). */
const READERS: Credential[] = [...ANY_EMPLOYEE, 'tok_catalog_read', 'tok_catalog_write'];
/** Product writes: a catalog-writing role, or a catalog:write token. */
const PRODUCT_WRITERS: Credential[] = [...CATALOG_WRITERS, 'tok_catalog_write'];

const refused = { viewer: 'role_denied', tok_catalog_read: 'scope_denied', tok_finance_read: 'scope_denied' } as const;

function referenceRows(kind: 'categories' | 'brands' | 'suppliers', prefix: string): MatrixRow[] {
  const base = `/api/admin/${kind}`;
  return [
    { method: 'GET', url: base, allow: READERS, codes: { tok_finance_read: 'scope_denied' } },
    { method: 'GET', url: `${base}/${prefix}_unknown`, allow: READERS, ok: 404 },
    {
      method: 'POST',
      url: base,
      body: {},
      allow: CATALOG_WRITERS,
      ok: 400,
      codes: { viewer: 'role_denied', tok_catalog_write: 'scope_denied' },
    },
    {
      method: 'PATCH',
      url: `${base}/${prefix}_unknown`,
      body: {},
      allow: CATALOG_WRITERS,
      ok: 404,
      codes: { viewer: 'role_denied', tok_catalog_write: 'scope_denied' },
    },
    {
      method: 'DELETE',
      url: `${base}/${prefix}_unknown`,
      allow: CATALOG_WRITERS,
      ok: 404,
      codes: { viewer: 'role_denied', tok_catalog_write: 'scope_denied' },
    },
  ];
}

export const catalogRows: MatrixRow[] = [
  { method: 'GET', url: '/api/admin/products', allow: READERS, codes: { tok_finance_read: 'scope_denied' } },
  { method: 'GET', url: '/api/admin/products/prod_unknown', allow: READERS, ok: 404 },
  { method: 'POST', url: '/api/products', body: {}, allow: PRODUCT_WRITERS, ok: 400, codes: refused },
  { method: 'PATCH', url: '/api/products/prod_unknown', body: {}, allow: PRODUCT_WRITERS, ok: 404, codes: refused },
  { method: 'DELETE', url: '/api/products/prod_unknown', allow: PRODUCT_WRITERS, ok: 404, codes: refused },
  {
    method: 'GET',
    url: '/api/products/prod_unknown/channels',
    allow: READERS,
    ok: 404,
    codes: { tok_finance_read: 'scope_denied' },
  },
  {
    method: 'PATCH',
    url: '/api/products/prod_unknown/channels/chan_unknown',
    body: {},
    allow: PRODUCT_WRITERS,
    ok: 404,
    codes: { ...refused, pk_allowed_origin: 'credential_denied' },
  },
  {
    method: 'DELETE',
    url: '/api/products/prod_unknown/channels/chan_unknown',
    allow: PRODUCT_WRITERS,
    ok: 404,
    codes: { ...refused, pk_allowed_origin: 'credential_denied' },
  },
  // bulk actions: an invalid body is 400 before any product is touched
  { method: 'POST', url: '/api/products/bulk', body: {}, allow: PRODUCT_WRITERS, ok: 400, codes: refused },
  // image upload: a JSON body is no image (415) once the credential passes
  {
    method: 'POST',
    url: '/api/admin/uploads',
    body: {},
    allow: PRODUCT_WRITERS,
    ok: 415,
    codes: { ...refused, pk_allowed_origin: 'credential_denied' },
  },
  // uploaded files are public (their content-hashed key is the address)
  { method: 'GET', url: `/media/shop_unknown/${'0'.repeat(64)}.png`, allow: [...CREDENTIALS], ok: 404 },
  ...referenceRows('categories', 'cat'),
  ...referenceRows('brands', 'brand'),
  ...referenceRows('suppliers', 'sup'),
  {
    method: 'GET',
    url: '/api/admin/settings/token-write-policy',
    allow: MANAGERS,
    codes: { catalog_editor: 'role_denied', viewer: 'role_denied', tok_catalog_write: 'scope_denied' },
  },
  {
    method: 'PUT',
    url: '/api/admin/settings/token-write-policy',
    body: {},
    allow: MANAGERS,
    ok: 400,
    codes: { catalog_editor: 'role_denied', tok_catalog_write: 'scope_denied' },
  },
];
