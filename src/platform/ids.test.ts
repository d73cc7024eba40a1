/**
 * Prefixed, time-sortable ids: the format, order within a millisecond, randomness across many,
 * and (issue 26) no guessable successor: an id minted in the same millisecond as another is not
 * that id + 1 but a fresh random step above it.
 */
import { describe, expect, it } from 'vitest';
import { idMaker, newId } from './ids.js';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
/** The 16 random digits of an id body or id as a number. */
const randomValue = (id: string) => [...id.slice(-16)].reduce((n, c) => n * 32n + BigInt(ALPHABET.indexOf(c)), 0n);
const timeOf = (id: string) => id.slice(-26, -16);

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
    // 79 random bits each: twenty draws are twenty different values
    expect(randomParts.size).toBe(20);
  });

  it('ids of one millisecond differ by a random step of up to 2^64, not by 1, whatever their kind', () => {
    const ids = Array.from({ length: 3_000 }, (_, i) => newId(i % 2 ? 'checkoutSession' : 'order'));
    const steps: bigint[] = [];
    for (let i = 1; i < ids.length; i++) {
      const [a, b] = [ids[i - 1] as string, ids[i] as string];
      if (timeOf(a) !== timeOf(b)) continue;
      const step = randomValue(b) - randomValue(a);
      expect(step > 0n).toBe(true);
      expect(step <= 2n ** 64n).toBe(true);
      // more than the last digits change: a step below 2^20 has a chance of 2^-44
      expect(step > 2n ** 20n).toBe(true);
      steps.push(step);
    }
    // a loop of 3,000 ids puts many into one millisecond
    expect(steps.length).toBeGreaterThan(100);
    // no two steps alike: the next id cannot be told from the last ones
    expect(new Set(steps).size).toBe(steps.length);
  });
});

describe('idMaker (clock and random source injected)', () => {
  /** A source handing out the given byte for every byte asked. */
  const constant = (byte: number) => () => byte;

  it('steps by 1 + the 64 random bits drawn; the first id of a millisecond keeps its top bit clear', () => {
    let bytes = constant(0xff);
    const make = idMaker(
      () => 1_700_000_000_000,
      () => bytes(),
    );
    const first = make();
    expect(randomValue(first)).toBe(2n ** 79n - 1n);
    bytes = constant(0);
    const second = make();
    expect(randomValue(second)).toBe(2n ** 79n); // the smallest step, 1
    bytes = constant(0xff);
    const third = make();
    expect(randomValue(third)).toBe(2n ** 79n + 2n ** 64n); // the largest, 2^64
    expect(new Set([first, second, third].map(timeOf)).size).toBe(1);
  });

  it('goes on in the next millisecond when the 80 bits run out, so the ids stay in order', () => {
    const make = idMaker(() => 1_700_000_000_000, constant(0xff));
    const ids = Array.from({ length: 40_000 }, () => make());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    // 2^79 of headroom and steps of 2^64: 2^15 ids per millisecond, then the next one
    const times = [...new Set(ids.map(timeOf))];
    expect(times).toHaveLength(2);
    expect(ids.filter((id) => timeOf(id) === times[0])).toHaveLength(2 ** 15 + 1);
  });

  it('a clock step back of up to a second keeps counting on; a longer one starts afresh', () => {
    let now = 1_700_000_000_000;
    const make = idMaker(() => now);
    const a = make();
    now -= 500;
    const b = make();
    expect(b > a).toBe(true);
    expect(timeOf(b)).toBe(timeOf(a));
    now -= 5_000;
    expect(timeOf(make()) < timeOf(a)).toBe(true);
  });
});
