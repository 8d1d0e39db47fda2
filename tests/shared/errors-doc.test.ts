import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, type ErrorCode } from '../../shared/errors.js';
import { SpreadsheetError } from '../../main/ingest/spreadsheet-error.js';
import { ERRORS_DOC_PATH, errorsDocText } from '../../scripts/write-errors-doc.js';

describe('docs/errors.md', () => {
  it('is what npm run docs:errors writes from the error catalogue now', () => {
    expect(fs.readFileSync(ERRORS_DOC_PATH, 'utf8')).toBe(errorsDocText());
  });

  it('has one row per catalogue code with its status and when it happens', () => {
    const rows = new Map(
      [...errorsDocText().matchAll(/^\| `([a-z-]+)` \| (\d{3}) \| [^|]+ \| (.+) \|$/gm)].map(
        ([, code, status, when]) => [code, { status: Number(status), when: when ?? '' }],
      ),
    );
    expect([...rows.keys()].sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
    for (const code of Object.keys(ERROR_CATALOGUE) as ErrorCode[]) {
      expect(rows.get(code)?.status, code).toBe(ERROR_CATALOGUE[code].status);
      expect(rows.get(code)?.when.length, code).toBeGreaterThan(20);
    }
  });
});

describe('the error catalogue', () => {
  it('gives spreadsheet errors the status of their catalogue code', () => {
    expect(new SpreadsheetError('unsupported-media-type', 'an .xls file').status).toBe(415);
    expect(new SpreadsheetError('too-many-rows', 'too many').status).toBe(
      ERROR_CATALOGUE['too-many-rows'].status,
    );
  });
});
