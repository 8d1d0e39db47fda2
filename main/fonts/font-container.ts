import { brotliDecompressSync, inflateSync } from 'node:zlib';
import type { FontFormat } from '../../shared/font-schemas.js';

/**
 * Unpacks the three containers a font arrives in (bare sfnt, WOFF, WOFF2) into its tables, and
 * proves the file is whole on the way: every table lies inside the file and decompresses to the
 * length its directory states. Skia registers a half-downloaded font without complaint, so this
 * is the check that stops one reaching a render.
 */

export interface FontTables {
  format: FontFormat;
  /** Table tags present in the font, including ones WOFF2 stores transformed. */
  tags: Set<string>;
  /** The bytes of every table this reader could restore (WOFF2's transformed ones are not). */
  tables: Map<string, Uint8Array>;
}

/** A file that is not a font, or not a whole one; the message says which, for the user. */
export class FontFileError extends Error {
  override name = 'FontFileError';
}

const SFNT_TRUETYPE = 0x00010000;
const SFNT_TRUE = 0x74727565; // 'true' (old Apple TrueType)
const SFNT_OTTO = 0x4f54544f; // 'OTTO' (CFF outlines)
const SFNT_COLLECTION = 0x74746366; // 'ttcf'
const WOFF = 0x774f4646; // 'wOFF'
const WOFF2 = 0x774f4632; // 'wOF2'

/** Enough for any real font (a large CJK font has ~30); a bigger count means a corrupt header. */
const MAX_TABLES = 256;

/** The format by the file's first four bytes, or null when it is no font this app reads. */
export function sniffFontFormat(bytes: Uint8Array): FontFormat | null {
  if (bytes.byteLength < 4) return null;
  const signature = new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0);
  switch (signature) {
    case SFNT_TRUETYPE:
    case SFNT_TRUE:
      return 'ttf';
    case SFNT_OTTO:
      return 'otf';
    case WOFF:
      return 'woff';
    case WOFF2:
      return 'woff2';
    default:
      return null;
  }
}

export function unpackFont(bytes: Uint8Array): FontTables {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength >= 4 && view.getUint32(0) === SFNT_COLLECTION) {
    throw new FontFileError(
      'This is a font collection (.ttc); upload the single fonts (.ttf or .otf) it contains.',
    );
  }
  const format = sniffFontFormat(bytes);
  if (!format) {
    throw new FontFileError(
      'This is not a font: TTF, OTF, WOFF and WOFF2 files are accepted, and this file starts like none of them.',
    );
  }
  const unpacked =
    format === 'woff'
      ? unpackWoff(bytes, view)
      : format === 'woff2'
        ? unpackWoff2(bytes, view)
        : unpackSfnt(bytes, view, format);
  checkRequiredTables(unpacked.tags);
  return unpacked;
}

function tagAt(view: DataView, at: number): string {
  return String.fromCharCode(
    view.getUint8(at),
    view.getUint8(at + 1),
    view.getUint8(at + 2),
    view.getUint8(at + 3),
  );
}

function truncated(what: string, needed: number, size: number): FontFileError {
  return new FontFileError(
    `The font file is incomplete (truncated?): ${what} needs ${needed} bytes but the file has ${size}. Upload the whole file again.`,
  );
}

function tableCount(view: DataView, at: number): number {
  const count = view.getUint16(at);
  if (count === 0 || count > MAX_TABLES) {
    throw new FontFileError(`The font's header is corrupt: it claims ${count} tables.`);
  }
  return count;
}

function unpackSfnt(bytes: Uint8Array, view: DataView, format: FontFormat): FontTables {
  if (bytes.byteLength < 12) throw truncated('the header', 12, bytes.byteLength);
  const numTables = tableCount(view, 4);
  const directoryEnd = 12 + numTables * 16;
  if (directoryEnd > bytes.byteLength) {
    throw truncated('the table directory', directoryEnd, bytes.byteLength);
  }
  const tags = new Set<string>();
  const tables = new Map<string, Uint8Array>();
  for (let i = 0; i < numTables; i++) {
    const record = 12 + i * 16;
    const tag = tagAt(view, record);
    const offset = view.getUint32(record + 8);
    const length = view.getUint32(record + 12);
    if (offset + length > bytes.byteLength) {
      throw truncated(`table '${tag.trim()}'`, offset + length, bytes.byteLength);
    }
    tags.add(tag);
    tables.set(tag, bytes.subarray(offset, offset + length));
  }
  return { format, tags, tables };
}

