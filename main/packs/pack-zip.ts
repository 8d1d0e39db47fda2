import crypto from 'node:crypto';
import { AppError } from '../../shared/errors.js';
import { SafeZip } from '../ingest/zip/safe-zip.js';
import { ZIP_LIMITS, type ArchiveLimits } from '../ingest/zip/zip-limits.js';
import { describeLimit, isLimitRefusal, type ZipRefusal } from '../ingest/zip/zip-refusal.js';

/** Limits of an imported pack (HOSTILE-INPUTS #23), from the one table of zip limits. */
export const PACK_LIMITS: ArchiveLimits = ZIP_LIMITS.pack;

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

/** A refusal of the safe-zip reader, worded for a template pack. */
function packRefusal(refusal: ZipRefusal): AppError {
  if (isLimitRefusal(refusal)) {
    return new AppError(
      'archive-limits-exceeded',
      `The template pack was refused because it would unpack to an unsafe size: ${describeLimit(refusal)}.`,
    );
  }
  switch (refusal.reason) {
    case 'damaged':
      return invalidArchive(refusal.detail);
    case 'unsafe-name':
      if (refusal.problem === 'backslash') {
        return packInvalid(
          `the entry name "${refusal.name}" has characters a file name may not have (a backslash or a control character); nothing was installed.`,
        );
      }
      if (refusal.problem === 'reserved') {
        return packInvalid(`the entry "${refusal.name}" has a name that is not allowed in a pack.`);
      }
      return packInvalid(
        `the entry "${refusal.name}" points outside the pack (${refusal.problem}); nothing was installed.`,
      );
    case 'symlink':
      return packInvalid(`the entry "${refusal.name}" is a symbolic link.`);
    case 'duplicate':
      return packInvalid(`"${refusal.name}" appears twice in the zip.`);
    case 'encrypted':
      return invalidArchive(`"${refusal.name}" is password-protected; packs are never encrypted`);
    case 'compression-method':
      return invalidArchive(
        `"${refusal.name}" uses compression method ${refusal.method}; only stored and deflate are read`,
      );
    case 'missing':
      return packInvalid(`it has no ${refusal.name}.`);
    case 'part-too-large':
      return packInvalid(
        `${refusal.name} is larger than the ${Math.round(refusal.limit / 1024)} KiB allowed.`,
      );
  }
}

/**
 * A pack zip, read with the one safe-zip reader: backslashes in names are refused (a pack is
 * unpacked to disk), and every refusal is worded for a template pack.
 */
export class PackZip {
  private constructor(
    private readonly zip: SafeZip,
    /** The names of the files; folders hold nothing and are left out. */
    readonly files: ReadonlySet<string>,
  ) {}

  static async open(file: string, limits: ArchiveLimits = PACK_LIMITS): Promise<PackZip> {
    const zip = await SafeZip.open(file, { limits, backslashes: 'refuse', wording: packRefusal });
    return new PackZip(zip, new Set(zip.names));
  }

  /**
   * Inflates every file once, counting bytes and checking CRCs, and returns each file's sha256
   * and size: a damaged zip is reported as such before its contents are judged. Reads after
   * this are counted afresh.
   */
  async hashAll(): Promise<Map<string, { sha256: string; size: number }>> {
    const hashes = new Map<string, { sha256: string; size: number }>();
    for (const name of this.files) {
      const hash = crypto.createHash('sha256');
      let size = 0;
      for await (const chunk of await this.zip.openStream(name)) {
        hash.update(chunk as Buffer);
        size += (chunk as Buffer).length;
      }
      hashes.set(name, { sha256: hash.digest('hex'), size });
    }
    this.zip.countAfresh();
    return hashes;
  }

  /** Reads a small file whole, refusing it past `maxBytes`. */
  read(name: string, maxBytes: number): Promise<Buffer> {
    return this.zip.read(name, maxBytes);
  }

  /** Writes a file to `target` (which must not exist) and returns its sha256 and size. */
  extract(name: string, target: string): Promise<{ sha256: string; size: number }> {
    return this.zip.extract(name, target);
  }

  close(): void {
    this.zip.close();
  }
}
