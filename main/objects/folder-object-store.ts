import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../../shared/errors.js';
import { listFolderKeys } from './folder-listing.js';
import { assertFolderPrefix, assertObjectPrefix, objectKeySegments } from './object-key.js';
import type {
  ListOptions,
  ObjectHead,
  ObjectListing,
  ObjectStore,
  PutOptions,
  PutStreamOptions,
} from './object-store.js';
import { listLimit } from './object-store.js';
import { assertKeysInFolder, headSizes } from './object-sizes.js';

/** Errors that mean "no object at this key" rather than a broken store. */
const ABSENT = new Set(['ENOENT', 'ENOTDIR', 'EISDIR']);

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/**
 * Objects as files under one folder, local or shared (NFS-style). A write goes to a temporary
 * file in the object's own folder (same file system, so the rename is atomic), is fsynced,
 * renamed over the key and the folder fsynced: readers see the old file or the whole new one, and
 * a crash leaves no half-written object. Temporary names start with "." and keys never do, so a
 * crashed writer's leftovers are never listed and go with the folder's deletePrefix.
 */
export class FolderObjectStore implements ObjectStore {
  readonly root: string;

  constructor(root: string) {
    if (!path.isAbsolute(root)) {
      throw new AppError(
        'validation-failed',
        `The object folder must be absolute (got "${root}").`,
      );
    }
    this.root = path.resolve(root);
  }

  /** Opens a store on a folder that must already exist: a missing mount must not fill local disk. */
  static async open(root: string): Promise<FolderObjectStore> {
    const store = new FolderObjectStore(root);
    let stat: fs.Stats;
    try {
      stat = await fs.promises.stat(store.root);
    } catch (error) {
      throw new AppError(
        'validation-failed',
        `The object folder ${store.root} cannot be used (${errorCode(error) ?? String(error)}): ` +
          'create it, or mount the shared folder there, before starting.',
      );
    }
    if (!stat.isDirectory()) {
      throw new AppError('validation-failed', `The object folder ${store.root} is not a folder.`);
    }
    await fs.promises.access(store.root, fs.constants.W_OK).catch(() => {
      throw new AppError(
        'validation-failed',
        `The object folder ${store.root} is not writable by this process (uid ${process.getuid?.() ?? '?'}).`,
      );
    });
    return store;
  }

  describe(): string {
    return `dir:${this.root}`;
  }

  async close(): Promise<void> {}

  async put(key: string, bytes: Uint8Array, _options?: PutOptions): Promise<void> {
    return this.guard('put', key, async () => {
      await this.write(key, async (handle) => {
        await handle.writeFile(bytes);
      });
    });
  }

  async putFile(key: string, localPath: string, options?: PutOptions): Promise<void> {
    return this.guard('putFile', key, async () => {
      const { size } = await fs.promises.stat(localPath);
      await this.putStream(key, fs.createReadStream(localPath), { ...options, size });
    });
  }

  async putStream(key: string, source: Readable, options?: PutStreamOptions): Promise<void> {
    return this.guard('putStream', key, async () => {
      // A stream can be read once: it cannot be replayed if the folder vanished mid-write.
      await this.write(
        key,
        async (handle) => {
          let written = 0;
          // Chunk by chunk (not a write stream): the handle must stay open for the fsync.
          for await (const chunk of source) {
            const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
            for (let offset = 0; offset < bytes.byteLength;) {
              offset += (await handle.write(bytes, offset)).bytesWritten;
            }
            written += bytes.byteLength;
          }
          if (options?.size !== undefined && written !== options.size) {
            throw new AppError(
              'validation-failed',
              `The upload of ${key} ended after ${written} of ${options.size} bytes.`,
            );
          }
        },
        1,
      );
    });
  }

  async get(key: string): Promise<Buffer | null> {
    return this.guard('get', key, async () => {
      try {
        return await fs.promises.readFile(this.pathOf(key));
      } catch (error) {
        if (ABSENT.has(errorCode(error) ?? '')) return null;
        throw error;
      }
    });
  }

