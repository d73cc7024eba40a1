/**
 * The storefront's product fragments (docs/storefront.md): each product as the storefront shows
 * it in one channel, serialized by the route's product schema, kept per (shop, channel, product)
 * with the shop's catalog version it was read at. A list page whose id list is known and whose
 * products are all here is assembled without a database round trip, whatever its URL (page size,
 * offset, filter), and a detail read by id or slug is answered from the same entry.
 *
 * Exact as the response cache is: an entry is used only when its version equals the version the
 * request read with its publishable key, and every change the storefront shows bumps that version
 * in its own transaction (docs/storefront.md), in every process. Entries are stored under the
 * version read before the data, so a write committing in between makes them look older, never
 * newer. Per process, bounded in bytes (least recently used first) and in slug entries.
 */
import { VersionedLru } from '../../platform/versioned-lru.js';
import { VersionedMemo } from '../../platform/versioned-memo.js';

export class ProductFragments {
  /** (shop, channel, product) → the product's UTF-8 JSON (outside V8's heap: a serializer's string is a rope of many small pieces). */
  private readonly entries: VersionedLru<Buffer>;
  /** (shop, slug) → product id, per version: what a detail URL by slug names. */
  private readonly slugs: VersionedMemo<string>;

  constructor(maxBytes = 16 * 1024 * 1024, maxSlugs = 100_000) {
    this.entries = new VersionedLru((json) => json.length, { maxTotal: maxBytes, maxItem: maxBytes / 64 });
    this.slugs = new VersionedMemo<string>(maxSlugs);
  }

  /** The fragment of a product at exactly `version`, or undefined. */
  get(shopId: string, channelId: string, productId: string, version: number): Buffer | undefined {
    return this.entries.get(`${shopId}\u0000${channelId}\u0000${productId}`, version);
  }

  /**
   * The fragment a detail URL's id or slug names at exactly `version`: by id, else through the
   * slug a fragment of the shop recorded (a slug is unique in its shop, ids and slugs never meet:
   * slugs have no `_`).
   */
  detail(shopId: string, channelId: string, idOrSlug: string, version: number): Buffer | undefined {
    const id = idOrSlug.includes('_') ? idOrSlug : this.slugs.get(`${shopId}\u0000${idOrSlug}`, version);
    return id === undefined ? undefined : this.get(shopId, channelId, id, version);
  }

  /** Keeps a product's fragment, read after `version` was, and its slug for detail URLs. */
  set(shopId: string, channelId: string, product: { id: string; slug: string }, version: number, json: Buffer): void {
    this.entries.set(`${shopId}\u0000${channelId}\u0000${product.id}`, version, json);
    this.slugs.set(`${shopId}\u0000${product.slug}`, version, product.id);
  }

  get size(): number {
    return this.entries.size;
  }
}
