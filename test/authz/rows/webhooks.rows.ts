import { ALL_CHANNELS_ONLY, MANAGERS, type MatrixRow } from '../matrix.types.js';

/**
 * DESIGN §4: the checkout webhook is managed by an owner or admin session; API tokens are blocked.
 * Its delivery log carries every channel's events: a channel-restricted employee gets 403 channel_restricted.
 */
const blocked = {
  tok_catalog_read: 'token_blocked',
  tok_catalog_write: 'token_blocked',
  tok_finance_read: 'token_blocked',
  catalog_editor: 'role_denied',
  viewer: 'role_denied',
} as const;

export const webhookRows: MatrixRow[] = [
  // the matrix shop has no endpoint: reading it is 404, changing it with an empty body is 400
  {
    method: 'GET',
    url: '/api/admin/checkout/webhook',
    allow: MANAGERS,
    ok: 404,
    codes: blocked,
    expect: ALL_CHANNELS_ONLY,
  },
  {
    method: 'PUT',
    url: '/api/admin/checkout/webhook',
    body: {},
    allow: MANAGERS,
    ok: 400,
    codes: blocked,
    expect: ALL_CHANNELS_ONLY,
  },
  {
    method: 'POST',
    url: '/api/admin/checkout/webhook/rotate-secret',
    allow: MANAGERS,
    ok: 404,
    codes: blocked,
    expect: ALL_CHANNELS_ONLY,
  },
  {
    method: 'POST',
    url: '/api/admin/checkout/webhook/test',
    allow: MANAGERS,
    ok: 404,
    codes: blocked,
    expect: ALL_CHANNELS_ONLY,
  },
  {
    method: 'GET',
    url: '/api/admin/checkout/webhook/deliveries',
    allow: MANAGERS,
    codes: blocked,
    expect: ALL_CHANNELS_ONLY,
  },
  {
    method: 'POST',
    url: '/api/admin/checkout/webhook/deliveries/dlv_unknown/retry',
    allow: MANAGERS,
    ok: 404,
    codes: blocked,
    expect: ALL_CHANNELS_ONLY,
  },
];
