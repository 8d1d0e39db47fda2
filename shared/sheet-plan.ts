/**
 * A resolved sheet (sheet-options.ts resolves a request's options into it): where each slot's
 * item lies on the front and the back, which rows a part's sheets hold, and where the marks go.
 * No schema here: the render threads draw sheets from a plan and load nothing they do not draw
 * with.
 */

export const SHEET_MARKS = ['none', 'cut', 'crop'] as const;
export type SheetMarks = (typeof SHEET_MARKS)[number];
export const DUPLEX_MODES = ['none', 'long-edge', 'short-edge'] as const;
export type DuplexMode = (typeof DUPLEX_MODES)[number];

/** A box on the sheet in mm from its top-left corner. */
export interface SheetBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The item a sheet holds: the layout's trim and bleed in mm, and its page count. */
export interface SheetItem {
  width: number;
  height: number;
  bleed: number;
  pages: number;
}

export interface SheetPlan {
  width: number;
  height: number;
  item: SheetItem;
  cell: { width: number; height: number };
  columns: number;
  rows: number;
  perSheet: number;
  gutter: { x: number; y: number };
  /** Top-left of the grid's first cell. */
  left: number;
  top: number;
  /** Bleed drawn between neighbouring items: their own, as far as the neighbours leave room. */
  bleed: { x: number; y: number };
  /** Bleed drawn on the grid's outer edges: the item's own, as far as the sheet leaves room. */
  outerBleed: { x: number; y: number };
  marks: SheetMarks;
  duplex: DuplexMode;
  sheetsPerPart: number;
  singleFiles: boolean;
  cutAndStack: boolean;
}

/** Millimetres to a hundredth, as the messages and marks give them. */
export const roundMm = (value: number) => Math.round(value * 100) / 100;

/** The bleed in mm drawn on each side of the item in `slot` on a side of the sheet. */
export function slotBleed(
  plan: SheetPlan,
  slot: number,
  side: 'front' | 'back' = 'front',
): { left: number; right: number; top: number; bottom: number } {
  const column = slot % plan.columns;
  const row = Math.floor(slot / plan.columns);
  // Where the slot lands on this side: a back is mirrored about the axis the paper turns on.
  const x = side === 'back' && plan.duplex === 'long-edge' ? plan.columns - 1 - column : column;
  const y = side === 'back' && plan.duplex === 'short-edge' ? plan.rows - 1 - row : row;
  return {
    left: x === 0 ? plan.outerBleed.x : plan.bleed.x,
    right: x === plan.columns - 1 ? plan.outerBleed.x : plan.bleed.x,
    top: y === 0 ? plan.outerBleed.y : plan.bleed.y,
    bottom: y === plan.rows - 1 ? plan.outerBleed.y : plan.bleed.y,
  };
}

/**
 * The trim box of slot `slot` (0 = top left, row by row). A back is the front mirrored about the
 * axis the paper turns on: long-edge about the vertical centre line, short-edge the horizontal.
 */
export function slotBox(plan: SheetPlan, slot: number, side: 'front' | 'back' = 'front'): SheetBox {
  const column = slot % plan.columns;
  const row = Math.floor(slot / plan.columns);
  const x =
    plan.left +
    column * (plan.cell.width + plan.gutter.x) +
    (plan.cell.width - plan.item.width) / 2;
  const y =
    plan.top + row * (plan.cell.height + plan.gutter.y) + (plan.cell.height - plan.item.height) / 2;
  const box = { x, y, width: plan.item.width, height: plan.item.height };
  if (side === 'front' || plan.duplex === 'none') return box;
  return plan.duplex === 'long-edge'
    ? { ...box, x: plan.width - x - plan.item.width }
    : { ...box, y: plan.height - y - plan.item.height };
}

/** Where the row at `ordinal` (0-based among the rows placed) lands: part, pages, position. */
export interface SheetPlace {
  /** 1-based part: sheets-<part>.pdf */
  part: number;
  /** 1-based sheet over the whole batch. */
  sheet: number;
  /** 1-based page of the front in its part's PDF; the back is the next page. */
  page: number;
  backPage: number | null;
  /** 1-based slot on the sheet, row by row from the top left. */
  position: number;
}

/**
 * Where the row at `ordinal` (0-based among the `count` rows placed) lands. Each part is one
 * printed stack. In turn (the default), rows fill each sheet before the next. Cut and stack lays
 * them down the part's stack: with S sheets in the part, its k-th row goes to sheet k mod S at
 * position ⌊k / S⌋, so one cut of the stack gives piles in row order, position 1's pile first.
 */
export function sheetPlace(plan: SheetPlan, ordinal: number, count: number): SheetPlace {
  const perPart = plan.perSheet * plan.sheetsPerPart;
  const part = Math.floor(ordinal / perPart);
  const inPart = ordinal - part * perPart;
  let sheetInPart = Math.floor(inPart / plan.perSheet);
  let slot = inPart % plan.perSheet;
  if (plan.cutAndStack) {
    const sheets = partSheetCount(plan, Math.min(perPart, count - part * perPart));
    sheetInPart = inPart % sheets;
    slot = Math.floor(inPart / sheets);
  }
  const sides = plan.duplex === 'none' ? 1 : 2;
  const page = sheetInPart * sides + 1;
  return {
    part: part + 1,
    sheet: part * plan.sheetsPerPart + sheetInPart + 1,
    page,
    backPage: sides === 2 ? page + 1 : null,
    position: slot + 1,
  };
}

/** How many sheets a part of `items` rows takes. */
export function partSheetCount(plan: SheetPlan, items: number): number {
  return Math.max(1, Math.ceil(items / plan.perSheet));
}

