import { Errors } from '../../shared/errors.js';
/**
 * Output file names from a pattern like `{sku}-{name}` (DESIGN §4): safe on Windows, macOS and
 * Linux, NFC, bounded in UTF-8 bytes, free of invisible and bidi control characters, and unique
 * case-insensitively (a.png and A.png are one file on most desktops). Names are assigned in
 * rowIndex order, so they are the same on every run.
 */

/**
 * The stem (name without `-n` and extension) is capped at this many UTF-8 bytes: common file
 * systems allow 255 bytes per name, and zip tools refuse what they cannot create.
 */
export const MAX_STEM_BYTES = 200;
/** File systems' limit for one name (ext4, APFS, NTFS count 255 bytes or UTF-16 units). */
export const MAX_NAME_BYTES = 255;
/**
 * One grapheme longer than this is not text but a pile of combining marks (or worse): only its
 * first character is kept. The longest real graphemes, family emoji with skin tones, are 41 bytes.
 */
const MAX_GRAPHEME_BYTES = 64;

/**
 * Device names Windows refuses as a file's name before its first dot, whatever follows
 * (`CON.png`, `nul .tar.gz`); Windows also counts the superscript digits ¹²³ as digits here.
 */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|clock\$|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * Characters that draw nothing or reorder what follows: bidi embeddings, overrides and isolates
 * (a name that reads `gnp.exe` shown as `exe.png`), zero-width spaces and joiners' relatives,
 * soft hyphens, fillers that are letters only on paper (Hangul fillers), variation selectors and
 * tag characters. ZWJ and ZWNJ are handled apart: they belong inside emoji and some scripts.
 */
const INVISIBLE: ReadonlyArray<readonly [number, number]> = [
  [0x00ad, 0x00ad],
  [0x034f, 0x034f],
  [0x061c, 0x061c],
  [0x115f, 0x1160],
  [0x17b4, 0x17b5],
  [0x180b, 0x180f],
  [0x200b, 0x200b],
  [0x200e, 0x200f],
  [0x202a, 0x202e],
  [0x2060, 0x206f],
  [0x2800, 0x2800],
  [0x3164, 0x3164],
  [0xfe00, 0xfe0f],
  [0xfeff, 0xfeff],
  [0xffa0, 0xffa0],
  [0xfff0, 0xfff8],
  [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a],
  [0xe0000, 0xe0fff],
];

function withoutInvisible(text: string): string {
  let out = '';
  for (const char of text) {
    const cp = char.codePointAt(0)!;
    if (!INVISIBLE.some(([from, to]) => cp >= from && cp <= to)) out += char;
  }
  return out;
}

/** A joiner survives only between two visible characters (inside 👩‍💻 or a Persian word). */
const STRAY_JOINER =
  /(?<![\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Modifier}])[\u200c\u200d]|[\u200c\u200d](?![\p{L}\p{M}\p{N}\p{Extended_Pictographic}])/gu;
/** Half of a surrogate pair on its own: it has no UTF-8 form, so it would come out as U+FFFD. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

export function fieldsInPattern(pattern: string): string[] {
  return [...pattern.matchAll(/\{([^{}]+)\}/g)].map((m) => (m[1] ?? '').trim());
}

/**
 * 422 when the pattern names a field the source does not have, at `path` (the API's
 * `fileNamePattern`, the command line's `name-pattern`): checked before anything is charged.
 */
export function assertPatternFields(
  pattern: string,
  fields: readonly string[],
  path: string,
): void {
  const unknown = fieldsInPattern(pattern).filter((f) => !fields.includes(f));
  if (unknown.length > 0)
    throw Errors.validation([
      {
        path,
        message: `the source has no field ${unknown.map((f) => `"${f}"`).join(', ')}; fields are ${fields.join(', ')}`,
      },
    ]);
}

/** The pattern filled from the row's cells and made safe; empty when nothing usable is left. */
export function fileBaseName(pattern: string, record: Readonly<Record<string, unknown>>): string {
  const filled = pattern.replace(/\{([^{}]+)\}/g, (_m, name: string) => {
    // Own cells only: `{__proto__}` or `{constructor}` must not name Object.prototype's members.
    const key = name.trim();
    const value = Object.hasOwn(record, key) ? record[key] : undefined;
    return value === null || value === undefined ? '' : String(value);
  });
  return safeFileBase(filled);
}

export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

/**
 * `raw` as a file name stem: separators, characters Windows forbids, controls, invisible and
 * bidi characters removed; no leading or trailing dots and spaces; at most `maxBytes` of UTF-8,
 * cut between graphemes; a Windows device name gets a leading `_`. Empty when nothing is left.
 * Applying it to its own result changes nothing.
 */