  async getStream(key: string): Promise<Readable | null> {
    return this.guard('getStream', key, async () => {
      let handle: fs.promises.FileHandle;
      try {
        handle = await fs.promises.open(this.pathOf(key), 'r');
      } catch (error) {
        if (ABSENT.has(errorCode(error) ?? '')) return null;
        throw error;
      }
      // An open file keeps its bytes when a writer renames a new one over the key.
      if (!(await handle.stat()).isFile()) {
        await handle.close();
        return null;
      }
      return handle.createReadStream();
    });
  }

  async head(key: string): Promise<ObjectHead | null> {
    return this.guard('head', key, async () => {
      try {
        const stat = await fs.promises.stat(this.pathOf(key));
        return stat.isFile() ? { size: stat.size } : null;
      } catch (error) {
        if (ABSENT.has(errorCode(error) ?? '')) return null;
        throw error;
      }
    });
  }

  /** A stat per key: cheaper than listing, which reads and sorts the whole folder per page. */
  async sizes(folder: string, keys: readonly string[]): Promise<(number | null)[]> {
    assertKeysInFolder(folder, keys);
    return headSizes((key) => this.head(key), keys);
  }

  async delete(key: string): Promise<void> {
    return this.guard('delete', key, async () => {
      const file = this.pathOf(key);
      try {
        await fs.promises.unlink(file);
      } catch (error) {
        // EISDIR/EPERM: the key is a folder of other keys, not an object; nothing to delete.
        if (ABSENT.has(errorCode(error) ?? '') || errorCode(error) === 'EPERM') return;
        throw error;
      }
      await syncFolder(path.dirname(file));
    });
  }

  async deletePrefix(prefix: string): Promise<number> {
    return this.guard('deletePrefix', prefix, async () => {
      assertFolderPrefix(prefix);
      const folder = path.join(this.root, ...prefix.split('/').filter(Boolean));
      const count = await countFiles(folder);
      await fs.promises.rm(folder, { recursive: true, force: true });
      await syncFolder(path.dirname(folder));
      return count;
    });
  }

  async list(prefix: string, options?: ListOptions): Promise<ObjectListing> {
    return this.guard('list', prefix, async () => {
      assertObjectPrefix(prefix);
      return listFolderKeys(this.root, prefix, options?.after, listLimit(options));
    });
  }

  /** Store failures become errors that say which folder, which key, and what to check. */
  private async guard<T>(operation: string, key: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof AppError) throw error;
      throw folderStoreError(this.describe(), operation, key, error);
    }
  }

  private pathOf(key: string): string {
    return path.join(this.root, ...objectKeySegments(key));
  }

  /**
   * Writes through a temporary file, then renames it over the key. A concurrent deletePrefix
   * can remove the folder under a writer; the write is then tried again in a new folder.
   */
  private async write(
    key: string,
    fill: (handle: fs.promises.FileHandle) => Promise<void>,
    attempts = 3,
  ): Promise<void> {
    const file = this.pathOf(key);
    const folder = path.dirname(file);
    for (let attempt = 1; ; attempt++) {
      const temp = path.join(folder, `.${path.basename(file)}.${crypto.randomUUID()}.tmp`);
      try {
        await makeFolder(this.root, folder, key);
        const handle = await fs.promises.open(temp, 'wx');
        try {
          await fill(handle);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await fs.promises.rename(temp, file);
        await syncFolderShared(folder);
        return;
      } catch (error) {
        // The temp file may not exist, nor its folder (ENOTDIR when a part of it is an object).
        await fs.promises.rm(temp, { force: true }).catch(() => undefined);
        if (errorCode(error) === 'EISDIR') {
          throw new AppError(
            'conflict',
            `Cannot store ${key}: other objects live under ${key}/ (a key cannot also be a folder).`,
          );
        }
        if (errorCode(error) !== 'ENOENT' || attempt >= attempts) throw error;
      }
    }
  }
}

