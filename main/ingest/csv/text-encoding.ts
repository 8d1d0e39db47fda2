import { createReadStream } from 'node:fs';
import iconv from 'iconv-lite';
import { readHead } from '../../files/read-head.js';
import { looksLikeUtf16WithoutBom } from '../file-kind.js';
import { SpreadsheetError } from '../spreadsheet-error.js';

/**
 * Which encoding a CSV file is in (HOSTILE-INPUTS #11). Policy, in order:
 * 1. an explicit `encoding` option wins;
 * 2. a BOM decides (UTF-8, UTF-16LE, UTF-16BE), and is stripped;
 * 3. UTF-16 without a BOM is recognised by its zero bytes;
 * 4. a file that is valid UTF-8 from start to end is UTF-8;
 * 5. otherwise it is one of the code pages Excel writes for "CSV": Windows-1258 when the
 *    Vietnamese-only letters and tone marks dominate, else Windows-1252 — unless the file also
 *    holds well-formed UTF-8 sequences at least as often as stray bytes, which means damaged
 *    UTF-8, or bytes the code page leaves undefined: both are refused with the position.
 * Nothing is ever decoded with U+FFFD substitution.
 */

export type KnownEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252' | 'windows-1258';

export interface EncodingChoice {
  /** A WHATWG label for the UTF encodings, an iconv-lite name for the legacy ones. */
  encoding: string;
  /** Bytes of BOM to skip at the start of the file. */
  bomLength: number;
}

/** Built at the first byte above 0x7f: building iconv's code page tables costs an ASCII file time. */
const UNDEFINED_BYTES = new Map<'windows-1252' | 'windows-1258', Set<number>>();

function undefinedBytes(codePage: 'windows-1252' | 'windows-1258'): Set<number> {
  let bytes = UNDEFINED_BYTES.get(codePage);
  if (!bytes) {
    bytes = undefinedBytesOf(codePage);
    UNDEFINED_BYTES.set(codePage, bytes);
  }
  return bytes;
}

function undefinedBytesOf(codePage: string): Set<number> {
  const bytes = new Set<number>();
  for (let byte = 0x80; byte < 0x100; byte += 1) {
    if (iconv.decode(Buffer.from([byte]), codePage) === '\uFFFD') bytes.add(byte);
  }
  return bytes;
}

const ALIASES: Record<string, string> = {
  utf8: 'utf-8',
  'utf-8': 'utf-8',
  'utf-16': 'utf-16le',
  utf16le: 'utf-16le',
  'utf-16le': 'utf-16le',
  utf16be: 'utf-16be',
  'utf-16be': 'utf-16be',
  cp1252: 'windows-1252',
  'windows-1252': 'windows-1252',
  cp1258: 'windows-1258',
  'windows-1258': 'windows-1258',
};

/** Canonical name for an encoding a caller asked for, or an `unsupported-encoding` error. */
export function normaliseEncodingName(requested: string): string {
  const key = requested.trim().toLowerCase();
  const known = ALIASES[key];
  if (known) return known;
  if (iconv.encodingExists(key)) return key;
  throw new SpreadsheetError(
    'unsupported-encoding',
    `The text encoding "${requested}" is not supported. Use UTF-8, UTF-16, Windows-1252 or Windows-1258.`,
  );
}

function bomOf(head: Buffer): EncodingChoice | undefined {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf)
    return { encoding: 'utf-8', bomLength: 3 };
  if (head[0] === 0xff && head[1] === 0xfe) return { encoding: 'utf-16le', bomLength: 2 };
  if (head[0] === 0xfe && head[1] === 0xff) return { encoding: 'utf-16be', bomLength: 2 };
  return undefined;
}

export async function chooseEncoding(file: string, explicit?: string): Promise<EncodingChoice> {
  const head = await readHead(file, 4096);
  const bom = bomOf(head);
  if (explicit !== undefined) {
    const encoding = normaliseEncodingName(explicit);
    return { encoding, bomLength: bom && bom.encoding === encoding ? bom.bomLength : 0 };
  }
  if (bom) return bom;
  const utf16 = looksLikeUtf16WithoutBom(head);
  if (utf16) return { encoding: utf16, bomLength: 0 };
  if (await isValidUtf8(file)) return { encoding: 'utf-8', bomLength: 0 };
  return { encoding: chooseLegacyEncoding(await scanBytes(file)), bomLength: 0 };
}

/** Fast path: the native decoder validates the whole file without building strings we keep. */
async function isValidUtf8(file: string): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
      decoder.decode(chunk, { stream: true });
    }
    decoder.decode();
    return true;
  } catch {
    return false;
  }
}

export interface ByteScan {
  firstInvalidUtf8: { byteOffset: number; line: number } | undefined;
  wellFormedMultibyte: number;
  strayBytes: number;
  firstUndefined: Record<
    'windows-1252' | 'windows-1258',
    { byteOffset: number; line: number } | undefined
  >;
  vietnamese: number;
  western: number;
}

