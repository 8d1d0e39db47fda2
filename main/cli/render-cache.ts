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
 */
export class RenderCache {
  constructor(readonly dir: string) {}

  file(fingerprint: string, extension: string): string {
    return path.join(this.dir, fingerprint.slice(0, 2), `${fingerprint}.${extension}`);
  }

  /** The cached output, or null when this fingerprint has no sound entry in this cache. */
  find(fingerprint: string, extension: string): string | null {
    const file = this.file(fingerprint, extension);
    if (!isRealFolder(path.dirname(file))) return null;
    const digest = readDigest(`${file}.sha256`);
    if (!digest) return null;
    let fd: number;
    try {
      fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    } catch {
      return null;
    }
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile() || stat.size !== digest.size) return null;
      const bytes = Buffer.allocUnsafe(stat.size);
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

  /** Keeps a copy of `source` as this fingerprint's output, replacing whatever was there. */
  async put(fingerprint: string, extension: string, source: string): Promise<string> {
    const file = this.file(fingerprint, extension);
    await ensureRealFolder(path.dirname(file));
    const bytes = await fs.promises.readFile(source);
    const digest = `${sha256(bytes)} ${bytes.byteLength}\n`;
    await replaceFile(file, bytes, 0o444);
    await replaceFile(`${file}.sha256`, Buffer.from(digest), 0o444);
    return file;
  }
}

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

/** `<sha256 hex> <size>` from a regular file of its own, or null. */
function readDigest(file: string): { sha256: string; size: number } | null {
  let text: string;
  try {
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    try {
      if (!fs.fstatSync(fd).isFile()) return null;
      const buffer = Buffer.alloc(100);
      text = buffer.subarray(0, fs.readSync(fd, buffer, 0, 100, 0)).toString('ascii');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return null;
  }
  const match = /^([0-9a-f]{64}) (\d+)\n$/.exec(text);
  return match ? { sha256: match[1]!, size: Number(match[2]) } : null;
}
