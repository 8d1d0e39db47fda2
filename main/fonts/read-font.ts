import { AppError } from '../../shared/errors.js';
import type { FontFormat, FontScript } from '../../shared/font-schemas.js';
import { parseCmap, type CoverageRanges } from '../engine/font-coverage.js';
import { FontFileError, unpackFontAsync, type FontTables } from './font-container.js';
import { scriptsCovered } from './font-scripts.js';

/** What the app needs to know about an uploaded font, read from its own tables. */
export interface FontInfo {
  format: FontFormat;
  /** The typographic family (name ID 16), else the legacy family (name ID 1). */
  family: string;
  /** e.g. "Bold Italic" (name ID 17, else 2). */
  subfamily: string;
  weight: number;
  style: 'normal' | 'italic';
  coverage: CoverageRanges;
  scripts: FontScript[];
  /** The licence description (name ID 13), else its URL (name ID 14). */
  licence: string | null;
}

/** Longer family names than this are refused: brand profiles store fonts in 120 characters. */
export const MAX_FAMILY_LENGTH = 120;
const MAX_LICENCE_LENGTH = 4000;

/**
 * Reads and checks a font file; throws 422 font-invalid (or font-too-large, for a font that
 * declares or inflates to more data than a font may hold) with a reason the user can act on.
 * Decompression runs off this thread.
 */
export async function readFont(bytes: Uint8Array): Promise<FontInfo> {
  try {
    return readFontTables(await unpackFontAsync(bytes));
  } catch (error) {
    if (error instanceof AppError) throw error;
    if (error instanceof FontFileError) throw new AppError(error.code, error.message);
    // A RangeError from a DataView: some table points outside itself.
    throw new AppError(
      'font-invalid',
      `The font is damaged and cannot be read (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}

function readFontTables(font: FontTables): FontInfo {
  const table = (tag: string): DataView | null => {
    const data = font.tables.get(tag);
    return data ? new DataView(data.buffer, data.byteOffset, data.byteLength) : null;
  };
  const names = readNames(table('name')!);
  const family = clean(names.get(16) ?? names.get(1) ?? '');
  if (!family) throw new FontFileError('The font has no family name in its name table.');
  if (family.length > MAX_FAMILY_LENGTH) {
    throw new FontFileError(
      `The font's family name is longer than ${MAX_FAMILY_LENGTH} characters.`,
    );
  }
  const subfamily = clean(names.get(17) ?? names.get(2) ?? '') || 'Regular';
  const { weight, style } = weightAndStyle(table('OS/2'), table('head'), subfamily);
  let coverage: CoverageRanges;
  try {
    coverage = parseCmap(font.tables.get('cmap')!);
  } catch (error) {
    if (error instanceof FontFileError) throw error;
    throw new FontFileError(
      `The font's character map cannot be read: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
  if (coverage.length === 0) throw new FontFileError('The font maps no characters to glyphs.');
  const licenceText = clean(names.get(13) ?? '') || clean(names.get(14) ?? '');
  return {
    format: font.format,
    family,
    subfamily,
    weight,
    style,
    coverage,
    scripts: scriptsCovered(coverage),
    licence: licenceText ? licenceText.slice(0, MAX_LICENCE_LENGTH) : null,
  };
}

/** Control characters in a name would end up in CSS font strings and file listings. */
function clean(text: string): string {
  // eslint-disable-next-line no-control-regex -- stripping controls is the point
  return text.replace(/[\u0000-\u001f\u007f]/g, '').trim();
}

/** The name IDs this reader uses: family, subfamily, licence, licence URL, typographic names. */
const NAME_IDS = new Set([1, 2, 13, 14, 16, 17]);

/**
 * The `name` table's strings by name ID, preferring Windows Unicode English (3/1/0x409), then any
 * Unicode record, then Mac Roman. Mac Roman is read as Latin-1: right for the ASCII names
 * fonts use in practice. A string is decoded only when it is wanted and beats the one held:
 * 65,535 records all pointing at the same 64 KB would otherwise be 4 GB of decoding.
 */
function readNames(name: DataView): Map<number, string> {
  const count = name.getUint16(2);
  const storage = name.getUint16(4);
  if (6 + count * 12 > name.byteLength) {
    throw new FontFileError('The name table is damaged: its records run past its end.');
  }
  const best = new Map<number, { rank: number; text: string }>();
  for (let i = 0; i < count; i++) {
    const record = 6 + i * 12;
    const platform = name.getUint16(record);
    const encoding = name.getUint16(record + 2);
    const language = name.getUint16(record + 4);
    const id = name.getUint16(record + 6);
    if (!NAME_IDS.has(id)) continue;
    let rank: number;
    if (platform === 3 || platform === 0) {
      if (platform === 3 && encoding !== 1 && encoding !== 10) continue;
      rank = platform === 3 && language === 0x409 ? 0 : 1;
    } else if (platform === 1 && encoding === 0) {
      rank = 2;
    } else {
      continue;
    }
    const current = best.get(id);
    if (current && rank >= current.rank) continue;
    const length = name.getUint16(record + 8);
    const offset = storage + name.getUint16(record + 10);
    if (offset + length > name.byteLength) {
      throw new FontFileError('The name table is damaged: a name points outside it.');
    }
    const bytes = new Uint8Array(name.buffer, name.byteOffset + offset, length);
    const text = rank === 2 ? Buffer.from(bytes).toString('latin1') : utf16be(bytes);
    best.set(id, { rank, text });
  }
  return new Map([...best].map(([id, { text }]) => [id, text]));
}

function utf16be(bytes: Uint8Array): string {
  const swapped = Buffer.alloc(bytes.byteLength - (bytes.byteLength % 2));
  for (let i = 0; i + 1 < bytes.byteLength; i += 2) {
    swapped[i] = bytes[i + 1]!;
    swapped[i + 1] = bytes[i]!;
  }
  return swapped.toString('utf16le');
}

/**
 * OS/2 usWeightClass and fsSelection (italic bit 0, oblique bit 9) when present; else head's
 * macStyle (bold bit 0, italic bit 1); the subfamily name breaks no ties, it only fills gaps.
 */
function weightAndStyle(
  os2: DataView | null,
  head: DataView | null,
  subfamily: string,
): { weight: number; style: 'normal' | 'italic' } {
  const named = subfamily.toLowerCase();
  if (os2 && os2.byteLength >= 64) {
    let weight = os2.getUint16(4);
    // Some old fonts store 1–9 for 100–900.
    if (weight >= 1 && weight <= 9) weight *= 100;
    const selection = os2.getUint16(62);
    const italic = (selection & 0x0001) !== 0 || (selection & 0x0200) !== 0;
    return {
      weight: clampWeight(weight || (named.includes('bold') ? 700 : 400)),
      style: italic || /italic|oblique/.test(named) ? 'italic' : 'normal',
    };
  }
  const macStyle = head && head.byteLength >= 46 ? head.getUint16(44) : 0;
  return {
    weight: (macStyle & 0x01) !== 0 || named.includes('bold') ? 700 : 400,
    style: (macStyle & 0x02) !== 0 || /italic|oblique/.test(named) ? 'italic' : 'normal',
  };
}

function clampWeight(weight: number): number {
  return Math.min(900, Math.max(100, weight));
}
