import crypto from 'node:crypto';
import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { AppError } from '../../shared/errors.js';
import {
  checkDeclaredSizes,
  checkEntryCount,
  createInflateMeter,
  type ArchiveLimits,
  type InflateMeter,
} from '../batch/row-sources/archive-limits.js';

const MiB = 1024 * 1024;

/**
 * Limits of an imported pack (HOSTILE-INPUTS #23). A template with a dozen photos and a few
 * font families is a few tens of MiB; these leave room for that and refuse bombs long before
 * they fill a disk.
 */
export const PACK_LIMITS: ArchiveLimits = {
  maxEntries: 2_000,
  maxEntryBytes: 100 * MiB,
  maxTotalBytes: 200 * MiB,
  maxRatio: 100,
  ratioAppliesAbove: 1 * MiB,
  refuse: (detail) =>
    new AppError(
      'archive-limits-exceeded',
      `The template pack was refused because it would unpack to an unsafe size: ${detail}.`,
    ),
};

/** Broken zips: what yauzl and zlib report, said for a person. */
export function invalidArchive(reason: string): AppError {
  return new AppError(
    'invalid-archive',
    `The file is not a readable zip archive (${reason}). Export the pack again and retry.`,
  );
}

export function packInvalid(reason: string, problems?: { path: string; message: string }[]) {
  return new AppError('pack-invalid', `The file is not a usable template pack: ${reason}`, {
    ...(problems ? { problems } : {}),
  });
}

/** The name checks yauzl makes itself (zip-slip); reported as the pack's fault, naming the entry. */
const YAUZL_NAME_ERROR = /^(absolute path|invalid relative path|invalid characters in fileName): /;

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * A pack zip, read through its central directory (never local headers) with yauzl. Opening it
 * checks every entry before anything is inflated: safe names, no symlinks, no duplicates (after
 * NFC and case folding, as Windows and macOS file systems compare), no encryption, a known
 * compression method, and the declared sizes against the limits. Reading counts inflated bytes
 * again, because headers can lie.
 */
export class PackZip {
  private constructor(
    private readonly zip: ZipFile,
    /** File entries by name; directory entries hold nothing and are left out. */
    readonly files: ReadonlyMap<string, Entry>,
    private readonly limits: ArchiveLimits,
    private meter: InflateMeter,
  ) {}

