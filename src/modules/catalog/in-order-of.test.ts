/** inOrderOf (listings.public.ts): a filter's ids in the order of the channel's whole list, by either path. */
import { describe, expect, it } from 'vitest';
import { inOrderOf } from './listings.public.js';

describe('inOrderOf', () => {
  const whole = Array.from({ length: 200 }, (_, i) => `prod_${String(i).padStart(3, '0')}`);

  it('few matches (by position): the whole list order, ids outside it dropped', () => {
    expect(inOrderOf(whole, ['prod_150', 'prod_007', 'prod_unknown', 'prod_099'])).toEqual([
      'prod_007',
      'prod_099',
      'prod_150',
    ]);
    // the positions are kept with the list: a second filter of it gives the same order
    expect(inOrderOf(whole, ['prod_199', 'prod_000'])).toEqual(['prod_000', 'prod_199']);
    expect(inOrderOf(whole, [])).toEqual([]);
  });

  it('many matches (by a scan): the same answer', () => {
    const match = whole.filter((_, i) => i % 3 === 0).reverse();
    expect(inOrderOf(whole, [...match, 'prod_unknown'])).toEqual(whole.filter((_, i) => i % 3 === 0));
  });
});
