/**
 * The storefront's response cache: serialized responses per (shop, channel-selecting request
 * parts, query), each stored with the shop's storefront version it was computed at. A request
 * reads the current version (one primary-key lookup) and uses an entry only when the versions are
 * equal. Every change the storefront shows bumps the version in its own transaction (triggers of
 * migration `storefront`), so a change is visible on the next request after its commit, in every
 * process. Bounded in entries and bytes; least recently used entries go first.
 */
import type { Db } from '../../platform/db/client.js';
import { prepareCatalogVersion } from '../catalog/index.js';

export interface CachedResponse {
  channelId: string;
  body: Buffer;
}

interface Entry extends CachedResponse {
  version: number;
}

export class StorefrontCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly versionQuery;

  constructor(
    db: Db,
    private readonly maxEntries = 2000,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {
    this.versionQuery = prepareCatalogVersion(db, 'storefront_version');
  }

  /** The shop's current storefront version (0 before its first catalog change). */
  async version(shopId: string): Promise<number> {
    return (await this.versionQuery(shopId)) ?? 0;
  }

  get(key: string, version: number): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.version !== version) {
      this.bytes -= entry.body.length;
      return undefined;
    }
    this.entries.set(key, entry); // most recently used last
    return entry;
  }

  set(key: string, version: number, value: CachedResponse): void {
    const size = value.body.length;
    if (size > this.maxBytes / 8) return;
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.body.length;
    }
    this.entries.set(key, { ...value, version });
    this.bytes += size;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.entries.delete(k);
      this.bytes -= e.body.length;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
