/**
 * Module boundaries (docs/ARCHITECTURE.md, "Module boundaries"): no import cycle between files or
 * between modules (type-only imports included), modules import each other only through
 * `index.ts`, nothing imports app.ts but the entry points. Reads the import statements of src/
 * only (test/helpers/boundaries.ts); no app, no database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBoundaries, importGraph, SRC_DIR } from '../helpers/boundaries.js';

/** The real sources, with `line` appended to the file `rel` (relative to src/). */
const withLine = (rel: string, line: string) => (file: string) =>
  readFileSync(file, 'utf8') + (file === join(SRC_DIR, rel) ? `\n${line}\n` : '');

describe('module boundaries', () => {
  it('src/ has no import cycle, no deep cross-module import and no module importing app.ts', () => {
    expect(checkBoundaries(importGraph(SRC_DIR))).toEqual([]);
  });

  it('finds a deep import and the module cycle it closes', () => {
    // channels is below orders: orders imports channels, so this closes orders ↔ channels
    const findings = checkBoundaries(
      importGraph(
        SRC_DIR,
        withLine('modules/channels/resolve.ts', "import { orders } from '../orders/orders.tables.js';"),
      ),
    );
    expect(findings).toContainEqual({
      rule: 'deep-import',
      detail: 'modules/channels/resolve.ts → modules/orders/orders.tables.ts',
    });
    expect(findings.some((f) => f.rule === 'module-cycle' && f.detail.includes('modules/channels'))).toBe(true);
  });

  it('finds a file cycle through index files, type-only imports included', () => {
    const findings = checkBoundaries(
      importGraph(
        SRC_DIR,
        withLine('modules/channels/channels.service.ts', "import type { OrderRow } from '../orders/index.js';"),
      ),
    );
    const cycle = findings.find((f) => f.rule === 'file-cycle');
    // orders/index → orders.service → catalog/index → listings.service → channels/index → channels.service
    expect(cycle?.detail).toContain('modules/channels/channels.service.ts');
    expect(cycle?.detail).toContain('modules/orders/index.ts');
    expect(findings.some((f) => f.rule === 'module-cycle' && f.detail.includes('modules/channels'))).toBe(true);
  });

  it('finds a module importing app.ts and platform importing a module', () => {
    const app = checkBoundaries(
      importGraph(SRC_DIR, withLine('modules/health/index.ts', "import type { App } from '../../app.js';")),
    );
    expect(app).toContainEqual({ rule: 'app-import', detail: 'modules/health/index.ts → app.ts' });
    const platform = checkBoundaries(
      importGraph(SRC_DIR, withLine('platform/money.ts', "import { shops } from '../modules/shops/index.js';")),
    );
    expect(platform).toContainEqual({
      rule: 'platform-import',
      detail: 'platform/money.ts → modules/shops/index.ts',
    });
  });
});
