/**
 * Row numbers said compactly: runs become ranges ("9–12"), the rest stay a list ("1, 11, 21"),
 * as cut and stack spreads a sheet's rows down the stack.
 */
export function rowRanges(numbers: readonly number[]): string {
  const sorted = [...numbers].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let end = i;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    // Two in a row read better as "3, 4" than as a range.
    if (end - i >= 2) parts.push(`${sorted[i]}–${sorted[end]}`);
    else for (let k = i; k <= end; k++) parts.push(String(sorted[k]));
    i = end + 1;
  }
  return parts.join(', ');
}
