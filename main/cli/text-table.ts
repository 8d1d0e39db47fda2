/** Columns padded to their widest cell; numbers right-aligned. */
export function textTable(
  header: readonly string[],
  rows: readonly (readonly (string | number)[])[],
): string {
  const cells = [header, ...rows.map((row) => row.map(String))];
  const widths = header.map((_, column) =>
    Math.max(...cells.map((row) => [...(row[column] ?? '')].length)),
  );
  const numeric = header.map(
    (_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === 'number'),
  );
  return cells
    .map((row) =>
      row
        .map((cell, column) => {
          const pad = ' '.repeat((widths[column] ?? 0) - [...cell].length);
          return numeric[column] ? pad + cell : cell + pad;
        })
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
