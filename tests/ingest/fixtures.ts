import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import iconv from 'iconv-lite';
import type { SourceRow } from '../../main/ingest/rows/row-source.js';

/** Test helpers: corpus paths, temp files, sheet XML and legacy-encoded text. */

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const corpus = (...parts: string[]): string =>
  path.resolve(repoRoot, 'tests/fixtures/corpora', ...parts);
export const spectrum = (...parts: string[]): string =>
  path.resolve(repoRoot, 'node_modules/csv-spectrum', ...parts);

export function createTempDir(): {
  file(name: string, body: string | Buffer): string;
  dir: string;
  remove(): void;
} {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ingest-'));
  return {
    dir,
    file(name, body) {
      const target = path.join(dir, name);
      fs.writeFileSync(target, body);
      return target;
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export async function collect(rows: AsyncIterable<SourceRow>): Promise<SourceRow[]> {
  const all: SourceRow[] = [];
  for await (const row of rows) all.push(row);
  return all;
}

/**
 * Vietnamese as Excel's "CSV" export writes it in Windows-1258: base letters with their
 * circumflex/breve/horn precomposed, tone marks as separate combining bytes.
 */
export function toWindows1258(text: string): Buffer {
  const toneMarks = /[\u0300\u0301\u0303\u0309\u0323]/g;
  const split = [...text.normalize('NFD')]
    .reduce<string[]>((clusters, char) => {
      if (/\p{M}/u.test(char) && clusters.length > 0) clusters[clusters.length - 1] += char;
      else clusters.push(char);
      return clusters;
    }, [])
    .map((cluster) => {
      const tones = cluster.match(toneMarks)?.join('') ?? '';
      return cluster.replace(toneMarks, '').normalize('NFC') + tones;
    })
    .join('');
  const bytes = iconv.encode(split, 'windows-1258');
  if (bytes.includes(0x3f) && !split.includes('?'))
    throw new Error(`cannot encode ${text} in 1258`);
  return bytes;
}

export const SHEET_OPEN = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`;
export const SHEET_CLOSE = '</sheetData></worksheet>';

/** Inline-string row XML: `row(3, ['a', 'b'])`. */
export function rowXml(number: number, values: string[]): string {
  const cells = values
    .map(
      (value, index) =>
        `<c r="${String.fromCharCode(65 + index)}${number}" t="inlineStr"><is><t>${value}</t></is></c>`,
    )
    .join('');
  return `<row r="${number}">${cells}</row>`;
}
