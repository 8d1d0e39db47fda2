import type { CellEdit } from '../../shared/upload-schemas.js';
import type { CellValue, SourceRow } from './rows/row-source-types.js';

/**
 * Cells changed in the app, kept with the upload (the app's copy of the data, never the user's
 * file): every reader of the rows (pre-flight, batches, the rows page) sees the row with them.
 */

/** The edits with `edit` in place of an earlier one of the same cell. */
export function withEdit(edits: readonly CellEdit[], edit: CellEdit): CellEdit[] {
  return [
    ...edits.filter(
      (e) => !(e.sheet === edit.sheet && e.rowIndex === edit.rowIndex && e.field === edit.field),
    ),
    edit,
  ];
}

/** By row index, the fields and values changed in `sheet`. */
function editsByRow(
  edits: readonly CellEdit[],
  sheet: string | null,
): Map<number, Map<string, string>> {
  const byRow = new Map<number, Map<string, string>>();
  for (const edit of edits) {
    if (edit.sheet !== sheet) continue;
    const cells = byRow.get(edit.rowIndex) ?? new Map<string, string>();
    cells.set(edit.field, edit.value);
    byRow.set(edit.rowIndex, cells);
  }
  return byRow;
}

/** The rows as read, with the edited cells' new text. */
export async function* rowsWithEdits(
  rows: AsyncIterable<SourceRow>,
  edits: readonly CellEdit[],
  sheet: string | null,
): AsyncIterable<SourceRow> {
  const byRow = editsByRow(edits, sheet);
  if (byRow.size === 0) {
    yield* rows;
    return;
  }
  for await (const row of rows) {
    const changed = byRow.get(row.rowIndex);
    if (!changed) {
      yield row;
      continue;
    }
    // The cells record has no prototype (a column may be called __proto__): copy it as such.
    const cells = Object.assign(Object.create(null) as Record<string, CellValue>, row.cells);
    for (const [field, value] of changed) cells[field] = value;
    yield { ...row, cells };
  }
}

/** The first rows an upload describes, with the edits among them. */
export function previewWithEdits(
  preview: readonly Record<string, CellValue>[],
  edits: readonly CellEdit[],
  sheet: string | null,
): Record<string, CellValue>[] {
  const byRow = editsByRow(edits, sheet);
  return preview.map((row, index) => {
    const changed = byRow.get(index);
    return changed ? { ...row, ...Object.fromEntries(changed) } : row;
  });
}
