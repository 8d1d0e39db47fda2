import { pageCount } from './layout-pages.js';
import {
  roundMm,
  sheetMarks,
  type SheetItem,
  type SheetMarks,
  type SheetPlan,
} from './sheet-plan.js';
import type { SheetOptions } from './sheet-options-schema.js';
import type { Layout } from './template-format.js';

// The options' type, for those that take options without validating them (the schema is in
// sheet-options-schema.ts, apart, so that the UI and the render threads load no schema library).
export type { SheetOptions };

/**
 * Sheets (N-up imposition): a batch's rows placed several to a printed sheet. Every length here is
 * in millimetres. The options a request gives are resolved against a preset and the layout's
 * trim into a SheetPlan: the grid, where each slot's item lies on the front and (duplex) on the
 * back, and where the marks go. The engine draws from the plan; the manifest and the UI's preview
 * read the same plan, so all three agree on where a row is.
 */

export const SHEET_SIZES = {
  a3: { label: 'A3', width: 297, height: 420 },
  a4: { label: 'A4', width: 210, height: 297 },
  a5: { label: 'A5', width: 148, height: 210 },
  letter: { label: 'US Letter', width: 215.9, height: 279.4 },
  legal: { label: 'US Legal', width: 215.9, height: 355.6 },
} as const;
export type SheetSizeName = keyof typeof SHEET_SIZES;
export const SHEET_SIZE_NAMES = Object.keys(SHEET_SIZES) as [SheetSizeName, ...SheetSizeName[]];

interface SheetPreset {
  label: string;
  size: SheetSizeName;
  orientation: 'portrait' | 'landscape';
  columns: number;
  rows: number;
  /** The cell an item is centred in (a label, an A6 quarter); absent: the item's own trim. */
  cell?: { width: number; height: number };
  gutter: { x: number; y: number };
  margin: number;
  marks: SheetMarks;
}

/**
 * Common sheets. Label grids are centred on the sheet, which is where the makers put them
 * (L7160: 7.21 mm sides and 15.15 mm top; 5160: 3/16 in sides and 1/2 in top).
 */
export const SHEET_PRESETS = {
  'a6-on-a4': {
    label: '4 × A6 on A4',
    size: 'a4',
    orientation: 'portrait',
    columns: 2,
    rows: 2,
    cell: { width: 105, height: 148 },
    gutter: { x: 0, y: 0 },
    margin: 0,
    marks: 'crop',
  },
  'a7-on-a4': {
    label: '8 × A7 on A4',
    size: 'a4',
    orientation: 'landscape',
    columns: 4,
    rows: 2,
    cell: { width: 74, height: 105 },
    gutter: { x: 0, y: 0 },
    margin: 0,
    marks: 'crop',
  },
  'business-cards-10': {
    label: '10 business cards (85 × 55 mm) on A4',
    size: 'a4',
    orientation: 'portrait',
    columns: 2,
    rows: 5,
    cell: { width: 85, height: 55 },
    gutter: { x: 0, y: 0 },
    margin: 0,
    marks: 'cut',
  },
  'avery-l7160': {
    label: 'Avery L7160: 21 labels 63.5 × 38.1 mm on A4',
    size: 'a4',
    orientation: 'portrait',
    columns: 3,
    rows: 7,
    cell: { width: 63.5, height: 38.1 },
    gutter: { x: 2.54, y: 0 },
    margin: 0,
    marks: 'none',
  },
  'avery-l7163': {
    label: 'Avery L7163: 14 labels 99.1 × 38.1 mm on A4',
    size: 'a4',
    orientation: 'portrait',
    columns: 2,
    rows: 7,
    cell: { width: 99.1, height: 38.1 },
    gutter: { x: 2.5, y: 0 },
    margin: 0,
    marks: 'none',
  },
  'avery-5160': {
    label: 'Avery 5160: 30 labels 2⅝ × 1 in on US Letter',
    size: 'letter',
    orientation: 'portrait',
    columns: 3,
    rows: 10,
    cell: { width: 66.675, height: 25.4 },
    gutter: { x: 3.175, y: 0 },
    margin: 0,
    marks: 'none',
  },
} as const satisfies Record<string, SheetPreset>;
export type SheetPresetName = keyof typeof SHEET_PRESETS;
export const SHEET_PRESET_NAMES = Object.keys(SHEET_PRESETS) as [
  SheetPresetName,
  ...SheetPresetName[],
];

