/**
 * The storage port (docs/catalog.md, "Image uploads"): a small object store keyed by path-like
 * keys. The local-disk adapter is the default (DATA_DIR/uploads); the S3-compatible adapter lets
 * several processes share the files. Keys are content-hashed, so an object never changes once
 * written: `put` of an existing key may overwrite it with the same bytes.
 */
export interface StoredObject {
  body: Buffer;
  contentType: string;
}

export interface ObjectStorage {
  readonly kind: 'local' | 'memory' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** null when there is no such object. */
  get(key: string): Promise<StoredObject | null>;
}
