import type { Readable } from 'node:stream';
import yazl from 'yazl';

export interface BundleEntry {
  /** Name inside the zip (already safe and unique). */
  name: string;
  /** The output file on disk. */
  file: string;
}

/** Outputs get a fixed timestamp so the same batch always gives the same zip bytes. */
const ENTRY_TIME = new Date(Date.UTC(2026, 0, 1));

/**
 * A streaming zip of a batch's outputs. Entries are stored, not deflated: PNG, JPEG and WebP are
 * compressed already, so deflate would cost CPU for nothing. yazl reads one file at a time as the
 * consumer pulls, so memory stays bounded whatever the bundle's size, and it switches to ZIP64
 * by itself past 65,535 entries or 4 GiB.
 */
export function createBundleStream(
  entries: Iterable<BundleEntry>,
  extras: { name: string; content: Buffer }[] = [],
): Readable {
  const zip = new yazl.ZipFile();
  for (const entry of entries) {
    zip.addFile(entry.file, entry.name, { compress: false, mtime: ENTRY_TIME, mode: 0o100644 });
  }
  for (const extra of extras) {
    zip.addBuffer(extra.content, extra.name, { compress: true, mtime: ENTRY_TIME, mode: 0o100644 });
  }
  zip.end();
  return zip.outputStream as Readable;
}