/** WOFF 1: a 44-byte header, 20-byte directory entries, each table zlib-compressed on its own. */
function unpackWoff(bytes: Uint8Array, view: DataView): FontTables {
  if (bytes.byteLength < 44) throw truncated('the WOFF header', 44, bytes.byteLength);
  const declared = view.getUint32(8);
  if (declared > bytes.byteLength) throw truncated('the WOFF file', declared, bytes.byteLength);
  const numTables = tableCount(view, 12);
  const directoryEnd = 44 + numTables * 20;
  if (directoryEnd > bytes.byteLength) {
    throw truncated('the table directory', directoryEnd, bytes.byteLength);
  }
  const tags = new Set<string>();
  const tables = new Map<string, Uint8Array>();
  for (let i = 0; i < numTables; i++) {
    const record = 44 + i * 20;
    const tag = tagAt(view, record);
    const offset = view.getUint32(record + 4);
    const compLength = view.getUint32(record + 8);
    const origLength = view.getUint32(record + 12);
    if (offset + compLength > bytes.byteLength) {
      throw truncated(`table '${tag.trim()}'`, offset + compLength, bytes.byteLength);
    }
    if (compLength > origLength) {
      throw new FontFileError(
        `The WOFF table '${tag.trim()}' is corrupt (stored larger than it is).`,
      );
    }
    const stored = bytes.subarray(offset, offset + compLength);
    let table: Uint8Array = stored;
    if (compLength < origLength) {
      try {
        table = inflateSync(stored);
      } catch {
        throw new FontFileError(
          `The WOFF table '${tag.trim()}' cannot be decompressed: the file is damaged.`,
        );
      }
      if (table.byteLength !== origLength) {
        throw new FontFileError(
          `The WOFF table '${tag.trim()}' decompresses to ${table.byteLength} bytes instead of ${origLength}: the file is damaged.`,
        );
      }
    }
    tags.add(tag);
    tables.set(tag, table);
  }
  return { format: 'woff', tags, tables };
}

/** The tags WOFF2 names by index (its "known tags" table), in order. */
const WOFF2_KNOWN_TAGS = [
  'cmap',
  'head',
  'hhea',
  'hmtx',
  'maxp',
  'name',
  'OS/2',
  'post',
  'cvt ',
  'fpgm',
  'glyf',
  'loca',
  'prep',
  'CFF ',
  'VORG',
  'EBDT',
  'EBLC',
  'gasp',
  'hdmx',
  'kern',
  'LTSH',
  'PCLT',
  'VDMX',
  'vhea',
  'vmtx',
  'BASE',
  'GDEF',
  'GPOS',
  'GSUB',
  'EBSC',
  'JSTF',
  'MATH',
  'CBDT',
  'CBLC',
  'COLR',
  'CPAL',
  'SVG ',
  'sbix',
  'acnt',
  'avar',
  'bdat',
  'bloc',
  'bsln',
  'cvar',
  'fdsc',
  'feat',
  'fmtx',
  'fvar',
  'gvar',
  'hsty',
  'just',
  'lcar',
  'mort',
  'morx',
  'opbd',
  'prop',
  'trak',
  'Zapf',
  'Silf',
  'Glat',
  'Gloc',
  'Feat',
  'Sill',
] as const;

/**
 * WOFF2: a 48-byte header, a packed directory, then one brotli stream holding every table back to
 * back. glyf/loca/hmtx may be stored transformed; this reader keeps those as present but unread
 * (the metadata it needs lives in cmap, head, name and OS/2, which are never transformed).
 */