const TONE_MARKS = new Set([0xcc, 0xec, 0xd2, 0xde, 0xf2]);
// Letters that exist only in Windows-1258 (Ă ă Ơ ơ Ư ư) plus the vowels tone marks follow.
const VIET_VOWELS = new Set([
  0xc2, 0xe2, 0xca, 0xea, 0xd4, 0xf4, 0xc3, 0xe3, 0xd5, 0xf5, 0xdd, 0xfd,
]);
const isAsciiLetter = (byte: number): boolean =>
  (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
const isAsciiVowel = (byte: number): boolean => 'aeiouyAEIOUY'.includes(String.fromCharCode(byte));
const isLetterish = (byte: number): boolean => isAsciiLetter(byte) || byte >= 0xc0;

/** Scores one byte in its neighbours' context for the 1258-versus-1252 decision. */
function scoreLegacyByte(prev: number, byte: number, next: number, scan: ByteScan): void {
  if (TONE_MARKS.has(byte) && (isAsciiVowel(prev) || VIET_VOWELS.has(prev))) {
    scan.vietnamese += 2; // a combining tone mark right after a vowel: only Vietnamese does that
  } else if ((byte === 0xf0 || byte === 0xd0) && !isLetterish(prev) && isLetterish(next)) {
    scan.vietnamese += 2; // đ starts syllables; Icelandic ð never starts a word
  } else if ((byte === 0xf0 || byte === 0xd0) && isLetterish(prev)) {
    scan.western += 2; // "við", "maður"
  } else if (
    (byte === 0xe3 || byte === 0xf5) &&
    (next === 0x6f || next === 0x65 || next === 0x73)
  ) {
    scan.western += 2; // Portuguese "ão", "õe", "ãe", "ões"
  } else if (
    (byte === 0xdd || byte === 0xfd || byte === 0xd5 || byte === 0xf5) &&
    isLetterish(next)
  ) {
    scan.vietnamese += 1; // ư ơ inside a syllable
  } else if (
    (byte === 0xc3 || byte === 0xe3) &&
    (next === 0x6e || next === 0x6d || next === 0x63 || next === 0x74)
  ) {
    scan.vietnamese += 1; // ăn ăm ăc ăt
  }
}

/** Slow path, run only when the file is not valid UTF-8: one pass over every byte. */
export async function scanBytes(file: string): Promise<ByteScan> {
  const scan: ByteScan = {
    firstInvalidUtf8: undefined,
    wellFormedMultibyte: 0,
    strayBytes: 0,
    firstUndefined: { 'windows-1252': undefined, 'windows-1258': undefined },
    vietnamese: 0,
    western: 0,
  };
  let offset = 0;
  let line = 1;
  let before = 0x20; // the byte before `previous`
  let previous = 0x20;
  let need = 0; // continuation bytes still expected by the current UTF-8 sequence
  let lead = { byteOffset: 0, line: 1 };
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = 0; i < chunk.length; i += 1, offset += 1) {
      const byte = chunk[i] as number;
      if (byte === 0x0a) line += 1;
      // A high byte is scored once the byte after it is known.
      if (previous >= 0x80) scoreLegacyByte(before, previous, byte, scan);
      before = previous;
      previous = byte;
      if (need > 0) {
        if ((byte & 0xc0) === 0x80) {
          need -= 1;
          if (need === 0) scan.wellFormedMultibyte += 1;
          continue;
        }
        need = 0;
        scan.strayBytes += 1; // the sequence started at `lead` was cut short
        scan.firstInvalidUtf8 ??= lead;
      }
      if (byte < 0x80) continue;
      for (const codePage of ['windows-1252', 'windows-1258'] as const) {
        if (!scan.firstUndefined[codePage] && undefinedBytes(codePage).has(byte)) {
          scan.firstUndefined[codePage] = { byteOffset: offset, line };
        }
      }
      lead = { byteOffset: offset, line };
      if (byte >= 0xc2 && byte <= 0xdf) need = 1;
      else if (byte >= 0xe0 && byte <= 0xef) need = 2;
      else if (byte >= 0xf0 && byte <= 0xf4) need = 3;
      else {
        scan.strayBytes += 1;
        scan.firstInvalidUtf8 ??= { byteOffset: offset, line };
      }
    }
  }
  if (previous >= 0x80) scoreLegacyByte(before, previous, 0x20, scan);
  if (need > 0) {
    scan.strayBytes += 1;
    scan.firstInvalidUtf8 ??= lead;
  }
  return scan;
}

function invalidUtf8Error(
  where: { byteOffset: number; line: number } | undefined,
  why: string,
): SpreadsheetError {
  const at = where ? `line ${where.line}, byte ${where.byteOffset}` : 'an unknown position';
  return new SpreadsheetError(
    'unsupported-encoding',
    `The file is not valid UTF-8 (first bad byte at ${at}) and ${why}. ` +
      'Save it again as "CSV UTF-8", or choose its encoding explicitly.',
    where ? { line: where.line, byteOffset: where.byteOffset } : {},
  );
}

export function chooseLegacyEncoding(scan: ByteScan): KnownEncoding {
  if (scan.wellFormedMultibyte >= scan.strayBytes) {
    throw invalidUtf8Error(
      scan.firstInvalidUtf8,
      'looks like damaged UTF-8 rather than a Windows code page',
    );
  }
  const preferred: KnownEncoding = scan.vietnamese > scan.western ? 'windows-1258' : 'windows-1252';
  const other: KnownEncoding = preferred === 'windows-1258' ? 'windows-1252' : 'windows-1258';
  if (!scan.firstUndefined[preferred]) return preferred;
  if (!scan.firstUndefined[other]) return other;
  throw invalidUtf8Error(
    scan.firstUndefined[preferred] ?? scan.firstInvalidUtf8,
    'it holds bytes that neither Windows-1252 nor Windows-1258 defines',
  );
}