export function safeFileBase(raw: string, maxBytes = MAX_STEM_BYTES): string {
  const cleaned = withoutInvisible(raw.replace(LONE_SURROGATE, '').normalize('NFC'))
    .replace(STRAY_JOINER, '')
    // Path separators, characters Windows forbids, and control characters.
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
    .replace(/[/\\:*?"<>|\u0000-\u001f\u007f-\u009f]/g, '-')
    .replace(/\s+/g, ' ')
    .replace(/-{2,}/g, '-');
  let name = trimEnds(capBytes(trimEnds(cleaned), maxBytes));
  if (isWindowsDeviceName(name)) name = `_${name}`;
  return name;
}

/** No leading dots (hidden files, `..`), dashes or spaces; no trailing dots or spaces (Windows strips them). */
function trimEnds(name: string): string {
  return name.replace(/^[.\s-]+/, '').replace(/[.\s]+$/, '');
}

/** The longest run of whole graphemes that fits in `maxBytes` of UTF-8. */
function capBytes(name: string, maxBytes: number): string {
  if (utf8Length(name) <= maxBytes && !hasOversizedGrapheme(name)) return name;
  let out = '';
  let bytes = 0;
  for (const { segment } of segmenter.segment(name)) {
    let grapheme = segment;
    let size = utf8Length(grapheme);
    if (size > MAX_GRAPHEME_BYTES) {
      grapheme = String.fromCodePoint(grapheme.codePointAt(0) ?? 0x2d);
      size = utf8Length(grapheme);
    }
    if (bytes + size > maxBytes) break;
    out += grapheme;
    bytes += size;
  }
  return out;
}

/** Cheap pre-check: any grapheme over the limit needs more than that many bytes in a row. */
function hasOversizedGrapheme(name: string): boolean {
  if (utf8Length(name) <= MAX_GRAPHEME_BYTES) return false;
  for (const { segment } of segmenter.segment(name)) {
    if (segment.length * 3 > MAX_GRAPHEME_BYTES && utf8Length(segment) > MAX_GRAPHEME_BYTES) {
      return true;
    }
  }
  return false;
}

/** Windows decides by the part before the first dot, ignoring trailing spaces and dots. */
export function isWindowsDeviceName(name: string): boolean {
  const head = (name.split('.')[0] ?? '').replace(/[\s.]+$/, '');
  return WINDOWS_DEVICE.test(head);
}

/**
 * The key under which two names are the same file on a case-insensitive desktop: NFC, then case
 * folded through upper case so that `ß` and `ss` (and `ſ` and `s`) meet, as they do on macOS.
 */
function sameFileKey(name: string): string {
  return name.normalize('NFC').toUpperCase().toLowerCase();
}

/** Hands out unique names: the second `Áo` becomes `Áo-2`, compared case- and form-insensitively. */
export class UniqueNames {
  private readonly taken = new Set<string>();

  /** Marks a name as used (names already given before a restart). */
  reserve(name: string): void {
    this.taken.add(sameFileKey(name));
  }

  has(name: string): boolean {
    return this.taken.has(sameFileKey(name));
  }

  take(base: string, extension: string, fallback: string): string {
    const stem = base || fallback;
    for (let n = 1; ; n += 1) {
      const candidate = n === 1 ? `${stem}.${extension}` : `${stem}-${n}.${extension}`;
      if (!this.has(candidate)) {
        this.reserve(candidate);
        return candidate;
      }
    }
  }
}

/**
 * Names a batch's outputs as its rows are read: the pattern, or else the row's number counted
 * from 1 (row 1 is `1.png`), the number the app and the spreadsheet show for that row.
 */
export class BatchFileNamer {
  private readonly names = new UniqueNames();

  constructor(
    private readonly pattern: string | null,
    private readonly extension: string,
    existing: readonly string[] = [],
  ) {
    for (const name of existing) this.names.reserve(name);
  }

  name(rowIndex: number, record: Readonly<Record<string, unknown>>): string {
    const base = this.pattern ? fileBaseName(this.pattern, record) : '';
    return this.names.take(base, this.extension, rowNumberName(rowIndex));
  }

  /** A row drawn in several layouts: `{name}-{layout}` (`1-story.png` without a pattern). */
  nameIn(rowIndex: number, record: Readonly<Record<string, unknown>>, layout: string): string {
    const base =
      (this.pattern ? fileBaseName(this.pattern, record) : '') || rowNumberName(rowIndex);
    return this.names.take(`${base}-${layout}`, this.extension, rowNumberName(rowIndex));
  }
}

/** The fallback stem of a row without a usable name: its 1-based number. */
export function rowNumberName(rowIndex: number): string {
  return String(rowIndex + 1);
}

/** A stored name as it is, when it is one `safeFileBase` would give (with its `-n` and extension). */
function isSafeStoredName(name: string, extension: string): boolean {
  const suffix = `.${extension}`;
  if (!name.endsWith(suffix) || utf8Length(name) > MAX_NAME_BYTES) return false;
  const stem = name.slice(0, -suffix.length);
  return stem !== '' && safeFileBase(stem, MAX_NAME_BYTES - utf8Length(suffix)) === stem;
}

/**
 * Entry names for a bundle, in row order: each row's stored name when it is safe and unique, else
 * a name made again from it (batches named by an older version kept names no file system takes).
 */
export function bundleEntryNames(
  rows: ReadonlyArray<{ rowIndex: number; fileName: string | null }>,
  extension: string,
): string[] {
  const names = new UniqueNames();
  const kept = rows.map((row) => {
    const name = row.fileName;
    if (name === null || !isSafeStoredName(name, extension) || names.has(name)) return null;
    names.reserve(name);
    return name;
  });
  return rows.map((row, i) => {
    const name = kept[i];
    if (name) return name;
    const stem = row.fileName?.replace(/\.[^.]*$/, '') ?? '';
    return names.take(safeFileBase(stem), extension, rowNumberName(row.rowIndex));
  });
}