function unpackWoff2(bytes: Uint8Array, view: DataView): FontTables {
  if (bytes.byteLength < 48) throw truncated('the WOFF2 header', 48, bytes.byteLength);
  const declared = view.getUint32(8);
  if (declared > bytes.byteLength) throw truncated('the WOFF2 file', declared, bytes.byteLength);
  if (view.getUint32(4) === SFNT_COLLECTION) {
    throw new FontFileError('WOFF2 font collections are not supported; upload a single font.');
  }
  const numTables = tableCount(view, 12);
  const totalCompressedSize = view.getUint32(20);
  let pos = 48;
  const readByte = (): number => {
    if (pos >= bytes.byteLength) throw truncated('the table directory', pos + 1, bytes.byteLength);
    return view.getUint8(pos++);
  };
  const readBase128 = (): number => {
    let value = 0;
    for (let i = 0; i < 5; i++) {
      const byte = readByte();
      if (i === 0 && byte === 0x80) throw new FontFileError('The WOFF2 directory is corrupt.');
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return value;
    }
    throw new FontFileError('The WOFF2 directory is corrupt.');
  };
  const entries: Array<{ tag: string; length: number; transformed: boolean }> = [];
  for (let i = 0; i < numTables; i++) {
    const flags = readByte();
    const tagIndex = flags & 0x3f;
    const version = (flags >> 6) & 0x03;
    let tag: string;
    if (tagIndex === 63) {
      if (pos + 4 > bytes.byteLength)
        throw truncated('the table directory', pos + 4, bytes.byteLength);
      tag = tagAt(view, pos);
      pos += 4;
    } else {
      const known = WOFF2_KNOWN_TAGS[tagIndex];
      if (!known) throw new FontFileError('The WOFF2 directory is corrupt.');
      tag = known;
    }
    const origLength = readBase128();
    // glyf and loca are transformed unless version 3; other tables when version ≠ 0.
    const transformed = tag === 'glyf' || tag === 'loca' ? version !== 3 : version !== 0;
    const length = transformed ? readBase128() : origLength;
    entries.push({ tag, length, transformed });
  }
  if (pos + totalCompressedSize > bytes.byteLength) {
    throw truncated('the compressed tables', pos + totalCompressedSize, bytes.byteLength);
  }
  let stream: Uint8Array;
  try {
    stream = brotliDecompressSync(bytes.subarray(pos, pos + totalCompressedSize));
  } catch {
    throw new FontFileError('The WOFF2 tables cannot be decompressed: the file is damaged.');
  }
  const tags = new Set<string>();
  const tables = new Map<string, Uint8Array>();
  let offset = 0;
  for (const entry of entries) {
    if (offset + entry.length > stream.byteLength) {
      throw new FontFileError(
        `The WOFF2 table '${entry.tag.trim()}' is cut short: the file is damaged.`,
      );
    }
    tags.add(entry.tag);
    if (!entry.transformed) tables.set(entry.tag, stream.subarray(offset, offset + entry.length));
    offset += entry.length;
  }
  return { format: 'woff2', tags, tables };
}

const REQUIRED_TABLES = ['cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name'];
/** Outlines or bitmaps: a font needs one of these to draw anything. */
const GLYPH_TABLES = ['glyf', 'CFF ', 'CFF2', 'CBDT', 'sbix', 'EBDT', 'SVG '];

function checkRequiredTables(tags: Set<string>): void {
  const missing = REQUIRED_TABLES.filter((tag) => !tags.has(tag));
  if (missing.length > 0) {
    throw new FontFileError(
      `The font lacks the required table${missing.length === 1 ? '' : 's'} ${missing.map((t) => `'${t}'`).join(', ')}.`,
    );
  }
  if (!GLYPH_TABLES.some((tag) => tags.has(tag))) {
    throw new FontFileError('The font has no glyph outlines (no glyf, CFF or bitmap table).');
  }
  if (tags.has('glyf') && !tags.has('loca')) {
    throw new FontFileError("The font has glyph outlines but no 'loca' table to find them.");
  }
}
