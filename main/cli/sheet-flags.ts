import {
  MAX_ITEMS_PER_PART,
  MAX_SHEETS_PER_PART,
  SHEET_PRESET_NAMES,
  SHEET_PRESETS,
  SHEET_SIZES,
  type SheetOptions,
  type SheetPresetName,
  type SheetSizeName,
} from '../../shared/sheet-options.js';
import { DUPLEX_MODES, SHEET_MARKS } from '../../shared/sheet-plan.js';
import { UsageError } from './usage-error.js';

/** The sheet flags of `render-desk batch`, as parseArgs gives them. */
export interface SheetFlags {
  sheets?: string | undefined;
  duplex?: string | undefined;
  marks?: string | undefined;
  'sheets-per-part'?: string | undefined;
  'cut-and-stack'?: boolean | undefined;
}

const PRESET_LINES = SHEET_PRESET_NAMES.map(
  (name) => `                           ${name.padEnd(18)} ${SHEET_PRESETS[name].label}`,
).join('\n');

export const SHEETS_HELP = `Sheets (several rows to a printed page; PDF of a print layout such as badge or a4):
  --sheets <preset|size>   place the rows N-up on sheets: the bundle holds sheets-1.pdf, … and
                           manifest.csv says which sheet and position holds each row. A preset:
${PRESET_LINES}
                           or a paper size (${Object.keys(SHEET_SIZES).join(', ')}): as many as fit
  --duplex <mode>          ${DUPLEX_MODES.filter((m) => m !== 'none').join(' or ')}: each front sheet is
                           followed by its back with every row's page 2 behind it (default none)
  --marks <kind>           crop (marks at each item's corners), cut (guillotine marks in the
                           margin) or none; default: the preset's own, else crop
  --sheets-per-part <n>    sheets per PDF file (1 to ${MAX_SHEETS_PER_PART}, default 100; fewer
                           where they would hold over ${MAX_ITEMS_PER_PART.toLocaleString('en')} items)
  --cut-and-stack          lay the rows down each part's stack: after one guillotine cut every
                           pile is in row order, pile 1 first (default: each sheet in turn)`;

/**
 * The batch's `sheets` option from the flags, the same object POST /v1/render-batches takes; or
 * undefined without --sheets. A flag the sheets need without --sheets, or a name that is not
 * known, is a usage error listing the names that are.
 */
export function sheetOptionsFromFlags(flags: SheetFlags): SheetOptions | undefined {
  const { sheets, duplex, marks } = flags;
  const perPart = flags['sheets-per-part'];
  if (sheets === undefined) {
    const stray = (['duplex', 'marks', 'sheets-per-part', 'cut-and-stack'] as const).filter(
      (name) => flags[name] !== undefined,
    );
    if (stray.length > 0)
      throw new UsageError(
        `batch: ${stray.map((n) => `--${n}`).join(' and ')} need --sheets <preset|size> (see render-desk batch --help)`,
      );
    return undefined;
  }
  const options: SheetOptions = {};
  const name = sheets.trim().toLowerCase();
  if ((SHEET_PRESET_NAMES as readonly string[]).includes(name))
    options.preset = name as SheetPresetName;
  else if (name in SHEET_SIZES) options.size = name as SheetSizeName;
  else
    throw new UsageError(
      `batch: --sheets must be a preset (${SHEET_PRESET_NAMES.join(', ')}) or a paper size (${Object.keys(SHEET_SIZES).join(', ')}); got "${sheets}"`,
    );
  if (duplex !== undefined) {
    if (!(DUPLEX_MODES as readonly string[]).includes(duplex))
      throw new UsageError(
        `batch: --duplex must be one of ${DUPLEX_MODES.join(', ')}; got "${duplex}"`,
      );
    options.duplex = duplex as SheetOptions['duplex'];
  }
  if (marks !== undefined) {
    if (!(SHEET_MARKS as readonly string[]).includes(marks))
      throw new UsageError(
        `batch: --marks must be one of ${SHEET_MARKS.join(', ')}; got "${marks}"`,
      );
    options.marks = marks as SheetOptions['marks'];
  }
  if (perPart !== undefined) {
    const n = Number(perPart);
    if (!Number.isInteger(n) || n < 1 || n > MAX_SHEETS_PER_PART)
      throw new UsageError(
        `batch: --sheets-per-part must be a whole number from 1 to ${MAX_SHEETS_PER_PART}; got "${perPart}"`,
      );
    options.sheetsPerPart = n;
  }
  if (flags['cut-and-stack']) options.cutAndStack = true;
  return options;
}
