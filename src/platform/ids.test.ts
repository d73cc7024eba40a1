/** Prefixed, time-sortable ids: the format, order within a millisecond, and randomness across many. */
import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';

describe('newId', () => {
  it('is <prefix>_<10 time digits><16 random digits> in Crockford base32', () => {
    expect(newId('order')).toMatch(/^ord_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(newId('checkoutSession')).toMatch(/^cs_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it('sorts by creation and never repeats, across several refills of the random pool', () => {
    const ids = Array.from({ length: 5_000 }, () => newId('job'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('draws fresh random digits in each new millisecond', async () => {
    const randomParts = new Set<string>();
    for (let i = 0; i < 20; i++) {
      randomParts.add(newId('job').slice(14));
      await new Promise((r) => setTimeout(r, 2));
    }
    // 80 random bits each: twenty draws are twenty different values
    expect(randomParts.size).toBe(20);
  });
});
