import type { SafeZip } from '../zip/safe-zip.js';
import { isDateFormat } from './xlsx-cell-value.js';
import { parseXmlPart } from './xml-part.js';

/**
 * Which cell formats show dates: a cell's `s` indexes `<cellXfs>`, whose `numFmtId` is either a
 * custom `<numFmt>` of the workbook or one of the built-in formats. Only that is read from the
 * styles part; fonts, fills and borders do not change a value.
 */

/**
 * Built-in formats that show a date or time: 14–22 and 45–47 in every locale; 27–36 and 50–58
 * in East Asian ones; 71–81 in Thai ones (ECMA-376 §18.8.30 and the locale tables).
 */
function isBuiltInDate(id: number): boolean {
  return (
    (id >= 14 && id <= 22) ||
    (id >= 27 && id <= 36) ||
    (id >= 45 && id <= 47) ||
    (id >= 50 && id <= 58) ||
    (id >= 71 && id <= 81)
  );
}

export async function readDateStyles(zip: SafeZip, part: string): Promise<boolean[]> {
  const customFormats = new Map<number, string>();
  const formatIds: number[] = [];
  // Only the style sheet's own lists count: `<dxfs>` repeat `<numFmt>` for conditional formats.
  let depth = 0;
  let list: 'numFmts' | 'cellXfs' | undefined;
  await parseXmlPart(zip, part, {
    open(name, attributes) {
      depth += 1;
      if (depth === 2 && (name === 'numFmts' || name === 'cellXfs')) list = name;
      else if (depth === 3 && list === 'numFmts' && name === 'numFmt') {
        const id = Number(attributes.numFmtId);
        if (Number.isInteger(id)) customFormats.set(id, attributes.formatCode ?? '');
      } else if (depth === 3 && list === 'cellXfs' && name === 'xf') {
        formatIds.push(Number(attributes.numFmtId ?? 0));
      }
    },
    close() {
      if (depth === 2) list = undefined;
      depth -= 1;
    },
  });
  return formatIds.map((id) => {
    const custom = customFormats.get(id);
    return custom !== undefined ? isDateFormat(custom) : isBuiltInDate(id);
  });
}
