/** Every module's matrix rows. A new module adds its file here. */
import type { MatrixRow } from '../matrix.types.js';
import { catalogRows } from './catalog.rows.js';
import { channelRows } from './channels.rows.js';
import { identityRows } from './identity.rows.js';

export const ALL_ROWS: { module: string; rows: MatrixRow[] }[] = [
  { module: 'identity', rows: identityRows },
  { module: 'catalog', rows: catalogRows },
  { module: 'channels', rows: channelRows },
];
