import { CREDENTIALS, type MatrixRow } from '../matrix.types.js';

/**
 * Portal sign-out, and the public routes (every credential, or none, reaches the handler: an
 * empty body is 400): accept and login and the password-reset pair (the invitation link opens the portal's page,
 * /vendor/accept or /affiliate/accept, served by src/modules/pages); what
 * they do with a body is covered in partner-auth.test.ts.
 */
export const partnerAuthRows: MatrixRow[] = [
  { method: 'POST', url: '/api/vendor/auth/logout', allow: ['vendor'], ok: 204, consumesSession: true },
  { method: 'POST', url: '/api/affiliate/auth/logout', allow: ['affiliate'], ok: 204, consumesSession: true },
  ...(['vendor', 'affiliate'] as const).flatMap((kind): MatrixRow[] => [
    { method: 'POST', url: `/api/${kind}/auth/accept`, body: {}, allow: [...CREDENTIALS], ok: 400 },
    { method: 'POST', url: `/api/${kind}/auth/login`, body: {}, allow: [...CREDENTIALS], ok: 400 },
    { method: 'POST', url: `/api/${kind}/auth/password-reset`, body: {}, allow: [...CREDENTIALS], ok: 400 },
    { method: 'POST', url: `/api/${kind}/auth/password-reset/confirm`, body: {}, allow: [...CREDENTIALS], ok: 400 },
  ]),
];
