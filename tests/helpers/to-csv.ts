/** A cell as a spreadsheet app writes it: lists joined with " | ", quoted when it must be. */
function cell(value: unknown): string {
  const text = Array.isArray(value)
    ? value.join(' | ')
    : value === null || value === undefined
      ? ''
      : String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV file (CRLF line ends) of a header and rows, as tests upload it. */
export function toCsv(header: string[], rows: unknown[][]): string {
  return (
    [header.map(cell).join(','), ...rows.map((row) => row.map(cell).join(','))].join('\r\n') +
    '\r\n'
  );
}
