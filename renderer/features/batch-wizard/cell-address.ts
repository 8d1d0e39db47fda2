/** A spreadsheet address as people read it: column letters (A, …, Z, AA, …) and the line. */
export function cellAddress(columnIndex: number, line: number): string {
  let letters = '';
  for (let n = columnIndex + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return `${letters}${line}`;
}
