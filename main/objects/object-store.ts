import type { Readable } from 'node:stream';
import { AppError } from '../../shared/errors.js';

/**
 * Where outputs, uploads, fonts, packs and workspace assets live, so that every node of a cluster
 * can read them: a local or shared folder, or an S3-compatible bucket. Keys are slash-separated
 * and checked (see object-key.ts); a key cannot also be the folder of other keys (`a/b` and
 * `a/b/c`), which a folder cannot hold.
 *
 * Writes are whole-object: a reader sees the previous object or the new one, never part of one.
 * Renders are deterministic and output keys are fixed by row, so a repeated write (an
 * at-least-once job delivered twice) writes the same bytes to the same key.
 */
export interface ObjectStore {
  put(key: string, bytes: Uint8Array, options?: PutOptions): Promise<void>;
  /** Streams a local file into the store (large uploads, bundles) without holding it in memory. */
  putFile(key: string, localPath: string, options?: PutOptions): Promise<void>;
  /**
   * Streams `source` into the store with bounded memory. With `size` the stream must yield
   * exactly that many bytes; without it the store buffers at most one part at a time.
   */
  putStream(key: string, source: Readable, options?: PutStreamOptions): Promise<void>;
  /** The whole object, or null when there is none. For small objects; see getStream. */
  get(key: string): Promise<Buffer | null>;
  /** The object as a stream (bounded memory), or null when there is none. */
  getStream(key: string): Promise<Readable | null>;
  head(key: string): Promise<ObjectHead | null>;
  /**
   * The size of each key, all under the folder `folder` (ending in "/"), or null for a key that
   * holds nothing: head() for many keys at once, answered the way that is cheapest for the store.
   */
  sizes(folder: string, keys: readonly string[]): Promise<(number | null)[]>;
  /** Deleting a key that holds nothing is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every object under a folder prefix (ending in "/"); returns how many. */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * Keys under `prefix` in byte order, after `after`, at most `limit` (default and maximum
   * 1,000). For garbage collection, and for sizes() of keys the database named: manifests come
   * from the database, never from listing.
   */
  list(prefix: string, options?: ListOptions): Promise<ObjectListing>;
  /** Where the store is, for logs: never a secret. */
  describe(): string;
  /** Releases connections; the store is not used afterwards. */
  close(): Promise<void>;
}

export interface PutOptions {
  contentType?: string;
}

export interface PutStreamOptions extends PutOptions {
  size?: number;
}

export interface ObjectHead {
  size: number;
}

export interface ListOptions {
  after?: string;
  limit?: number;
}

export interface ObjectListing {
  entries: ObjectEntry[];
  /** Pass as `after` to read the next page; null when this page is the last. */
  next: string | null;
}

export interface ObjectEntry {
  key: string;
  size: number;
}

export const MAX_LIST_LIMIT = 1000;

export function listLimit(options: ListOptions | undefined): number {
  const limit = options?.limit ?? MAX_LIST_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) {
    throw new AppError(
      'validation-failed',
      `A listing limit must be a whole number ≥ 1 (got ${limit}).`,
    );
  }
  return Math.min(limit, MAX_LIST_LIMIT);
}
