import { afterAll, describe, expect, it } from 'vitest';
import { SpreadsheetError } from '../../../main/ingest/spreadsheet-error.js';
import { openXlsxSheet, type RawRow } from '../../../main/ingest/xlsx/xlsx-sheet-reader.js';
import { createTempDir } from '../fixtures.js';
import { workbookZip, worksheet, type WorkbookParts } from './workbook-fixture.js';

const temp = createTempDir();
afterAll(() => temp.remove());

let books = 0;
async function rowsOf(parts: WorkbookParts): Promise<RawRow[]> {
  books += 1;
  const file = temp.file(`book-${books}.xlsx`, workbookZip(parts));
  const opened = await openXlsxSheet({ file });
  try {
    const rows: RawRow[] = [];
    for await (const row of opened.rows) rows.push(row);
    return rows;
  } finally {
    opened.close();
  }
}

async function failure(parts: WorkbookParts): Promise<SpreadsheetError> {
  const error = await rowsOf(parts).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SpreadsheetError);
  return error as SpreadsheetError;
}

/** cellXfs 1: built-in date 14; 2: custom date 164; 3: custom "0.00 kg" 165 (a dxf reuses 165 as a date). */
const STYLES =
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm"/><numFmt numFmtId="165" formatCode="0.00 &quot;kg&quot;"/></numFmts>' +
  '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>' +
  '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="164"/><xf numFmtId="165"/></cellXfs>' +
  '<dxfs count="1"><dxf><numFmt numFmtId="165" formatCode="yyyy"/></dxf></dxfs>';

describe('reading a worksheet in one pass', () => {
  it('reads every kind of cell as Excel shows it', async () => {
    const rows = await rowsOf({
      sharedStrings:
        '<si><t>Plain</t></si>' +
        '<si><r><rPr><b/></rPr><t>Bold</t></r><r><t xml:space="preserve"> and plain</t></r><rPh sb="0" eb="1"><t>ふりがな</t></rPh></si>' +
        '<si><t>two_x000D_lines</t></si>' +
        '<si><t/></si>',
      styles: STYLES,
      sheet:
        '<row r="1">' +
        '<c r="A1" t="s"><v>0</v></c>' +
        '<c r="B1" t="s"><v>1</v></c>' +
        '<c r="C1" t="s"><v>2</v></c>' +
        '<c r="D1" t="inlineStr"><is><r><t>in</t></r><r><t>line</t></r><rPh><t>x</t></rPh></is></c>' +
        '<c r="E1"><v>12.5</v></c>' +
        '<c r="F1" t="b"><v>0</v></c>' +
        '<c r="G1" t="e"><v>#N/A</v></c>' +
        '<c r="H1" t="str"><f>A1</f><v>Plain &amp; simple</v></c>' +
        '<c r="I1"><f>1/0</f></c>' +
        '<c r="J1" t="d"><v>2024-03-05T00:00:00Z</v></c>' +
        '<c r="K1" s="1"><v>45356.5</v></c>' +
        '<c r="L1" s="2"><v>45356.25</v></c>' +
        '<c r="M1" s="3"><v>2024</v></c>' +
        '<c r="N1" t="s"><v>3</v></c>' +
        '<c r="O1" t="b"><f>TRUE()</f><v>1</v></c>' +
        '</row>',
    });
    expect(rows).toEqual([
      {
        line: 1,
        values: [
          'Plain',
          'Bold and plain',
          'two\rlines',
          'inline',
          12.5,
          'FALSE',
          '#N/A',
          'Plain & simple',
          null,
          '2024-03-05',
          '2024-03-05T12:00:00',
          '2024-03-05T06:00:00',
          2024,
          null,
          'TRUE',
        ],
      },
    ]);
  });

  it('places rows and cells without an r attribute after the ones before them', async () => {
    const rows = await rowsOf({
      sheet:
        '<row><c t="inlineStr"><is><t>a</t></is></c><c><v>1</v></c></row>' +
        '<row r="5"><c r="C5"><v>2</v></c><c><v>3</v></c></row>' +
        '<row><c><v>4</v></c></row>',
    });
    expect(rows).toEqual([
      { line: 1, values: ['a', 1] },
      { line: 5, values: [null, null, 2, 3] },
      { line: 6, values: [4] },
    ]);
  });

  it('reads SpreadsheetML written with a namespace prefix', async () => {
    const main = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    const rows = await rowsOf({
      sheet: `<?xml version="1.0"?><x:worksheet xmlns:x="${main}"><x:sheetData><x:row r="2"><x:c r="B2" t="inlineStr"><x:is><x:t>hi</x:t></x:is></x:c></x:row></x:sheetData></x:worksheet>`,
    });
    expect(rows).toEqual([{ line: 2, values: [null, 'hi'] }]);
  });

  it('reads a sheet part written in UTF-16', async () => {
    const xml = worksheet(
      '<row r="1"><c r="A1" t="inlineStr"><is><t>Tiêu đề</t></is></c></row>',
    ).replace('UTF-8', 'UTF-16');
    const rows = await rowsOf({
      sheet: Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(xml, 'utf16le')]),
    });
    expect(rows).toEqual([{ line: 1, values: ['Tiêu đề'] }]);
  });

  it("takes the 1904 date system from the workbook's own properties, not an extension's", async () => {
    const rows = await rowsOf({
      workbookPr:
        '<workbookPr date1904="1"/><extLst><ext uri="{x}"><x15:workbookPr xmlns:x15="http://schemas.microsoft.com/office/spreadsheetml/2010/11/main" chartTrackingRefBase="1"/></ext></extLst>',
      styles: STYLES,
      sheet: '<row r="1"><c r="A1" s="1"><v>1</v></c></row>',
    });
    expect(rows[0]?.values).toEqual(['1904-01-02']);
  });

  it('finds parts whatever the case of their names in the zip', async () => {
    const rows = await rowsOf({
      rename: (name) =>
        name.replace(/^xl\//, 'XL/').replace('worksheets/sheet1', 'Worksheets/Sheet1'),
      sheet: '<row r="1"><c r="A1"><v>7</v></c></row>',
    });
    expect(rows).toEqual([{ line: 1, values: [7] }]);
  });

  it('refuses a cell reference beyond column XFD', async () => {
    const error = await failure({ sheet: '<row r="1"><c r="XFE1"><v>1</v></c></row>' });
    expect(error.code).toBe('invalid-spreadsheet');
    expect(error.message).toContain('XFE1');
  });

  it("refuses XML that is not well-formed, naming the sheet and the parser's complaint", async () => {
    const error = await failure({ sheet: '<row r="1"><c r="A1"><v>1</v></row>' });
    expect(error.code).toBe('invalid-spreadsheet');
    expect(error.message).toMatch(
      /^The workbook cannot be read \(sheet "Data": \d+:\d+: unexpected close tag/,
    );
    expect(error.location).toEqual({ sheet: 'Data' });
  });
});
