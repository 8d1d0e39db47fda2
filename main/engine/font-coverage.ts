import { brotliDecompressSync, inflateSync } from 'node:zlib';

/**
 * A tiny reader of a font's `cmap` (TTF/OTF, WOFF and WOFF2), so the engine can tell which characters
 * no bundled font draws. Measuring text is no substitute: Skia silently falls back to other
 * fonts, so a missing glyph would measure like a present one.
 */

/** Code points a font maps to a glyph, as sorted, non-overlapping [start, end] ranges. */
export type CoverageRanges = ReadonlyArray<readonly [number, number]>;

export function readCoverage(fontBytes: Uint8Array): CoverageRanges {
  const view = new DataView(fontBytes.buffer, fontBytes.byteOffset, fontBytes.byteLength);
  const signature = view.getUint32(0);
  const cmap =
    signature === WOFF2_SIGNATURE
      ? woff2Cmap(view)
      : signature === WOFF_SIGNATURE
        ? woffCmap(view)
        : sfntCmap(view);
  return parseCmap(cmap);
}

export function coversCodePoint(ranges: CoverageRanges, codePoint: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const range = ranges[mid]!;
    if (codePoint < range[0]) hi = mid - 1;
    else if (codePoint > range[1]) lo = mid + 1;
    else return true;
  }
  return false;
}

const WOFF2_SIGNATURE = 0x774f4632; // 'wOF2'
const WOFF_SIGNATURE = 0x774f4646; // 'wOFF'
const CMAP_TAG = 0x636d6170; // 'cmap'

function sfntCmap(view: DataView): DataView {
  const numTables = view.getUint16(4);
  for (let i = 0; i < numTables; i++) {
    const record = 12 + i * 16;
    if (view.getUint32(record) === CMAP_TAG) {
      const offset = view.getUint32(record + 8);
      const length = view.getUint32(record + 12);
      return new DataView(view.buffer, view.byteOffset + offset, length);
    }
  }
  throw new Error('the font has no cmap table');
}

/** WOFF (1) compresses each table on its own with zlib, unless that would not make it smaller. */
function woffCmap(view: DataView): DataView {
  const numTables = view.getUint16(12);
  for (let i = 0; i < numTables; i++) {
    const record = 44 + i * 20;
    if (view.getUint32(record) !== CMAP_TAG) continue;
    const offset = view.getUint32(record + 4);
    const compLength = view.getUint32(record + 8);
    const origLength = view.getUint32(record + 12);
    const stored = new Uint8Array(view.buffer, view.byteOffset + offset, compLength);
    const table = compLength < origLength ? inflateSync(stored) : stored;
    return new DataView(table.buffer, table.byteOffset, table.byteLength);
  }
  throw new Error('the font has no cmap table');
}

/** WOFF2 keeps `cmap` untransformed inside one brotli stream; find it by summing table lengths. */
function woff2Cmap(view: DataView): DataView {
  const numTables = view.getUint16(12);
  const totalCompressedSize = view.getUint32(20);
  let pos = 48;
  let streamOffset = 0;
  let cmap: { offset: number; length: number } | null = null;
  const readBase128 = (): number => {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = view.getUint8(pos++);
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('bad WOFF2 UIntBase128');
  };
  for (let i = 0; i < numTables; i++) {
    const flags = view.getUint8(pos++);
    const tagIndex = flags & 0x3f;
    const version = (flags >> 6) & 0x03;
    if (tagIndex === 63) pos += 4;
    const origLength = readBase128();
    // glyf (10) and loca (11) are transformed unless version 3; other tables when version ≠ 0.
    const transformed = tagIndex === 10 || tagIndex === 11 ? version !== 3 : version !== 0;
    const length = transformed ? readBase128() : origLength;
    if (tagIndex === 0) cmap = { offset: streamOffset, length };
    streamOffset += length;
  }
  if (!cmap) throw new Error('the font has no cmap table');
  const compressed = new Uint8Array(view.buffer, view.byteOffset + pos, totalCompressedSize);
  const stream = brotliDecompressSync(compressed);
  return new DataView(stream.buffer, stream.byteOffset + cmap.offset, cmap.length);
}

/** Prefers a full-repertoire subtable (format 12), else the BMP one (format 4). */
export function parseCmap(cmap: DataView): CoverageRanges {
  const count = cmap.getUint16(2);
  let format4: number | null = null;
  let format12: number | null = null;
  for (let i = 0; i < count; i++) {
    const platform = cmap.getUint16(4 + i * 8);
    const encoding = cmap.getUint16(6 + i * 8);
    const offset = cmap.getUint32(8 + i * 8);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode) continue;
    const format = cmap.getUint16(offset);
    if (format === 12 && format12 === null) format12 = offset;
    if (format === 4 && format4 === null) format4 = offset;
  }
  const ranges: Array<[number, number]> = [];
  if (format12 !== null) {
    const groups = cmap.getUint32(format12 + 12);
    for (let g = 0; g < groups; g++) {
      const at = format12 + 16 + g * 12;
      ranges.push([cmap.getUint32(at), cmap.getUint32(at + 4)]);
    }
  } else if (format4 !== null) {
    readFormat4(cmap, format4, ranges);
  } else {
    throw new Error('the font has no Unicode cmap subtable');
  }
  return mergeRanges(ranges);
}

function readFormat4(cmap: DataView, at: number, ranges: Array<[number, number]>): void {
  const segCount = cmap.getUint16(at + 6) / 2;
  const ends = at + 14;
  const starts = ends + segCount * 2 + 2;
  const deltas = starts + segCount * 2;
  const rangeOffsets = deltas + segCount * 2;
  for (let s = 0; s < segCount; s++) {
    const end = cmap.getUint16(ends + s * 2);
    const start = cmap.getUint16(starts + s * 2);
    const delta = cmap.getInt16(deltas + s * 2);
    const rangeOffset = cmap.getUint16(rangeOffsets + s * 2);
    if (start === 0xffff) continue;
    for (let c = start; c <= end; c++) {
      let glyph: number;
      if (rangeOffset === 0) {
        glyph = (c + delta) & 0xffff;
      } else {
        const glyphAt = rangeOffsets + s * 2 + rangeOffset + (c - start) * 2;
        const raw = cmap.getUint16(glyphAt);
        glyph = raw === 0 ? 0 : (raw + delta) & 0xffff;
      }
      if (glyph !== 0) ranges.push([c, c]);
    }
  }
}

/** Sorts and merges ranges, e.g. the union of a family's files. */
export function mergeRanges(ranges: Array<[number, number]>): CoverageRanges {
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of ranges) {
    const last = merged[merged.length - 1];
    if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}