/** Creates the object's folder and fsyncs each new folder's parent, so new entries are durable. */
async function makeFolder(root: string, folder: string, key: string): Promise<void> {
  let first: string | undefined;
  try {
    first = await fs.promises.mkdir(folder, { recursive: true });
  } catch (error) {
    if (errorCode(error) === 'ENOTDIR' || errorCode(error) === 'EEXIST') {
      throw new AppError(
        'conflict',
        `Cannot store ${key}: a part of its folder is an object (a key cannot also be a folder).`,
      );
    }
    throw error;
  }
  if (first === undefined) return;
  // Each new folder is an entry in its parent: fsync the parents from `folder` up to `first`'s.
  for (let dir = folder; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    await syncFolder(path.dirname(dir));
    if (dir === first || dir === root) break;
  }
}

/** A rename or unlink is durable once its folder is fsynced (not possible on Windows: skipped). */
/**
 * One folder fsync serves every rename made in that folder before it started: outputs of a
 * batch share a folder, and an fsync per output cost the render threads of a worker a tenth of
 * their throughput. Each caller still returns only after an fsync that began after its rename.
 */
const folderSyncs = new Map<
  string,
  { inFlight: Promise<void> | null; waiting: Promise<void> | null }
>();

function syncFolderShared(folder: string): Promise<void> {
  let state = folderSyncs.get(folder);
  if (!state) {
    state = { inFlight: null, waiting: null };
    folderSyncs.set(folder, state);
  }
  const entry = state;
  // A sync queued but not begun will start after this rename: it covers this caller too.
  if (entry.waiting) return entry.waiting;
  const begin = (): Promise<void> => {
    entry.waiting = null;
    const sync = syncFolder(folder);
    entry.inFlight = sync;
    void sync
      .catch(() => undefined)
      .then(() => {
        if (entry.inFlight !== sync) return;
        entry.inFlight = null;
        if (!entry.waiting) folderSyncs.delete(folder);
      });
    return sync;
  };
  if (!entry.inFlight) return begin();
  // The sync under way may have begun before this rename: share the next one.
  entry.waiting = entry.inFlight.catch(() => undefined).then(begin);
  return entry.waiting;
}

async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  let handle: fs.promises.FileHandle | undefined;
  try {
    handle = await fs.promises.open(folder, 'r');
    await handle.sync();
  } catch (error) {
    // The folder went away (a concurrent deletePrefix): nothing left to make durable.
    if (errorCode(error) !== 'ENOENT') throw error;
  } finally {
    await handle?.close();
  }
}

async function countFiles(folder: string): Promise<number> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (ABSENT.has(errorCode(error) ?? '')) return 0;
    throw error;
  }
  let count = 0;
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    if (entry.isDirectory()) count += await countFiles(path.join(folder, entry.name));
    else if (entry.isFile()) count += 1;
  }
  return count;
}

const HINTS: Record<string, string> = {
  ENOSPC: "The folder's file system is full.",
  EDQUOT: "This user's quota on the folder's file system is used up.",
  EACCES: 'This process may not write there: check the folder’s owner and permissions.',
  EPERM: 'This process may not write there: check the folder’s owner and permissions.',
  EROFS: 'The folder is mounted read-only.',
  ESTALE: 'The shared folder’s mount went stale: remount it.',
  EIO: 'The file system reported an I/O error: check the disk or the shared folder’s mount.',
};

function folderStoreError(where: string, operation: string, key: string, error: unknown): Error {
  const code = errorCode(error);
  // A full disk stays the file system's own error: the server answers it 507 disk-full, for
  // the user to free space, instead of a 500 about the store.
  if ((code === 'ENOSPC' || code === 'EDQUOT') && error instanceof Error) return error;
  const hint = (code && HINTS[code]) ?? '';
  const said = error instanceof Error ? error.message : String(error);
  const appError = new AppError(
    'internal',
    `Object store ${where}: ${operation} ${key} failed (${said}).${hint ? ` ${hint}` : ''}`,
  );
  appError.cause = error;
  return appError;
}
