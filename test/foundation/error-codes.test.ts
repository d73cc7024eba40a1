/**
 * The table of error codes (src/platform/error-codes.ts) is the one list: its rows are sound,
 * every code the source raises is in it (the type of `AppError` enforces this; the scan below
 * also catches a code smuggled past the types), every row is raised somewhere, and AppError
 * answers each code with the table's status.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode, isErrorCode } from '../../src/platform/error-codes.js';
import { AppError, badRequest, conflict, notFound } from '../../src/platform/errors.js';
import { errorCodesDoc } from '../../src/platform/http/openapi.js';

const codes = Object.keys(ERROR_CODES) as ErrorCode[];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}
const sources = sourceFiles('src')
  .filter((f) => !f.endsWith('error-codes.ts'))
  .map((f) => ({ file: f, text: readFileSync(f, 'utf8') }));

describe('the table of error codes', () => {
  it('has snake_case codes, a known error status, a meaning, and a distinct second status', () => {
    expect(codes.length).toBeGreaterThan(90);
    for (const code of codes) {
      const entry: { status: number; meaning: string; alsoStatus?: { status: number | string; when: string } } =
        ERROR_CODES[code];
      expect(code, code).toMatch(/^[a-z][a-z0-9]*(_[a-z0-9]+)*$/);
      expect(entry.status >= 400 && entry.status <= 599, code).toBe(true);
      expect([400, 401, 403, 404, 409, 413, 415, 429, 500, 502, 503], code).toContain(entry.status);
      expect(entry.meaning.length, code).toBeGreaterThan(10);
      if (entry.alsoStatus) {
        expect(entry.alsoStatus.status, code).not.toBe(entry.status);
        expect(entry.alsoStatus.when.length, code).toBeGreaterThan(10);
      }
    }
  });

  it('lists every code the source raises, and every listed code is raised somewhere', () => {
    // the first argument of each AppError construction and error shorthand, when a literal
    const raised = new Set<string>();
    const call = /(?:new AppError|AppError\.withStatus|badRequest|conflict)\(\s*'([^']+)'/g;
    for (const { text } of sources) for (const m of text.matchAll(call)) raised.add(m[1] as string);
    expect(raised.size).toBeGreaterThan(80);
    expect([...raised].filter((c) => !isErrorCode(c))).toEqual([]);
    // a listed code appears as a literal in the source (some are picked from a map or a list)
    const unused = codes.filter((c) => !sources.some(({ text }) => text.includes(`'${c}'`)));
    expect(unused).toEqual([]);
  });

  it('gives AppError and the shorthands the status of the table', () => {
    for (const code of codes) expect(new AppError(code, 'x').status, code).toBe(ERROR_CODES[code].status);
    expect(notFound('Product')).toMatchObject({ code: 'not_found', status: 404, detail: 'Product not found' });
    expect(badRequest('vat_id_invalid', 'x').status).toBe(400);
    expect(conflict('domain_taken', 'x').status).toBe(409);
    // the two documented exceptions keep the status their situation is answered with
    expect(AppError.withStatus('invalid_credentials', 400, 'x')).toMatchObject({ status: 400 });
    expect(AppError.withStatus('affiliate_blocked', 409, 'x')).toMatchObject({ status: 409 });
  });

  it('is what the OpenAPI document lists', () => {
    const listed = errorCodesDoc();
    expect(listed.map((e) => e.code).sort()).toEqual([...codes].sort());
    for (const e of listed) expect(e.status).toBe(ERROR_CODES[e.code as ErrorCode].status);
  });
});
