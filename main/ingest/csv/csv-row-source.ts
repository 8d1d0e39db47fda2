import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { CsvError, Info, Options } from 'csv-parse';
import { sniffDelimiter } from './csv-dialect.js';
import { createTextDecoder } from './decode-text.js';
import { dataRows } from '../rows/data-rows.js';
import { normaliseHeaders } from '../rows/header-fields.js';
import type { OpenedRowSource, SourceRow } from '../rows/row-source-types.js';
import { createRowCells, DEFAULT_MAX_ROWS } from '../rows/row-source-types.js';
import { SpreadsheetError } from '../spreadsheet-error.js';
import { CsvLimits, MAX_ROW_CHARS } from './csv-limits.js';
import { chooseEncoding } from './text-encoding.js';

/**
 * CSV rows, streamed (HOSTILE-INPUTS #12). Lenient where spreadsheet apps are (a bare quote
 * inside an unquoted cell is kept as text), strict where data would silently vanish: an
 * unterminated quote is an error naming the line where it opened, cells beyond the header are
 * a row-level problem, and blank lines are skipped. Cells stay text, so `=HYPERLINK(…)` is
 * never evaluated. Columns, cell and row sizes are capped as the text arrives (`CsvLimits`).
 *
 * The text reaches the parser in slices, one per turn of the event loop: the rows of a slice are
 * parsed and handed on, then other requests get their turn. A million short rows used to be
 * parsed and counted in runs of up to 1.5 s that held every other request up (whole chunks
 * buffered in the streams went through in one go of promise callbacks).
 */

const SNIFF_CHARS = 64 * 1024;
/** Characters written to the parser per turn: at most 4,096 rows, some ms of work. */
const SLICE_CHARS = 8 * 1024;
/**
 * The parser's own cap, in UTF-8 bytes of a record's cells: a backstop that CsvLimits (in
 * characters, quotes and delimiters included) always reaches first.
 */
const MAX_RECORD_BYTES = 4 * MAX_ROW_CHARS;

export interface CsvOpenOptions {
  encoding?: string;
  maxRows?: number;
}

export async function openCsvRowSource(
  file: string,
  options: CsvOpenOptions = {},
): Promise<OpenedRowSource> {
  const choice = await chooseEncoding(file, options.encoding);
  const input = createReadStream(file);
  const text = input.pipe(createTextDecoder(choice));
  input.on('error', (error) => text.destroy(error));
  const { sample, rest } = await readSample(text).catch((error: unknown) => {
    input.destroy();
    throw error;
  });
  const delimiter = sniffDelimiter(sample);
  const locator = createLineLocator();
  const parser = parse({
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    quote: '"',
    escape: '"',
    relax_quotes: true,
    relax_column_count: true,
    skip_empty_lines: true,
    max_record_size: MAX_RECORD_BYTES,
    // The typings insist on_record returns string[]; it may return any value (documented).
    on_record: ((record: string[], context: Info) =>
      locator.locate(record, context)) as unknown as Options['on_record'],
  });
  const source = (async function* () {
    if (sample.length > 0) yield sample;
    yield* rest;
  })();
  const feeding = feed(source, parser, new CsvLimits(delimiter));
  const records = readRecords(parser as unknown as AsyncIterable<LocatedRecord>, locator);
  const release = async (): Promise<void> => {
    parser.destroy();
    text.destroy();
    input.destroy();
    await feeding.catch(() => undefined);
  };

  try {
    const header = await records.next();
    if (header.done)
      throw new SpreadsheetError('no-rows-found', 'The file has no rows: not even a header row.');
    const { fields, renamedFields } = normaliseHeaders(header.value.cells);
    const rows = await dataRows(
      toRows(records, fields, options.maxRows ?? DEFAULT_MAX_ROWS),
      release,
      () => new SpreadsheetError('no-rows-found', 'The file has a header row but no data rows.'),
    );
    return {
      kind: 'csv',
      fields,
      renamedFields,
      encoding: choice.encoding,
      delimiter,
      ...rows,
    };
  } catch (error) {
    await release();
    throw error;
  }
}

async function readSample(
  text: Readable,
): Promise<{ sample: string; rest: AsyncIterable<string> }> {
  const iterator = (text as AsyncIterable<Buffer | string>)[Symbol.asyncIterator]();
  let sample = '';
  while (sample.length < SNIFF_CHARS) {
    const next = await iterator.next();
    if (next.done) break;
    sample += String(next.value);
  }
  const rest = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield String(next.value);
      }
    },
  };
  return { sample, rest };
}

/**
 * Writes text into the parser in slices, with backpressure, each slice checked against the
 * limits first; a source error or a limit crossed ends the parser with that error.
 */
