import type { SafeZip } from '../zip/safe-zip.js';
import { decodeOoxmlEscapes } from './xlsx-cell-value.js';
import { parseXmlPart } from './xml-part.js';

/**
 * The workbook's shared strings, each as the plain text Excel shows: the `<t>` of a plain
 * string, or the runs of a rich one joined; phonetic readings (`<rPh>`) are not part of the
 * text. A string with no text at all reads as an empty cell (null).
 */
export async function readSharedStrings(zip: SafeZip, part: string): Promise<(string | null)[]> {
  const strings: (string | null)[] = [];
  let pieces: string[] | undefined;
  let phonetic = 0;
  let inText = false;
  await parseXmlPart(zip, part, {
    open(name) {
      if (name === 'si') pieces = [];
      else if (name === 'rPh') phonetic += 1;
      else if (name === 't' && pieces && phonetic === 0) inText = true;
    },
    text(text) {
      if (inText) pieces?.push(text);
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic -= 1;
      else if (name === 'si' && pieces) {
        const text = pieces.join('');
        strings.push(text === '' ? null : decodeOoxmlEscapes(text).normalize('NFC'));
        pieces = undefined;
      }
    },
  });
  return strings;
}
