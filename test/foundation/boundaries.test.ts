/**
 * Module boundaries (docs/ARCHITECTURE.md, "Module boundaries"): no import cycle between files or
 * between modules (type-only imports included), modules import each other only through
 * `index.ts`, nothing imports app.ts but the entry points, no module names another module's
 * tables beyond the listed remaining reads. Reads the sources of src/ only
 * (test/helpers/boundaries.ts); no app, no database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkBoundaries, checkTableReads, importGraph, SRC_DIR, TABLE_READ_ALLOWLIST } from '../helpers/boundaries.js';

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

  it("no module reads another module's tables beyond the remaining ones listed", () => {
    expect(checkTableReads(SRC_DIR)).toEqual([]);
  });

  it('finds a foreign table in SQL text and an imported table object; not in comments', () => {
    const sqlText = checkTableReads(
      SRC_DIR,
      withLine('modules/partners/ledger.ts', 'const q = sql`SELECT 1 FROM order_lines WHERE false`;'),
    );
    expect(sqlText).toEqual([
      { rule: 'table-read', detail: 'modules/partners/ledger.ts → order_lines (modules/orders)' },
    ]);
    const imported = checkTableReads(
      SRC_DIR,
      withLine('modules/identity/sessions.ts', "import { type shops as s, getShop } from '../shops/index.js';"),
    );
    expect(imported).toEqual([{ rule: 'table-read', detail: 'modules/identity/sessions.ts → shops (modules/shops)' }]);
    const comment = checkTableReads(SRC_DIR, withLine('modules/partners/ledger.ts', '// SELECT 1 FROM orders'));
    expect(comment).toEqual([]);
  });

  it('reports an allowlist entry that no longer occurs', () => {
    const allow = { ...TABLE_READ_ALLOWLIST, 'modules/partners/ledger.ts': ['orders'] };
    expect(checkTableReads(SRC_DIR, undefined, allow)).toEqual([
      { rule: 'stale-allow', detail: 'modules/partners/ledger.ts → orders' },
    ]);
  });
});
