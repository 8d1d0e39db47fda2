import { z } from 'zod';
import {
  DEFAULT_SHEETS_PER_PART,
  MAX_ITEMS_PER_PART,
  MAX_SHEETS_PER_PART,
  SHEET_PRESET_NAMES,
  SHEET_SIZE_NAMES,
} from './sheet-options.js';
import { DUPLEX_MODES, SHEET_MARKS } from './sheet-plan.js';

const Millimetres = (max: number) => z.number().min(0).max(max);

/**
 * A request's sheet options, validated (sheet-options.ts resolves them into a plan). Apart from
 * sheet-options.ts so that what only resolves or draws sheets loads no schema library.
 */
export const SheetOptions = z
  .object({
    preset: z
      .enum(SHEET_PRESET_NAMES)
      .optional()
      .describe(
        `A common sheet (${SHEET_PRESET_NAMES.join(', ')}); the other options given override its values.`,
      ),
    size: z
      .union([
        z.enum(SHEET_SIZE_NAMES),
        z
          .object({ width: z.number().min(20).max(1200), height: z.number().min(20).max(1200) })
          .strict(),
      ])
      .optional()
      .describe('The sheet: a4 (the default), a3, a5, letter, legal, or { width, height } in mm.'),
    orientation: z
      .enum(['portrait', 'landscape'])
      .optional()
      .describe('Default: the one that holds more items.'),
    columns: z.number().int().min(1).max(40).optional().describe('Default: as many as fit.'),
    rows: z.number().int().min(1).max(40).optional().describe('Default: as many as fit.'),
    gutter: Millimetres(100)
      .optional()
      .describe('mm between neighbouring items (default 4, presets their own).'),
    margin: Millimetres(100)
      .optional()
      .describe('Least mm between the items and the sheet edge (default 5; the grid is centred).'),
    marks: z
      .enum(SHEET_MARKS)
      .optional()
      .describe(
        '`crop`: marks at every item’s corners (default); `cut`: guillotine marks in the sheet margin on every cut line; `none`.',
      ),
    duplex: z
      .enum(DUPLEX_MODES)
      .optional()
      .describe(
        "`long-edge` or `short-edge`: every front sheet is followed by a back sheet with each row's page 2 mirrored behind it, as the printer flips the paper; `none` (default).",
      ),
    sheetsPerPart: z
      .number()
      .int()
      .min(1)
      .max(MAX_SHEETS_PER_PART)
      .optional()
      .describe(
        `Sheets per PDF part (default ${DEFAULT_SHEETS_PER_PART}, at most ${MAX_SHEETS_PER_PART}, and fewer when the sheets would hold over ${MAX_ITEMS_PER_PART.toLocaleString('en')} items); a duplex sheet is two pages.`,
      ),
    singleFiles: z
      .boolean()
      .optional()
      .describe("Also put each row's own PDF in the bundle (default false: the sheets only)."),
    cutAndStack: z
      .boolean()
      .optional()
      .describe(
        'Lay the rows of each part down the stack instead of across each sheet: after one guillotine cut of the printed part, every pile is in row order and the piles follow each other (position 1 holds the first rows). Default false: rows fill each sheet in turn.',
      ),
  })
  .strict()
  .describe(
    'Place the rows N per printed sheet (pdf of a print layout): the bundle holds sheets-1.pdf, sheets-2.pdf … and manifest.csv says which sheet, page and position holds each row.',
  );
export type SheetOptions = z.infer<typeof SheetOptions>;
