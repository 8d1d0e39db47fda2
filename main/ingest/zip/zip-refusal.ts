import { formatBytes } from './zip-limits.js';

/**
 * Why the safe-zip reader refused an archive or an entry. The reader decides; the caller words
 * it for its file (a workbook, a template pack, a zip of images) through a `ZipWording`.
 */
export type ZipRefusal =
  /** Not a readable zip: what yauzl or zlib reported. */
  | { reason: 'damaged'; detail: string }
  | { reason: 'too-many-entries'; count: number; limit: number }
  | { reason: 'entry-too-large'; name: string; size: number; limit: number }
  | { reason: 'total-too-large'; limit: number }
  | { reason: 'ratio'; name: string; ratio: number; limit: number; appliesAbove: number }
  | { reason: 'inflates-past-declared'; name: string; allowed: number }
  | { reason: 'inflates-past-total'; limit: number }
  | { reason: 'unsafe-name'; name: string; problem: UnsafeNameProblem }
  | { reason: 'symlink'; name: string }
  | { reason: 'duplicate'; name: string }
  | { reason: 'encrypted'; name: string }
  | { reason: 'compression-method'; name: string; method: number }
  | { reason: 'missing'; name: string }
  | { reason: 'part-too-large'; name: string; limit: number };

/**
 * `outside`: an absolute path or a `..` segment (zip-slip); `backslash`: a backslash where only
 * `/` separates folders; `reserved`: control or reserved characters, empty or `.` segments,
 * Windows device names.
 */
export type UnsafeNameProblem =
  'absolute path' | 'invalid relative path' | 'backslash' | 'reserved';

export type LimitRefusal = Extract<
  ZipRefusal,
  {
    reason:
      | 'too-many-entries'
      | 'entry-too-large'
      | 'total-too-large'
      | 'ratio'
      | 'inflates-past-declared'
      | 'inflates-past-total';
  }
>;

/** Turns a refusal into the error the caller's user sees. */
export type ZipWording = (refusal: ZipRefusal) => Error;

const LIMIT_REASONS = new Set<ZipRefusal['reason']>([
  'too-many-entries',
  'entry-too-large',
  'total-too-large',
  'ratio',
  'inflates-past-declared',
  'inflates-past-total',
]);

export function isLimitRefusal(refusal: ZipRefusal): refusal is LimitRefusal {
  return LIMIT_REASONS.has(refusal.reason);
}

/** What a size limit refused, in words that fit after "…unsafe size: ". */
export function describeLimit(refusal: LimitRefusal): string {
  switch (refusal.reason) {
    case 'too-many-entries':
      return `it holds ${refusal.count} files (the limit is ${refusal.limit})`;
    case 'entry-too-large':
      return `${refusal.name} declares ${formatBytes(refusal.size)} (limit ${formatBytes(refusal.limit)})`;
    case 'total-too-large':
      return `the files declare more than ${formatBytes(refusal.limit)} in total`;
    case 'ratio':
      return `${refusal.name} expands ${Math.round(refusal.ratio)}:1 (limit ${refusal.limit}:1 for parts over ${formatBytes(refusal.appliesAbove)})`;
    case 'inflates-past-declared':
      return `${refusal.name} inflates past the ${formatBytes(refusal.allowed)} it declares`;
    case 'inflates-past-total':
      return `the files inflate past ${formatBytes(refusal.limit)} in total`;
  }
}
