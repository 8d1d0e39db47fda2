import { promisify } from 'node:util';
import { brotliDecompress, brotliDecompressSync, inflate, inflateSync } from 'node:zlib';
import type { ErrorCode } from '../../shared/errors.js';
import type { FontFormat } from '../../shared/font-schemas.js';
import { WOFF2_KNOWN_TAGS } from './woff2-known-tags.js';

/**
 * The one reader of font files (uploads, packs and the engine's coverage checks): unpacks the
 * three containers a font arrives in (bare sfnt, WOFF, WOFF2) into its tables, and proves the
 * file is whole on the way: every table lies inside the file and decompresses to the length its
 * directory states. Skia registers a half-downloaded font without complaint, so this is the
 * check that stops one reaching a render.
 *
 * Decompression is bounded twice: by the sizes the font declares (output past them is refused,
 * not kept) and by `MAX_FONT_DATA_BYTES` for the declared sizes themselves, so a 760 KB WOFF2
 * that inflates to gigabytes stops at its declared size. The API thread uses
 * `unpackFontAsync`, which inflates on libuv's thread pool; render threads use `unpackFont`.
 */

export interface FontTables {
  format: FontFormat;
  /** Table tags present in the font, including ones WOFF2 stores transformed. */
  tags: Set<string>;
  /** The bytes of every table this reader could restore (WOFF2's transformed ones are not). */
  tables: Map<string, Uint8Array>;
}

/** A file that is not a font, not a whole one, or one too large once decompressed. */
export class FontFileError extends Error {
  override name = 'FontFileError';
  constructor(
    message: string,
    readonly code: Extract<ErrorCode, 'font-invalid' | 'font-too-large'> = 'font-invalid',
  ) {
    super(message);
  }
}

/**
 * Font data a file may declare once decompressed. Large CJK fonts are 15–20 MB; FreeType, which
 * Skia uses, refuses WOFF2 fonts over 30 MB itself.
 */
export const MAX_FONT_DATA_BYTES = 32 * 1024 * 1024;

const SFNT_TRUETYPE = 0x00010000;
const SFNT_TRUE = 0x74727565; // 'true' (old Apple TrueType)
const SFNT_OTTO = 0x4f54544f; // 'OTTO' (CFF outlines)
const SFNT_COLLECTION = 0x74746366; // 'ttcf'
const WOFF = 0x774f4646; // 'wOFF'
const WOFF2 = 0x774f4632; // 'wOF2'

/** Enough for any real font (a large CJK font has ~30); a bigger count means a corrupt header. */
const MAX_TABLES = 256;

/** One compressed piece of a font, with the exact length its directory says it inflates to. */
interface Compressed {
  codec: 'zlib' | 'brotli';
  input: Uint8Array;
  length: number;
  /** For messages: "the WOFF table 'name'", "the WOFF2 tables". */
  what: string;
}

/** What a container's directory says, before anything is decompressed. */
interface FontPlan {
  format: FontFormat;
  pieces: Compressed[];
  /** Builds the tables from the inflated pieces, in `pieces` order. */
  finish(inflated: Uint8Array[]): FontTables;
}

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

/** Unpacks on this thread (render threads, scripts); decompression is bounded all the same. */
export function unpackFont(bytes: Uint8Array): FontTables {
  const plan = planFont(bytes);
  const tables = plan.finish(plan.pieces.map((piece) => inflatedOrRefused(piece, inflateNow)));
  checkRequiredTables(tables.tags);
  return tables;
}

/** Unpacks with decompression on libuv's thread pool, so the API thread keeps answering. */
export async function unpackFontAsync(bytes: Uint8Array): Promise<FontTables> {
  const plan = planFont(bytes);
  const inflated: Uint8Array[] = [];
  // One piece at a time: a WOFF of 256 tables must not take every pool thread.
  for (const piece of plan.pieces) inflated.push(await inflatedOrRefused(piece, inflateLater));
  const tables = plan.finish(inflated);
  checkRequiredTables(tables.tags);
  return tables;
}

type Inflate<T> = (piece: Compressed) => T;

const inflateNow: Inflate<Uint8Array> = (piece) =>
  piece.codec === 'zlib'
    ? inflateSync(piece.input, { maxOutputLength: Math.max(1, piece.length) })
    : brotliDecompressSync(piece.input, { maxOutputLength: Math.max(1, piece.length) });

const inflateAsync = promisify(inflate);
const brotliAsync = promisify(brotliDecompress);
const inflateLater: Inflate<Promise<Uint8Array>> = (piece) =>
  piece.codec === 'zlib'
    ? inflateAsync(piece.input, { maxOutputLength: Math.max(1, piece.length) })
    : brotliAsync(piece.input, { maxOutputLength: Math.max(1, piece.length) });

