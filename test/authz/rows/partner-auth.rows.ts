import type { MatrixRow } from '../matrix.types.js';

/** Portal sign-out (accept and login are public and not part of the matrix). */
export const partnerAuthRows: MatrixRow[] = [
  { method: 'POST', url: '/api/vendor/auth/logout', allow: ['vendor'], ok: 204, consumesSession: true },
  { method: 'POST', url: '/api/affiliate/auth/logout', allow: ['affiliate'], ok: 204, consumesSession: true },
];
