import { afterAll, describe, expect, it } from 'vitest';
import { openRowSource } from '../../../main/ingest/rows/row-source.js';
import { SpreadsheetError } from '../../../main/ingest/spreadsheet-error.js';
import { collect, corpus, createTempDir, toWindows1258 } from '../fixtures.js';

const temp = createTempDir();
afterAll(() => temp.remove());

async function rejection(promise: Promise<unknown>): Promise<SpreadsheetError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(SpreadsheetError);
  return error as SpreadsheetError;
}

describe('CSV encodings', () => {
  it('strips a UTF-8 BOM so the first header binds by its plain name', async () => {
    const file = temp.file('bom.csv', '\uFEFFname,price\nTea,3\n');
    const source = await openRowSource(file);
    expect(source.fields).toEqual(['name', 'price']);
    expect(source.encoding).toBe('utf-8');
    expect((await collect(source.rows))[0]?.cells).toEqual({ name: 'Tea', price: '3' });
  });

  it('reads a UTF-16LE "Unicode Text" export (BOM, tab-separated, CRLF)', async () => {
    const text = 'Tiêu đề\tGiá\r\nBánh mì\t25.000 ₫\r\n';
    const file = temp.file(
      'unicode.txt',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]),
    );
    const source = await openRowSource(file);
    expect(source.encoding).toBe('utf-16le');
    expect(source.delimiter).toBe('\t');
    expect(source.fields).toEqual(['Tiêu đề', 'Giá']);
    expect((await collect(source.rows))[0]?.cells).toEqual({
      'Tiêu đề': 'Bánh mì',
      Giá: '25.000 ₫',
    });
  });

  it('reads UTF-16BE with a BOM', async () => {
    const body = Buffer.from('a,b\n1,2\n', 'utf16le').swap16();
    const file = temp.file('be.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), body]));
    const source = await openRowSource(file);
    expect(source.encoding).toBe('utf-16be');
    expect((await collect(source.rows))[0]?.cells).toEqual({ a: '1', b: '2' });
  });

  it('decodes Windows-1258 Vietnamese (combining tone marks) to NFC', async () => {
    const bytes = toWindows1258('Tiêu đề;Giá;Ưu đãi\nCà phê sữa đá;29.000;Giảm 10%\n');
    expect(bytes.includes(0xcc) || bytes.includes(0xec) || bytes.includes(0xde)).toBe(true);
    const source = await openRowSource(temp.file('vi-1258.csv', bytes));
    expect(source.encoding).toBe('windows-1258');
    expect(source.delimiter).toBe(';');
    expect(source.fields).toEqual(['Tiêu đề', 'Giá', 'Ưu đãi']);
    for (const field of source.fields) expect(field).toBe(field.normalize('NFC'));
    const [row] = await collect(source.rows);
    expect(row?.cells).toEqual({ 'Tiêu đề': 'Cà phê sữa đá', Giá: '29.000', 'Ưu đãi': 'Giảm 10%' });
  });

  it('composes a decomposed tone mark split across chunk edges', async () => {
    const filler = 'x'.repeat(65_530);
    const text = `name\n${filler}Tiê\u0301u\n`;
    const source = await openRowSource(temp.file('nfd-edge.csv', text));
    const [row] = await collect(source.rows);
    expect(row?.cells.name).toBe(`${filler}Tiếu`);
  });

  it('reads the corpus Windows-1252 exports: … as 0x85 and € £ ¥', async () => {
    const merged = await openRowSource(corpus('xlsx/csv/merge_cells.xlsx.0.csv'));
    expect(merged.encoding).toBe('windows-1252');
    const rows = await collect(merged.rows);
    expect(rows.map((row) => row.cells['A1:B2'])).toEqual(['A3:B3', '… are merged separately']);

    const formats = await openRowSource(corpus('xlsx/csv/number_format.xlsm.2.csv'));
    expect(formats.encoding).toBe('windows-1252');
    const text = JSON.stringify((await collect(formats.rows)).map((row) => row.cells));
    for (const symbol of ['€', '£', '¥']) expect(text).toContain(symbol);
    expect(text).not.toContain('\uFFFD');
  });

  it('honours an explicit encoding over detection', async () => {
    const file = temp.file('forced.csv', Buffer.from([0x61, 0x0a, 0xc3, 0x0a])); // "a", then Ã (1252) / Ă (1258)
    const western = await openRowSource(file, { encoding: 'windows-1252' });
    expect((await collect(western.rows))[0]?.cells.a).toBe('Ã');
    const vietnamese = await openRowSource(file, { encoding: 'cp1258' });
    expect((await collect(vietnamese.rows))[0]?.cells.a).toBe('Ă');
    const error = await rejection(openRowSource(file, { encoding: 'klingon' }));
    expect(error.code).toBe('unsupported-encoding');
  });

  it('refuses damaged UTF-8 with the line and byte of the first bad byte, never U+FFFD', async () => {
    // Valid multi-byte UTF-8 throughout, then one truncated sequence: damaged UTF-8, not a code page.
    const good = 'tên,giá\nphở bò,50\nbún chả,45\n';
    const bytes = Buffer.concat([
      Buffer.from(good),
      Buffer.from([0x63, 0xe1, 0xbb, 0x2c, 0x31, 0x0a]),
    ]);
    const error = await rejection(openRowSource(temp.file('damaged.csv', bytes)));
    expect(error.code).toBe('unsupported-encoding');
    expect(error.location).toEqual({ line: 4, byteOffset: Buffer.byteLength(good) + 1 });
    expect(error.message).toMatch(/line 4, byte \d+/);
  });

  it('refuses bytes that neither Windows-1252 nor Windows-1258 defines', async () => {
    const bytes = Buffer.from([0x61, 0x0a, 0x62, 0x81, 0x0a]);
    const error = await rejection(openRowSource(temp.file('undefined.csv', bytes)));
    expect(error.code).toBe('unsupported-encoding');
    expect(error.location).toEqual({ line: 2, byteOffset: 3 });
  });

  it('refuses invalid UTF-8 with its position when UTF-8 is forced', async () => {
    const bytes = Buffer.concat([Buffer.from('a\nok\n'), Buffer.from([0x62, 0xff, 0x0a])]);
    const file = temp.file('forced-utf8.csv', bytes);
    const error = await rejection(
      openRowSource(file, { encoding: 'utf-8' }).then((source) => collect(source.rows)),
    );
    expect(error.code).toBe('unsupported-encoding');
    expect(error.location).toEqual({ line: 3, byteOffset: 6 });
  });
});
