import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { detectFileKind } from '../../main/ingest/file-kind.js';
import { openRowSource } from '../../main/ingest/rows/row-source.js';
import { SpreadsheetError } from '../../main/ingest/spreadsheet-error.js';
import { MAX_LISTED_ENTRIES, ZIP_LIMITS } from '../../main/ingest/zip/zip-limits.js';
import { storedEntry, writeZip } from '../helpers/zip-builder.js';
import { corpus, createTempDir } from './fixtures.js';

const temp = createTempDir();
afterAll(() => temp.remove());

async function refusal(file: string, options = {}): Promise<SpreadsheetError> {
  const error = await openRowSource(file, options).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SpreadsheetError);
  return error as SpreadsheetError;
}

describe('file kind by bytes', () => {
  it('sees xlsx (Transitional, Strict, a workbook outside xl/, and .xlsm) as xlsx', async () => {
    for (const book of [
      '1900.xlsx',
      'sheet_visibility_strict.xlsx',
      'wtf_path.xlsx',
      'number_format.xlsm',
    ]) {
      expect((await detectFileKind(corpus('xlsx', book))).kind, book).toBe('xlsx');
    }
    expect((await detectFileKind(corpus('xlsx/wtf_path.xlsx'))).workbookPart).toBe(
      'wtf/workbook.xml',
    );
  });

  it('refuses a PNG named .csv as not a spreadsheet (415)', async () => {
    const file = temp.file('photo.csv', fs.readFileSync(corpus('pngsuite/basn2c08.png')));
    const error = await refusal(file);
    expect(error.code).toBe('unsupported-media-type');
    expect(error.status).toBe(415);
    expect(error.message).toContain('PNG');
  });

  it('refuses a legacy .xls (OLE2) named .xlsx with a save-as hint', async () => {
    const ole2 = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(504)]);
    const error = await refusal(temp.file('old.xlsx', ole2));
    expect(error.code).toBe('unsupported-media-type');
    expect(error.message).toMatch(/\.xls/);
  });

  it('refuses every corpus zip that is not OOXML as an invalid spreadsheet, never an empty import', async () => {
    const dirs = ['zip/success', 'zip/failure'];
    for (const dir of dirs) {
      for (const name of fs.readdirSync(corpus(dir))) {
        const file = temp.file('archive.xlsx', fs.readFileSync(corpus(dir, name)));
        const error = await refusal(file, { kind: 'xlsx' });
        expect(
          [
            'invalid-spreadsheet',
            'archive-limits-exceeded',
            'unsupported-media-type',
            'no-rows-found',
          ],
          name,
        ).toContain(error.code);
      }
    }
  });

  it('recognises images and binary data', async () => {
    expect((await detectFileKind(corpus('pngsuite/basn0g01.png'))).kind).toBe('png');
    expect(
      (
        await detectFileKind(
          temp.file('x.svg', '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"/>'),
        )
      ).kind,
    ).toBe('svg');
    expect(
      (await detectFileKind(temp.file('x.jpg', Buffer.from('ffd8ffe000104a464946', 'hex')))).kind,
    ).toBe('jpeg');
    expect((await detectFileKind(temp.file('x.bin', Buffer.from([1, 2, 3, 0, 5])))).kind).toBe(
      'binary',
    );
    expect((await detectFileKind(temp.file('empty.csv', ''))).kind).toBe('empty');
  });

  it('finds an SVG or other XML behind a BOM, whitespace, comments and a DOCTYPE', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';
    const kind = async (text: string | Buffer) =>
      (await detectFileKind(temp.file('markup', text))).kind;
    expect(await kind(`<!-- editor -->${svg}`)).toBe('svg');
    expect(await kind(`\uFEFF \r\n<!-- a --><!-- b -->\n${svg}`)).toBe('svg');
    expect(await kind(`<!DOCTYPE svg [ <!ENTITY x "]>"> ]><?pi x?>${svg}`)).toBe('svg');
    expect(await kind(`<!-- ${'-'.repeat(50_000)} -->${svg}`)).toBe('svg');
    expect(
      await kind(`<?xml version="1.0"?><svg:svg xmlns:svg="http://www.w3.org/2000/svg"/>`),
    ).toBe('svg');
    expect(await kind('<?xml version="1.0"?><!-- x --><data/>')).toBe('xml');
    // librsvg reads UTF-8 only: a UTF-16 SVG is XML it cannot use, not an image and not a CSV.
    expect(
      await kind(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(svg, 'utf16le')])),
    ).toBe('xml');
    // Text that merely starts with a tag stays a CSV, BOM or not.
    expect(await kind('<b>Name</b>,Price\nA,1\n')).toBe('csv');
    expect(await kind('\uFEFFname,price\nA,1\n')).toBe('csv');
  });

  it('refuses a CSV sent as xlsx', async () => {
    const error = await refusal(temp.file('data.xlsx', 'a,b\n1,2\n'), { kind: 'xlsx' });
    expect(error.code).toBe('unsupported-media-type');
  });

  it("looks into a zip of many images without holding it to a workbook's limits", async () => {
    const photos = (count: number) =>
      writeZip(Array.from({ length: count }, (_, i) => storedEntry(`photos/${i}.png`, 'x')));
    const many = ZIP_LIMITS.spreadsheet.maxEntries + 1;
    expect(await detectFileKind(temp.file('photos.zip', photos(many)))).toEqual({ kind: 'zip' });
    const tooMany = await detectFileKind(
      temp.file('too-many.zip', photos(MAX_LISTED_ENTRIES + 1)),
    ).catch((caught: unknown) => caught);
    expect(tooMany).toBeInstanceOf(SpreadsheetError);
    expect((tooMany as SpreadsheetError).code).toBe('archive-limits-exceeded');
    expect((tooMany as SpreadsheetError).message).toMatch(/^The zip was refused .* 20001 files/);
  });
});
