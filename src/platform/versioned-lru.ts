/**
 * A per-process map of values each stored with the shop catalog version it was read at
 * (docs/ARCHITECTURE.md "Caches"): a value is returned only at exactly that version, and the map
 * is bounded by a total size (bytes, ids …), optionally by a number of entries, least recently
 * used first. A value larger than `maxItem` is not kept.
 */
export class VersionedLru<V> {
  private readonly entries = new Map<string, { version: number; value: V }>();
  private held = 0;

  constructor(
    private readonly sizeOf: (value: V) => number,
    private readonly limits: { maxTotal: number; maxItem: number; maxEntries?: number },
  ) {}

  /**
   * The value stored for `key` at exactly `version` (now the most recently used), or undefined;
   * an entry of an older version is dropped.
   */
  get(key: string, version: number | null): V | undefined {
    if (version === null) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // an entry stored under a newer version than this request read stays for the next requests
    if (entry.version > version) return undefined;
    this.entries.delete(key);
    if (entry.version < version) {
      this.held -= this.sizeOf(entry.value);
      return undefined;
    }
    this.entries.set(key, entry); // most recently used last
    return entry.value;
  }

  /** Keeps a value read after `version` was (so it may look older than it is, never newer). */
  set(key: string, version: number | null, value: V): void {
    const size = this.sizeOf(value);
    if (version === null || size > this.limits.maxItem) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.held -= this.sizeOf(old.value);
    }
    this.entries.set(key, { version, value });
    this.held += size;
    const maxEntries = this.limits.maxEntries ?? Number.POSITIVE_INFINITY;
    for (const [k, e] of this.entries) {
      if (this.held <= this.limits.maxTotal && this.entries.size <= maxEntries) break;
      this.entries.delete(k);
      this.held -= this.sizeOf(e.value);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
