import { SaxesParser } from 'saxes';
import type { CellValue } from '../rows/row-source-types.js';
import { SpreadsheetError } from '../spreadsheet-error.js';
import { convertCell, type CellContext, type RawCell } from './xlsx-cell-value.js';
import { localName } from './xml-part.js';

/**
 * The rows of one worksheet in a single pass over its XML. Only `<sheetData>` is read: reading
 * stops at its end, so what follows (merged ranges, data validations over a million rows,
 * conditional formats) costs nothing. Rows with no value are skipped; a row's values are
 * indexed by column (0 = A); merged areas stay blank except their top-left cell, as stored.
 * Rows and cells without an `r` attribute follow the one before, as the format allows.
 */

export interface RawRow {
  /** The worksheet row number. */
  line: number;
  values: CellValue[];
}

/** XFD, the last column Excel has: a reference beyond it is damage, not a wider sheet. */
const MAX_COLUMN = 16_384;

interface OpenRow {
  line: number;
  values: CellValue[];
  hasValue: boolean;
}

interface OpenCell extends RawCell {
  column: number;
}

/** Yields the rows completed by each chunk of the sheet's text, in order. */
export async function* readSheetRows(
  text: AsyncIterable<string>,
  context: CellContext,
): AsyncGenerator<RawRow[]> {
  const parser = new SaxesParser();
  let ready: RawRow[] = [];
  let inSheetData = false;
  let finished = false;
  let row: OpenRow | null = null;
  let lastLine = 0;
  let lastColumn = 0;
  let cell: OpenCell | null = null;
  let into: 'value' | 'inline' | null = null;
  let inInline = false;
  let phonetic = 0;

  const addText = (piece: string): void => {
    if (into === 'value') (cell as OpenCell).value += piece;
    else if (into === 'inline') (cell as OpenCell).inline += piece;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('opentag', (node) => {
    const attributes = node.attributes as Record<string, string>;
    switch (localName(node.name)) {
      case 'c':
        if (row) {
          const column = columnOf(attributes.r, lastColumn);
          lastColumn = column;
          const style = attributes.s === undefined ? 0 : Number(attributes.s);
          cell = { column, type: attributes.t ?? 'n', style, value: undefined, inline: undefined };
        }
        break;
      case 'v':
        if (cell) {
          cell.value = '';
          into = 'value';
        }
        break;
      case 'is':
        if (cell) {
          cell.inline = '';
          inInline = true;
        }
        break;
      case 't':
        if (cell && inInline && phonetic === 0) into = 'inline';
        break;
      case 'rPh':
        phonetic += 1;
        break;
      case 'row':
        if (inSheetData) {
          const line = lineOf(attributes.r, lastLine);
          lastLine = line;
          lastColumn = 0;
          row = { line, values: [], hasValue: false };
        }
        break;
      case 'sheetData':
        inSheetData = true;
        break;
      default:
        break;
    }
  });
  parser.on('closetag', (node) => {
    switch (localName(node.name)) {
      case 'v':
      case 't':
        into = null;
        break;
      case 'is':
        inInline = false;
        break;
      case 'rPh':
        phonetic -= 1;
        break;
      case 'c':
        if (row && cell) {
          const value = convertCell(cell, context);
          if (value !== null) {
            const { values } = row;
            while (values.length < cell.column - 1) values.push(null);
            values[cell.column - 1] = value;
            if (typeof value !== 'string' || value.trim() !== '') row.hasValue = true;
          }
        }
        cell = null;
        break;
      case 'row':
        if (row?.hasValue) ready.push({ line: row.line, values: row.values });
        row = null;
        break;
      case 'sheetData':
        inSheetData = false;
        finished = true;
        break;
      default:
        break;
    }
  });

  for await (const chunk of text) {
    parser.write(chunk);
    if (ready.length > 0) {
      yield ready;
      ready = [];
    }
    if (finished) return;
  }
  parser.close();
  if (ready.length > 0) yield ready;
}

function lineOf(reference: string | undefined, previous: number): number {
  const line = reference === undefined ? NaN : Number(reference);
  return Number.isInteger(line) && line >= 1 ? line : previous + 1;
}

/** The column of a cell reference (`AB12` → 28); without one, the next column. */
function columnOf(reference: string | undefined, previous: number): number {
  if (reference === undefined) return previous + 1;
  let column = 0;
  for (let i = 0; i < reference.length; i += 1) {
    const code = reference.charCodeAt(i) | 0x20; // lower case
    if (code < 0x61 || code > 0x7a) break;
    column = column * 26 + (code - 0x60);
    if (column > MAX_COLUMN) break;
  }
  if (column === 0) return previous + 1;
  if (column > MAX_COLUMN) {
    throw new SpreadsheetError(
      'invalid-spreadsheet',
      `The cell reference "${reference.slice(0, 20)}" is beyond column XFD, the last one a sheet can have.`,
    );
  }
  return column;
}