/**
 * The rows of one part (0-based within it) on each of its sheets, slot by slot. Each sheet's
 * rows fill its first slots, in either order: cut and stack leaves the gaps of a short last
 * round at the end of the later sheets.
 */
export function partSheets(plan: SheetPlan, items: number): number[][] {
  const sheets = partSheetCount(plan, items);
  return Array.from({ length: sheets }, (_, sheet) => {
    const slots: number[] = [];
    for (let slot = 0; slot < plan.perSheet; slot++) {
      const item = plan.cutAndStack ? slot * sheets + sheet : sheet * plan.perSheet + slot;
      // Later slots hold later rows in both orders: the first empty slot ends the sheet.
      if (item >= items) break;
      slots.push(item);
    }
    return slots;
  });
}

/** A line segment in mm on the sheet. */
export interface SheetMark {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

const MARK_LENGTH_MM = 5;
const MARK_GAP_MM = 1;
const MIN_MARK_MM = 1.5;

/**
 * The marks of a front sheet with `count` items. `crop`: two at every corner of each item, on its
 * trim lines, starting past its drawn bleed and stopping half-way to the neighbour (or at the
 * sheet edge). `cut`: on every distinct trim line, in the margin outside the grid, for a
 * guillotine that cuts the whole stack. A mark with less than 1.5 mm of room is left out.
 */
export function sheetMarks(plan: SheetPlan, count = plan.perSheet): SheetMark[] {
  if (plan.marks === 'none' || count === 0) return [];
  const boxes = Array.from({ length: Math.min(count, plan.perSheet) }, (_, slot) =>
    slotBox(plan, slot),
  );
  const marks: SheetMark[] = [];
  if (plan.marks === 'crop') {
    const halfX = (plan.cell.width - plan.item.width + plan.gutter.x) / 2;
    const halfY = (plan.cell.height - plan.item.height + plan.gutter.y) / 2;
    for (const [slot, box] of boxes.entries()) {
      const column = slot % plan.columns;
      const row = Math.floor(slot / plan.columns);
      const right = box.x + box.width;
      const bottom = box.y + box.height;
      const roomLeft = column === 0 ? box.x : halfX;
      const roomRight = column === plan.columns - 1 ? plan.width - right : halfX;
      const roomTop = row === 0 ? box.y : halfY;
      const roomBottom = row === plan.rows - 1 ? plan.height - bottom : halfY;
      // Marks start past the bleed drawn on their side.
      const bleed = slotBleed(plan, slot);
      const start = {
        left: bleed.left + MARK_GAP_MM,
        right: bleed.right + MARK_GAP_MM,
        top: bleed.top + MARK_GAP_MM,
        bottom: bleed.bottom + MARK_GAP_MM,
      };
      const lengthOf = (room: number, from: number) =>
        Math.min(MARK_LENGTH_MM, room - from - MARK_GAP_MM / 2);
      const left = lengthOf(roomLeft, start.left);
      const rightLength = lengthOf(roomRight, start.right);
      const up = lengthOf(roomTop, start.top);
      const down = lengthOf(roomBottom, start.bottom);
      for (const y of [box.y, bottom]) {
        if (left >= MIN_MARK_MM)
          marks.push({ x1: box.x - start.left - left, y1: y, x2: box.x - start.left, y2: y });
        if (rightLength >= MIN_MARK_MM)
          marks.push({
            x1: right + start.right,
            y1: y,
            x2: right + start.right + rightLength,
            y2: y,
          });
      }
      for (const x of [box.x, right]) {
        if (up >= MIN_MARK_MM)
          marks.push({ x1: x, y1: box.y - start.top - up, x2: x, y2: box.y - start.top });
        if (down >= MIN_MARK_MM)
          marks.push({
            x1: x,
            y1: bottom + start.bottom,
            x2: x,
            y2: bottom + start.bottom + down,
          });
      }
    }
    return marks;
  }
  // Guillotine marks: every trim line, outside the grid's outermost drawn bleed.
  const xs = [...new Set(boxes.flatMap((b) => [roundMm(b.x), roundMm(b.x + b.width)]))];
  const ys = [...new Set(boxes.flatMap((b) => [roundMm(b.y), roundMm(b.y + b.height)]))];
  const gridLeft = Math.min(...boxes.map((b) => b.x)) - plan.outerBleed.x;
  const gridRight = Math.max(...boxes.map((b) => b.x + b.width)) + plan.outerBleed.x;
  const gridTop = Math.min(...boxes.map((b) => b.y)) - plan.outerBleed.y;
  const gridBottom = Math.max(...boxes.map((b) => b.y + b.height)) + plan.outerBleed.y;
  const span = (from: number, to: number) => {
    const length = Math.min(MARK_LENGTH_MM, Math.abs(to - from) - MARK_GAP_MM);
    return length >= MIN_MARK_MM ? length : 0;
  };
  const up = span(gridTop, 0);
  const down = span(gridBottom, plan.height);
  const leftward = span(gridLeft, 0);
  const rightward = span(gridRight, plan.width);
  for (const x of xs) {
    if (up) marks.push({ x1: x, y1: gridTop - MARK_GAP_MM - up, x2: x, y2: gridTop - MARK_GAP_MM });
    if (down)
      marks.push({
        x1: x,
        y1: gridBottom + MARK_GAP_MM,
        x2: x,
        y2: gridBottom + MARK_GAP_MM + down,
      });
  }
  for (const y of ys) {
    if (leftward)
      marks.push({
        x1: gridLeft - MARK_GAP_MM - leftward,
        y1: y,
        x2: gridLeft - MARK_GAP_MM,
        y2: y,
      });
    if (rightward)
      marks.push({
        x1: gridRight + MARK_GAP_MM,
        y1: y,
        x2: gridRight + MARK_GAP_MM + rightward,
        y2: y,
      });
  }
  return marks;
}
