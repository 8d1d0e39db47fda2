import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectRowSource, openRowSource } from '../../../main/ingest/rows/row-source.js';
import { SpreadsheetError } from '../../../main/ingest/spreadsheet-error.js';
import { collect, createTempDir, rowXml, SHEET_CLOSE, SHEET_OPEN } from '../fixtures.js';
import type { ZipEntrySpec } from '../../helpers/zip-builder.js';
import { deflatedEntry, repeatedEntry, writeZip } from '../../helpers/zip-builder.js';

const temp = createTempDir();
afterAll(() => temp.remove());

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Data" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`;

function workbookWith(sheet: ZipEntrySpec): Buffer {
  return writeZip([
    deflatedEntry('[Content_Types].xml', CONTENT_TYPES),
    deflatedEntry('_rels/.rels', ROOT_RELS),
    deflatedEntry('xl/workbook.xml', WORKBOOK),
    deflatedEntry('xl/_rels/workbook.xml.rels', WORKBOOK_RELS),
    sheet,
  ]);
}

const SAME_ROW =
  '<row r="2"><c r="A2" t="inlineStr"><is><t>SKU-000</t></is></c><c r="B2"><v>12.5</v></c><c r="C2" t="inlineStr"><is><t>A long enough product description</t></is></c></row>';

/** Rows that differ like real data, so they deflate at a realistic ratio. */
function variedRow(index: number): string {
  const code = ((index * 2654435761) >>> 0).toString(36);
  const r = index + 2;
  return `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>SKU-${index}</t></is></c><c r="B${r}"><v>${(index % 977) / 4}</v></c><c r="C${r}" t="inlineStr"><is><t>Item ${code} ${code.split('').reverse().join('')}</t></is></c></row>`;
}

/** A sheet of `rows` data rows under a header, deflated as it is generated. */
function bigSheet(
  rows: number,
  row: string | ((index: number) => string) = variedRow,
): Promise<ZipEntrySpec> {
  return repeatedEntry(
    'xl/worksheets/sheet1.xml',
    `${SHEET_OPEN}${rowXml(1, ['sku', 'price', 'description'])}`,
    row,
    rows,
    SHEET_CLOSE,
  );
}

async function failure(promise: Promise<unknown>): Promise<SpreadsheetError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SpreadsheetError);
  return error as SpreadsheetError;
}

describe('hostile xlsx', () => {
  let bombFile = '';
  let liarFile = '';
  let slowFile = '';

  beforeAll(async () => {
    // ~300 MB of rows deflated to a few hundred KB.
    const bomb = await bigSheet(2_200_000, SAME_ROW);
    expect(bomb.size).toBeGreaterThan(280 * 1024 * 1024);
    expect(bomb.compressed.length).toBeLessThan(2 * 1024 * 1024);
    bombFile = temp.file('bomb.xlsx', workbookWith(bomb));
    // The same inflation behind headers that claim 8 MiB (under every declared limit).
    liarFile = temp.file('liar.xlsx', workbookWith({ ...bomb, declaredSize: 8 * 1024 * 1024 }));
    slowFile = temp.file('slow.xlsx', workbookWith(await bigSheet(400_000)));
  }, 120_000);

  it('refuses a zip bomb from the central directory, quickly and with bounded memory', async () => {
    const rssBefore = process.memoryUsage().rss;
    const started = Date.now();
    const error = await failure(openRowSource(bombFile));
    expect(error.code).toBe('archive-limits-exceeded');
    expect(error.status).toBe(422);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(150 * 1024 * 1024);
  });

  it('stops a bomb whose headers lie once the real bytes pass what they declared', async () => {
    const error = await failure(inspectRowSource(liarFile));
    expect(error.code).toBe('archive-limits-exceeded');
    expect(error.message).toMatch(/inflates past/);
  });

  it('parses a sheet with a dataValidation over A2:XFD1048576 in under 2 s', async () => {
    const sheet = `${SHEET_OPEN}${rowXml(1, ['name', 'size'])}${rowXml(2, ['Tee', 'M'])}</sheetData><dataValidations count="1"><dataValidation type="list" allowBlank="1" sqref="A2:XFD1048576"><formula1>"S,M,L"</formula1></dataValidation></dataValidations><mergeCells count="1"><mergeCell ref="C1:XFD1048576"/></mergeCells></worksheet>`;
    const file = temp.file(
      'dv-bomb.xlsx',
      workbookWith(deflatedEntry('xl/worksheets/sheet1.xml', sheet)),
    );
    const started = Date.now();
    const inspected = await inspectRowSource(file);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(inspected.rowCount).toBe(1);
    expect(inspected.preview[0]?.cells).toEqual({ name: 'Tee', size: 'M' });
  });

  it('stops a parse past its deadline while the main thread keeps ticking', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 10);
    const started = Date.now();
    try {
      const error = await failure(inspectRowSource(slowFile, { deadlineMs: 1_000 }));
      expect(error.code).toBe('spreadsheet-parse-timeout');
    } finally {
      clearInterval(timer);
    }
    const elapsed = Date.now() - started;
    expect(elapsed).toBeLessThan(4_000);
    // A blocked main thread would tick a handful of times at most.
    expect(ticks).toBeGreaterThan(elapsed / 10 / 3);
  });

  it('streams a large sheet to the end within the default deadline, in row order', async () => {
    const source = await openRowSource(slowFile, { deadlineMs: 60_000 });
    let count = 0;
    for await (const row of source.rows) {
      expect(row.rowIndex).toBe(count);
      count += 1;
    }
    expect(count).toBe(400_000);
  }, 120_000);

  it('refuses rows past the cap with too-many-rows', async () => {
    const error = await failure(inspectRowSource(slowFile, { maxRows: 1_000 }));
    expect(error.code).toBe('too-many-rows');
  });

  it('reports values in columns without a header as a row problem', async () => {
    const sheet = `${SHEET_OPEN}${rowXml(1, ['a'])}${rowXml(2, ['1', 'stray'])}${SHEET_CLOSE}`;
    const file = temp.file(
      'extra.xlsx',
      workbookWith(deflatedEntry('xl/worksheets/sheet1.xml', sheet)),
    );
    const rows = await collect((await openRowSource(file)).rows);
    expect(rows[0]?.cells).toEqual({ a: '1' });
    expect(rows[0]?.problems).toEqual([expect.stringContaining('"stray"')]);
  });
});
