import { Transform } from 'node:stream';
import zlib from 'node:zlib';
import type { ArchiveLimits } from './zip-limits.js';
import type { ZipRefusal, ZipWording } from './zip-refusal.js';

/** What the central directory says of an entry, checked before it is inflated. */
export interface DeclaredEntry {
  name: string;
  compressedSize: number;
  uncompressedSize: number;
  crc32: number;
}

/** The first size limit the declared entries break, if any. */
export function checkDeclaredSizes(
  entries: Iterable<DeclaredEntry>,
  limits: ArchiveLimits,
): ZipRefusal | undefined {
  let total = 0;
  for (const entry of entries) {
    const size = entry.uncompressedSize;
    if (size > limits.maxEntryBytes) {
      return { reason: 'entry-too-large', name: entry.name, size, limit: limits.maxEntryBytes };
    }
    total += size;
    if (total > limits.maxTotalBytes) {
      return { reason: 'total-too-large', limit: limits.maxTotalBytes };
    }
    const ratio = size / Math.max(1, entry.compressedSize);
    if (size > limits.ratioAppliesAbove && ratio > limits.maxRatio) {
      return {
        reason: 'ratio',
        name: entry.name,
        ratio,
        limit: limits.maxRatio,
        appliesAbove: limits.ratioAppliesAbove,
      };
    }
  }
  return undefined;
}

/**
 * Counts real inflated bytes across every entry read from one archive, because headers can lie:
 * an entry fails as soon as it outgrows what it declared (or the per-entry limit), the archive as
 * soon as it outgrows the total. An entry read to its end must also match its CRC-32, which
 * yauzl leaves unchecked, so a damaged entry is reported as damaged rather than read as data.
 */
export function createInflateMeter(limits: ArchiveLimits, wording: ZipWording) {
  let total = 0;
  return {
    meter(entry: DeclaredEntry): Transform {
      let seen = 0;
      let crc = 0;
      const allowed = Math.min(entry.uncompressedSize, limits.maxEntryBytes);
      return new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          seen += chunk.length;
          total += chunk.length;
          if (seen > allowed) {
            callback(wording({ reason: 'inflates-past-declared', name: entry.name, allowed }));
            return;
          }
          if (total > limits.maxTotalBytes) {
            callback(wording({ reason: 'inflates-past-total', limit: limits.maxTotalBytes }));
            return;
          }
          crc = zlib.crc32(chunk, crc);
          callback(null, chunk);
        },
        flush(callback) {
          if (seen < entry.uncompressedSize) {
            callback(
              wording({
                reason: 'damaged',
                detail: `${entry.name} ends after ${seen} of the ${entry.uncompressedSize} bytes it declares`,
              }),
            );
            return;
          }
          if (crc >>> 0 !== entry.crc32 >>> 0) {
            callback(
              wording({
                reason: 'damaged',
                detail: `${entry.name} is damaged (its checksum does not match)`,
              }),
            );
            return;
          }
          callback();
        },
      });
    },
  };
}

export type InflateMeter = ReturnType<typeof createInflateMeter>;