  static async open(file: string, limits: ArchiveLimits = PACK_LIMITS): Promise<PackZip> {
    const zip = await openZipFile(file);
    try {
      // The declared count first: a million-entry archive is refused before it is listed.
      checkEntryCount(zip.entryCount, limits);
      const entries = await readCentralDirectory(zip);
      checkEntryCount(entries.length, limits);
      const files = new Map<string, Entry>();
      const seen = new Set<string>();
      for (const entry of entries) {
        checkEntry(entry);
        const key = entry.fileName.replace(/\/$/, '').normalize('NFC').toLowerCase();
        if (seen.has(key)) throw packInvalid(`"${entry.fileName}" appears twice in the zip.`);
        seen.add(key);
        if (!entry.fileName.endsWith('/')) files.set(entry.fileName, entry);
      }
      checkDeclaredSizes(
        [...files.values()].map((entry) => ({
          name: entry.fileName,
          compressedSize: entry.compressedSize,
          uncompressedSize: entry.uncompressedSize,
        })),
        limits,
      );
      return new PackZip(zip, files, limits, createInflateMeter(limits));
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  /**
   * Inflates every file once, counting bytes and checking CRCs, and returns each file's sha256
   * and size: a damaged zip is reported as such before its contents are judged. Reads after
   * this are counted afresh.
   */
  async hashAll(): Promise<Map<string, { sha256: string; size: number }>> {
    const hashes = new Map<string, { sha256: string; size: number }>();
    for (const [name, entry] of this.files) {
      const hash = crypto.createHash('sha256');
      let size = 0;
      for await (const chunk of await this.open(entry)) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
      hashes.set(name, { sha256: hash.digest('hex'), size });
    }
    this.meter = createInflateMeter(this.limits);
    return hashes;
  }

  /** Reads a small file whole, refusing it past `maxBytes`. */
  async read(name: string, maxBytes: number): Promise<Buffer> {
    const entry = this.entry(name);
    if (entry.uncompressedSize > maxBytes) {
      throw packInvalid(`${name} is larger than the ${Math.round(maxBytes / 1024)} KiB allowed.`);
    }
    const chunks: Buffer[] = [];
    for await (const chunk of await this.open(entry)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** Writes a file to `target` (which must not exist) and returns its sha256 and size. */
  async extract(name: string, target: string): Promise<{ sha256: string; size: number }> {
    const hash = crypto.createHash('sha256');
    let size = 0;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        hash.update(chunk);
        size += chunk.length;
        callback(null, chunk);
      },
    });
    await pipeline(
      await this.open(this.entry(name)),
      tap,
      fs.createWriteStream(target, { flags: 'wx' }),
    );
    return { sha256: hash.digest('hex'), size };
  }

  close(): void {
    this.zip.close();
  }

  private entry(name: string): Entry {
    const entry = this.files.get(name);
    if (!entry) throw packInvalid(`it has no ${name}.`);
    return entry;
  }

  private async open(entry: Entry): Promise<Readable> {
    const raw = await new Promise<Readable>((resolve, reject) => {
      this.zip.openReadStream(entry, (error, stream) => {
        if (error || !stream) reject(invalidArchive(describe(error)));
        else resolve(stream);
      });
    });
    const counted = this.meter.meter({
      name: entry.fileName,
      compressedSize: entry.compressedSize,
      uncompressedSize: entry.uncompressedSize,
    });
    const refuse = this.limits.refuse ?? invalidArchive;
    raw.on('error', (error: unknown) => {
      // yauzl notices first when an entry inflates past the size its header declares.
      const lied = error instanceof Error && /too many bytes in the stream/.test(error.message);
      counted.destroy(
        error instanceof AppError
          ? error
          : lied
            ? refuse(
                `${entry.fileName} inflates past the ${entry.uncompressedSize} bytes it declares`,
              )
            : invalidArchive(describe(error)),
      );
    });
    return raw.pipe(counted);
  }
}

function checkEntry(entry: Entry): void {
  const name = entry.fileName;
  // yauzl refuses `..`, absolute paths and backslashes; these are the rest of what must not
  // reach a file system: empty or `.` segments, control characters, Windows device names.
  const parts = name.replace(/\/$/, '').split('/');
  if (
    parts.some((part) => part === '' || part === '.') ||
    // eslint-disable-next-line no-control-regex -- control characters are what this refuses
    /[\u0000-\u001f\u007f:*?"<>|]/.test(name) ||
    parts.some((part) => /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(part))
  ) {
    throw packInvalid(`the entry "${name}" has a name that is not allowed in a pack.`);
  }
  if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
    throw packInvalid(`the entry "${name}" is a symbolic link.`);
  }
  if (entry.isEncrypted()) {
    throw invalidArchive(`"${name}" is password-protected; packs are never encrypted`);
  }
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw invalidArchive(
      `"${name}" uses compression method ${entry.compressionMethod}; only stored and deflate are read`,
    );
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : 'unreadable';
}

function openZipFile(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
      (error, zip) => {
        if (error || !zip) reject(invalidArchive(describe(error)));
        else resolve(zip);
      },
    );
  });
}

function readCentralDirectory(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (error: unknown) => {
      const reason = describe(error);
      const unsafe = YAUZL_NAME_ERROR.exec(reason);
      reject(
        unsafe
          ? packInvalid(
              unsafe[1] === 'invalid characters in fileName'
                ? `the entry name "${reason.slice(unsafe[0].length)}" has characters a file name may not have (a backslash or a control character); nothing was installed.`
                : `the entry "${reason.slice(unsafe[0].length)}" points outside the pack (${unsafe[1]}); nothing was installed.`,
            )
          : invalidArchive(reason),
      );
    });
    zip.readEntry();
  });
}
