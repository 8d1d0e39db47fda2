import { Transform } from 'node:stream';
import { SpreadsheetError } from './spreadsheet-error.js';

/**
 * Zip-bomb limits for uploaded workbooks (HOSTILE-INPUTS #14). The declared sizes in the central
 * directory are checked before anything is inflated, and every inflated stream is counted again
 * because headers can lie.
 */
export interface ArchiveLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  /** Refuse entries inflating more than this many times their compressed size… */
  maxRatio: number;
  /** …once they are larger than this (small files legitimately compress very well). */
  ratioAppliesAbove: number;
  /** The error a refusal raises; other archives (template packs) word it for their file. */
  refuse?: (detail: string) => Error;
}

const MiB = 1024 * 1024;

export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxEntries: 10_000,
  maxEntryBytes: 200 * MiB,
  maxTotalBytes: 1024 * MiB,
  maxRatio: 100,
  ratioAppliesAbove: 1 * MiB,
};

export interface DeclaredEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
}

export function refuse(detail: string): SpreadsheetError {
  return new SpreadsheetError(
    'archive-limits-exceeded',
    `The workbook was refused because it would inflate to an unsafe size: ${detail}. ` +
      'Re-save it from the spreadsheet application, or split the data into smaller files.',
  );
}

function refusal(limits: ArchiveLimits): (detail: string) => Error {
  return limits.refuse ?? refuse;
}

export function checkEntryCount(count: number, limits: ArchiveLimits): void {
  const refuse = refusal(limits);
  if (count > limits.maxEntries) {
    throw refuse(`it holds ${count} files (the limit is ${limits.maxEntries})`);
  }
}

/** Checks what the central directory declares, before any byte is inflated. */
export function checkDeclaredSizes(entries: Iterable<DeclaredEntry>, limits: ArchiveLimits): void {
  const refuse = refusal(limits);
  let total = 0;
  let count = 0;
  for (const entry of entries) {
    count += 1;
    const size = entry.uncompressedSize;
    if (size > limits.maxEntryBytes) {
      throw refuse(
        `${entry.name} declares ${formatBytes(size)} (limit ${formatBytes(limits.maxEntryBytes)})`,
      );
    }
    total += size;
    if (total > limits.maxTotalBytes) {
      throw refuse(`the files declare more than ${formatBytes(limits.maxTotalBytes)} in total`);
    }
    const ratio = size / Math.max(1, entry.compressedSize);
    if (size > limits.ratioAppliesAbove && ratio > limits.maxRatio) {
      throw refuse(
        `${entry.name} expands ${Math.round(ratio)}:1 (limit ${limits.maxRatio}:1 for parts over ${formatBytes(limits.ratioAppliesAbove)})`,
      );
    }
  }
  checkEntryCount(count, limits);
}

/**
 * Counts real inflated bytes across all the entries read from one archive. Each entry stream is
 * piped through `meter(entry)`, which fails as soon as the entry outgrows what it declared (or the
 * per-entry limit) or the archive outgrows the total limit.
 */
export function createInflateMeter(limits: ArchiveLimits) {
  const refuse = refusal(limits);
  let total = 0;
  return {
    get totalBytes(): number {
      return total;
    },
    meter(entry: DeclaredEntry): Transform {
      let seen = 0;
      const allowed = Math.min(entry.uncompressedSize, limits.maxEntryBytes);
      return new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          seen += chunk.length;
          total += chunk.length;
          if (seen > allowed) {
            callback(refuse(`${entry.name} inflates past the ${formatBytes(allowed)} it declares`));
            return;
          }
          if (total > limits.maxTotalBytes) {
            callback(
              refuse(`the files inflate past ${formatBytes(limits.maxTotalBytes)} in total`),
            );
            return;
          }
          callback(null, chunk);
        },
      });
    },
  };
}

export type InflateMeter = ReturnType<typeof createInflateMeter>;

function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${Math.round((bytes / MiB) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}
