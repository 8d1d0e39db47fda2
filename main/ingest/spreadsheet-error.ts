/**
 * Errors raised while reading an uploaded spreadsheet. They carry a stable `code`, the HTTP
 * status it maps to and a message a person can act on; the server maps them onto its catalogue.
 * Kept local (not in shared/errors.ts) until the catalogue gains these codes.
 */

export const SPREADSHEET_ERROR_STATUS = {
  'invalid-spreadsheet': 422,
  'unsupported-media-type': 415,
  'unsupported-encoding': 422,
  'archive-limits-exceeded': 422,
  'spreadsheet-parse-timeout': 422,
  'no-rows-found': 422,
  'sheet-not-found': 422,
  'too-many-rows': 422,
  'payload-too-large': 413,
} as const;

export type SpreadsheetErrorCode = keyof typeof SPREADSHEET_ERROR_STATUS;

/** Where in the file the problem is, when that is known. */
export interface SpreadsheetErrorLocation {
  line?: number;
  byteOffset?: number;
  sheet?: string;
}

export class SpreadsheetError extends Error {
  readonly code: SpreadsheetErrorCode;
  readonly status: number;
  readonly location: SpreadsheetErrorLocation;

  constructor(
    code: SpreadsheetErrorCode,
    message: string,
    location: SpreadsheetErrorLocation = {},
  ) {
    super(message);
    this.name = 'SpreadsheetError';
    this.code = code;
    this.status = SPREADSHEET_ERROR_STATUS[code];
    this.location = location;
  }
}

export function isSpreadsheetError(error: unknown): error is SpreadsheetError {
  return error instanceof SpreadsheetError;
}
