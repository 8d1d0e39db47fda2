import { deflatedEntry, writeZip, type ZipEntrySpec } from '../../helpers/zip-builder.js';

/** Minimal workbooks written part by part, for what the corpus files do not show. */

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

export interface WorkbookParts {
  /** The `<sheetData>` content, or a whole worksheet part when it starts with `<?xml` or `<`. */
  sheet: string | Buffer;
  sharedStrings?: string;
  styles?: string;
  /** Extra XML inside `<workbook>` before `<sheets>` (e.g. `<workbookPr date1904="1"/>`). */
  workbookPr?: string;
  /** How each part is named in the zip (a writer's own spelling of the names). */
  rename?: (name: string) => string;
}

export function worksheet(sheetData: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="${MAIN}"><sheetData>${sheetData}</sheetData></worksheet>`;
}

export function workbookZip(parts: WorkbookParts): Buffer {
  const rels = [`<Relationship Id="rId1" Type="${DOC}/worksheet" Target="worksheets/sheet1.xml"/>`];
  const entries: ZipEntrySpec[] = [];
  if (parts.sharedStrings !== undefined) {
    rels.push(`<Relationship Id="rId2" Type="${DOC}/sharedStrings" Target="sharedStrings.xml"/>`);
    entries.push(
      deflatedEntry(
        'xl/sharedStrings.xml',
        `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="${MAIN}">${parts.sharedStrings}</sst>`,
      ),
    );
  }
  if (parts.styles !== undefined) {
    rels.push(`<Relationship Id="rId3" Type="${DOC}/styles" Target="styles.xml"/>`);
    entries.push(
      deflatedEntry(
        'xl/styles.xml',
        `<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="${MAIN}">${parts.styles}</styleSheet>`,
      ),
    );
  }
  const sheet =
    typeof parts.sheet === 'string' &&
    !parts.sheet.startsWith('<?xml') &&
    !parts.sheet.startsWith('<worksheet')
      ? worksheet(parts.sheet)
      : parts.sheet;
  const rename = parts.rename ?? ((name: string) => name);
  const named = (entry: ZipEntrySpec): ZipEntrySpec => ({ ...entry, name: rename(entry.name) });
  return writeZip(
    [
      deflatedEntry(
        '[Content_Types].xml',
        `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`,
      ),
      deflatedEntry(
        '_rels/.rels',
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ),
      deflatedEntry(
        'xl/workbook.xml',
        `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="${MAIN}" xmlns:r="${DOC}">${parts.workbookPr ?? ''}<sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ),
      deflatedEntry(
        'xl/_rels/workbook.xml.rels',
        `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${RELS}">${rels.join('')}</Relationships>`,
      ),
      deflatedEntry('xl/worksheets/sheet1.xml', sheet),
      ...entries,
    ].map(named),
  );
}
