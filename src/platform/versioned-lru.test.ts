/** VersionedLru: exact versions, older entries dropped, newer kept, bounded by size, entries and item size. */
import { describe, expect, it } from 'vitest';
import { VersionedLru } from './versioned-lru.js';

describe('VersionedLru', () => {
  it('answers only at the stored version; an older entry is dropped, a newer one kept', () => {
    const lru = new VersionedLru<string>((v) => v.length, { maxTotal: 100, maxItem: 50 });
    lru.set('k', 5, 'five');
    expect(lru.get('k', 5)).toBe('five');
    expect(lru.get('k', null)).toBeUndefined();
    // a request that read an older version does not see the entry, nor remove it
    expect(lru.get('k', 4)).toBeUndefined();
    expect(lru.get('k', 5)).toBe('five');
    // a request at a newer version drops it
    expect(lru.get('k', 6)).toBeUndefined();
    expect(lru.size).toBe(0);
    lru.set('k', null, 'never');
    expect(lru.size).toBe(0);
  });

  it('evicts the least recently used past the total size or the entry count; refuses items over maxItem', () => {
    const lru = new VersionedLru<string>((v) => v.length, { maxTotal: 10, maxItem: 6, maxEntries: 3 });
    lru.set('a', 1, 'aaaa');
    lru.set('b', 1, 'bbbb');
    expect(lru.get('a', 1)).toBe('aaaa'); // a is now the most recently used
    lru.set('c', 1, 'cccc'); // 12 > 10: b goes
    expect(lru.get('b', 1)).toBeUndefined();
    expect(lru.get('a', 1)).toBe('aaaa');
    lru.set('d', 1, 'd');
    lru.set('e', 1, 'e'); // 4 entries > 3: c goes (a was used after it)
    expect(lru.get('c', 1)).toBeUndefined();
    expect(lru.size).toBe(3);
    lru.set('big', 1, 'x'.repeat(7));
    expect(lru.get('big', 1)).toBeUndefined();
    // replacing an entry counts its new size only
    lru.set('a', 2, 'aa');
    expect(lru.get('a', 2)).toBe('aa');
    expect(lru.get('d', 1)).toBe('d');
  });
});
