import { describe, expect, it } from 'vitest';
import { csvLine, neutraliseCell } from '../../main/batch/spreadsheet-safety.js';

describe('CSV cells we write', () => {
  it.each(['=HYPERLINK("http://x","y")', '+1', '-2', '@SUM(A1)', '\tx', '\rx'])(
    'neutralises %j',
    (cell) => {
      expect(neutraliseCell(cell)).toBe(`'${cell}`);
    },
  );

  it('quotes fields with commas, quotes and newlines', () => {
    expect(csvLine([1, 'a,b', 'say "hi"', null, '=1+1'])).toBe('1,"a,b","say ""hi""",,\'=1+1\r\n');
  });
});
