import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** What is kept beside a cached image: how to revalidate it and until when it is fresh. */
export interface CachedImageMeta {
  url: string;
  contentType: string;
  bytes: number;
  etag?: string | undefined;
  lastModified?: string | undefined;
  /** When the server last confirmed these bytes (ms since the epoch). */
  validatedAt: number;
  /** How long after `validatedAt` the bytes are used without asking the server again. */
  freshForMs: number;
}

export interface CachedImage {
  meta: CachedImageMeta;
  file: string;
}

/** The disk cache's default bound, in the data folder's `cache/image-urls`. */
export const DEFAULT_IMAGE_URL_CACHE_BYTES = 512 * 1024 * 1024;

/**
 * Fetched images on disk, keyed by the URL's SHA-256, each with its validators (ETag,
 * Last-Modified). Bounded in bytes: past the bound, the least recently used go first. Files are
 * written beside and renamed into place, so a render reading one never sees half a file, and
 * several processes on one data folder (the app and the command line) may share it.
 */
export class ImageUrlCache {
  private readonly used = new Map<string, number>();
  private readonly metas = new Map<string, CachedImageMeta>();
  private lastUse = 0;

  constructor(
    readonly dir: string,
    private readonly maxBytes: number = DEFAULT_IMAGE_URL_CACHE_BYTES,
  ) {
    fs.mkdirSync(dir, { recursive: true });
  }

  get(url: string): CachedImage | null {
    const key = keyOf(url);
    const file = path.join(this.dir, `${key}.img`);
    let meta = this.metas.get(key);
    if (!meta) {
      try {
        meta = JSON.parse(fs.readFileSync(path.join(this.dir, `${key}.json`), 'utf8'));
      } catch {
        return null;
      }
      if (!meta || meta.url !== url) return null;
    }
    if (!fs.existsSync(file)) {
      this.metas.delete(key);
      return null;
    }
    this.metas.set(key, meta);
    this.used.set(key, this.tick());
    return { meta, file };
  }

  put(bytes: Buffer, meta: CachedImageMeta): CachedImage {
    const key = keyOf(meta.url);
    const file = path.join(this.dir, `${key}.img`);
    const suffix = `${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`;
    fs.writeFileSync(`${file}.${suffix}`, bytes);
    fs.renameSync(`${file}.${suffix}`, file);
    this.writeMeta(key, meta);
    this.used.set(key, this.tick());
    this.prune(key);
    return { meta, file };
  }

  /** The server confirmed the cached bytes (304): fresh again from now. */
  revalidated(url: string, freshForMs: number): CachedImage | null {
    const cached = this.get(url);
    if (!cached) return null;
    const meta = { ...cached.meta, validatedAt: Date.now(), freshForMs };
    this.writeMeta(keyOf(url), meta);
    return { meta, file: cached.file };
  }

  /** A use's time, strictly after the previous one's (two uses in one millisecond stay ordered). */
  private tick(): number {
    this.lastUse = Math.max(Date.now(), this.lastUse + 0.001);
    return this.lastUse;
  }

  private writeMeta(key: string, meta: CachedImageMeta): void {
    const target = path.join(this.dir, `${key}.json`);
    const temp = `${target}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify(meta));
    fs.renameSync(temp, target);
    this.metas.set(key, meta);
  }

  /** Removes least recently used images (by use here, else by file time) past the bound. */
  private prune(keep: string): void {
    const entries: { key: string; size: number; used: number }[] = [];
    let total = 0;
    for (const name of fs.readdirSync(this.dir)) {
      if (!name.endsWith('.img')) continue;
      const key = name.slice(0, -4);
      let stat: fs.Stats;
      try {
        stat = fs.statSync(path.join(this.dir, name));
      } catch {
        continue;
      }
      total += stat.size;
      entries.push({ key, size: stat.size, used: this.used.get(key) ?? stat.mtimeMs });
    }
    if (total <= this.maxBytes) return;
    entries.sort((a, b) => a.used - b.used);
    for (const entry of entries) {
      if (total <= this.maxBytes) break;
      if (entry.key === keep) continue;
      fs.rmSync(path.join(this.dir, `${entry.key}.img`), { force: true });
      fs.rmSync(path.join(this.dir, `${entry.key}.json`), { force: true });
      this.metas.delete(entry.key);
      this.used.delete(entry.key);
      total -= entry.size;
    }
  }
}

function keyOf(url: string): string {
  return crypto.createHash('sha256').update(url).digest('hex');
}