async function feed(
  source: AsyncIterable<string>,
  parser: ReturnType<typeof parse>,
  limits: CsvLimits,
): Promise<void> {
  try {
    for await (const chunk of source) {
      for (let start = 0; start < chunk.length;) {
        const end = sliceEnd(chunk, start);
        const slice = chunk.slice(start, end);
        start = end;
        limits.scan(slice);
        const accepted = parser.write(slice);
        if (parser.destroyed) return;
        if (!accepted) await drained(parser);
        if (parser.destroyed) return;
        // The slice's rows are read in the promise callbacks that run before this resolves;
        // writing the next slice at once would let them pile up into one long run.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
    parser.end();
  } catch (error) {
    parser.destroy(error as Error);
  }
}

/** Where the slice from `start` ends: never between the two halves of a surrogate pair. */
function sliceEnd(text: string, start: number): number {
  let end = Math.min(text.length, start + SLICE_CHARS);
  const last = text.charCodeAt(end - 1);
  if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
  return end;
}

function drained(parser: ReturnType<typeof parse>): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      parser.off('drain', done);
      parser.off('close', done);
      resolve();
    };
    parser.on('drain', done);
    parser.on('close', done);
  });
}

interface LocatedRecord {
  cells: string[];
  line: number;
}

/**
 * Gives each record the line it starts on, in parse order (csv-parse's `on_record`), so an error
 * can name the line after the last good record even when queued records were never read.
 * csv-parse counts CR and LF separately inside quoted cells, so its line count runs ahead by
 * one per CRLF in a cell; that is corrected here.
 */
function createLineLocator() {
  let crlfInCells = 0;
  let lastEndLine = 0;
  let emptyLinesSeen = 0;
  return {
    locate(record: string[], context: Info): LocatedRecord {
      let breaks = 0;
      for (const cell of record) {
        crlfInCells += countMatches(cell, '\r\n');
        breaks += countLineBreaks(cell);
      }
      lastEndLine = context.lines - crlfInCells;
      emptyLinesSeen = context.empty_lines;
      return { cells: record, line: lastEndLine - breaks };
    },
    /** The line where the record that failed to parse starts. */
    failedRecordLine(error: { empty_lines?: number }): number {
      const emptyBefore = Math.max(0, (error.empty_lines ?? emptyLinesSeen) - emptyLinesSeen);
      return lastEndLine + 1 + emptyBefore;
    },
  };
}

type LineLocator = ReturnType<typeof createLineLocator>;

async function* readRecords(
  parser: AsyncIterable<LocatedRecord>,
  locator: LineLocator,
): AsyncGenerator<LocatedRecord> {
  try {
    yield* parser;
  } catch (error) {
    throw describeCsvError(error, locator);
  }
}

function describeCsvError(error: unknown, locator: LineLocator): unknown {
  if (error instanceof SpreadsheetError || !isCsvError(error)) return error;
  const line = locator.failedRecordLine(error as unknown as { empty_lines?: number });
  if (error.code === 'CSV_MAX_RECORD_SIZE') {
    return new SpreadsheetError(
      'row-too-large',
      `Line ${line}: the row holds more than ${MAX_ROW_CHARS.toLocaleString('en')} characters, the most one row may hold. ` +
        'If it should be short, a quote (") in it is probably never closed; otherwise split its content.',
      { line },
    );
  }
  if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
    return new SpreadsheetError(
      'invalid-spreadsheet',
      `Line ${line}: a quoted cell opens here and is never closed, so the rest of the file would be read as one cell. ` +
        'Close the quote (or remove the stray ") and upload the file again.',
      { line },
    );
  }
  return new SpreadsheetError(
    'invalid-spreadsheet',
    `Line ${line}: the CSV cannot be read (${error.message}).`,
    {
      line,
    },
  );
}

function isCsvError(error: unknown): error is CsvError {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && code.startsWith('CSV_');
}

async function* toRows(
  records: AsyncGenerator<LocatedRecord>,
  fields: string[],
  maxRows: number,
): AsyncGenerator<SourceRow> {
  let rowIndex = 0;
  for await (const { cells, line } of records) {
    // Blank lines and rows of empty cells (",,,") are not data.
    if (cells.every((cell) => cell.trim() === '')) continue;
    if (rowIndex >= maxRows) {
      throw new SpreadsheetError(
        'too-many-rows',
        `The file has more than ${maxRows.toLocaleString('en')} data rows; split it into smaller files.`,
        { line },
      );
    }
    const row = createRowCells(fields, (index) =>
      index < cells.length ? (cells[index] as string) : null,
    );
    const problems: string[] = [];
    const extra = cells.slice(fields.length);
    if (extra.some((cell) => cell.trim() !== '')) {
      problems.push(
        `Line ${line} has ${cells.length} cells but the header has ${fields.length}; ` +
          `the extra cells were not used: ${quoteSome(extra)}.`,
      );
    }
    yield { rowIndex, line, cells: row, problems };
    rowIndex += 1;
  }
}

/** The first few cells, each cut short, for a message that stays readable (and small). */
function quoteSome(cells: string[], most = 5, chars = 40): string {
  const shown = cells
    .slice(0, most)
    .map((cell) => JSON.stringify(cell.length > chars ? `${cell.slice(0, chars)}…` : cell));
  return cells.length > most
    ? `${shown.join(', ')} and ${cells.length - most} more`
    : shown.join(', ');
}

function countMatches(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + needle.length))
    count += 1;
  return count;
}

/** CRLF, LF and a lone CR each count as one line break. */
function countLineBreaks(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (char === 0x0a) count += 1;
    else if (char === 0x0d && text.charCodeAt(i + 1) !== 0x0a) count += 1;
  }
  return count;
}
