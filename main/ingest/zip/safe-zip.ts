import crypto from 'node:crypto';
import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import type { Entry, ZipFile } from 'yauzl';
import { checkDeclaredSizes, createInflateMeter, type InflateMeter } from './inflate-meter.js';
import {
  checkEntryName,
  checkReadable,
  collisionKey,
  entryName,
  isSymlink,
  type BackslashPolicy,
} from './zip-entry-checks.js';
import type { ArchiveLimits } from './zip-limits.js';
import type { ZipRefusal, ZipWording } from './zip-refusal.js';

/** How one kind of zip is read: its limits, its names, and how a refusal is worded for it. */
export interface ZipProfile {
  limits: ArchiveLimits;
  backslashes: BackslashPolicy;
  wording: ZipWording;
  /**
   * The files the caller may read. Only their declared sizes count against the limits and only
   * they must be readable (not encrypted, a known method); every entry's name is checked.
   * Default: every file.
   */
  reads?: (name: string) => boolean;
}

export interface ZipFileInfo {
  name: string;
  /** Declared uncompressed size. */
  size: number;
}

const DEFLATED = 8;
const INFLATE_CHUNK_BYTES = 128 * 1024;

interface Listed {
  name: string;
  entry: Entry;
}

/**
 * The one way Render Desk reads a zip (workbooks, template packs, zips of images). It is read
 * through its central directory (yauzl), never its local headers, and opening it checks every
 * entry before a byte is inflated: the entry count, safe names, no symbolic links, no two names
 * that one file system would take for the same file, the declared sizes against the limits,
 * and that what will be read is neither encrypted nor compressed in a way we do not read.
 * Reading counts the inflated bytes again and checks each entry's CRC-32.
 */
export class SafeZip {
  private meter: InflateMeter;

  private constructor(
    private readonly zip: ZipFile,
    private readonly files: ReadonlyMap<string, Listed>,
    private readonly byKey: ReadonlyMap<string, Listed>,
    private readonly profile: ZipProfile,
  ) {
    this.meter = createInflateMeter(profile.limits, profile.wording);
  }

  static async open(file: string, profile: ZipProfile): Promise<SafeZip> {
    const refuse = (refusal: ZipRefusal): Error => profile.wording(refusal);
    const zip = await openZipFile(file, refuse);
    try {
      // The declared count first: a million-entry archive is refused before it is listed.
      const { maxEntries } = profile.limits;
      if (zip.entryCount > maxEntries) {
        throw refuse({ reason: 'too-many-entries', count: zip.entryCount, limit: maxEntries });
      }
      const entries = await readCentralDirectory(zip, refuse);
      const files = new Map<string, Listed>();
      const byKey = new Map<string, Listed>();
      for (const entry of entries) {
        const name = entryName(entry, profile.backslashes);
        const unsafe = checkEntryName(name);
        if (unsafe) throw refuse(unsafe);
        if (isSymlink(entry)) throw refuse({ reason: 'symlink', name });
        const key = collisionKey(name);
        if (byKey.has(key)) throw refuse({ reason: 'duplicate', name });
        const listed = { name, entry };
        byKey.set(key, listed);
        if (!name.endsWith('/')) files.set(name, listed); // a folder holds no data
      }
      const read = [...files.values()].filter(({ name }) => profile.reads?.(name) ?? true);
      for (const { name, entry } of read) {
        const unreadable = checkReadable(entry, name);
        if (unreadable) throw refuse(unreadable);
      }
      const tooLarge = checkDeclaredSizes(read.map(declared), profile.limits);
      if (tooLarge) throw refuse(tooLarge);
      return new SafeZip(zip, files, byKey, profile);
    } catch (error) {
      zip.close();
      throw error;
    }
  }

  /** The names of the files (not folders), in central-directory order. */
  get names(): string[] {
    return [...this.files.keys()];
  }

  /** A file by its exact name. */
  file(name: string): ZipFileInfo | undefined {
    const listed = this.files.get(name);
    return listed && { name: listed.name, size: listed.entry.uncompressedSize };
  }

  /** The name of the file matching `name` as a case-insensitive file system would (OOXML part names are). */
  findIgnoringCase(name: string): string | undefined {
    const listed = this.files.get(name) ?? this.byKey.get(collisionKey(name));
    return listed && !listed.name.endsWith('/') ? listed.name : undefined;
  }

  /**
   * Streams a file's bytes, counted against the limits and checked against its CRC-32; a file
   * declaring more than `maxBytes` is refused before it is inflated.
   */
  async openStream(name: string, maxBytes = Infinity): Promise<Readable> {
    const { entry } = this.require(name);
    const refuse = this.profile.wording;
    if (entry.uncompressedSize > maxBytes) {
      throw refuse({ reason: 'part-too-large', name, limit: maxBytes });
    }
    // The stored bytes, inflated here rather than by yauzl: its 16 KiB chunks made inflating a
    // sheet several times slower than reading it.
    const raw = await new Promise<Readable>((resolve, reject) => {
      this.zip.openReadStream(entry, { decodeFileData: false }, (error, stream) => {
        if (error || !stream) reject(refuse({ reason: 'damaged', detail: describe(error) }));
        else resolve(stream);
      });
    });
    const stages: Readable[] = [raw];
    let data: Readable = raw;
    if (entry.compressionMethod === DEFLATED) {
      data = raw.pipe(zlib.createInflateRaw({ chunkSize: INFLATE_CHUNK_BYTES }));
      stages.push(data);
    }
    const counted = this.meter.meter(declared({ name, entry }));
    for (const stage of stages) {
      stage.on('error', (error: unknown) =>
        counted.destroy(refuse({ reason: 'damaged', detail: describe(error) })),
      );
    }
    // Closing what we hand out must stop the reading and inflating underneath.
    counted.on('close', () => {
      for (const stage of stages) {
        stage.unpipe();
        stage.destroy();
      }
    });
    return data.pipe(counted);
  }

  /** Reads a small file whole, refusing it past `maxBytes`. */
  async read(name: string, maxBytes: number): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.openStream(name, maxBytes)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  /** Writes a file to `target` (which must not exist yet) and returns its sha256 and size. */
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
    await pipeline(await this.openStream(name), tap, fs.createWriteStream(target, { flags: 'wx' }));
    return { sha256: hash.digest('hex'), size };
  }

  /** Starts the total count again: reads after this are counted afresh (after a verifying pass). */
  countAfresh(): void {
    this.meter = createInflateMeter(this.profile.limits, this.profile.wording);
  }

  close(): void {
    this.zip.close();
  }

  private require(name: string): Listed {
    const listed = this.files.get(name);
    if (!listed || !(this.profile.reads?.(name) ?? true)) {
      throw this.profile.wording({ reason: 'missing', name });
    }
    return listed;
  }
}

function declared({ name, entry }: Listed) {
  return {
    name,
    compressedSize: entry.compressedSize,
    uncompressedSize: entry.uncompressedSize,
    crc32: entry.crc32,
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : 'unreadable';
}

function openZipFile(file: string, refuse: (refusal: ZipRefusal) => Error): Promise<ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.open(
      file,
      // Names are decoded and checked by us (zip-entry-checks.ts), so each refusal says why.
      { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true },
      (error, zip) => {
        if (error || !zip) reject(refuse({ reason: 'damaged', detail: describe(error) }));
        else resolve(zip);
      },
    );
  });
}

function readCentralDirectory(
  zip: ZipFile,
  refuse: (refusal: ZipRefusal) => Error,
): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', (error: unknown) =>
      reject(refuse({ reason: 'damaged', detail: describe(error) })),
    );
    zip.readEntry();
  });
}
