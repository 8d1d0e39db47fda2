/**
 * A result's row as the spreadsheet counts it (from 1); a batch of several sizes makes one
 * result per row and size, so its label says both ("2 · story").
 */
export function rowLabel(
  rowIndex: number,
  targets: readonly string[] | undefined,
): number | string {
  if (!targets || targets.length < 2) return rowIndex + 1;
  return `${Math.floor(rowIndex / targets.length) + 1} · ${targets[rowIndex % targets.length]}`;
}
