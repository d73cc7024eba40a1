import type { MatrixRow } from '../matrix.types.js';

export const vendorsRows: MatrixRow[] = [];
