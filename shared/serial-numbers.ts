import { MAX_SERIAL } from './batch-limits.js';
import type { SerialNumbering } from './batch-schemas.js';

/**
 * A batch binding's serial numbers. Row n is the row's position in the batch's source (0-based),
 * never a counter, so a replayed, resumed or clustered row, and a rerun of chosen rows, draws the
 * number its position gives.
 */

export const SERIAL_DEFAULTS = { start: 1, step: 1, pad: 0, prefix: '', suffix: '' } as const;

/** The number of row n; may be out of range (serialRangeProblem says so). */
export function serialNumber(numbering: SerialNumbering, n: number): number {
  return (numbering.start ?? SERIAL_DEFAULTS.start) + (numbering.step ?? SERIAL_DEFAULTS.step) * n;
}

/** Row n's serial as printed: `TIX-001006`. */
export function serialText(numbering: SerialNumbering, n: number): string {
  const digits = String(serialNumber(numbering, n)).padStart(
    numbering.pad ?? SERIAL_DEFAULTS.pad,
    '0',
  );
  return `${numbering.prefix ?? ''}${digits}${numbering.suffix ?? ''}`;
}

/** Why row n has no serial (a count down below 0, or past exact integers); null when it has one. */
export function serialRangeProblem(numbering: SerialNumbering, n: number): string | null {
  const value = serialNumber(numbering, n);
  if (value < 0) {
    return `row ${n + 1} would be numbered ${value}: counting from ${numbering.start ?? SERIAL_DEFAULTS.start} by ${numbering.step ?? SERIAL_DEFAULTS.step}, serials go below 0 after row ${lastRowAtOrAbove0(numbering)}; start higher or take a smaller step`;
  }
  if (value > MAX_SERIAL)
    return `row ${n + 1} would be numbered past ${MAX_SERIAL}; start lower or take a smaller step`;
  return null;
}

/** The last 1-based row a count down still numbers at 0 or above. */
function lastRowAtOrAbove0(numbering: SerialNumbering): number {
  const start = numbering.start ?? SERIAL_DEFAULTS.start;
  const step = numbering.step ?? SERIAL_DEFAULTS.step;
  return Math.floor(start / -step) + 1;
}
