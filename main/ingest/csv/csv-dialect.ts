/**
 * Guesses the field delimiter from the first lines of decoded text, counting candidates outside
 * quotes: the delimiter is the one whose count is the same on most lines (and non-zero on the
 * header). Ties go to the order below, so a one-column file reads as comma-separated.
 */

export const DELIMITER_CANDIDATES = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITER_CANDIDATES)[number];

const SAMPLE_LINES = 20;

export function sniffDelimiter(sample: string): Delimiter {
  const counts: number[][] = [];
  let current = DELIMITER_CANDIDATES.map(() => 0);
  let inQuotes = false;
  for (let i = 0; i < sample.length && counts.length < SAMPLE_LINES; i += 1) {
    const char = sample[i];
    if (char === '"') {
      inQuotes = !inQuotes;
    } else if (!inQuotes && (char === '\n' || char === '\r')) {
      if (char === '\r' && sample[i + 1] === '\n') i += 1;
      if (current.some((count) => count > 0)) counts.push(current);
      current = DELIMITER_CANDIDATES.map(() => 0);
    } else if (!inQuotes) {
      const index = DELIMITER_CANDIDATES.indexOf(char as Delimiter);
      if (index !== -1) current[index] = (current[index] ?? 0) + 1;
    }
  }
  if (current.some((count) => count > 0) && counts.length < SAMPLE_LINES) counts.push(current);
  const header = counts[0];
  if (!header) return ',';
  let best: Delimiter = ',';
  let bestScore = 0;
  DELIMITER_CANDIDATES.forEach((candidate, index) => {
    const expected = header[index] ?? 0;
    if (expected === 0) return;
    const consistent = counts.filter((line) => line[index] === expected).length / counts.length;
    // Consistency first; among equally consistent candidates, more columns wins.
    const score = consistent * 1000 + Math.min(expected, 999);
    if (score > bestScore) {
      best = candidate;
      bestScore = score;
    }
  });
  return best;
}

export function describeDelimiter(delimiter: string): string {
  return delimiter === '\t' ? 'tab' : delimiter;
}
