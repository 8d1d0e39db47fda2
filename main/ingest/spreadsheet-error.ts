import { ERROR_CATALOGUE, type ErrorCode } from '../../shared/errors.js';

/**
 * Errors raised while reading an uploaded spreadsheet. They carry a code of the one error
 * catalogue (shared/errors.ts), its HTTP status and a message a person can act on; the server
 * sends them as problem+json with that code and the location below.
 */

/** The catalogue codes spreadsheet readers raise. */
export type SpreadsheetErrorCode = Extract<
  ErrorCode,
  | 'invalid-spreadsheet'
  | 'unsupported-media-type'
  | 'unsupported-encoding'
  | 'archive-limits-exceeded'
  | 'spreadsheet-parse-timeout'
  | 'no-rows-found'
  | 'sheet-not-found'
  | 'too-many-rows'
  | 'too-many-columns'
  | 'cell-too-large'
  | 'row-too-large'
>;

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
    this.status = ERROR_CATALOGUE[code].status;
    this.location = location;
  }
}

export function isSpreadsheetError(error: unknown): error is SpreadsheetError {
  return error instanceof SpreadsheetError;
}
