import { describe, expect, it } from 'vitest';
import { planSheet, suggestSheetPreset, type SheetOptions } from '../../shared/sheet-options.js';
import {
  partSheets,
  sheetMarks,
  sheetPlace,
  slotBox,
  slotBleed,
  type SheetItem,
  type SheetPlan,
} from '../../shared/sheet-plan.js';

const badge: SheetItem = { width: 76.2, height: 101.6, bleed: 3.175, pages: 2 };
const label = (width: number, height: number): SheetItem => ({ width, height, bleed: 0, pages: 1 });

function plan(options: SheetOptions, item: SheetItem): SheetPlan {
  const planned = planSheet(options, item);
  if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
  return planned.plan;
}

describe('sheet plans', () => {
  it('puts the Avery grids where the makers print them', () => {
    const l7160 = plan({ preset: 'avery-l7160' }, label(63.5, 38.1));
    expect([l7160.columns, l7160.rows]).toEqual([3, 7]);
    expect(slotBox(l7160, 0).x).toBeCloseTo(7.21, 2);
    expect(slotBox(l7160, 0).y).toBeCloseTo(15.15, 2);
    expect(slotBox(l7160, 1).x - slotBox(l7160, 0).x).toBeCloseTo(66.04, 2);
    const l7163 = plan({ preset: 'avery-l7163' }, label(99.1, 38.1));
    expect(slotBox(l7163, 0).x).toBeCloseTo(4.65, 2);
    expect(l7163.perSheet).toBe(14);
    const a5160 = plan({ preset: 'avery-5160' }, label(66.675, 25.4));
    expect([a5160.width, a5160.height]).toEqual([215.9, 279.4]);
    // 3/16 in from the side, 1/2 in from the top, 2 3/4 in from one label to the next.
    expect(slotBox(a5160, 0).x / 25.4).toBeCloseTo(0.1875, 4);
    expect(slotBox(a5160, 0).y / 25.4).toBeCloseTo(0.5, 4);
    expect((slotBox(a5160, 1).x - slotBox(a5160, 0).x) / 25.4).toBeCloseTo(2.75, 4);
    expect(a5160.perSheet).toBe(30);
  });

  it('centres a 3 × 4 in badge in each quarter of 4 × A6 on A4, which it suggests for it', () => {
    expect(suggestSheetPreset(badge)).toBe('a6-on-a4');
    expect(suggestSheetPreset({ width: 85, height: 55 })).toBe('business-cards-10');
    expect(suggestSheetPreset({ width: 300, height: 300 })).toBeNull();
    const p = plan({ preset: 'a6-on-a4' }, badge);
    expect(p.perSheet).toBe(4);
    const first = slotBox(p, 0);
    expect(first.x).toBeCloseTo((105 - 76.2) / 2, 6);
    expect(first.y).toBeCloseTo(0.5 + (148 - 101.6) / 2, 6);
    expect(slotBox(p, 3).x).toBeCloseTo(105 + (105 - 76.2) / 2, 6);
  });

  it('fits as many as it can, in the orientation that holds more', () => {
    // 85 × 55 cards with 4 mm gutters and 5 mm margins: 2 × 4 portrait, 3 × 3 landscape.
    const p = plan({}, label(85, 55));
    expect([p.width, p.height, p.columns, p.rows]).toEqual([297, 210, 3, 3]);
    const wide = plan({}, label(90, 40));
    expect(wide.columns * wide.rows).toBeGreaterThanOrEqual(12);
    const forced = plan({ orientation: 'landscape', columns: 2, rows: 2 }, label(85, 55));
    expect([forced.width, forced.height, forced.perSheet]).toEqual([297, 210, 4]);
  });

  it('says what does not fit', () => {
    const tooMany = planSheet({ columns: 3, rows: 3 }, badge);
    expect(tooMany.ok).toBe(false);
    if (!tooMany.ok) expect(tooMany.problems[0]!.message).toMatch(/need 236\.6 × 312\.8 mm/);
    const single = planSheet({ duplex: 'long-edge' }, { ...badge, pages: 1 });
    expect(single.ok).toBe(false);
    if (!single.ok) expect(single.problems[0]!.path).toBe('sheets.duplex');
    const big = planSheet({ size: 'a5' }, label(200, 280));
    expect(big.ok).toBe(false);
  });

  it('mirrors every back behind its front', () => {
    for (const duplex of ['long-edge', 'short-edge'] as const) {
      const p = plan(
        { preset: 'a7-on-a4', duplex, marks: 'none' },
        { ...label(70, 100), pages: 2 },
      );
      for (let slot = 0; slot < p.perSheet; slot++) {
        const front = slotBox(p, slot, 'front');
        const back = slotBox(p, slot, 'back');
        if (duplex === 'long-edge') {
          expect(front.x + back.x + front.width).toBeCloseTo(p.width, 9);
          expect(back.y).toBe(front.y);
        } else {
          expect(front.y + back.y + front.height).toBeCloseTo(p.height, 9);
          expect(back.x).toBe(front.x);
        }
      }
    }
  });

  it('numbers sheets, pages and positions across parts', () => {
    const p = plan({ preset: 'a6-on-a4', duplex: 'long-edge', sheetsPerPart: 2 }, badge);
    expect(sheetPlace(p, 0, 20)).toEqual({ part: 1, sheet: 1, page: 1, backPage: 2, position: 1 });
    expect(sheetPlace(p, 5, 20)).toEqual({ part: 1, sheet: 2, page: 3, backPage: 4, position: 2 });
    expect(sheetPlace(p, 8, 20)).toEqual({ part: 2, sheet: 3, page: 1, backPage: 2, position: 1 });
    const simplex = plan({ preset: 'a6-on-a4' }, badge);
    expect(sheetPlace(simplex, 7, 20)).toMatchObject({ page: 2, backPage: null, position: 4 });
  });

  it('gives a part fewer sheets when its sheets would hold over 5,000 items, so no part is unbounded', () => {
    const huge = plan(
      {
        size: { width: 1200, height: 1200 },
        margin: 0,
        gutter: 0,
        marks: 'none',
        sheetsPerPart: 250,
      },
      label(99.1, 38.1),
    );
    expect(huge.perSheet).toBe(12 * 31);
    expect(huge.sheetsPerPart).toBe(13);
    expect(sheetPlace(huge, 13 * 372 - 1, 20_000).part).toBe(1);
    expect(sheetPlace(huge, 13 * 372, 20_000).part).toBe(2);
    // A preset of 30 labels keeps 166 of the 250 sheets asked for; 100 (the default) fit.
    expect(
      plan({ preset: 'avery-5160', sheetsPerPart: 250 }, label(66.675, 25.4)).sheetsPerPart,
    ).toBe(166);
    expect(plan({ preset: 'avery-5160' }, label(66.675, 25.4)).sheetsPerPart).toBe(100);
  });

  it('cut and stack: one guillotine cut of each printed part gives piles in row order, the piles following each other', () => {
    for (const [options, item] of [
      [{ preset: 'a6-on-a4', cutAndStack: true, sheetsPerPart: 3 }, badge],
      [{ preset: 'avery-l7160', cutAndStack: true }, label(63.5, 38.1)],
      [
        { preset: 'a7-on-a4', cutAndStack: true, duplex: 'long-edge', sheetsPerPart: 2 },
        { ...badge, width: 70, height: 100 },
      ],
    ] as [SheetOptions, SheetItem][]) {
      const p = plan(options, item);
      for (const count of [1, 5, p.perSheet, p.perSheet + 1, 37, 100]) {
        // Print: what each sheet of each part holds, by position, as the engine draws it.
        const places = Array.from({ length: count }, (_, row) => ({
          row,
          ...sheetPlace(p, row, count),
        }));
        const perPart = p.perSheet * p.sheetsPerPart;
        for (let part = 0; part * perPart < count; part++) {
          const inPart = places.filter((place) => place.part === part + 1);
          const drawn = partSheets(p, inPart.length);
          for (const place of inPart) {
            const sheetInPart = place.sheet - 1 - part * p.sheetsPerPart;
            expect(drawn[sheetInPart]![place.position - 1]).toBe(place.row - part * perPart);
          }
          // Cut the stack (sheet 1 on top) into piles by position, and put pile 1 on pile 2 …
          const piles = Array.from({ length: p.perSheet }, (_, position) =>
            inPart
              .filter((place) => place.position === position + 1)
              .sort((a, b) => a.sheet - b.sheet)
              .map((place) => place.row),
          );
          expect(piles.flat()).toEqual(inPart.map((place) => place.row));
          // Each sheet's items fill its first positions: marks and backs stay where they were.
          for (const sheet of drawn) expect(sheet).toHaveLength(new Set(sheet).size);
        }
      }
    }
    // Without the option, rows fill each sheet in turn, as before.
    const inTurn = plan({ preset: 'a6-on-a4' }, badge);
    expect(partSheets(inTurn, 6)).toEqual([
      [0, 1, 2, 3],
      [4, 5],
    ]);
    const stacked = plan({ preset: 'a6-on-a4', cutAndStack: true }, badge);
    expect(partSheets(stacked, 6)).toEqual([
      [0, 2, 4],
      [1, 3, 5],
    ]);
  });

  it('puts crop marks on each item’s trim lines, past its bleed, never reaching a neighbour', () => {
    const p = plan({ preset: 'a6-on-a4' }, badge);
    const marks = sheetMarks(p, 4);
    // Two at each corner of each badge: the quarters leave room on every side.
    expect(marks).toHaveLength(4 * 8);
    const boxes = [0, 1, 2, 3].map((slot) => slotBox(p, slot));
    for (const mark of marks) {
      const horizontal = mark.y1 === mark.y2;
      const owner = boxes.find((b) =>
        horizontal
          ? [b.y, b.y + b.height].some((y) => Math.abs(y - mark.y1) < 1e-9)
          : [b.x, b.x + b.width].some((x) => Math.abs(x - mark.x1) < 1e-9),
      );
      expect(owner, JSON.stringify(mark)).toBeDefined();
      for (const b of boxes) {
        // Outside every item's bleed.
        const inBleed = (x: number, y: number) =>
          x > b.x - p.bleed.x &&
          x < b.x + b.width + p.bleed.x &&
          y > b.y - p.bleed.y &&
          y < b.y + b.height + p.bleed.y;
        expect(inBleed(mark.x1, mark.y1) || inBleed(mark.x2, mark.y2)).toBe(false);
      }
      expect(Math.hypot(mark.x2 - mark.x1, mark.y2 - mark.y1)).toBeGreaterThanOrEqual(1.5);
    }
    // Cards that touch leave no room between them: marks only on the sheet's outer margins.
    const cards = plan({ preset: 'business-cards-10', marks: 'crop' }, label(85, 55));
    const cardMarks = sheetMarks(cards, 10);
    expect(cardMarks.every((m) => m.x2 <= 20 || m.x1 >= 190 || m.y2 <= 11 || m.y1 >= 286)).toBe(
      true,
    );
  });
  it('butts 70 × 100 mm tickets whose bleed fills the A7 cells, so crop marks fit in the margin around them', () => {
    // 8 tickets with 2 mm bleed on every side fill A4 in A7 cells: no room for a mark anywhere.
    const ticket: SheetItem = { width: 70, height: 100, bleed: 2, pages: 2 };
    const p = plan({ preset: 'a7-on-a4', duplex: 'long-edge' }, ticket);
    expect([p.columns, p.rows, p.cell.width, p.cell.height]).toEqual([4, 2, 70, 100]);
    // Neighbours share their cut lines; the grid keeps its outer bleed.
    expect(p.bleed).toEqual({ x: 0, y: 0 });
    expect(p.outerBleed).toEqual({ x: 2, y: 2 });
    expect(slotBleed(p, 0)).toEqual({ left: 2, right: 0, top: 2, bottom: 0 });
    // On a long-edge back, slot 0 lies in the last column.
    expect(slotBleed(p, 0, 'back')).toEqual({ left: 0, right: 2, top: 2, bottom: 0 });
    const marks = sheetMarks(p, 8);
    const xs = new Set(marks.filter((m) => m.x1 === m.x2).map((m) => Math.round(m.x1 * 100)));
    const ys = new Set(marks.filter((m) => m.y1 === m.y2).map((m) => Math.round(m.y1 * 100)));
    // Every cut line is marked: 5 vertical (8.5, 78.5, … 288.5 mm) and 3 horizontal ones.
    expect([...xs].sort((a, b) => a - b)).toEqual([850, 7850, 14850, 21850, 28850]);
    expect([...ys].sort((a, b) => a - b)).toEqual([500, 10500, 20500]);
    for (const mark of marks) {
      // Outside the grid and its outer bleed, on the sheet.
      const inGrid = (x: number, y: number) => x > 6.5 && x < 290.5 && y > 3 && y < 207;
      expect(inGrid(mark.x1, mark.y1) || inGrid(mark.x2, mark.y2), JSON.stringify(mark)).toBe(
        false,
      );
      expect(Math.min(mark.x1, mark.y1)).toBeGreaterThanOrEqual(0);
      expect(Math.hypot(mark.x2 - mark.x1, mark.y2 - mark.y1)).toBeGreaterThanOrEqual(1.5);
    }
    // Without marks the cells stay A7, each ticket with its whole bleed.
    const plain = plan({ preset: 'a7-on-a4', marks: 'none' }, ticket);
    expect([plain.cell.width, plain.bleed.x]).toEqual([74, 2]);
  });
});