/** A part is one PDF: at most this many sheets, so a batch of any size stays in bounded memory. */
export const MAX_SHEETS_PER_PART = 250;
/** Parts are drawn side by side on the render threads: 1,000 badges make 3 parts, not 1. */
export const DEFAULT_SHEETS_PER_PART = 100;
/**
 * Items in one part at the most, whatever its sheets hold: a part is one render job, and its
 * memory and time grow with its items (20,000 shelf tags on 1200 mm sheets held 650 MB for 30 s),
 * so a large custom sheet gets fewer sheets a part instead of an unbounded part.
 */
export const MAX_ITEMS_PER_PART = 5000;
/** Without a preset or a margin: room for a desktop printer's unprintable edge. */
const DEFAULT_MARGIN_MM = 5;
const DEFAULT_GUTTER_MM = 4;

export type SheetPlanResult =
  { ok: true; plan: SheetPlan } | { ok: false; problems: { path: string; message: string }[] };

/** How many cells of `cell` with `gutter` between fit in `room`. */
function fitCount(room: number, cell: number, gutter: number): number {
  return Math.max(0, Math.floor((room + gutter + 1e-6) / (cell + gutter)));
}

/** Resolves options against their preset and the item into a plan, or says what does not fit. */
export function planSheet(options: SheetOptions, item: SheetItem): SheetPlanResult {
  const preset: Partial<SheetPreset> = options.preset ? SHEET_PRESETS[options.preset] : {};
  const sizeOption = options.size ?? preset.size ?? 'a4';
  const base = typeof sizeOption === 'string' ? SHEET_SIZES[sizeOption] : sizeOption;
  const cell = preset.cell ?? { width: item.width, height: item.height };
  const gutter =
    options.gutter !== undefined
      ? { x: options.gutter, y: options.gutter }
      : (preset.gutter ?? { x: DEFAULT_GUTTER_MM, y: DEFAULT_GUTTER_MM });
  const margin = options.margin ?? preset.margin ?? DEFAULT_MARGIN_MM;
  const problems: { path: string; message: string }[] = [];
  if (item.width > cell.width + 0.01 || item.height > cell.height + 0.01) {
    problems.push({
      path: 'sheets.preset',
      message: `the layout is ${roundMm(item.width)} × ${roundMm(item.height)} mm and does not fit the preset's ${cell.width} × ${cell.height} mm cells; choose a layout of that size or another preset`,
    });
  }
  if (options.duplex && options.duplex !== 'none' && item.pages < 2) {
    problems.push({
      path: 'sheets.duplex',
      message:
        'duplex puts page 2 of each row on the back, and this layout has one page; leave duplex out or use a layout with a back page',
    });
  }
  const oriented = (orientation: 'portrait' | 'landscape') => {
    const long = Math.max(base.width, base.height);
    const short = Math.min(base.width, base.height);
    return orientation === 'portrait'
      ? { width: short, height: long }
      : { width: long, height: short };
  };
  const gridOn = (sheet: { width: number; height: number }) => {
    const fitColumns = fitCount(sheet.width - 2 * margin, cell.width, gutter.x);
    const fitRows = fitCount(sheet.height - 2 * margin, cell.height, gutter.y);
    return {
      columns: options.columns ?? preset.columns ?? fitColumns,
      rows: options.rows ?? preset.rows ?? fitRows,
    };
  };
  const orientation =
    options.orientation ??
    preset.orientation ??
    (() => {
      const p = gridOn(oriented('portrait'));
      const l = gridOn(oriented('landscape'));
      return l.columns * l.rows > p.columns * p.rows ? 'landscape' : 'portrait';
    })();
  const sheet = typeof sizeOption === 'string' ? oriented(orientation) : base;
  const { columns, rows } = gridOn(sheet);
  const marks = options.marks ?? preset.marks ?? 'crop';
  const common = {
    sheet,
    item,
    columns,
    rows,
    marks,
    duplex: options.duplex ?? 'none',
    sheetsPerPart: options.sheetsPerPart ?? DEFAULT_SHEETS_PER_PART,
    singleFiles: options.singleFiles ?? false,
    cutAndStack: options.cutAndStack ?? false,
  };
  const gridWidth = columns * cell.width + (columns - 1) * gutter.x;
  const gridHeight = rows * cell.height + (rows - 1) * gutter.y;
  if (columns < 1 || rows < 1) {
    problems.push({
      path: 'sheets',
      message: `not one ${roundMm(cell.width)} × ${roundMm(cell.height)} mm item fits a ${roundMm(sheet.width)} × ${roundMm(sheet.height)} mm sheet with ${margin} mm margins; choose a bigger sheet or smaller margins`,
    });
  } else if (
    gridWidth > sheet.width - 2 * margin + 0.01 ||
    gridHeight > sheet.height - 2 * margin + 0.01
  ) {
    problems.push({
      path: 'sheets',
      message: `${columns} × ${rows} items of ${roundMm(cell.width)} × ${roundMm(cell.height)} mm with ${gutter.x} mm gutters need ${roundMm(gridWidth)} × ${roundMm(gridHeight)} mm, and the sheet has ${roundMm(sheet.width - 2 * margin)} × ${roundMm(sheet.height - 2 * margin)} mm inside its margins; ask for fewer columns or rows, or leave them out for as many as fit`,
    });
  }
  if (problems.length > 0) return { ok: false, problems };
  const plan = gridPlan(common, cell, gutter);
  // A preset's cells can leave no room for marks between the items' bleeds (8 tickets of
  // 70 × 100 mm with 2 mm bleed in A7 cells fill an A4 sheet): marks asked for are then made room
  // for by butting the items on their trims, neighbours sharing a cut line, with the bleed kept on
  // the grid's outer edges and the marks in the margin around it.
  if (marks !== 'none' && options.gutter === undefined && sheetMarks(plan).length === 0) {
    const butted = gridPlan(common, { width: item.width, height: item.height }, { x: 0, y: 0 });
    if (sheetMarks(butted).length > 0) return { ok: true, plan: butted };
  }
  return { ok: true, plan };
}

