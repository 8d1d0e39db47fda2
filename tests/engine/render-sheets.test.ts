import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderJob } from '../../main/engine/render-job.js';
import type { RenderJob, RenderSuccess } from '../../main/render/render-protocol.js';
import { planSheet, sheetItemOf, type SheetOptions } from '../../shared/sheet-options.js';
import { sheetMarks, slotBox, type SheetPlan } from '../../shared/sheet-plan.js';
import { Template } from '../../shared/template-format.js';
import { catalog, renderer } from '../helpers/engine-renderer.js';
import { pdfWords, poppler } from '../helpers/poppler.js';

/**
 * Sheets drawn by the engine, opened with poppler: the page in points, each item's text where the
 * plan puts it (fronts, and backs mirrored behind them), cut marks on the trim lines, and an
 * item's pixels as those of the row's own PDF page.
 */
const PT = 72 / 25.4;

/** A business card, 85 × 55 mm at 150 dpi: a front and a back, each with one centred word. */
const card = Template.parse({
  schemaVersion: 1,
  id: 'tmpl_sheet_card',
  name: 'Sheet card',
  category: 'Print',
  subCategory: 'Cards',
  market: 'global',
  createdAt: '2026-11-01',
  variables: [{ name: 'name', type: 'text', required: true }],
  sampleValues: { name: 'Ada' },
  layouts: {
    card: {
      width: 502,
      height: 325,
      page: { unit: 'mm', width: 85, height: 55, dpi: 150, bleed: 0, safe: 3 },
      background: '#E0F2FE',
      layers: [
        {
          kind: 'shape',
          id: 'band',
          shape: 'rectangle',
          x: 0,
          y: 0,
          width: 502,
          height: 60,
          fill: '#0F172A',
        },
        {
          kind: 'text',
          id: 'front',
          text: 'F{{name}}',
          x: 40,
          y: 120,
          width: 422,
          height: 90,
          size: 48,
          align: 'center',
          font: { family: 'Be Vietnam Pro', weight: 700 },
          colour: '#0F172A',
        },
      ],
      morePages: [
        {
          background: '#FEF3C7',
          layers: [
            {
              kind: 'text',
              id: 'back',
              text: 'B{{name}}',
              x: 40,
              y: 120,
              width: 422,
              height: 90,
              size: 48,
              align: 'center',
              font: { family: 'Be Vietnam Pro', weight: 700 },
              colour: '#7C2D12',
            },
          ],
        },
      ],
    },
  },
});

const item = sheetItemOf(card.layouts.card!)!;

function job(name: string, extra: Partial<RenderJob> = {}): RenderJob {
  return {
    template: card,
    assetsDir: os.tmpdir(),
    ratio: 'card',
    values: { name },
    format: 'pdf',
    ...extra,
  };
}

function plan(options: SheetOptions): SheetPlan {
  const planned = planSheet(options, item);
  if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
  return planned.plan;
}

async function sheets(options: SheetOptions, names: string[]): Promise<RenderSuccess> {
  const result = await renderJob({
    ...job(names[0]!),
    sheet: { plan: plan(options), items: names.map((name) => ({ name })) },
  });
  if (!result.ok) throw new Error(result.message);
  return result;
}

