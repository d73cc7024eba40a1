/**
 * Every admin operation of /openapi.json is reachable from some screen of the admin (issue 31):
 * the operations the admin session may call (x-roles) against the calls the admin's sources make
 * (test/web/admin-coverage.ts). An operation no screen calls fails here unless it is named below
 * with the reason it has no screen; an entry that a screen does call is stale and fails too.
 */
import { describe, expect, it } from 'vitest';
import { OPERATION_ROLES } from '../../clients/typescript/roles.js';
import { calledOperations, operationsWithoutScreen } from './admin-coverage.js';

/** Admin operations deliberately without a screen, with the reason. */
const WITHOUT_SCREEN: Record<string, string> = {};

describe('admin operations and screens', () => {
  it('finds the calls of the screens (the scan works)', () => {
    const calls = calledOperations();
    expect(calls.length).toBeGreaterThan(100);
    // a few that the orders screens are known to make
    const called = (method: string, path: string) => calls.some((c) => c.method === method && c.pattern.test(path));
    expect(called('GET', '/api/admin/orders')).toBe(true);
    expect(called('POST', '/api/admin/orders/ord_1/refunds')).toBe(true);
    expect(called('DELETE', '/api/admin/orders/ord_1')).toBe(false);
  });

  it('every admin operation is called by a screen, or named with its reason', () => {
    const left = operationsWithoutScreen();
    const unexplained = left.filter((op) => !(op in WITHOUT_SCREEN));
    expect(unexplained, 'admin operations no screen calls (add a screen, or a reason to WITHOUT_SCREEN)').toEqual([]);
    const stale = Object.keys(WITHOUT_SCREEN).filter((op) => !left.includes(op));
    expect(stale, 'named as without a screen, but a screen calls it (or it is gone)').toEqual([]);
    for (const op of Object.keys(WITHOUT_SCREEN)) expect(OPERATION_ROLES).toHaveProperty([op]);
  });
});
