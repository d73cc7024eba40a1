/**
 * Memoizes small lookups per shop catalog version (docs/storefront.md): an entry is used only
 * when the version the caller read with its publishable key equals the one it was stored under.
 * Every write to what such a lookup reads bumps the version in its own transaction (triggers of
 * the migrations `storefront` and `assert_function`), so an entry never outlives a change, in
 * any process. Bounded: cleared when full.
 */
export class VersionedMemo<V> {
  private readonly entries = new Map<string, { version: number; value: V }>();

  constructor(private readonly maxEntries = 2000) {}

  /** The value stored for `key` at exactly `version`, or undefined. */
  get(key: string, version: number | null): V | undefined {
    if (version === null) return undefined;
    const hit = this.entries.get(key);
    return hit && hit.version === version ? hit.value : undefined;
  }

  /**
   * Stores a value computed after `version` was read: a write committing in between only makes
   * the entry look older than it is, never newer.
   */
  set(key: string, version: number | null, value: V): void {
    if (version === null) return;
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { version, value });
  }

  /** Returns the memoized value or computes and stores it. */
  async through(key: string, version: number | null, compute: () => Promise<V>): Promise<V> {
    const hit = this.get(key, version);
    if (hit !== undefined) return hit;
    const value = await compute();
    this.set(key, version, value);
    return value;
  }
}

/**
 * The shop's catalog version (table storefront_versions; it keys storefront and admin caches
 * alike) the request read together with its credential (publishable key, admin session, API
 * token); null when there is none.
 */
export function catalogVersionOf(actor: object | null | undefined): number | null {
  const version = actor && 'catalogVersion' in actor ? actor.catalogVersion : undefined;
  return typeof version === 'number' ? version : null;
}
