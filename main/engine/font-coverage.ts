import { FontFileError, unpackFont } from '../fonts/font-container.js';

/**
 * Which characters a font's `cmap` maps to glyphs, so the engine can tell which characters no
 * bundled font draws. Measuring text is no substitute: Skia silently falls back to other fonts,
 * so a missing glyph would measure like a present one. The file is read by the one font reader
 * (bounded decompression, every table inside the file); the cmap itself is read with every
 * offset checked against the table and at most one visit per BMP code point.
 */

/** Code points a font maps to a glyph, as sorted, non-overlapping [start, end] ranges. */
export type CoverageRanges = ReadonlyArray<readonly [number, number]>;

/** The coverage of a font file (TTF/OTF, WOFF or WOFF2); throws FontFileError when unreadable. */
export function readCoverage(fontBytes: Uint8Array): CoverageRanges {
  return parseCmap(unpackFont(fontBytes).tables.get('cmap')!);
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

function damaged(why: string): FontFileError {
  return new FontFileError(`The font's character map (cmap) is damaged: ${why}.`);
}

/** Prefers a full-repertoire subtable (format 12), else the BMP one (format 4). */
export function parseCmap(table: Uint8Array): CoverageRanges {
  const cmap = new DataView(table.buffer, table.byteOffset, table.byteLength);
  const need = (end: number, what: string) => {
    if (end > cmap.byteLength) throw damaged(`${what} runs past the end of the table`);
  };
  need(4, 'the header');
  const count = cmap.getUint16(2);
  need(4 + count * 8, 'the subtable list');
  let format4: number | null = null;
  let format12: number | null = null;
  for (let i = 0; i < count; i++) {
    const platform = cmap.getUint16(4 + i * 8);
    const encoding = cmap.getUint16(6 + i * 8);
    const offset = cmap.getUint32(8 + i * 8);
    const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
    if (!unicode || offset + 2 > cmap.byteLength) continue;
    const format = cmap.getUint16(offset);
    if (format === 12 && format12 === null) format12 = offset;
    if (format === 4 && format4 === null) format4 = offset;
  }
  const ranges: Array<[number, number]> = [];
  if (format12 !== null) {
    need(format12 + 16, 'a format 12 subtable');
    const groups = cmap.getUint32(format12 + 12);
    need(format12 + 16 + groups * 12, 'a format 12 subtable');
    for (let g = 0; g < groups; g++) {
      const at = format12 + 16 + g * 12;
      const start = cmap.getUint32(at);
      const end = cmap.getUint32(at + 4);
      if (start > end || end > 0x10ffff) throw damaged('a group of characters is out of range');
      ranges.push([start, end]);
    }
  } else if (format4 !== null) {
    readFormat4(cmap, format4, ranges, need);
  } else {
    throw damaged('it has no Unicode subtable');
  }
  return mergeRanges(ranges);
}

/**
 * Segments are read in order and each code point at most once (a crafted table of 32,767
 * segments spanning the whole BMP would otherwise cost two billion steps). Segments mapped by
 * delta cover their whole range but the one code point that lands on glyph 0.
 */
function readFormat4(
  cmap: DataView,
  at: number,
  ranges: Array<[number, number]>,
  need: (end: number, what: string) => void,
): void {
  need(at + 14, 'a format 4 subtable');
  const segCount = cmap.getUint16(at + 6) >> 1;
  const ends = at + 14;
  const starts = ends + segCount * 2 + 2;
  const deltas = starts + segCount * 2;
  const rangeOffsets = deltas + segCount * 2;
  need(rangeOffsets + segCount * 2, 'a format 4 subtable');
  let next = 0; // the first code point no earlier segment covered
  for (let s = 0; s < segCount; s++) {
    const end = cmap.getUint16(ends + s * 2);
    const start = Math.max(cmap.getUint16(starts + s * 2), next);
    const delta = cmap.getInt16(deltas + s * 2);
    const rangeOffset = cmap.getUint16(rangeOffsets + s * 2);
    if (start > end || start === 0xffff) continue;
    next = end + 1;
    if (rangeOffset === 0) {
      const hole = (0x10000 - delta) & 0xffff; // (hole + delta) & 0xffff === 0
      if (hole < start || hole > end) ranges.push([start, end]);
      else {
        if (hole > start) ranges.push([start, hole - 1]);
        if (hole < end) ranges.push([hole + 1, end]);
      }
      continue;
    }
    for (let c = start; c <= end; c++) {
      const glyphAt = rangeOffsets + s * 2 + rangeOffset + (c - cmap.getUint16(starts + s * 2)) * 2;
      // An index past the table maps to nothing (as FreeType reads it).
      const raw = glyphAt + 2 <= cmap.byteLength ? cmap.getUint16(glyphAt) : 0;
      if (raw !== 0 && ((raw + delta) & 0xffff) !== 0) ranges.push([c, c]);
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
