import { ALL_CHANNELS_ONLY, MANAGERS, type MatrixRow } from '../matrix.types.js';

/**
 * Affiliates (spec §4.7, §5): the listed reads (affiliates, one affiliate, affiliate earnings)
 * accept an owner/admin session or a finance:read token; catalog tokens get scope_denied.
 * Every mutation and the content admin need an owner/admin session (every token: token_blocked).
 * The portal reads accept only an affiliate session.
 */
const readCodes = {
  tok_catalog_read: 'scope_denied',
  tok_catalog_write: 'scope_denied',
  catalog_editor: 'role_denied',
  viewer: 'role_denied',
  vendor: 'credential_denied',
  affiliate: 'credential_denied',
} as const;

const manageCodes = {
  tok_catalog_read: 'token_blocked',
  tok_catalog_write: 'token_blocked',
  tok_finance_read: 'token_blocked',
  catalog_editor: 'role_denied',
  viewer: 'role_denied',
  affiliate: 'credential_denied',
} as const;

const read = (url: string, ok = 200): MatrixRow => ({
  method: 'GET',
  url,
  allow: [...MANAGERS, 'tok_finance_read'],
  ok,
  codes: readCodes,
  expect: ALL_CHANNELS_ONLY,
});

const manage = (method: MatrixRow['method'], url: string, ok: number, body?: unknown): MatrixRow => ({
  method,
  url,
  allow: MANAGERS,
  ok,
  codes: manageCodes,
  expect: ALL_CHANNELS_ONLY,
  ...(body !== undefined ? { body } : {}),
});

const portal = (url: string): MatrixRow => ({
  method: 'GET',
  url,
  allow: ['affiliate'],
  codes: { owner: 'credential_denied', vendor: 'credential_denied', tok_finance_read: 'scope_denied' },
});

export const affiliatesRows: MatrixRow[] = [
  read('/api/admin/affiliates'),
  read('/api/admin/affiliates/aff_unknown', 404),
  read('/api/admin/affiliate-earnings'),
  manage('POST', '/api/admin/affiliates', 400, { name: 'X' }),
  manage('POST', '/api/admin/affiliates/invite', 400, { email: 'not-an-email' }),
  manage('PATCH', '/api/admin/affiliates/aff_unknown', 404, { name: 'Nobody' }),
  manage('POST', '/api/admin/affiliate-earnings/release', 409, { earning_ids: ['earn_unknown'] }),
  manage('GET', '/api/admin/affiliate-content', 200),
  manage('POST', '/api/admin/affiliate-content', 400, { kind: 'link', title: 'No URL' }),
  manage('DELETE', '/api/admin/affiliate-content/acnt_unknown', 404),
  portal('/api/affiliate/me'),
  portal('/api/affiliate/earnings'),
  portal('/api/affiliate/content'),
];