function inflatedOrRefused(piece: Compressed, inflateWith: Inflate<Uint8Array>): Uint8Array;
function inflatedOrRefused(
  piece: Compressed,
  inflateWith: Inflate<Promise<Uint8Array>>,
): Promise<Uint8Array>;
function inflatedOrRefused(
  piece: Compressed,
  inflateWith: Inflate<Uint8Array | Promise<Uint8Array>>,
): Uint8Array | Promise<Uint8Array> {
  const check = (out: Uint8Array) => {
    if (out.byteLength !== piece.length) {
      throw new FontFileError(
        `${capitalise(piece.what)} decompresses to ${out.byteLength} bytes instead of the ${piece.length} its directory declares: the file is damaged.`,
      );
    }
    return out;
  };
  const refuse = (error: unknown): never => {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new FontFileError(
        `${capitalise(piece.what)} decompresses to more than the ${piece.length} bytes its directory declares: the file is damaged or built to exhaust memory, and is refused.`,
        'font-too-large',
      );
    }
    throw new FontFileError(
      `${capitalise(piece.what)} cannot be decompressed: the file is damaged.`,
    );
  };
  let result: Uint8Array | Promise<Uint8Array>;
  try {
    result = inflateWith(piece);
  } catch (error) {
    return refuse(error);
  }
  return result instanceof Uint8Array ? check(result) : result.then(check, refuse);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function planFont(bytes: Uint8Array): FontPlan {
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
  if (format === 'woff') return planWoff(bytes, view);
  if (format === 'woff2') return planWoff2(bytes, view);
  const tables = unpackSfnt(bytes, view, format);
  return { format, pieces: [], finish: () => tables };
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

/** Refuses a font that declares more data than the cap, before anything is decompressed. */
function checkDeclaredSize(what: string, declared: number): void {
  if (declared > MAX_FONT_DATA_BYTES) {
    throw new FontFileError(
      `The font declares ${(declared / 1024 / 1024).toFixed(1)} MB of ${what}, over the ${MAX_FONT_DATA_BYTES / 1024 / 1024} MB limit for a font.`,
      'font-too-large',
    );
  }
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
function planWoff(bytes: Uint8Array, view: DataView): FontPlan {
  if (bytes.byteLength < 44) throw truncated('the WOFF header', 44, bytes.byteLength);
  const declared = view.getUint32(8);
  if (declared > bytes.byteLength) throw truncated('the WOFF file', declared, bytes.byteLength);
  const numTables = tableCount(view, 12);
  checkDeclaredSize('font data', view.getUint32(16));
  const directoryEnd = 44 + numTables * 20;
  if (directoryEnd > bytes.byteLength) {
    throw truncated('the table directory', directoryEnd, bytes.byteLength);
  }
  const entries: Array<{ tag: string; stored: Uint8Array; piece: number | null }> = [];
  const pieces: Compressed[] = [];
  let total = 0;
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
    total += origLength;
    const stored = bytes.subarray(offset, offset + compLength);
    if (compLength < origLength) {
      const what = `the WOFF table '${tag.trim()}'`;
      pieces.push({ codec: 'zlib', input: stored, length: origLength, what });
      entries.push({ tag, stored, piece: pieces.length - 1 });
    } else {
      entries.push({ tag, stored, piece: null });
    }
  }
  checkDeclaredSize('tables', total);
  return {
    format: 'woff',
    pieces,
    finish(inflated) {
      const tags = new Set<string>();
      const tables = new Map<string, Uint8Array>();
      for (const entry of entries) {
        tags.add(entry.tag);
        tables.set(entry.tag, entry.piece === null ? entry.stored : inflated[entry.piece]!);
      }
      return { format: 'woff', tags, tables };
    },
  };
}

/**
 * WOFF2: a 48-byte header, a packed directory, then one brotli stream holding every table back to
 * back. glyf/loca/hmtx may be stored transformed; this reader keeps those as present but unread
 * (the metadata it needs lives in cmap, head, name and OS/2, which are never transformed).
 */
function planWoff2(bytes: Uint8Array, view: DataView): FontPlan {
  if (bytes.byteLength < 48) throw truncated('the WOFF2 header', 48, bytes.byteLength);
  const declared = view.getUint32(8);
  if (declared > bytes.byteLength) throw truncated('the WOFF2 file', declared, bytes.byteLength);
  if (view.getUint32(4) === SFNT_COLLECTION) {
    throw new FontFileError('WOFF2 font collections are not supported; upload a single font.');
  }
  const numTables = tableCount(view, 12);
  checkDeclaredSize('font data', view.getUint32(16));
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
      if ((byte & 0x80) === 0) {
        if (value > 0xffffffff) throw new FontFileError('The WOFF2 directory is corrupt.');
        return value;
      }
    }
    throw new FontFileError('The WOFF2 directory is corrupt.');
  };
  const entries: Array<{ tag: string; length: number; transformed: boolean }> = [];
  let streamLength = 0;
  let restored = 0;
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
    streamLength += length;
    restored += origLength;
  }
  // What the brotli stream holds, and what a decoder rebuilds from it, are both bounded.
  checkDeclaredSize('tables', Math.max(streamLength, restored));
  if (pos + totalCompressedSize > bytes.byteLength) {
    throw truncated('the compressed tables', pos + totalCompressedSize, bytes.byteLength);
  }
  return {
    format: 'woff2',
    pieces: [
      {
        codec: 'brotli',
        input: bytes.subarray(pos, pos + totalCompressedSize),
        length: streamLength,
        what: 'the WOFF2 tables',
      },
    ],
    finish([stream]) {
      const tags = new Set<string>();
      const tables = new Map<string, Uint8Array>();
      let offset = 0;
      for (const entry of entries) {
        tags.add(entry.tag);
        if (!entry.transformed)
          tables.set(entry.tag, stream!.subarray(offset, offset + entry.length));
        offset += entry.length;
      }
      return { format: 'woff2', tags, tables };
    },
  };
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
