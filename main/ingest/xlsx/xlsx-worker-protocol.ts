import type { SheetEntry } from './ooxml-package.js';
import type { SpreadsheetErrorCode, SpreadsheetErrorLocation } from '../spreadsheet-error.js';
import type { RawRow } from './xlsx-sheet-reader.js';

/** Messages between the xlsx parse worker and the thread that reads its rows. */

export interface XlsxWorkerRequest {
  file: string;
  sheet?: string | number;
  /** Rows per message. */
  batchSize: number;
  /** Batches the worker may send ahead of the reader's acknowledgements. */
  maxInFlight: number;
  /** Data rows (after the header) allowed before `too-many-rows`. */
  maxRows: number;
}

export type XlsxWorkerMessage =
  | { type: 'opened'; sheets: SheetEntry[]; sheet: string; date1904: boolean }
  | { type: 'rows'; rows: RawRow[] }
  | { type: 'end' }
  | {
      type: 'error';
      code: SpreadsheetErrorCode | 'internal';
      message: string;
      location: SpreadsheetErrorLocation;
    };

/** The reader has consumed one batch; the worker may send another. */
export interface XlsxWorkerAck {
  type: 'ack';
}
