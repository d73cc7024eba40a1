/**
 * The storefront's response cache: serialized responses per (shop, channel-selecting request
 * parts, query), each stored with the shop's storefront version it was computed at. A request
 * reads the current version (one primary-key lookup) and uses an entry only when the versions are
 * equal. Every change the storefront shows bumps the version in its own transaction (triggers of
 * migration `storefront`), so a change is visible on the next request after its commit, in every
 * process. Bounded in entries and bytes; least recently used entries go first.
 */
import type { Db } from '../../platform/db/client.js';
import { VersionedLru } from '../../platform/versioned-lru.js';
import { prepareCatalogVersion } from '../catalog/index.js';

export interface CachedResponse {
  channelId: string;
  body: Buffer;
}

export class StorefrontCache {
  private readonly entries: VersionedLru<CachedResponse>;
  private readonly versionQuery;

  constructor(db: Db, maxEntries = 2000, maxBytes = 16 * 1024 * 1024) {
    this.entries = new VersionedLru((r) => r.body.length, { maxTotal: maxBytes, maxItem: maxBytes / 8, maxEntries });
    this.versionQuery = prepareCatalogVersion(db, 'storefront_version');
  }

  /** The shop's current storefront version (0 before its first catalog change). */
  async version(shopId: string): Promise<number> {
    return (await this.versionQuery(shopId)) ?? 0;
  }

  get(key: string, version: number): CachedResponse | undefined {
    return this.entries.get(key, version);
  }

  set(key: string, version: number, value: CachedResponse): void {
    this.entries.set(key, version, value);
  }

  get size(): number {
    return this.entries.size;
  }
}
