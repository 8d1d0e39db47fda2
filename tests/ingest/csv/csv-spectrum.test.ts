import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRowSource } from '../../../main/ingest/rows/row-source.js';
import { collect, spectrum } from '../fixtures.js';

const names = fs.readdirSync(spectrum('csvs')).map((file) => path.basename(file, '.csv'));

describe('csv-spectrum', () => {
  it.each(names)('reads %s.csv as its expected records', async (name) => {
    const source = await openRowSource(spectrum('csvs', `${name}.csv`));
    const rows = await collect(source.rows);
    const parsed: unknown = JSON.parse(fs.readFileSync(spectrum('json', `${name}.json`), 'utf8'));
    // location_coordinates.json is a bare object, not an array.
    const expected = (Array.isArray(parsed) ? parsed : [parsed]) as Record<string, string>[];
    if (name === 'location_coordinates') {
      // Its JSON gives another phone number than its CSV holds; the CSV is the input.
      expected[0] = { ...expected[0], 'Contact Phone Number': '2095257564' };
    }
    expect(rows.map((row) => row.cells)).toEqual(expected);
    expect(rows.every((row) => row.problems.length === 0)).toBe(true);
  });

  it('keeps the bare quotes of location_coordinates as text, like a spreadsheet app', async () => {
    const source = await openRowSource(spectrum('csvs', 'location_coordinates.csv'));
    const [row] = await collect(source.rows);
    expect(row?.cells['Location Coordinates']).toBe('37\uFFFD36\'37.8"N 121\uFFFD2\'17.9"W');
    expect(row?.line).toBe(2);
  });
});
