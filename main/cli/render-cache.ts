import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { replaceFile } from '../files/replace-file.js';

/**
 * Outputs kept by fingerprint (render-fingerprint.ts) in a folder a CI job can save and restore:
 * `<cache>/<first two hex digits>/<fingerprint>.<ext>`, with the entry's SHA-256 and size beside
 * it in `<fingerprint>.<ext>.sha256`. Entries are written once (temp file and rename, so an
 * interrupted run leaves no half image) and made read-only, because a hit is delivered as a hard
 * link where the file system allows it.
 *
 * A restored cache is not trusted: a hit is only a regular file (never a link, nor one reached
 * through a linked folder) whose bytes match the digest kept beside it. Anything else (a link to
 * another file, an emptied or altered entry) is a miss: the row is rendered again and the entry
 * rewritten, so a cache from another branch can never publish a file under a row's name.
 *
 * The digest also records the entry file as it was written (device, inode, modification time to
 * the nanosecond): an entry that is still that very file, unchanged since its bytes were hashed,
 * is a hit without hashing them again. Hashing a thousand cached images took a fifth of a second,
 * most of a re-run that renders three rows. A restored, replaced or rewritten entry has another
 * inode or time and is hashed in full.
 */
export class RenderCache {
  /** Shard folders found to be real folders in this run (256 at most, each checked once). */
  private readonly realFolders = new Set<string>();

  constructor(readonly dir: string) {}

  file(fingerprint: string, extension: string): string {
    return path.join(this.dir, fingerprint.slice(0, 2), `${fingerprint}.${extension}`);
  }

  /** The cached output, or null when this fingerprint has no sound entry in this cache. */
  find(fingerprint: string, extension: string): string | null {
    const file = this.file(fingerprint, extension);
    if (!this.isRealFolder(path.dirname(file))) return null;
    const digest = readDigest(`${file}.sha256`);
    if (!digest) return null;
    // The entry itself, not what a link would lead to: most hits end here, with one call.
    const entry = fs.lstatSync(file, { bigint: true, throwIfNoEntry: false });
    if (!entry?.isFile() || entry.size !== BigInt(digest.size)) return null;
    if (digest.written !== undefined && digest.written === writtenStamp(entry)) return file;
    let fd: number;
    try {
      fd = fs.openSync(file, READ_NO_LINK);
    } catch {
      return null;
    }
    try {
      const stat = fs.fstatSync(fd, { bigint: true });
      if (!stat.isFile() || stat.size !== BigInt(digest.size)) return null;
      const bytes = Buffer.allocUnsafe(digest.size);
      let read = 0;
      while (read < bytes.length) {
        const n = fs.readSync(fd, bytes, read, bytes.length - read, read);
        if (n === 0) return null;
        read += n;
      }
      return sha256(bytes) === digest.sha256 ? file : null;
    } finally {
      fs.closeSync(fd);
    }
  }

  private isRealFolder(folder: string): boolean {
    if (this.realFolders.has(folder)) return true;
    const real = isRealFolder(folder);
    if (real) this.realFolders.add(folder);
    return real;
  }

  /** Keeps a copy of `source` as this fingerprint's output, replacing whatever was there. */
  async put(fingerprint: string, extension: string, source: string): Promise<string> {
    const file = this.file(fingerprint, extension);
    await ensureRealFolder(path.dirname(file));
    const bytes = await fs.promises.readFile(source);
    await replaceFile(file, bytes, 0o444);
    const written = writtenStamp(await fs.promises.lstat(file, { bigint: true }));
    const digest = `${sha256(bytes)} ${bytes.byteLength} ${written}\n`;
    await replaceFile(`${file}.sha256`, Buffer.from(digest), 0o444);
    return file;
  }
}

/** The file an entry is, as written: which file (device, inode) and when it last changed. */
function writtenStamp(stat: fs.BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.mtimeNs}`;
}

/**
 * Opened for reading without following a link, and without waiting: a FIFO put in the cache's
 * place would otherwise hold the open until something writes to it.
 */
const READ_NO_LINK = fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK;

function sha256(bytes: Uint8Array): string {
  return crypto.createHash('sha256').update(bytes).digest('hex');
}

function isRealFolder(folder: string): boolean {
  try {
    return fs.lstatSync(folder).isDirectory();
  } catch {
    return false;
  }
}

/** A shard folder replaced by a link (or a file) is removed and made again as a folder. */
async function ensureRealFolder(folder: string): Promise<void> {
  const stat = await fs.promises.lstat(folder).catch(() => null);
  if (stat?.isDirectory()) return;
  if (stat) await fs.promises.rm(folder, { force: true });
  await fs.promises.mkdir(folder, { recursive: true });
}

/** `<sha256 hex> <size> [<written stamp>]` from a regular file of its own, or null. */
function readDigest(file: string): { sha256: string; size: number; written?: string } | null {
  let text: string;
  try {
    const fd = fs.openSync(file, READ_NO_LINK);
    try {
      if (!fs.fstatSync(fd).isFile()) return null;
      const buffer = Buffer.alloc(200);
      text = buffer.subarray(0, fs.readSync(fd, buffer, 0, 200, 0)).toString('ascii');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  const match = /^([0-9a-f]{64}) (\d+)(?: (\d+:\d+:\d+))?\n$/.exec(text);
  if (!match) return null;
  return {
    sha256: match[1]!,
    size: Number(match[2]),
    ...(match[3] !== undefined ? { written: match[3] } : {}),
  };
}
