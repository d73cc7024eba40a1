import { describe, expect, it } from 'vitest';
import { isUniqueViolation, uniqueConstraintOf } from './tx.js';

describe('uniqueConstraintOf', () => {
  it('reads the constraint field of a PostgreSQL error, also when Drizzle wraps it in cause', () => {
    const pgError = { code: '23505', constraint: 'affiliates_code_uq', message: 'duplicate key value' };
    expect(uniqueConstraintOf(pgError)).toBe('affiliates_code_uq');
    expect(uniqueConstraintOf({ message: 'Failed query', cause: pgError })).toBe('affiliates_code_uq');
  });

  it("reads a Citus shard's error: the name from the message, without the shard suffix", () => {
    const citus = {
      code: '23505',
      message: 'duplicate key value violates unique constraint "affiliates_code_uq_102607"',
      detail: 'Key (shop_id, lower(code))=(shp_1, blog10) already exists.',
    };
    expect(uniqueConstraintOf(citus)).toBe('affiliates_code_uq');
    expect(uniqueConstraintOf({ message: 'Failed query', cause: citus })).toBe('affiliates_code_uq');
    // a shard's error that does carry the field carries the shard's name in it
    expect(uniqueConstraintOf({ ...citus, constraint: 'channels_slug_uq_102040' })).toBe('channels_slug_uq');
  });

  it("answers '' for an unnamed violation and null for any other error", () => {
    expect(uniqueConstraintOf({ code: '23505', message: 'duplicate key' })).toBe('');
    expect(uniqueConstraintOf({ code: '23503', constraint: 'orders_shop_fk' })).toBeNull();
    expect(uniqueConstraintOf(new Error('boom'))).toBeNull();
    expect(isUniqueViolation({ code: '23505' })).toBe(true);
  });
});
