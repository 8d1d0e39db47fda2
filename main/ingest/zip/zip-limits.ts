/**
 * The limits every zip Render Desk reads is held to (HOSTILE-INPUTS #14, #23), one table for
 * the three kinds it reads. The declared sizes in the central directory are checked before
 * anything is inflated, and every inflated stream is counted again, because headers can lie.
 */
export interface ArchiveLimits {
  maxEntries: number;
  maxEntryBytes: number;
  maxTotalBytes: number;
  /** Refuse entries inflating more than this many times their compressed size… */
  maxRatio: number;
  /** …once they are larger than this (small files legitimately compress very well). */
  ratioAppliesAbove: number;
}

const MiB = 1024 * 1024;

export const ZIP_LIMITS = {
  /** An uploaded workbook: sheets of a million rows fit, bombs do not. */
  spreadsheet: {
    maxEntries: 10_000,
    maxEntryBytes: 200 * MiB,
    maxTotalBytes: 1024 * MiB,
    maxRatio: 100,
    ratioAppliesAbove: 1 * MiB,
  },
  /** A template pack: a template with a dozen photos and a few font families is tens of MiB. */
  pack: {
    maxEntries: 2_000,
    maxEntryBytes: 100 * MiB,
    maxTotalBytes: 200 * MiB,
    maxRatio: 100,
    ratioAppliesAbove: 1 * MiB,
  },
  /** A zip of product photos for a batch: many files, each a photo. */
  images: {
    maxEntries: 20_000,
    maxEntryBytes: 100 * MiB,
    maxTotalBytes: 4 * 1024 * MiB,
    maxRatio: 200,
    ratioAppliesAbove: 1 * MiB,
  },
} as const satisfies Record<string, ArchiveLimits>;

/** The most entries any kind allows: what a look inside an unknown zip may list. */
export const MAX_LISTED_ENTRIES = Math.max(
  ...Object.values(ZIP_LIMITS).map((limits) => limits.maxEntries),
);

export function formatBytes(bytes: number): string {
  if (bytes >= MiB) return `${Math.round((bytes / MiB) * 10) / 10} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}
