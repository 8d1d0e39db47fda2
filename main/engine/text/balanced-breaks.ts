/**
 * Where lines break, given the widths of the units a paragraph is cut into. `greedy` fills each
 * line in turn (format 1's way). `balanced` uses as few lines as greedy does but makes them as
 * even as it can, breaking after punctuation where that costs little, and never leaves one unit
 * alone on the last line when another break avoids it.
 */
export interface BreakUnit {
  width: number;
  /**
   * Room between this unit and the next on the same line: the space's width, plus the letter
   * spacing after this unit's last letter (its width leaves that out); only that inside a word.
   */
  spaceAfter: number;
  /** Added to the cost of a break after this unit: negative after punctuation. */
  penalty: number;
  /** A break after this unit would split a word (between graphemes of an over-long word). */
  inWord: boolean;
  /** Words the unit holds ("xe hơi" is two): a last line of one word is a widow. */
  words: number;
}

const LINE = 100_000;
const RAGGED = 1_000;
const WIDOW = 30_000;
const IN_WORD = 5_000;

/**
 * The width of a line from `units[start]` with `units[index]` added to `lineWidth` (the width of
 * the units before it on the line): what both ways of breaking compare with the box's width, and
 * so the width a line is reported to need (lineWidthOf). One sum, added up in one order, so a box
 * as wide as a reported line breaks it the same way again.
 */
function withUnit(
  lineWidth: number,
  units: readonly BreakUnit[],
  start: number,
  index: number,
): number {
  const unit = units[index]!;
  return index === start ? unit.width : lineWidth + units[index - 1]!.spaceAfter + unit.width;
}

/** The width the breaks measured for the line of `units[start]` up to (not with) `units[end]`. */
export function lineWidthOf(units: readonly BreakUnit[], start: number, end: number): number {
  let lineWidth = 0;
  for (let index = start; index < end; index++) {
    lineWidth = withUnit(lineWidth, units, start, index);
  }
  return lineWidth;
}

/** Ends (exclusive unit indices) of each line. A unit wider than `width` gets a line alone. */
export function greedyBreaks(units: readonly BreakUnit[], width: number): number[] {
  const ends: number[] = [];
  let start = 0;
  let lineWidth = 0;
  units.forEach((_, i) => {
    const added = withUnit(lineWidth, units, start, i);
    if (i > start && added > width) {
      ends.push(i);
      start = i;
      lineWidth = withUnit(0, units, start, i);
    } else lineWidth = added;
  });
  if (units.length > 0) ends.push(units.length);
  return ends;
}

export function balancedBreaks(units: readonly BreakUnit[], width: number): number[] {
  const n = units.length;
  if (n <= 1) return greedyBreaks(units, width);
  const cost = new Float64Array(n + 1).fill(Infinity);
  const from = new Int32Array(n + 1);
  cost[0] = 0;
  for (let start = 0; start < n; start++) {
    if (cost[start] === Infinity) continue;
    let lineWidth = 0;
    for (let end = start + 1; end <= n; end++) {
      const unit = units[end - 1]!;
      lineWidth = withUnit(lineWidth, units, start, end - 1);
      if (lineWidth > width && end > start + 1) break;
      const slack = Math.max(0, width - lineWidth) / width;
      let lineCost = LINE + RAGGED * slack * slack;
      if (end < n) lineCost += unit.penalty + (unit.inWord ? IN_WORD : 0);
      else if (end - start === 1 && start > 0 && unit.words === 1) lineCost += WIDOW;
      const total = cost[start]! + lineCost;
      if (total < cost[end]!) {
        cost[end] = total;
        from[end] = start;
      }
    }
  }
  const ends: number[] = [];
  for (let end = n; end > 0; end = from[end]!) ends.push(end);
  return ends.reverse();
}
