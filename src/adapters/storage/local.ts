/** Object storage on the local disk (default: DATA_DIR/uploads), and in memory for DATA_DIR=memory. */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { mimeOfExtension } from './image-type.js';
import type { ObjectStorage, StoredObject } from './port.js';

const typeOf = (key: string) => mimeOfExtension(key.slice(key.lastIndexOf('.') + 1)) ?? 'application/octet-stream';

export class LocalDiskStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  private readonly root: string;
  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The file of a key; a key that would leave the root is refused (keys are checked before, too). */
  private fileOf(key: string): string {
    const file = resolve(this.root, key);
    if (!file.startsWith(this.root + sep)) throw new Error(`storage key outside the root: ${key}`);
    return file;
  }

  async put(key: string, body: Buffer): Promise<void> {
    const file = this.fileOf(key);
    await mkdir(dirname(file), { recursive: true });
    // written aside and renamed: a reader never sees half a file
    const temp = join(dirname(file), `.${randomBytes(8).toString('hex')}.tmp`);
    await writeFile(temp, body);
    await rename(temp, file);
  }

  async get(key: string): Promise<StoredObject | null> {
    try {
      return { body: await readFile(this.fileOf(key)), contentType: typeOf(key) };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }
}

/** Objects in this process's memory (DATA_DIR=memory: tests and throwaway runs). */
export class MemoryStorage implements ObjectStorage {
  readonly kind = 'memory' as const;
  private readonly objects = new Map<string, Buffer>();
  async put(key: string, body: Buffer): Promise<void> {
    this.objects.set(key, Buffer.from(body));
  }
  async get(key: string): Promise<StoredObject | null> {
    const body = this.objects.get(key);
    return body ? { body, contentType: typeOf(key) } : null;
  }
}
