/** The batch loader behind the publishable-key lookup: one query per turn, never a stale read. */
import { describe, expect, it } from 'vitest';
import { BatchLoader } from './batch.js';

describe('BatchLoader', () => {
  it('answers the lookups of one event-loop turn with one fetch', async () => {
    const fetched: string[][] = [];
    const loader = new BatchLoader(async (keys: string[]) => {
      fetched.push(keys);
      return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, k.toUpperCase()]));
    });
    const results = await Promise.all([loader.load('a'), loader.load('b'), loader.load('a'), loader.load('missing')]);
    expect(results).toEqual(['A', 'B', 'A', undefined]);
    expect(fetched).toEqual([['a', 'b', 'missing']]);
  });

  it('a lookup made while a fetch is in flight waits for a fetch that starts after it', async () => {
    let version = 1;
    const started: number[] = [];
    let release: () => void = () => {};
    const loader = new BatchLoader(async (keys: string[]) => {
      const seen = version; // the "snapshot" is taken when the fetch starts
      started.push(seen);
      if (started.length === 1) await new Promise<void>((r) => (release = r));
      return new Map(keys.map((k) => [k, seen]));
    });
    const first = loader.load('k');
    await new Promise((r) => setImmediate(r)); // the first fetch is now in flight
    version = 2; // a write commits after the first fetch started
    const second = loader.load('k');
    release();
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    expect(started).toEqual([1, 2]);
  });

  it('a failed fetch fails every lookup of its batch, and the next batch works again', async () => {
    let fail = true;
    const loader = new BatchLoader(async (keys: string[]) => {
      if (fail) throw new Error('database down');
      return new Map(keys.map((k) => [k, 1]));
    });
    const both = [loader.load('a'), loader.load('b')];
    await expect(both[0]).rejects.toThrow('database down');
    await expect(both[1]).rejects.toThrow('database down');
    fail = false;
    expect(await loader.load('a')).toBe(1);
  });
});
