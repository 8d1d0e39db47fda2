import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ObjectStore } from './object-store.js';

/**
 * A node-local copy of objects that the engine reads as files (image uploads, spreadsheets to
 * ingest). Objects under these keys never change once written, so a copy never goes stale;
 * `ensure` downloads once, to a temp name renamed into place, so a reader never sees half a file.
 */
export class ObjectCache {
  private readonly downloads = new Map<string, Promise<string | null>>();

  constructor(
    private readonly objects: ObjectStore,
    private readonly dir: string,
  ) {
    fs.mkdirSync(dir, { recursive: true });
  }

  /** The local file of `key` if it was fetched already, else null (synchronous, for resolvers). */
  local(key: string): string | null {
    const file = this.fileFor(key);
    return fs.existsSync(file) ? file : null;
  }

  /** Fetches `key` unless it is here already; null when the store has no such object. */
  ensure(key: string): Promise<string | null> {
    const file = this.fileFor(key);
    if (fs.existsSync(file)) return Promise.resolve(file);
    let download = this.downloads.get(key);
    if (!download) {
      download = this.fetch(key, file).finally(() => this.downloads.delete(key));
      this.downloads.set(key, download);
    }
    return download;
  }

  private async fetch(key: string, file: string): Promise<string | null> {
    const stream = await this.objects.getStream(key);
    if (!stream) return null;
    const temp = `${file}.${crypto.randomBytes(6).toString('hex')}.tmp`;
    try {
      await pipeline(stream, fs.createWriteStream(temp));
      fs.renameSync(temp, file);
      return file;
    } catch (error) {
      fs.rmSync(temp, { force: true });
      throw error;
    }
  }

  /** Keys map to flat, safe file names (the key's hash keeps them unique and short). */
  private fileFor(key: string): string {
    const digest = crypto.createHash('sha256').update(key).digest('hex').slice(0, 32);
    const extension = path
      .extname(key)
      .replace(/[^.A-Za-z0-9]/g, '')
      .slice(0, 8);
    return path.join(this.dir, `${digest}${extension}`);
  }
}
