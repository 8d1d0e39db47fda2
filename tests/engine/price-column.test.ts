import { describe, expect, it } from 'vitest';
import { renderJob } from '../../main/engine/render-job.js';
import type { Template } from '../../shared/template-format.js';
import { decodePixels, type Pixels } from './fixtures/pixels.js';
import { buildJob, buildTemplate } from './fixtures/template-builder.js';

/** The list's box: (100, 100)–(700, 500), 40 px text. */
const BOX = { x: 100, y: 100, width: 600, height: 400 };
const SIZE = 40;

function menu(priceColumn: Record<string, unknown> | undefined, schemaVersion: 1 | 2 = 2) {
  const template = buildTemplate({
    variables: [{ name: 'dishes', type: 'list' }],
    layers: [
      {
        kind: 'list',
        id: 'dishes',
        items: { var: 'dishes' },
        ...BOX,
        size: SIZE,
        minSize: SIZE,
        lineHeight: 1.3,
        font: { family: 'Be Vietnam Pro' },
        colour: '#000000',
        ...(priceColumn ? { priceColumn } : {}),
      },
    ],
  });
  return { ...template, schemaVersion } as Template;
}

async function render(template: Template, dishes: string[]) {
  const result = await renderJob(buildJob(template, { dishes }));
  if (!result.ok) throw new Error(result.message);
  return { bytes: result.bytes, pixels: await decodePixels(result.bytes) };
}

const dark = (p: Pixels, x: number, y: number) => (p.data[(y * p.width + x) * 3] ?? 255) < 128;

/** Bounds of the dark pixels in the area, or null when it has none. */
function inkBounds(p: Pixels, area: { x0: number; y0: number; x1: number; y1: number }) {
  let found: { x0: number; y0: number; x1: number; y1: number } | null = null;
  for (let y = area.y0; y < area.y1; y++) {
    for (let x = area.x0; x < area.x1; x++) {
      if (!dark(p, x, y)) continue;
      found = found
        ? {
            x0: Math.min(found.x0, x),
            y0: Math.min(found.y0, y),
            x1: Math.max(found.x1, x),
            y1: Math.max(found.y1, y),
          }
        : { x0: x, y0: y, x1: x, y1: y };
    }
  }
  return found;
}

/** Bounds of the pixels dark in `a` and not in `b`. */
function extraInk(a: Pixels, b: Pixels, area: { x0: number; y0: number; x1: number; y1: number }) {
  const only: Pixels = { ...a, data: Buffer.from(a.data) };
  for (let i = 0; i < a.data.length; i += 3) {
    if ((b.data[i] ?? 255) < 128) only.data[i] = 255;
  }
  return inkBounds(only, area);
}

const ROW = { x0: BOX.x, y0: BOX.y, x1: BOX.x + BOX.width, y1: BOX.y + 60 };

describe('a list with a price column', () => {
  it('draws dot leaders on the baseline between the name and the flush-right price, over neither', async () => {
    // No letter of the name reaches below the baseline, so its ink ends on the baseline.
    const dish = 'Phở bò tái — 85.000 ₫';
    const withDots = (await render(menu({}), [dish])).pixels;
    const bare = (await render(menu({ leader: 'none' }), [dish])).pixels;
    const nameOnly = (await render(menu({}), ['Phở bò tái'])).pixels;

    const name = inkBounds(nameOnly, ROW)!;
    // The price is what the bare column adds to the name alone; it ends at the box's right edge.
    const price = extraInk(bare, nameOnly, ROW)!;
    expect(price.x0).toBeGreaterThan(name.x1 + SIZE);
    expect(price.x1).toBeGreaterThan(BOX.x + BOX.width - 4);
    // The leaders are what the dots add to the bare column: between the two, never over them.
    const dots = extraInk(withDots, bare, ROW)!;
    expect(dots).not.toBeNull();
    expect(dots.x0).toBeGreaterThan(name.x1);
    expect(dots.x1).toBeLessThan(price.x0);
    expect(dots.x1 - dots.x0).toBeGreaterThan(SIZE);
    // Periods sit on the baseline: their ink ends where the name's ends, and they are small.
    expect(Math.abs(dots.y1 - name.y1)).toBeLessThanOrEqual(2);
    expect(dots.y1 - dots.y0).toBeLessThan(SIZE * 0.2);
    // The name and price themselves are drawn the same with and without leaders.
    expect(extraInk(bare, withDots, ROW)).toBeNull();
  });

  it('wraps a long Vietnamese name clear of the price column and sets the price on its last line', async () => {
    const dish = 'Phở bò Wagyu tái lăn sốt tiêu đen kèm quẩy giòn và trứng chần — 145.000 ₫';
    const { pixels } = await render(menu({}), [dish]);
    const lineHeight = SIZE * 1.3;
    const columnX = BOX.x + BOX.width - 120;
    const text = inkBounds(pixels, { x0: BOX.x, y0: BOX.y, x1: columnX, y1: BOX.y + BOX.height })!;
    const price = inkBounds(pixels, {
      x0: columnX,
      y0: BOX.y,
      x1: BOX.x + BOX.width,
      y1: BOX.y + BOX.height,
    })!;
    // The name takes several lines, none of them into the column; the price is on the last.
    expect(text.y1 - text.y0).toBeGreaterThan(2 * lineHeight);
    expect(price.y0).toBeGreaterThan(text.y1 - lineHeight);
    expect(price.y1).toBeLessThanOrEqual(text.y1 + SIZE * 0.3);
  });

  it('leaves items without the separator as ordinary items', async () => {
    const plain = ['Trà đá miễn phí cho mọi bàn'];
    const a = await render(menu({}), plain);
    const b = await render(menu(undefined), plain);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
  });

  it('is ignored by format 1, which renders as it always did', async () => {
    const dishes = ['Phở tái chín — 65.000 ₫'];
    const a = await render(menu({}, 1), dishes);
    const b = await render(menu(undefined, 1), dishes);
    expect(Buffer.from(a.bytes).equals(Buffer.from(b.bytes))).toBe(true);
    const c = await render(menu({}, 2), dishes);
    expect(Buffer.from(a.bytes).equals(Buffer.from(c.bytes))).toBe(false);
  });
});
