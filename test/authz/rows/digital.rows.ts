import {
  ANY_EMPLOYEE,
  CREDENTIALS,
  MANAGERS,
  type MatrixRow,
  type MatrixSetup,
  storeSessionRow,
} from '../matrix.types.js';

/** Catalog and finance scopes never open /api/admin/digital/* (spec §5, §7.3): tokens are scope_denied. */
const noToken = {
  tok_catalog_read: 'scope_denied',
  tok_catalog_write: 'scope_denied',
  tok_finance_read: 'scope_denied',
} as const;
const managers = { ...noToken, catalog_editor: 'role_denied', viewer: 'role_denied' } as const;

/**
 * The matrix shop has the add-on available (erlaubt) but not active, so gated routes would answer
 * every employee 403 addon_inactive (plans.test.ts checks that); this activates it first so the
 * allowed calls reach their handlers.
 */
const activate = async ({ asOwner }: MatrixSetup) => {
  const res = await asOwner('PUT', '/api/admin/digital/status', { aktiv: true });
  if (res.statusCode !== 200) throw new Error(`activating the digital add-on failed: ${res.statusCode}`);
};

/** Creating an abo session (storefront), also under a channel's path prefix. */
const aboSession = (url: string) =>
  storeSessionRow(url, { pk_other_origin: 'origin_denied', customer: 'credential_denied', owner: 'credential_denied' });

export const digitalRows: MatrixRow[] = [
  { method: 'GET', url: '/api/admin/digital/status', allow: ANY_EMPLOYEE, codes: noToken },
  // an invalid body changes nothing
  { method: 'PUT', url: '/api/admin/digital/status', body: { aktiv: 'ja' }, allow: MANAGERS, ok: 400, codes: managers },
  { method: 'GET', url: '/api/admin/digital/plaene', allow: ANY_EMPLOYEE, codes: noToken, setup: activate },
  { method: 'POST', url: '/api/admin/digital/plaene', body: {}, allow: MANAGERS, ok: 400, codes: managers },
  { method: 'GET', url: '/api/admin/digital/plaene/plan_unknown', allow: ANY_EMPLOYEE, ok: 404, codes: noToken },
  {
    method: 'PATCH',
    url: '/api/admin/digital/plaene/plan_unknown',
    body: {},
    allow: MANAGERS,
    ok: 404,
    codes: managers,
  },
  { method: 'GET', url: '/api/admin/digital/abos', allow: ANY_EMPLOYEE, codes: noToken },
  { method: 'GET', url: '/api/admin/digital/abos/statistik', allow: ANY_EMPLOYEE, codes: noToken },
  { method: 'GET', url: '/api/admin/digital/abos/abo_unknown', allow: ANY_EMPLOYEE, ok: 404, codes: noToken },
  // issue 31: the Statistik series and a subscription's event history
  {
    method: 'GET',
    url: '/api/admin/digital/abos/statistik/verlauf?from=2026-01-01&to=2026-01-31',
    allow: ANY_EMPLOYEE,
    codes: noToken,
  },
  { method: 'GET', url: '/api/admin/digital/abos/abo_unknown/events', allow: ANY_EMPLOYEE, ok: 404, codes: noToken },
  {
    method: 'POST',
    url: '/api/admin/digital/abos/abo_unknown/kuendigen',
    body: {},
    allow: MANAGERS,
    ok: 404,
    codes: managers,
  },
  {
    method: 'POST',
    url: '/api/admin/digital/abos/abo_unknown/fortsetzen',
    allow: MANAGERS,
    ok: 404,
    codes: managers,
  },
  // the mail outbox: owner or admin; not an employee restricted to channels (it holds every channel's buyers)
  {
    method: 'GET',
    url: '/api/admin/emails',
    allow: MANAGERS,
    codes: managers,
    expect: {
      restricted_admin: { status: 403, code: 'role_denied' },
      emptied_admin: { status: 403, code: 'role_denied' },
    },
  },
  aboSession('/api/store/abo-sessions'),
  aboSession('/de/api/store/abo-sessions'),
  { method: 'GET', url: '/api/customer/abos', allow: ['customer'], codes: { owner: 'credential_denied' } },
  {
    method: 'POST',
    url: '/api/customer/abos/abo_unknown/kuendigen',
    allow: ['customer'],
    ok: 404,
    codes: { owner: 'credential_denied', pk_allowed_origin: 'credential_denied' },
  },
  // token links: the token in the path is the credential; an unknown one is 404 for everybody
  { method: 'GET', url: '/api/checkout/abo/abolink_unknown', allow: [...CREDENTIALS], ok: 404 },
  { method: 'POST', url: '/api/checkout/abo/abolink_unknown/kuendigen', allow: [...CREDENTIALS], ok: 404 },
  { method: 'POST', url: '/api/checkout/abo/abolink_unknown/fortsetzen', allow: [...CREDENTIALS], ok: 404 },
  // Stripe's subscription webhook (public, signature-verified; not configured with the test provider)
  { method: 'POST', url: '/api/webhooks/stripe/abos', body: {}, allow: [...CREDENTIALS], ok: 404 },
];
