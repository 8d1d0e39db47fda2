import { readFileSync } from 'node:fs';
import { FontFileError, unpackFont } from '../../fonts/font-container.js';
import { familyFiles } from '../fonts.js';

/**
 * Where a family draws its underline and strikethrough, in ems (positions measured upward from
 * the baseline to the top of the stroke), as its designer set them in the `post` and `OS/2`
 * tables. Canvas exposes neither, so they are read from the family's regular face once per
 * thread; a face without them gets common values.
 */
export interface DecorationMetrics {
  underlinePosition: number;
  underlineThickness: number;
  strikePosition: number;
  strikeThickness: number;
}

const FALLBACK: DecorationMetrics = {
  underlinePosition: -0.1,
  underlineThickness: 0.05,
  strikePosition: 0.3,
  strikeThickness: 0.05,
};

const byFamily = new Map<string, DecorationMetrics>();

export function decorationMetrics(family: string): DecorationMetrics {
  const file = familyFiles(family)[0];
  if (!file) return FALLBACK;
  let metrics = byFamily.get(file);
  if (!metrics) {
    metrics = readMetrics(file);
    byFamily.set(file, metrics);
  }
  return metrics;
}

function readMetrics(file: string): DecorationMetrics {
  let tables: Map<string, Uint8Array>;
  try {
    tables = unpackFont(readFileSync(file)).tables;
  } catch (error) {
    if (error instanceof FontFileError) return FALLBACK;
    throw error;
  }
  const head = view(tables.get('head'), 20);
  const post = view(tables.get('post'), 12);
  const os2 = view(tables.get('OS/2'), 30);
  const unitsPerEm = head?.getUint16(18) || 0;
  if (!unitsPerEm) return FALLBACK;
  const em = (units: number) => units / unitsPerEm;
  const metrics = { ...FALLBACK };
  if (post && post.getInt16(10) > 0) {
    metrics.underlinePosition = em(post.getInt16(8));
    metrics.underlineThickness = em(post.getInt16(10));
  }
  if (os2 && os2.getInt16(26) > 0) {
    metrics.strikeThickness = em(os2.getInt16(26));
    metrics.strikePosition = em(os2.getInt16(28));
  }
  return metrics;
}

function view(table: Uint8Array | undefined, length: number): DataView | null {
  if (!table || table.byteLength < length) return null;
  return new DataView(table.buffer, table.byteOffset, table.byteLength);
}
