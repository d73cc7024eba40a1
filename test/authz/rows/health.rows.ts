import { CREDENTIALS, type MatrixRow } from '../matrix.types.js';

/** The probes are public (config.auth public): every credential, or none, gets the same answer. */
export const healthRows: MatrixRow[] = [
  { method: 'GET', url: '/health', allow: [...CREDENTIALS] },
  { method: 'GET', url: '/ready', allow: [...CREDENTIALS] },
];