/** The plan of a grid of cells that fits the sheet (planSheet checked that it does). */
function gridPlan(
  common: Pick<
    SheetPlan,
    | 'item'
    | 'columns'
    | 'rows'
    | 'marks'
    | 'duplex'
    | 'sheetsPerPart'
    | 'singleFiles'
    | 'cutAndStack'
  > & { sheet: { width: number; height: number } },
  cell: { width: number; height: number },
  gutter: { x: number; y: number },
): SheetPlan {
  const { sheet, item, columns, rows, sheetsPerPart, ...rest } = common;
  const gridWidth = columns * cell.width + (columns - 1) * gutter.x;
  const gridHeight = rows * cell.height + (rows - 1) * gutter.y;
  const left = (sheet.width - gridWidth) / 2;
  const top = (sheet.height - gridHeight) / 2;
  // Each item's bleed reaches at most half-way to its neighbour's trim, and on the grid's outer
  // edges at most to the sheet's edge.
  const room = {
    x: cell.width - item.width + gutter.x,
    y: cell.height - item.height + gutter.y,
  };
  const outer = {
    x: Math.min(item.bleed, left + (cell.width - item.width) / 2),
    y: Math.min(item.bleed, top + (cell.height - item.height) / 2),
  };
  return {
    width: sheet.width,
    height: sheet.height,
    item,
    cell,
    columns,
    rows,
    perSheet: columns * rows,
    gutter,
    left,
    top,
    bleed: {
      x: columns > 1 ? Math.min(item.bleed, room.x / 2) : outer.x,
      y: rows > 1 ? Math.min(item.bleed, room.y / 2) : outer.y,
    },
    outerBleed: outer,
    sheetsPerPart: Math.min(
      sheetsPerPart,
      Math.max(1, Math.floor(MAX_ITEMS_PER_PART / (columns * rows))),
    ),
    ...rest,
  };
}

/**
 * The preset whose cells hold an item of this size with the least paper left over, for the UI to
 * suggest (a 3 × 4 in badge: 4 × A6 on A4); null when none holds it.
 */
export function suggestSheetPreset(item: {
  width: number;
  height: number;
}): SheetPresetName | null {
  let best: { name: SheetPresetName; waste: number } | null = null;
  for (const name of SHEET_PRESET_NAMES) {
    const cell = SHEET_PRESETS[name].cell;
    if (item.width > cell.width + 0.01 || item.height > cell.height + 0.01) continue;
    const waste = 1 - (item.width * item.height) / (cell.width * cell.height);
    if (!best || waste < best.waste) best = { name, waste };
  }
  return best?.name ?? null;
}

/** A print layout's trim and bleed in mm and its pages; null for a pixel layout (no `page`). */
export function sheetItemOf(layout: Layout): SheetItem | null {
  const page = layout.page;
  if (!page) return null;
  const mm = page.unit === 'mm' ? 1 : 25.4;
  return {
    width: page.width * mm,
    height: page.height * mm,
    bleed: page.bleed * mm,
    pages: pageCount(layout),
  };
}