/** Page `page` of a PDF as grey pixels at `dpi`, optionally a window of it (pixels). */
async function greyPixels(
  pdf: Uint8Array,
  dpi: number,
  page = 1,
  window?: { x: number; y: number; width: number; height: number },
): Promise<{ data: Buffer; width: number; height: number }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sheet-test-'));
  try {
    const file = path.join(dir, 'in.pdf');
    fs.writeFileSync(file, pdf);
    const crop = window
      ? ['-x', window.x, '-y', window.y, '-W', window.width, '-H', window.height].map(String)
      : [];
    execFileSync('pdftoppm', [
      '-gray',
      '-png',
      '-r',
      String(dpi),
      '-f',
      String(page),
      '-l',
      String(page),
      '-singlefile',
      ...crop,
      file,
      path.join(dir, 'out'),
    ]);
    const { data, info } = await sharp(path.join(dir, 'out.png'))
      .greyscale()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('sheets in the engine', () => {
  it('lays out 10 business cards on an A4 page in points, every row’s text on its slot, fonts embedded', async () => {
    const names = Array.from({ length: 13 }, (_, i) => `Row${i + 1}`);
    const options: SheetOptions = { preset: 'business-cards-10' };
    const result = await sheets(options, names);
    const info = poppler('pdfinfo', result.bytes);
    expect(info).toMatch(/^Pages:\s+2$/m);
    const size = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info)!;
    expect(Number(size[1])).toBeCloseTo(210 * PT, 1);
    expect(Number(size[2])).toBeCloseTo(297 * PT, 1);
    for (const font of poppler('pdffonts', result.bytes).split('\n').slice(2).filter(Boolean))
      expect(font).toMatch(/\syes\s+yes\s+yes\s/);
    const p = plan(options);
    const found = pdfWords(result.bytes);
    for (const [index, name] of names.entries()) {
      const word = found.find((w) => w.word === `F${name}`);
      expect(word, name).toBeDefined();
      expect(word!.page).toBe(Math.floor(index / 10) + 1);
      // The text is centred on its card: its centre is the slot's centre across.
      const box = slotBox(p, index % 10);
      expect(word!.cx).toBeCloseTo((box.x + box.width / 2) * PT, 0);
      expect(word!.cy).toBeGreaterThan(box.y * PT);
      expect(word!.cy).toBeLessThan((box.y + box.height) * PT);
    }
  });

  it('puts each back behind its front when printed long-edge or short-edge duplex', async () => {
    const names = ['Ann', 'Bob', 'Cyd', 'Dee', 'Eve', 'Fay', 'Gus'];
    for (const duplex of ['long-edge', 'short-edge'] as const) {
      const options: SheetOptions = { preset: 'business-cards-10', duplex, marks: 'none' };
      const result = await sheets(options, names);
      expect(poppler('pdfinfo', result.bytes)).toMatch(/^Pages:\s+2$/m);
      const width = 210 * PT;
      const found = pdfWords(result.bytes);
      for (const name of names) {
        const front = found.find((w) => w.word === `F${name}`)!;
        const back = found.find((w) => w.word === `B${name}`)!;
        expect(front.page).toBe(1);
        expect(back.page).toBe(2);
        // Turning the paper over its long edge maps x to width − x; over its short edge, the
        // card's own content keeps its orientation and the slot moves from y to height − y.
        if (duplex === 'long-edge') {
          expect(front.cx + back.cx).toBeCloseTo(width, 0);
          expect(back.cy).toBeCloseTo(front.cy, 0);
        } else {
          expect(back.cx).toBeCloseTo(front.cx, 0);
          const p = plan(options);
          const slot = names.indexOf(name);
          const frontBox = slotBox(p, slot, 'front');
          const backBox = slotBox(p, slot, 'back');
          expect(backBox.y).toBeCloseTo(297 - frontBox.y - frontBox.height, 6);
          // The word sits at the same height within its card on both sides.
          expect(back.cy - backBox.y * PT).toBeCloseTo(front.cy - frontBox.y * PT, 0);
        }
      }
    }
  });

  it('draws cut marks on every trim line in the margins, and nothing else there', async () => {
    const options: SheetOptions = { preset: 'business-cards-10', marks: 'cut' };
    const result = await sheets(options, ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']);
    const p = plan(options);
    const dpi = 300;
    const px = (mm: number) => (mm / 25.4) * dpi;
    const { data, width } = await greyPixels(result.bytes, dpi);
    const dark = (x: number, y: number) => data[Math.round(y) * width + Math.round(x)]! < 128;
    // The grid is 170 × 275 mm, centred: trim lines at x 20, 105, 190 and y 11, 66, … 286 mm.
    const boxes = Array.from({ length: 10 }, (_, slot) => slotBox(p, slot));
    const xs = [...new Set(boxes.flatMap((b) => [b.x, b.x + b.width]))].sort((a, b) => a - b);
    const ys = [...new Set(boxes.flatMap((b) => [b.y, b.y + b.height]))].sort((a, b) => a - b);
    expect(xs).toEqual([20, 105, 190].map((v) => expect.closeTo(v, 6)));
    expect(ys).toHaveLength(6);
    // A row of pixels across the top margin, 3.5 mm above the grid: dark only on the lines.
    const row = px(ys[0]! - 3.5);
    const darkXs: number[] = [];
    for (let x = 0; x < width; x++) if (dark(x, row)) darkXs.push(x);
    const clusters = cluster(darkXs);
    expect(clusters.map((c) => c / (dpi / 25.4))).toEqual(xs.map((x) => expect.closeTo(x, 0)));
    // A column down the left margin, 3.5 mm left of the grid.
    const column = px(xs[0]! - 3.5);
    const darkYs: number[] = [];
    for (let y = 0; y < data.length / width; y++) if (dark(column, y)) darkYs.push(y);
    expect(cluster(darkYs).map((c) => c / (dpi / 25.4))).toEqual(
      ys.map((y) => expect.closeTo(y, 0)),
    );
    // The marks the plan lists are the ones drawn: four a line, none inside the grid.
    const marks = sheetMarks(p, 10);
    expect(marks).toHaveLength(2 * xs.length + 2 * ys.length);
    for (const mark of marks) {
      const inside = (x: number, y: number) => x > 20 && x < 190 && y > ys[0]! && y < ys.at(-1)!;
      expect(inside(mark.x1, mark.y1) || inside(mark.x2, mark.y2)).toBe(false);
    }
  });

  it('draws each item as the row’s own PDF page draws it (pdftoppm rasters within a tolerance)', async () => {
    const options: SheetOptions = { preset: 'business-cards-10', marks: 'none' };
    const names = ['Quỳnh', 'Đức', 'Ngọc Ánh'];
    const sheet = await sheets(options, names);
    const p = plan(options);
    const dpi = 150;
    const px = (mm: number) => Math.round((mm / 25.4) * dpi);
    for (const [slot, name] of names.entries()) {
      const single = await renderJob(job(name, { page: 1 }));
      if (!single.ok) throw new Error(single.message);
      const box = slotBox(p, slot);
      const size = { width: px(box.width) - 2, height: px(box.height) - 2 };
      const a = await greyPixels(sheet.bytes, dpi, 1, {
        x: px(box.x) + 1,
        y: px(box.y) + 1,
        ...size,
      });
      const b = await greyPixels(single.bytes, dpi, 1, { x: 1, y: 1, ...size });
      expect([a.width, a.height]).toEqual([b.width, b.height]);
      let sum = 0;
      let far = 0;
      for (let i = 0; i < a.data.length; i++) {
        const diff = Math.abs(a.data[i]! - b.data[i]!);
        sum += diff;
        if (diff > 64) far += 1;
      }
      expect(sum / a.data.length, `${name}: mean difference`).toBeLessThan(4);
      expect(far / a.data.length, `${name}: pixels far off`).toBeLessThan(0.02);
    }
    // A sheet whose items are other rows is not within that tolerance: the check can fail.
    const other = await renderJob(job('Somebody else entirely', { page: 1 }));
    if (!other.ok) throw new Error(other.message);
    const box = slotBox(p, 0);
    const size = { width: px(box.width) - 2, height: px(box.height) - 2 };
    const a = await greyPixels(sheet.bytes, dpi, 1, {
      x: px(box.x) + 1,
      y: px(box.y) + 1,
      ...size,
    });
    const b = await greyPixels(other.bytes, dpi, 1, { x: 1, y: 1, ...size });
    let far = 0;
    for (let i = 0; i < a.data.length; i++) if (Math.abs(a.data[i]! - b.data[i]!) > 64) far += 1;
    expect(far / a.data.length).toBeGreaterThan(0.02);
  });

  it('embeds an image once however many items show it', async () => {
    const logo = path.join(os.tmpdir(), `sheet-logo-${process.pid}.png`);
    await sharp({ create: { width: 300, height: 300, channels: 3, background: '#C2410C' } })
      .png()
      .toFile(logo);
    const withLogo = Template.parse({
      ...card,
      variables: [...card.variables, { name: 'logo', type: 'image' }],
      layouts: {
        card: {
          ...card.layouts.card!,
          layers: [
            ...card.layouts.card!.layers,
            {
              kind: 'image',
              id: 'logo',
              source: { var: 'logo' },
              x: 20,
              y: 220,
              width: 80,
              height: 80,
            },
          ],
        },
      },
    });
    const p = plan({ preset: 'business-cards-10' });
    const result = await renderJob({
      ...job('x'),
      template: withLogo,
      sheet: {
        plan: p,
        items: Array.from({ length: 10 }, (_, i) => ({
          name: `N${i}`,
          logo: { kind: 'file' as const, path: logo },
        })),
      },
    });
    fs.rmSync(logo, { force: true });
    if (!result.ok) throw new Error(result.message);
    const images = poppler('pdfimages', result.bytes, ['-list'])
      .split('\n')
      .slice(2)
      .filter(Boolean);
    // Ten draws, one image object: pdfimages lists every draw with the same object number.
    expect(images).toHaveLength(10);
    expect(new Set(images.map((line) => line.trim().split(/\s+/)[10])).size).toBe(1);
  });
});

/** Centres of runs of consecutive numbers (a mark is a few pixels wide). */
function cluster(values: number[]): number[] {
  const runs: number[][] = [];
  for (const value of values) {
    const last = runs.at(-1);
    if (last && value - last.at(-1)! <= 2) last.push(value);
    else runs.push([value]);
  }
  return runs.map((run) => (run[0]! + run.at(-1)!) / 2);
}

describe('sheets of the event ticket', () => {
  it('marks every cut line of 8 tickets on A4 with crop marks in the margin, none on the tickets', async () => {
    const entry = catalog.get('tmpl_event_ticket')!;
    const prepared = renderer.prepare({
      templateId: 'tmpl_event_ticket',
      target: 'ticket',
      format: 'pdf',
      values: entry.template.sampleValues,
    });
    const item = sheetItemOf(prepared.template.layouts.ticket!)!;
    const planned = planSheet({ preset: 'a7-on-a4', duplex: 'long-edge' }, item);
    if (!planned.ok) throw new Error(JSON.stringify(planned.problems));
    const result = await renderJob({
      ...prepared,
      sheet: { plan: planned.plan, items: Array.from({ length: 8 }, () => prepared.values) },
    });
    if (!result.ok) throw new Error(result.message);
    expect(poppler('pdfinfo', result.bytes)).toMatch(/Pages:\s+2\n/);
    const dpi = 150;
    const page = await greyPixels(result.bytes, dpi);
    const px = (mm: number) => Math.round((mm / 25.4) * dpi);
    const darkIn = (x0: number, y0: number, x1: number, y1: number) => {
      let dark = 0;
      for (let y = px(y0); y <= px(y1); y++)
        for (let x = px(x0); x <= px(x1); x++) if (page.data[y * page.width + x]! < 128) dark++;
      return dark;
    };
    // Above the top row, a mark on each of the 5 vertical cut lines (8.5 … 288.5 mm), from 0.5
    // to 2 mm down; between them the margin is blank.
    for (const x of [8.5, 78.5, 148.5, 218.5, 288.5])
      expect(darkIn(x - 0.4, 0.7, x + 0.4, 1.8), `x ${x}`).toBeGreaterThan(0);
    expect(darkIn(20, 0, 70, 2.5)).toBe(0);
    // Left of the grid, a mark on each horizontal cut line (5, 105, 205 mm).
    for (const y of [5, 105, 205])
      expect(darkIn(1.5, y - 0.4, 4, y + 0.4), `y ${y}`).toBeGreaterThan(0);
  });
});
