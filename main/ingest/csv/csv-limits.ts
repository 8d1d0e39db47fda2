import { MAX_CELL_CHARS, MAX_COLUMNS } from '../rows/row-source-types.js';
import { SpreadsheetError } from '../spreadsheet-error.js';

/**
 * The size limits of a CSV, checked on the text before the parser sees it, so that a file built
 * to be expensive is refused at the character that crosses a limit instead of after the parser
 * has built it in memory: a header of a million delimiters used to become a million fields (and
 * rows of a million keys each, ~2 GB), a 50 MB cell was reported as an unclosed quote.
 *
 * It follows csv-parse's reading exactly as csv-row-source configures it (quote and escape `"`,
 * `relax_quotes`, CRLF, LF or CR ends a record outside quotes), so it counts the same cells: a
 * quote opens a quoted cell only at the start of a cell; inside, `""` is one quote, and a quote
 * followed by anything but a delimiter, a line end or the end of the file is kept as text. One
 * pass, constant work per character, state carried across chunks.
 */

/** One row's text, delimiters and quotes included: what the parser may hold for one record. */
export const MAX_ROW_CHARS = 8_000_000;

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;

/** Where the scan is within the current cell. */
const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
/** A quote inside a quoted cell: the next character decides whether it was `""` or the close. */
const QUOTE_IN_QUOTED = 3;

export interface CsvLimitOptions {
  maxColumns?: number;
  maxCellChars?: number;
  maxRowChars?: number;
}

export class CsvLimits {
  private readonly delimiter: number;
  private readonly maxColumns: number;
  private readonly maxCellChars: number;
  private readonly maxRowChars: number;
  private state = FIELD_START;
  private line = 1;
  private afterCr = false;
  /** Records seen so far with any text (blank lines are not records): 0 while in the header. */
  private records = 0;
  private recordEmpty = true;
  private recordLine = 1;
  private recordChars = 0;
  private column = 1;
  private cellChars = 0;
  private cellLine = 1;

  constructor(delimiter: string, options: CsvLimitOptions = {}) {
    this.delimiter = delimiter.charCodeAt(0);
    this.maxColumns = options.maxColumns ?? MAX_COLUMNS;
    this.maxCellChars = options.maxCellChars ?? MAX_CELL_CHARS;
    this.maxRowChars = options.maxRowChars ?? MAX_ROW_CHARS;
  }

  /** Scans the next piece of text; throws the SpreadsheetError of the first limit crossed. */
  scan(text: string): void {
    for (let i = 0; i < text.length; i += 1) this.step(text.charCodeAt(i));
  }

  private step(c: number): void {
    if (this.state === QUOTE_IN_QUOTED) {
      if (c === QUOTE) {
        this.state = QUOTED;
        this.addToCell(1);
        return;
      }
      if (c !== this.delimiter && c !== CR && c !== LF) {
        // A quote in the middle of the cell: csv-parse keeps it (and puts one before the cell).
        this.state = UNQUOTED;
        this.addToCell(2);
      } else {
        this.state = UNQUOTED;
      }
    }
    if (this.state === QUOTED) {
      if (c === QUOTE) {
        this.state = QUOTE_IN_QUOTED;
        this.addToRow();
        return;
      }
      this.countLineBreak(c);
      this.addToCell(1);
      return;
    }
    if (c === CR || c === LF) {
      this.countLineBreak(c);
      this.endRecord();
      return;
    }
    this.afterCr = false;
    if (this.recordEmpty) {
      this.recordEmpty = false;
      this.recordLine = this.line;
      this.cellLine = this.line;
    }
    if (c === this.delimiter) {
      this.column += 1;
      if (this.column > this.maxColumns) throw this.tooManyColumns();
      this.state = FIELD_START;
      this.cellChars = 0;
      this.cellLine = this.line;
      this.addToRow();
      return;
    }
    if (c === QUOTE && this.state === FIELD_START) {
      this.state = QUOTED;
      this.cellLine = this.line;
      this.addToRow();
      return;
    }
    this.state = UNQUOTED;
    this.addToCell(1);
  }

  private countLineBreak(c: number): void {
    if (c === CR) {
      this.line += 1;
      this.afterCr = true;
    } else if (c === LF) {
      if (!this.afterCr) this.line += 1;
      this.afterCr = false;
    } else {
      this.afterCr = false;
    }
  }

  private addToCell(chars: number): void {
    this.cellChars += chars;
    if (this.cellChars > this.maxCellChars) throw this.cellTooLarge();
    this.addToRow();
  }

  private addToRow(): void {
    this.recordChars += 1;
    if (this.recordChars > this.maxRowChars) throw this.rowTooLarge();
  }

  private endRecord(): void {
    if (!this.recordEmpty) this.records += 1;
    this.recordEmpty = true;
    this.recordChars = 0;
    this.column = 1;
    this.cellChars = 0;
    this.state = FIELD_START;
  }

  private tooManyColumns(): SpreadsheetError {
    const limit = this.maxColumns.toLocaleString('en');
    const line = this.recordLine;
    return new SpreadsheetError(
      'too-many-columns',
      this.records === 0
        ? `The header row (line ${line}) has more than ${limit} columns; Render Desk reads at most ${limit}. ` +
            'Remove the columns you do not need (often empty ones at the end of the row) and upload the file again.'
        : `Line ${line} has more than ${limit} cells; Render Desk reads at most ${limit} columns. ` +
            'Remove the extra cells (often empty ones at the end of the row) and upload the file again.',
      { line },
    );
  }

  private cellTooLarge(): SpreadsheetError {
    const limit = this.maxCellChars.toLocaleString('en');
    const line = this.cellLine;
    const quoted = this.state === QUOTED || this.state === QUOTE_IN_QUOTED;
    return new SpreadsheetError(
      'cell-too-large',
      `Line ${line}: the cell in column ${this.column} holds more than ${limit} characters, the most one cell may hold. ` +
        (quoted
          ? 'If the cell should be short, the quote (") that opens it is probably never closed; otherwise shorten it.'
          : 'Shorten it, or put large images in an images folder or zip and name them in the cell.'),
      { line },
    );
  }

  private rowTooLarge(): SpreadsheetError {
    const limit = this.maxRowChars.toLocaleString('en');
    const line = this.recordLine;
    return new SpreadsheetError(
      'row-too-large',
      `Line ${line}: the row holds more than ${limit} characters, the most one row may hold. ` +
        'If it should be short, a quote (") in it is probably never closed; otherwise split its content.',
      { line },
    );
  }
}
